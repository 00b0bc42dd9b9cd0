"""Open hands: who acts first in stud, Razz and Baseball (GAMES.md sections 3 and 4)."""

from __future__ import annotations

import random

from rules_engine.cards import FULL_DECK, parse_cards
from rules_engine.evaluation import (
    Category,
    best_hand,
    best_wild_hand,
    compare_open_hands,
    compare_open_lows,
    open_hand_key,
    open_low_key,
)

WILD = frozenset({3, 9})


def cmp(a: str, b: str, wild_ranks: frozenset[int] = frozenset()) -> int:
    return compare_open_hands(parse_cards(a), parse_cards(b), wild_ranks)


def test_a_pair_beats_high_cards() -> None:
    assert cmp("2c 2d", "As Kd") == 1
    assert cmp("As Kd", "2c 2d") == -1
    assert cmp("5c 5d 2h", "Ac Kd Qh") == 1


def test_trips_beat_two_pair_with_four_cards_up() -> None:
    assert cmp("5c 5d 5h 2s", "Kc Kd Qh Qs") == 1
    assert open_hand_key(parse_cards("Kc Kd Qh Qs"))[0] == Category.TWO_PAIR
    assert open_hand_key(parse_cards("5c 5d 5h 2s")) == (Category.THREE_OF_A_KIND, (5, 5, 5, 2))
    assert cmp("5c 5d 5h 5s", "Ac Ad Ah Ks") == 1  # four of a kind, four cards up


def test_rank_groups_first_then_the_remaining_cards() -> None:
    assert cmp("Kc 7d", "Ks 6d") == 1
    assert cmp("9c 9d Ah", "9h 9s Kh") == 1
    assert cmp("9c 9d 4h 4s", "9h 9s 3h 3s") == 1
    assert cmp("Kc Kd 2h 3s", "Qc Qd Ah As") == -1  # K-K-3-2 is one pair; Q-Q-A-A is two pair


def test_suits_never_count_in_an_open_hand() -> None:
    assert cmp("Ac Kd", "Ah Ks") == 0
    assert cmp("7c 7d 2h", "7h 7s 2c") == 0


def test_wild_cards_count_in_an_open_hand() -> None:
    assert cmp("3h Kd", "Qc Qd", WILD) == 1  # the wild pairs the king
    assert open_hand_key(parse_cards("3h Kd"), WILD) == (Category.ONE_PAIR, (13, 13))
    assert open_hand_key(parse_cards("3h 9d"), WILD) == (Category.ONE_PAIR, (14, 14))
    assert cmp("9c 7d 7h", "Ac Ad Kh", WILD) == 1  # trips of sevens beat a pair of aces
    assert open_hand_key(parse_cards("9c 3d 7h 2s"), WILD) == (
        Category.THREE_OF_A_KIND,
        (7, 7, 7, 2),
    )
    assert open_hand_key(parse_cards("9c 3d 3h 5s"), WILD)[0] == Category.FOUR_OF_A_KIND
    # Without wild ranks a 3 is just a 3.
    assert cmp("3h Kd", "Qc Qd") == -1


def test_straights_and_flushes_count_only_with_five_open_cards() -> None:
    four_hearts = "9h Th Jh Qh"
    assert open_hand_key(parse_cards(four_hearts))[0] == Category.HIGH_CARD
    assert cmp(four_hearts, "2c 2d 4h 5s") == -1
    assert cmp("9h Th Jh Qh Kh", "2c 2d 2h 5s 7c") == 1  # five up: the straight flush counts
    assert cmp("5c 6d 7h 8s 9c", "Ac Ad Ah Ks Qc") == 1
    assert cmp("5c 6d 7h 8s 3c", "Ac Ad Ah Ks Qc", WILD) == 1  # a wild three fills the straight


def test_five_or_more_open_cards_rank_like_a_showdown() -> None:
    rng = random.Random(21)
    for _ in range(300):
        a, b = rng.sample(FULL_DECK, 6), rng.sample(FULL_DECK, 6)
        expected = (best_hand(a) > best_hand(b)) - (best_hand(a) < best_hand(b))
        assert compare_open_hands(a, b) == expected
        wild_a, wild_b = best_wild_hand(a, WILD), best_wild_hand(b, WILD)
        assert compare_open_hands(a, b, WILD) == (wild_a > wild_b) - (wild_a < wild_b)


def test_the_key_sorts_the_best_showing_hand_first() -> None:
    ups = ["Kc 7d", "2c 2d", "As Qd", "Ks 8h"]
    ranked = sorted(ups, key=lambda u: open_hand_key(parse_cards(u)), reverse=True)
    assert ranked == ["2c 2d", "As Qd", "Ks 8h", "Kc 7d"]


def test_razz_the_lowest_showing_hand_acts_first_with_aces_low() -> None:
    def low_cmp(a: str, b: str) -> int:
        return compare_open_lows(parse_cards(a), parse_cards(b))

    assert low_cmp("As 4d", "2c 4c") == 1  # the ace is low
    assert low_cmp("7c 4d", "7s 5d") == 1  # highest card first
    assert low_cmp("Kd Qc", "2c 2d") == 1  # a pair shows worse than any unpaired cards
    assert low_cmp("2c 2d 5h", "3c 3d 4h") == 1  # the lower pair is better
    assert low_cmp("8c 5d", "8h 5s") == 0
    ups = ["Kc 7d 2s", "Ac 2d 3h", "5c 5d 2h", "8s 6h 4c"]
    order = sorted(ups, key=lambda u: open_low_key(parse_cards(u)), reverse=True)
    assert order == ["Ac 2d 3h", "8s 6h 4c", "Kc 7d 2s", "5c 5d 2h"]
