"""numpy batch evaluators: the same values as the one-hand-at-a-time functions."""

from __future__ import annotations

import numpy as np
import pytest

from rules_engine.batch import categories, evaluate_batch, omaha_batch
from rules_engine.cards import Card, parse_cards
from rules_engine.evaluation import (
    CATEGORY_OF_VALUE,
    Category,
    hand_value_int,
    omaha_value_int,
)


def random_deals(seed: int, n: int, size: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :size]


def as_cards(row: np.ndarray) -> list[Card]:
    return [Card.from_index(int(i)) for i in row]


@pytest.mark.parametrize("size", [5, 6, 7])
def test_batch_values_equal_single_values(size: int) -> None:
    deals = random_deals(size, 20_000, size)
    values = evaluate_batch(deals)
    assert values.shape == (20_000,)
    assert values.tolist() == [hand_value_int(as_cards(row)) for row in deals]


def test_batch_finds_every_flush_suit_and_straight_flush() -> None:
    hands = [
        "As Ks Qs Js Ts 2c 2d",
        "Kh Qh Jh Th 9h 8h 2c",
        "5d 4d 3d 2d Ad Kc Kh",
        "2c 4c 6c 8c Tc Qc Kc",
        "Ac Ad Ah As Kc Qc Jc",
        "7c 5d 4h 3s 2c 9d Jh",
    ]
    rows = np.array([[c.index for c in parse_cards(h)] for h in hands])
    expected = [hand_value_int(parse_cards(h)) for h in hands]
    assert evaluate_batch(rows).tolist() == expected
    assert [Category(c).label for c in categories(evaluate_batch(rows))] == [
        "royal_flush",
        "straight_flush",
        "straight_flush",
        "flush",
        "four_of_a_kind",
        "high_card",
    ]


@pytest.mark.parametrize(("n_hole", "n_board"), [(4, 5), (4, 3), (4, 4), (2, 5), (5, 5), (6, 4)])
def test_batch_omaha_equals_single_omaha(n_hole: int, n_board: int) -> None:
    deals = random_deals(100 + n_hole * 10 + n_board, 5_000, n_hole + n_board)
    values = omaha_batch(deals[:, :n_hole], deals[:, n_hole:])
    expected = [omaha_value_int(as_cards(r[:n_hole]), as_cards(r[n_hole:])) for r in deals]
    assert values.tolist() == expected


def test_batch_omaha_works_in_chunks_and_on_nothing() -> None:
    deals = random_deals(3, 70_000, 9)  # more rows than one chunk
    values = omaha_batch(deals[:, :4], deals[:, 4:])
    tail = deals[-500:]
    assert values[-500:].tolist() == [
        omaha_value_int(as_cards(r[:4]), as_cards(r[4:])) for r in tail
    ]
    assert omaha_batch(np.zeros((0, 4), int), np.zeros((0, 5), int)).shape == (0,)


def test_categories_of_values() -> None:
    assert categories([0, 7461, 7474]).tolist() == [0, 9, 10]
    assert len(CATEGORY_OF_VALUE) == 7475


def test_bad_arrays_are_rejected() -> None:
    with pytest.raises(ValueError, match="5..7"):
        evaluate_batch(np.zeros((3, 4), int))
    with pytest.raises(ValueError, match="0..51"):
        evaluate_batch(np.full((1, 5), 52))
    with pytest.raises(ValueError, match="rows"):
        omaha_batch(np.zeros((2, 4), int), np.zeros((3, 5), int))
    with pytest.raises(ValueError):
        omaha_batch(np.zeros((2, 4), int), np.zeros((2, 6), int))
