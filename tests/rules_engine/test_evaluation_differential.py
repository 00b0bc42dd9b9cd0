"""Differential tests against other evaluators (test-only dependencies).

phevaluator ranks the same 7,462 classes, best first from 1, so its rank and our value must
satisfy ``value == 7462 - rank`` exactly; that implies the same order for every pair of hands and
the same category. PokerKit is slow but knows the low games, so it checks the lows on a sample.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from rules_engine.batch import categories, evaluate_batch, omaha_batch
from rules_engine.cards import FULL_DECK, Card, format_cards
from rules_engine.evaluation import (
    Category,
    hand_value_int,
    low_8_or_better,
    omaha_best,
    omaha_low_8,
    omaha_value_int,
    razz_low,
)

phevaluator = pytest.importorskip("phevaluator")
pokerkit = pytest.importorskip("pokerkit")

# phevaluator's rank boundaries (1 = royal flush), as category of our scale.
PH_CATEGORY_BOUNDS = [
    (1, Category.ROYAL_FLUSH),
    (10, Category.STRAIGHT_FLUSH),
    (166, Category.FOUR_OF_A_KIND),
    (322, Category.FULL_HOUSE),
    (1599, Category.FLUSH),
    (1609, Category.STRAIGHT),
    (2467, Category.THREE_OF_A_KIND),
    (3325, Category.TWO_PAIR),
    (6185, Category.ONE_PAIR),
    (7462, Category.HIGH_CARD),
]


def ph_category(rank: int) -> Category:
    return next(cat for bound, cat in PH_CATEGORY_BOUNDS if rank <= bound)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def deals(seed: int, n: int, size: int) -> list[list[int]]:
    rng = random.Random(seed)
    deck = list(range(52))
    return [rng.sample(deck, size) for _ in range(n)]


def assert_same_order(ours: Sequence[int], theirs: Sequence[int]) -> None:
    """``theirs`` ranks lower-is-better; compare every pair of consecutive hands."""
    for i in range(1, len(ours)):
        assert sign(ours[i] - ours[i - 1]) == sign(theirs[i - 1] - theirs[i]), i


def test_100000_random_holdem_hands_match_phevaluator() -> None:
    hands = deals(20240611, 100_000, 7)
    cards = [[Card.from_index(i) for i in h] for h in hands]
    ours = [hand_value_int(c) for c in cards]
    theirs = [phevaluator.evaluate_cards(*h) for h in hands]
    assert_same_order(ours, theirs)
    assert categories(ours).tolist() == [int(ph_category(r)) for r in theirs]
    assert ours == [7462 - r for r in theirs]
    assert evaluate_batch(np.array(hands)).tolist() == ours


def test_phevaluator_agrees_on_five_and_six_cards() -> None:
    for size in (5, 6):
        hands = deals(size, 20_000, size)
        ours = evaluate_batch(np.array(hands)).tolist()
        assert ours == [7462 - phevaluator.evaluate_cards(*h) for h in hands]
        assert ours == [hand_value_int([Card.from_index(i) for i in h]) for h in hands]


def test_100000_random_omaha_hands_match_phevaluator() -> None:
    deals9 = deals(1977, 100_000, 9)
    hole = np.array([d[:4] for d in deals9])
    board = np.array([d[4:] for d in deals9])
    ours = omaha_batch(hole, board).tolist()
    # phevaluator takes the five board cards first, then the four hole cards.
    theirs = [phevaluator.evaluate_omaha_cards(*d[4:], *d[:4]) for d in deals9]
    assert_same_order(ours, theirs)
    assert ours == [7462 - r for r in theirs]
    single = [
        omaha_value_int([Card.from_index(i) for i in d[:4]], [Card.from_index(i) for i in d[4:]])
        for d in deals9[:30_000]
    ]
    assert single == ours[:30_000]


def pk_text(cards: Sequence[Card]) -> str:
    return format_cards(cards).replace(" ", "")


def pk_ranks(hand: object) -> list[str]:
    return sorted(repr(c)[0] for c in hand.cards)  # type: ignore[attr-defined]


def our_ranks(cards: Sequence[Card]) -> list[str]:
    return sorted(c.rank_char for c in cards)


def check_against_pokerkit(
    seed: int,
    n: int,
    size: int,
    ours: Callable[[list[Card]], tuple[int, Sequence[Card]] | None],
    theirs: Callable[[list[Card]], object],
) -> int:
    """Compare consecutive hands' order and the five cards' ranks; returns how many had a hand."""
    rng = random.Random(seed)
    previous: tuple[int, object] | None = None
    seen = 0
    for _ in range(n):
        cards = rng.sample(FULL_DECK, size)
        mine = ours(cards)
        try:
            other = theirs(cards)
        except ValueError:  # PokerKit: no qualifying hand
            assert mine is None, format_cards(cards)
            continue
        assert mine is not None, format_cards(cards)
        seen += 1
        assert our_ranks(mine[1]) == pk_ranks(other), format_cards(cards)
        if previous is not None:
            assert sign(mine[0] - previous[0]) == (
                (other > previous[1]) - (other < previous[1])  # type: ignore[operator]
            ), format_cards(cards)
        previous = (mine[0], other)
    return seen


def test_razz_lows_match_pokerkit() -> None:
    def ours(cards: list[Card]) -> tuple[int, Sequence[Card]]:
        low = razz_low(cards)
        return low.value, low.cards

    def theirs(cards: list[Card]) -> object:
        return pokerkit.RegularLowHand.from_game(pk_text(cards))

    assert check_against_pokerkit(5, 1500, 7, ours, theirs) == 1500


def test_razz_forced_pairs_match_pokerkit() -> None:
    # Few ranks, many pairs: deal only from four ranks' worth of cards plus a few.
    small = [c for c in FULL_DECK if c.rank in (2, 5, 9, 13, 14)]

    def ours(cards: list[Card]) -> tuple[int, Sequence[Card]]:
        low = razz_low(cards)
        return low.value, low.cards

    def theirs(cards: list[Card]) -> object:
        return pokerkit.RegularLowHand.from_game(pk_text(cards))

    rng = random.Random(6)
    for _ in range(300):
        cards = rng.sample(small, 7)
        assert our_ranks(razz_low(cards).cards) == pk_ranks(theirs(cards)), format_cards(cards)


def test_stud_eight_or_better_lows_match_pokerkit() -> None:
    def ours(cards: list[Card]) -> tuple[int, Sequence[Card]] | None:
        low = low_8_or_better(cards)
        return None if low is None else (low.value, low.cards)

    def theirs(cards: list[Card]) -> object:
        return pokerkit.EightOrBetterLowHand.from_game(pk_text(cards))

    assert check_against_pokerkit(8, 2000, 7, ours, theirs) > 250  # about one in five qualifies


def test_omaha_eight_or_better_lows_match_pokerkit() -> None:
    def ours(cards: list[Card]) -> tuple[int, Sequence[Card]] | None:
        low = omaha_low_8(cards[:4], cards[4:])
        return None if low is None else (low.value, low.cards)

    def theirs(cards: list[Card]) -> object:
        return pokerkit.OmahaEightOrBetterLowHand.from_game(pk_text(cards[:4]), pk_text(cards[4:]))

    assert check_against_pokerkit(88, 1000, 9, ours, theirs) > 200


def test_omaha_high_hands_match_pokerkit() -> None:
    def ours(cards: list[Card]) -> tuple[int, Sequence[Card]]:
        hand = omaha_best(cards[:4], cards[4:])
        return hand.value, hand.cards

    def theirs(cards: list[Card]) -> object:
        return pokerkit.OmahaHoldemHand.from_game(pk_text(cards[:4]), pk_text(cards[4:]))

    assert check_against_pokerkit(99, 400, 9, ours, theirs) == 400
