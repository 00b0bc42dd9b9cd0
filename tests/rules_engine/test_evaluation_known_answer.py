"""Known answers: every 5-card and every 7-card hand, counted by category (GAMES.md section 1)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from rules_engine.batch import category_counts, value_histogram
from rules_engine.cards import FULL_DECK
from rules_engine.evaluation import VALUE_SHAPES, Category, category_of, hand_value_int

# The table of GAMES.md, where "straight flush" includes the royal flushes.
FIVE_CARDS = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 40,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}
SEVEN_CARDS = {
    Category.ROYAL_FLUSH: 4_324,
    Category.STRAIGHT_FLUSH: 41_584,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.ONE_PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def as_in_the_table(counts: dict[Category, int]) -> dict[Category, int]:
    """Our counts keep royal flushes apart; the table's straight flushes include them."""
    table = dict(counts)
    table[Category.STRAIGHT_FLUSH] += table[Category.ROYAL_FLUSH]
    table.pop(Category.FIVE_OF_A_KIND, None)
    return table


def test_all_2598960_five_card_hands_one_call_at_a_time() -> None:
    counts = Counter(map(hand_value_int, combinations(FULL_DECK, 5)))
    per_category: Counter[Category] = Counter()
    for value, n in counts.items():
        per_category[category_of(value)] += n
    assert sum(counts.values()) == 2_598_960
    assert as_in_the_table(dict(per_category)) == FIVE_CARDS
    assert per_category[Category.ROYAL_FLUSH] == 4
    assert per_category[Category.STRAIGHT_FLUSH] == 36


def test_every_five_card_class_has_the_number_of_hands_combinatorics_says() -> None:
    # A class is a shape; how many of the 2,598,960 hands land in it depends only on the
    # category: suits of distinct ranks (4**5, less the 4 flushes), or of pairs (C(4,2)=6), ...
    per_class = {
        Category.HIGH_CARD: 4**5 - 4,
        Category.STRAIGHT: 4**5 - 4,
        Category.FLUSH: 4,
        Category.STRAIGHT_FLUSH: 4,
        Category.ROYAL_FLUSH: 4,
        Category.ONE_PAIR: 6 * 4**3,
        Category.TWO_PAIR: 6 * 6 * 4,
        Category.THREE_OF_A_KIND: 4 * 4 * 4,
        Category.FULL_HOUSE: 4 * 6,
        Category.FOUR_OF_A_KIND: 4,
        Category.FIVE_OF_A_KIND: 0,  # needs wild cards
    }
    hist = value_histogram(5)
    assert [int(n) for n in hist] == [per_class[cat] for cat, _ in VALUE_SHAPES]


def test_all_2598960_five_card_hands_in_batch() -> None:
    counts = category_counts(5)
    assert sum(counts.values()) == 2_598_960
    assert as_in_the_table(counts) == FIVE_CARDS


def test_all_133784560_seven_card_hands() -> None:
    counts = category_counts(7, threads=2)
    assert sum(counts.values()) == 133_784_560
    assert as_in_the_table(counts) == SEVEN_CARDS
    assert counts[Category.ROYAL_FLUSH] == 4_324
    assert counts[Category.STRAIGHT_FLUSH] == 41_584 - 4_324
