"""Wild cards (Baseball, GAMES.md section 4): 3s and 9s stand for any card."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from rules_engine.cards import FULL_DECK, Card, parse_cards
from rules_engine.evaluation import (
    Category,
    HandValue,
    best_hand,
    best_wild_hand,
    hand_value_int,
    shape_value,
)

WILD = frozenset({3, 9})
WILD_CARDS = [c for c in FULL_DECK if c.rank in WILD]
NATURALS = [c for c in FULL_DECK if c.rank not in WILD]


def wild(text: str) -> HandValue:
    return best_wild_hand(parse_cards(text))


def shown(hand: HandValue) -> str:
    return " ".join(str(c) for c in hand.cards)


def test_b2_four_eights_and_a_three_are_five_eights_and_beat_a_natural_royal_flush() -> None:
    five_eights = wild("8♠ 8♥ 8♣ 8♦ 3♣")
    royal = wild("A♠ K♠ Q♠ J♠ T♠")
    assert five_eights.category is Category.FIVE_OF_A_KIND
    assert five_eights.describe() == "Five of a kind, eights"
    assert five_eights.ranks == (8, 8, 8, 8, 8)
    assert royal.category is Category.ROYAL_FLUSH
    assert five_eights > royal
    assert shown(five_eights) == "8s 8h 8d 8c 3c"  # the cards held, the three where it plays


def test_five_of_a_kind_ranks_by_rank_and_beats_everything() -> None:
    assert wild("Ac Ad Ah 9s 3c") > wild("Kc Kd Kh Ks 9c")
    assert wild("2c 2d 2h 2s 9c") > best_hand(parse_cards("As Ks Qs Js Ts"))


def test_a_wild_card_completes_a_straight_flush() -> None:
    hand = wild("5h 6h 7h 9c 8h Kd 2s")
    assert hand.category is Category.STRAIGHT_FLUSH
    assert hand.describe() == "Straight flush, nine high"
    assert shown(hand) == "9c 8h 7h 6h 5h"
    # ... or a royal flush, the wild card standing in the middle.
    assert wild("Ah Kh Qh 3d Th").category is Category.ROYAL_FLUSH


def test_a_wild_card_takes_the_best_place_not_the_nearest() -> None:
    # A-K-Q-J of spades and a wild: a royal flush, not a pair of aces or a straight.
    assert wild("As Ks Qs Js 9d 2c 4h").category is Category.ROYAL_FLUSH
    # A pair of kings, a pair of sevens and a wild: kings full, better than any flush here.
    assert wild("Kh Kd 7h 7c 3h 2h 5h").describe() == "Full house, kings full of sevens"
    # Five hearts of different ranks around a wild: the wild is the highest missing heart.
    hand = wild("Ah Kh 3c 7h 5h 2d 4c")
    assert hand.describe() == "Flush, ace high"
    assert hand.ranks == (14, 13, 12, 7, 5)
    # No flush or straight possible: the wild pairs the highest card.
    assert wild("Ah Jd 7c 5s 9h").describe() == "Pair of aces"


def test_several_wild_cards() -> None:
    assert wild("Kc Kd 3h 9s 2c 4d").describe() == "Four of a kind, kings"
    assert wild("Kc 3h 9s 3d 2c").describe() == "Four of a kind, kings"
    assert wild("Kc Kd 3h 9s 3d").describe() == "Five of a kind, kings"
    assert wild("Kd Jd 3h 9s 7c").describe() == "Three of a kind, kings"  # no 3 suited close
    assert wild("Jd Td 8d 3h 9s").describe() == "Straight flush, queen high"
    assert wild("Kd Qd Td 3h 9s").describe() == "Royal flush"  # not just K-Q-J-T-9


def test_all_wild() -> None:
    five = wild("3c 3d 3h 9s 9c")
    assert five.describe() == "Five of a kind, aces"
    assert five == wild("3c 3d 3h 3s 9c 9d 9h 9s")  # all eight wild cards
    assert wild("3c 3d 3h 3s 9c 9d 9h").describe() == "Five of a kind, aces"
    assert wild("3c 3d 3h 3s Ac") == five


def test_a_natural_hand_does_not_beat_an_equal_wild_hand() -> None:
    natural = wild("As Ks Qs Js Ts")
    with_wild = wild("Ah Kh Qh Jh 9c")
    assert natural.value == with_wild.value and natural == with_wild
    assert not natural > with_wild and not with_wild > natural
    assert wild("Ac Kc Qc 6c 4c") == wild("Ad Kd 9s 6d 4d")  # the wild is the queen
    assert wild("Kc Kd Ks 5h 5s") == wild("Kh Kd 3s 5c 5d")  # the same full house
    assert wild("Ac Ad 7c 6s 2d") == wild("Ah 9d 7h 6c 2s")  # pair of aces, same kickers


def test_without_wild_cards_it_is_the_natural_evaluator() -> None:
    rng = random.Random(3)
    for _ in range(1000):
        cards = rng.sample(FULL_DECK, rng.randint(5, 9))
        assert best_wild_hand(cards, wild_ranks=()) == best_hand(cards)
        assert best_wild_hand(cards, wild_ranks=()).value == best_hand(cards).value
        naturals = [c for c in cards if c.rank not in WILD]
        if len(naturals) >= 5:
            assert best_wild_hand(naturals).value == best_hand(naturals).value


def brute_force(cards: list[Card]) -> int:
    """Replace the wild cards by every choice of cards the hand does not hold, and add five of
    a kind, which needs a rank twice over."""
    naturals = [c for c in cards if c.rank not in WILD]
    w = len(cards) - len(naturals)
    counts = Counter(c.rank for c in naturals)
    fives = [r for r, n in counts.items() if n + w >= 5] + ([14] if w >= 5 else [])
    if fives:
        return shape_value(Category.FIVE_OF_A_KIND, (max(fives),) * 5)
    missing = [c for c in FULL_DECK if c not in cards]
    return max(hand_value_int(naturals + list(sub)) for sub in combinations(missing, w))


@pytest.mark.parametrize(("wilds", "hands"), [(1, 300), (2, 60), (3, 12)])
def test_wild_hands_equal_the_best_of_every_substitution(wilds: int, hands: int) -> None:
    rng = random.Random(1000 + wilds)
    for _ in range(hands):
        size = rng.randint(5, 7)
        cards = rng.sample(WILD_CARDS, wilds) + rng.sample(NATURALS, size - wilds)
        rng.shuffle(cards)
        hand = best_wild_hand(cards)
        assert hand.value == brute_force(cards), cards
        assert len(hand.cards) == 5 and set(hand.cards) <= set(cards)
        # Every card shown plays as the rank it stands for, unless it is wild.
        for card, rank in zip(hand.cards, hand.ranks, strict=True):
            assert card.rank in WILD or card.rank == rank


def test_more_wild_cards_never_hurt() -> None:
    rng = random.Random(12)
    for _ in range(300):
        cards = rng.sample(FULL_DECK, 7)
        with_wilds = best_wild_hand(cards, WILD)
        without = best_wild_hand(cards, ())
        assert with_wilds >= without


def test_wild_ranks_can_be_chosen() -> None:
    assert best_wild_hand(parse_cards("2c Ah Ad Ac Ks"), wild_ranks={2}).describe() == (
        "Four of a kind, aces"
    )
    assert best_wild_hand(parse_cards("3c Ah Ad Ac Ks"), wild_ranks=()).describe() == (
        "Three of a kind, aces"
    )


def test_wild_hands_need_five_distinct_cards() -> None:
    with pytest.raises(ValueError):
        wild("3c 9d Ah Kd")
    three = Card.parse("3c")
    with pytest.raises(ValueError, match="twice"):
        best_wild_hand([three, three, *parse_cards("Ah Kd Qs")])
