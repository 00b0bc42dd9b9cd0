"""Wild cards (Baseball: every 3 and every 9).

A wild card stands for any card the hand is missing, and may add a fifth card of a rank, so five
of a kind exists and beats everything. Wild hands are valued on the same scale as natural ones
(:mod:`rules_engine.evaluation`): a natural hand does not beat an equal hand made with wild
cards; equal values are an exact tie.

>>> from rules_engine.cards import parse_cards
>>> five_eights = best_wild_hand(parse_cards("8s 8h 8c 8d 3c"))
>>> royal = best_wild_hand(parse_cards("As Ks Qs Js Ts"))
>>> five_eights.describe(), five_eights > royal
('Five of a kind, eights', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules_engine.cards import Card
from rules_engine.evaluation import (
    HandValue,
    best_hand,
    best_shape,
    pick_cards,
    shape_value,
)

__all__ = ["BASEBALL_WILDS", "best_wild_hand"]

#: Baseball's wild ranks: all threes and all nines.
BASEBALL_WILDS: frozenset[int] = frozenset({3, 9})


def best_wild_hand(
    cards: Sequence[Card], wild_ranks: Iterable[int] = BASEBALL_WILDS
) -> HandValue:
    """The best five of five or more cards, cards of ``wild_ranks`` being wild.

    ``cards`` of the result are the cards actually held, each in the place it plays: a wild
    card sits where the card it stands for would.

    >>> from rules_engine.cards import parse_cards
    >>> h = best_wild_hand(parse_cards("Kh Qh 9c 3d Th 2c 2d"))
    >>> h.describe(), [str(c) for c in h.cards]
    ('Royal flush', ['9c', 'Kh', 'Qh', '3d', 'Th'])
    """
    if len(cards) < 5:
        raise ValueError(f"a hand needs at least 5 cards, got {len(cards)}")
    if len({c.index for c in cards}) != len(cards):
        raise ValueError("a hand cannot hold the same card twice")
    wild_set = frozenset(wild_ranks)
    # Higher wild cards first, so the cards shown do not depend on the order they were dealt.
    wilds = sorted((c for c in cards if c.rank in wild_set), key=lambda c: c.index, reverse=True)
    if not wilds:
        return best_hand(cards)
    naturals = [c for c in cards if c.rank not in wild_set]
    category, ranks, suit = best_shape(naturals, len(wilds))
    value = shape_value(category, ranks)
    return HandValue(category, value, pick_cards(category, ranks, suit, naturals, wilds))
