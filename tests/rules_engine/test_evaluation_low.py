"""Low hands: eight or better, Razz, and Omaha Hi-Lo's 2+3 low (GAMES.md sections 1 and 3)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from rules_engine.cards import FULL_DECK, parse_cards
from rules_engine.evaluation import LowValue, low_8_or_better, omaha_low_8, razz_low


def low8(text: str) -> LowValue | None:
    return low_8_or_better(parse_cards(text))


def razz(text: str) -> LowValue:
    return razz_low(parse_cards(text))


def test_the_wheel_is_the_best_low_even_as_a_straight_flush() -> None:
    best = low8("5c 4c 3c 2c Ac")
    assert best is not None and best.describe() == "5-4-3-2-A"
    assert razz("5c 4c 3c 2c Ac") == best
    assert all(razz_low(f) <= best for f in combinations(parse_cards("5c 4c 3c 2c Ac 6d 7h"), 5))


def test_eight_or_better_qualifier() -> None:
    worst = low8("8c 7d 6h 5s 4c")
    assert worst is not None and worst.qualifies_8
    assert low8("9c 7d 6h 5s 4c") is None  # a nine is too high
    assert low8("Ac Ad 2h 3s 4c Kd Kh") is None  # only four different low ranks
    assert not razz("9c 7d 6h 5s 4c").qualifies_8
    assert not razz("Ac Ad 2h 3s 4c").qualifies_8


def test_eight_or_better_picks_the_lowest_five_of_seven() -> None:
    low = low8("Ah 2c 4d 6s 8h 7d 3c")
    assert low is not None and low.describe() == "6-4-3-2-A"
    assert [str(c) for c in low.cards] == ["6s", "4d", "3c", "2c", "Ah"]


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("8c 5d 4h 3s 2c", "8d 6c 3h 2s Ac"),  # highest card equal, then the next decides
        ("7c 6d 5h 4s 3c", "8d 4c 3h 2s Ac"),  # the highest card first
        ("6d 5c 4s 3h Ac", "6c 5d 4h 3s 2c"),  # ... down to the last card
        ("5c 4d 3h 2s Ac", "6d 4c 3s 2h Ac"),
    ],
)
def test_lows_compare_from_the_highest_card_down(better: str, worse: str) -> None:
    for evaluate in (low8, razz):
        assert evaluate(better) > evaluate(worse)  # type: ignore[operator]


def test_razz_uses_any_cards_with_aces_low_and_king_highest() -> None:
    assert razz("Kc Qd Jh Ts 9c").describe() == "K-Q-J-T-9"
    assert razz("Kc Qd Jh Ts 8c") > razz("Kc Qd Jh Ts 9c")
    assert razz("Ac 2d 3h 4s 6c") > razz("2c 3d 4h 5s 6c")  # the ace is the lowest card
    assert razz("Kc Kd 9s 8h 7c 6d 5s").describe() == "9-8-7-6-5"


def test_razz_with_forced_pairs() -> None:
    paired = razz("Kh Kd Qs Qc 2h 2d 3s")
    assert paired.describe() == "2-2-K-Q-3"  # the lowest pair, then the rest
    # Any unpaired hand beats any paired one.
    assert razz("Kc Qd Jh Ts 9c") > razz("Ac Ad 2h 3s 4c")
    # A lower pair is better; one pair beats two pair; two pair beats trips.
    assert razz("2c 2d Kh Qs Jc") > razz("3c 3d 4h 5s 6c")
    assert razz("Kc Kd Qh Js Tc") > razz("2c 2d 3h 3s 4c")
    assert razz("Kc Kd Qh Qs Tc") > razz("2c 2d 2h 3s 4c")
    # Seven cards of three ranks: the least bad five.
    forced = razz("Ac Ad Ah 2c 2d 2h 3s")
    assert forced.describe() == "2-2-A-A-3"


def test_razz_equals_the_best_of_every_five() -> None:
    rng = random.Random(4)
    for _ in range(500):
        cards = rng.sample(FULL_DECK, 7)
        assert razz_low(cards) == max(razz_low(f) for f in combinations(cards, 5))
        low = low_8_or_better(cards)
        qualifying = [razz_low(f) for f in combinations(cards, 5) if razz_low(f).qualifies_8]
        if qualifying:
            assert low == max(qualifying) and low is not None and low.qualifies_8
        else:
            assert low is None


def test_eight_or_better_and_razz_share_one_scale() -> None:
    text = "7c 5d 4h 2s Ac"
    assert low8(text) == razz(text)
    assert razz("9c 5d 4h 2s Ac") < low8("8c 7d 6h 5s 4c")  # type: ignore[operator]


def test_omaha_low_uses_exactly_two_hole_cards_and_three_board_cards() -> None:
    low = omaha_low_8(parse_cards("Ah 2h Kc Kd"), parse_cards("3c 4d 8s Qh Jh"))
    assert low is not None and low.describe() == "8-4-3-2-A"
    assert {str(c) for c in low.cards} == {"Ah", "2h", "3c", "4d", "8s"}
    # Four low cards in the hand: only two of them play.
    low = omaha_low_8(parse_cards("Ac 2d 3h 4s"), parse_cards("5c 6d 7h Kc Qd"))
    assert low is not None and low.describe() == "7-6-5-2-A"


def test_omaha_low_needs_two_different_low_hole_cards_and_three_low_board_cards() -> None:
    # The board alone holds a perfect low, but the hand has only one low card.
    assert omaha_low_8(parse_cards("Ah Kh Kc Kd"), parse_cards("2c 3d 4s 5h Jh")) is None
    # A pair of low cards in the hand counts as one rank.
    assert omaha_low_8(parse_cards("Ah Ad Kc Kd"), parse_cards("2c 3d 4s Qh Jh")) is None
    # Only two low cards on the board.
    assert omaha_low_8(parse_cards("Ah 2d Kc Kd"), parse_cards("3c 4d 9s Qh Jh")) is None
    # A hole card duplicating a board rank cannot be used twice (counterfeit).
    low = omaha_low_8(parse_cards("Ah 2d Kc Kd"), parse_cards("Ac 3d 5s Qh 8h"))
    assert low is not None and low.describe() == "8-5-3-2-A"


def test_omaha_low_equals_the_best_of_every_two_plus_three() -> None:
    rng = random.Random(5)
    for _ in range(500):
        cards = rng.sample(FULL_DECK, 9)
        hole, board = cards[:4], cards[4:]
        lows = [
            razz_low(p + t)
            for p in combinations(hole, 2)
            for t in combinations(board, 3)
            if razz_low(p + t).qualifies_8
        ]
        got = omaha_low_8(hole, board)
        assert got == (max(lows) if lows else None)


def test_low_values_compare_and_describe() -> None:
    a, b = razz("8c 6d 4h 2s Ac"), razz("8d 6c 4s 2h Ad")
    assert a == b and hash(a) == hash(b) and a >= b and a <= b and not a < b
    assert str(a) == "8-6-4-2-A" and a.ranks == (8, 6, 4, 2, 1)
    assert a != "8-6-4-2-A"


def test_lows_need_five_cards() -> None:
    with pytest.raises(ValueError):
        razz("Ac 2d 3h 4s")
    with pytest.raises(ValueError):
        low8("Ac 2d 3h 4s")
    with pytest.raises(ValueError):
        omaha_low_8(parse_cards("Ac"), parse_cards("2d 3h 4s"))
