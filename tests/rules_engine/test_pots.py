"""Pots: uncalled bets, side pots, thirds (S1), odd chips clockwise from the button, rake."""

from __future__ import annotations

import random

import pytest

from rules_engine.pots import (
    Pot,
    build_pots,
    clockwise_from_button,
    rake_pots,
    split_even,
    split_shares,
    uncalled,
)


def test_s1_pot_of_100_pays_33_33_34() -> None:
    assert split_shares(100, 3) == (33, 33, 34)


@pytest.mark.parametrize(
    ("amount", "expected"),
    [(0, (0, 0, 0)), (1, (0, 0, 1)), (2, (0, 1, 1)), (3, (1, 1, 1)), (101, (33, 34, 34)), (300, (100, 100, 100))],
)
def test_thirds_floor_then_half_of_the_rest_then_the_rest(amount: int, expected: tuple[int, ...]) -> None:
    shares = split_shares(amount, 3)
    assert shares == expected
    first = amount // 3
    second = (amount - first) // 2
    assert shares == (first, second, amount - first - second)


def test_shares_always_add_up() -> None:
    for amount in range(500):
        for parts in (1, 2, 3):
            shares = split_shares(amount, parts)
            assert sum(shares) == amount
            assert max(shares) - min(shares) <= 1


def test_clockwise_from_button_starts_left_of_the_button_and_ends_on_it() -> None:
    assert clockwise_from_button(0, 3) == (1, 2, 0)
    assert clockwise_from_button(2, 3) == (0, 1, 2)
    assert clockwise_from_button(1, 2) == (0, 1)


def test_odd_chip_goes_to_first_tied_player_clockwise_from_the_button() -> None:
    order = clockwise_from_button(1, 3)  # seats 2, 0, 1
    assert split_even(33, (0, 2), order) == {2: 17, 0: 16}
    assert split_even(33, (0, 1), order) == {0: 17, 1: 16}
    assert split_even(100, (0, 1, 2), order) == {2: 34, 0: 33, 1: 33}
    assert split_even(101, (0, 1, 2), order) == {2: 34, 0: 34, 1: 33}
    # The button is the last to get an odd chip.
    assert split_even(5, (1, 2), clockwise_from_button(2, 3)) == {1: 3, 2: 2}


def test_split_even_rejects_unknown_winners() -> None:
    with pytest.raises(ValueError):
        split_even(10, (5,), (0, 1, 2))


def test_uncalled_is_the_top_over_the_second_largest() -> None:
    assert uncalled([100, 30, 300]) == (2, 200)
    assert uncalled([100, 100, 30]) is None
    assert uncalled([0, 10]) == (1, 10)


def test_main_and_side_pots() -> None:
    # Seat 1 all-in for 30, seats 0 and 2 put in 100 each.
    assert build_pots([100, 30, 100], [False, False, False]) == (
        Pot(90, (0, 1, 2)),
        Pot(140, (0, 2)),
    )
    # Two all-ins of different sizes and a caller: three pots.
    assert build_pots([50, 20, 80, 80], [False, False, False, False]) == (
        Pot(80, (0, 1, 2, 3)),
        Pot(90, (0, 2, 3)),
        Pot(60, (2, 3)),
    )


def test_folded_chips_stay_in_the_pots_they_reach_but_folded_seats_win_nothing() -> None:
    assert build_pots([50, 20, 20], [True, False, False]) == (Pot(90, (1, 2)),)
    # A folder who put in more than a short all-in feeds both pots.
    assert build_pots([60, 25, 100], [True, False, False]) == (
        Pot(75, (1, 2)),
        Pot(110, (2,)),
    )


def test_pots_conserve_chips_on_random_contributions() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        n = rng.randint(2, 6)
        contrib = [rng.choice((0, rng.randint(1, 50), rng.randint(1, 500))) for _ in range(n)]
        folded = [rng.random() < 0.3 for _ in range(n)]
        if all(folded):
            folded[0] = False
        pots = build_pots(contrib, folded)
        assert sum(p.amount for p in pots) == sum(contrib)
        for p in pots:
            assert p.eligible and all(not folded[i] for i in p.eligible)
        # Each later pot is open to fewer players.
        for a, b in zip(pots, pots[1:], strict=False):
            assert set(b.eligible) < set(a.eligible)


def test_build_pots_needs_someone_in_the_hand() -> None:
    with pytest.raises(ValueError):
        build_pots([10, 10], [True, True])


def test_rake_is_three_percent_rounded_down_and_capped_per_hand() -> None:
    assert rake_pots([1000], 3, 60) == (30,)
    assert rake_pots([999], 3, 60) == (29,)
    assert rake_pots([5000], 3, 60) == (60,)
    assert rake_pots([1500, 1000], 3, 60) == (45, 15)
    assert rake_pots([33], 3, 60) == (0,)
