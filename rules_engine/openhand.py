"""Open (face-up) hands in stud games: who acts first.

In stud and Baseball the best showing hand opens each betting round after the first; in Razz the
lowest showing hand does. A player may show one to four cards (more in Baseball, where a face-up
4 earns an extra card). The rules for an incomplete hand:

- rank groups first (four of a kind, three of a kind, two pair, a pair), then the remaining
  cards from the highest down;
- a straight or a flush counts only with five open cards (then the best five of them count,
  exactly as at showdown);
- wild cards count: they join the largest group (the highest such rank), or make aces;
- suits never count. Between hands showing different numbers of cards, equal groups and
  kickers leave the hand with an extra card ahead (a choice: the rules say nothing).

>>> from rules_engine.cards import parse_cards
>>> compare_open_hands(parse_cards("2c 2d"), parse_cards("As Kd"))
1
>>> compare_open_hands(parse_cards("9c Kd"), parse_cards("Ks Qd"), wild_ranks={3, 9})
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules_engine.cards import Card
from rules_engine.evaluation import Category, best_shape

__all__ = ["compare_open_hands", "compare_open_lows", "open_hand_key", "open_low_key"]

OpenKey = tuple[int, tuple[int, ...]]



def _groups(ranks: Sequence[int]) -> OpenKey:
    """(category, ranks in comparing order) from rank groups alone, no straights or flushes."""
    count: dict[int, int] = {}
    for r in ranks:
        count[r] = count.get(r, 0) + 1
    ordered = sorted(ranks, key=lambda r: (count[r], r), reverse=True)[:5]
    sizes = sorted(count.values(), reverse=True)
    if sizes[0] >= 4:
        cat = Category.FOUR_OF_A_KIND
    elif sizes[0] == 3:
        cat = Category.FULL_HOUSE if len(sizes) > 1 and sizes[1] >= 2 else Category.THREE_OF_A_KIND
    elif sizes[0] == 2:
        cat = Category.TWO_PAIR if len(sizes) > 1 and sizes[1] == 2 else Category.ONE_PAIR
    else:
        cat = Category.HIGH_CARD
    return int(cat), tuple(ordered)


def open_hand_key(up: Sequence[Card], wild_ranks: Iterable[int] = frozenset()) -> OpenKey:
    """A sort key for a showing hand: the higher key shows the better hand.

    >>> from rules_engine.cards import parse_cards
    >>> open_hand_key(parse_cards("Kd 7c 7s"))
    (1, (7, 7, 13))
    >>> open_hand_key(parse_cards("3h Kd"), wild_ranks={3, 9})
    (1, (13, 13))
    """
    if not up:
        raise ValueError("an open hand has at least one card")
    wild_set = frozenset(wild_ranks)
    naturals = [c for c in up if c.rank not in wild_set]
    wilds = len(up) - len(naturals)
    if len(up) >= 5:
        category, ranks, _ = best_shape(naturals, wilds)
        return int(category), ranks
    held = [c.rank for c in naturals]
    if wilds:
        # Fewer than five cards: the best hand is always the largest group, so every wild
        # card joins the highest of the largest groups (or they are aces among themselves).
        target = max(held, key=lambda r: (held.count(r), r)) if held else 14
        held += [target] * wilds
    return _groups(held)


def compare_open_hands(
    a_up: Sequence[Card], b_up: Sequence[Card], wild_ranks: Iterable[int] = frozenset()
) -> int:
    """1 if ``a_up`` shows the better hand, -1 if ``b_up`` does, 0 if they are equal."""
    a = open_hand_key(a_up, wild_ranks)
    b = open_hand_key(b_up, wild_ranks)
    return (a > b) - (a < b)


def open_low_key(up: Sequence[Card]) -> OpenKey:
    """Razz: a sort key where the higher key shows the better (lower) hand, which acts first.

    Aces are low; pairs count against a hand; straights and flushes do not exist.

    >>> from rules_engine.cards import parse_cards
    >>> open_low_key(parse_cards("As 4d")) > open_low_key(parse_cards("2c 4c"))
    True
    >>> open_low_key(parse_cards("Kd Qc")) > open_low_key(parse_cards("2c 2d"))
    True
    """
    if not up:
        raise ValueError("an open hand has at least one card")
    category, ranks = _groups([1 if c.rank == 14 else c.rank for c in up])
    return -category, tuple(-r for r in ranks)


def compare_open_lows(a_up: Sequence[Card], b_up: Sequence[Card]) -> int:
    """1 if ``a_up`` shows the better (lower) Razz hand, -1 if ``b_up`` does, 0 if equal."""
    a, b = open_low_key(a_up), open_low_key(b_up)
    return (a > b) - (a < b)
