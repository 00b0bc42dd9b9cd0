"""High hands: the ranking rules of GAMES.md section 1, Hold'em and the Omaha 2+3 traps."""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
from collections import Counter
from itertools import combinations, combinations_with_replacement
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import batch, evaluation, lowball, openhand, wild
from rules_engine.cards import FULL_DECK, Card, parse_cards
from rules_engine.evaluation import (
    RANK_KEYS,
    VALUE_COUNT,
    VALUE_ROYAL_FLUSH,
    VALUE_SHAPES,
    Category,
    HandValue,
    best_hand,
    best_shape,
    category_of,
    describe_value,
    evaluate5,
    hand_value_int,
    omaha_best,
    omaha_value_int,
    shape_value,
)


def ev(text: str) -> HandValue:
    return best_hand(parse_cards(text))


def shown(hand: HandValue) -> str:
    return " ".join(str(c) for c in hand.cards)


# -- the scale ------------------------------------------------------------------------------


def test_the_scale_has_7462_natural_classes_then_five_of_a_kind() -> None:
    per_category = Counter(cat for cat, _ in VALUE_SHAPES)
    assert per_category == {
        Category.HIGH_CARD: 1277,
        Category.ONE_PAIR: 2860,
        Category.TWO_PAIR: 858,
        Category.THREE_OF_A_KIND: 858,
        Category.STRAIGHT: 10,
        Category.FLUSH: 1277,
        Category.FULL_HOUSE: 156,
        Category.FOUR_OF_A_KIND: 156,
        Category.STRAIGHT_FLUSH: 9,
        Category.ROYAL_FLUSH: 1,
        Category.FIVE_OF_A_KIND: 13,
    }
    assert VALUE_COUNT == 7462 + 13
    cats = [cat for cat, _ in VALUE_SHAPES]
    assert cats == sorted(cats), "categories rise with the value"
    assert VALUE_SHAPES[VALUE_ROYAL_FLUSH] == (Category.ROYAL_FLUSH, (14, 13, 12, 11, 10))
    assert VALUE_SHAPES[0] == (Category.HIGH_CARD, (7, 5, 4, 3, 2))


def test_inside_a_category_values_rise_with_the_ranks_in_order_of_importance() -> None:
    for v in range(1, VALUE_COUNT):
        (cat_a, ranks_a), (cat_b, ranks_b) = VALUE_SHAPES[v - 1], VALUE_SHAPES[v]
        if cat_a == cat_b:
            straight = cat_a in (Category.STRAIGHT, Category.STRAIGHT_FLUSH)
            # Straights rank by their top card, which is the first rank (5 for the wheel).
            assert (ranks_a[:1] if straight else ranks_a) < (ranks_b[:1] if straight else ranks_b)


def test_rank_keys_tell_apart_every_multiset_of_up_to_seven_ranks() -> None:
    # The fast paths identify a hand's ranks by the sum of their keys; at most four of a rank.
    for n in range(1, 8):
        multisets = [
            c for c in combinations_with_replacement(range(13), n) if max(Counter(c).values()) <= 4
        ]
        assert len({sum(RANK_KEYS[r] for r in c) for c in multisets}) == len(multisets)


def test_category_labels_are_snake_case() -> None:
    assert [c.label for c in Category] == [
        "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
        "full_house", "four_of_a_kind", "straight_flush", "royal_flush", "five_of_a_kind",
    ]
    assert Category.FULL_HOUSE > Category.FLUSH
    assert category_of(VALUE_ROYAL_FLUSH) is Category.ROYAL_FLUSH


# -- section 1: categories and ties -----------------------------------------------------------

ONE_OF_EACH = [  # worst first
    ("high_card", "Kd Js 9h 6c 2d"),
    ("one_pair", "2c 2d 3h 4s 6c"),
    ("two_pair", "3c 3d 2h 2s 4c"),
    ("three_of_a_kind", "2c 2d 2h 3s 4c"),
    ("straight", "As 2d 3c 4h 5s"),
    ("flush", "2h 3h 4h 5h 7h"),
    ("full_house", "2c 2d 2h 3s 3c"),
    ("four_of_a_kind", "2c 2d 2h 2s 3c"),
    ("straight_flush", "Ac 2c 3c 4c 5c"),
    ("royal_flush", "Ts Js Qs Ks As"),
]


def test_categories_rank_best_first_as_in_the_rules() -> None:
    hands = [evaluate5(parse_cards(text)) for _, text in ONE_OF_EACH]
    assert [h.category.label for h in hands] == [label for label, _ in ONE_OF_EACH]
    for worse, better in zip(hands, hands[1:], strict=False):
        assert worse < better and better > worse and worse != better


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("8c 8d 8h 2s 2c", "7c 7d 7h As Ac"),  # full house: trips first
        ("8c 8d 8h 3s 3c", "8s 8d 8h 2s 2c"),  # ... then the pair (different decks' eights)
        ("Kc Kd 2h 2s 3c", "Qc Qd Jh Js Ac"),  # two pair: high pair first
        ("Kc Kd 5h 5s 2c", "Kh Ks 4h 4s Ac"),  # then the low pair
        ("Kc Kd 5h 5s 3c", "Kh Ks 5d 5c 2c"),  # then the kicker
        ("9c 9d Ah 4s 3c", "9h 9s Kh Qs Jc"),  # one pair: kickers from the top
        ("9c 9d Ah 4s 3c", "9h 9s Ah 4c 2c"),  # ... down to the last one
        ("Ac Qd Th 5s 3c", "Ad Qc Th 5d 2s"),  # high card: top down
        ("Ah Qh Th 5h 3h", "Ad Qd Td 5d 2d"),  # flush: top down
        ("7c 7d 7h 2s 3c", "6c 6d 6h As Kc"),  # trips by rank before kickers
        ("2c 2d 2h 2s 4c", "2c 2d 2h 2s 3h"),  # quads kicker (the same four, a different fifth)
        ("6s 2d 3c 4h 5s", "As 2d 3c 4h 5c"),  # six-high straight beats the wheel
        ("As Kd Qc Jh Ts", "Ks Qd Jc Th 9s"),  # ace-high straight is the best
    ],
)
def test_ties_inside_a_category_go_by_the_making_cards_then_kickers(better: str, worse: str) -> None:
    assert evaluate5(parse_cards(better)) > evaluate5(parse_cards(worse))


def test_suits_never_decide() -> None:
    assert ev("Ah Kd Qc Js 9h") == ev("As Kc Qd Jh 9s")
    assert ev("Ah Kh Qh Jh 9h") == ev("As Ks Qs Js 9s")
    assert ev("As Ks Qs Js Ts") == ev("Ac Kc Qc Jc Tc")
    assert ev("Ah Kh Qh Jh 9h").value == ev("Ac Kc Qc Jc 9c").value
    assert hash(ev("2c 2d 5h 6s 9c")) == hash(ev("2h 2s 5c 6d 9h"))


def test_a_sixth_card_never_decides() -> None:
    # Same best five (A-A-K-Q-J), different sixth and seventh cards.
    a = ev("Ah Ad Kc Qs Jh 4c 3d")
    b = ev("As Ac Kd Qh Jc 9c 8d")
    assert a == b and a.value == b.value
    # Two flushes with the same top five: the sixth heart does not count.
    assert ev("Ah Kh 9h 7h 5h 4h 2c") == ev("Ah Kh 9h 7h 5h 2h 3c")


def test_ace_plays_high_or_low_but_never_in_the_middle() -> None:
    assert ev("Qs Kd Ac 2h 3s").category is Category.HIGH_CARD  # Q-K-A-2-3 is not a straight
    assert ev("Js Qd Kc Ah 2s").category is Category.HIGH_CARD
    wheel = ev("5s 4d 3c 2h As")
    assert wheel.describe() == "Straight, five high"
    assert shown(wheel) == "5s 4d 3c 2h As"  # the ace plays last in the wheel
    lowest_straights = [v for v, (cat, _) in enumerate(VALUE_SHAPES) if cat is Category.STRAIGHT]
    assert wheel.value == lowest_straights[0]
    assert ev("Ts Jd Qc Kh As").value == lowest_straights[-1]
    steel_wheel = ev("5h 4h 3h 2h Ah")
    assert steel_wheel.category is Category.STRAIGHT_FLUSH and steel_wheel < ev("6h 5h 4h 3h 2h")


def test_the_cards_come_most_important_first() -> None:
    assert shown(ev("3c 8d 3h 8s 8c")) == "8s 8d 8c 3h 3c"
    assert shown(ev("4c Kd 4h Ks 9c")) == "Ks Kd 4h 4c 9c"
    assert shown(ev("2c Ah 9d 9s 5c")) == "9s 9d Ah 5c 2c"
    assert shown(ev("Kd 2c 2d 2h 2s")) == "2s 2h 2d 2c Kd"
    assert shown(ev("Ah 2h Kh 7h 9h 9c 9d")) == "Ah Kh 9h 7h 2h"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Kd Js 9h 6c 2d", "High card, king"),
        ("6c 6d Ah 4s 3c", "Pair of sixes"),
        ("Ac Ad Th Ts 3c", "Two pair, aces and tens"),
        ("5c 5d 5h As 3c", "Three of a kind, fives"),
        ("9c Td Jh Qs Kc", "Straight, king high"),
        ("Ah 7h 5h 3h 2h", "Flush, ace high"),
        ("Kc Kd Kh 7s 7c", "Full house, kings full of sevens"),
        ("8c 8d 8h 8s 2c", "Four of a kind, eights"),
        ("9c Tc Jc Qc Kc", "Straight flush, king high"),
        ("Ts Js Qs Ks As", "Royal flush"),
    ],
)
def test_describe_reads_like_the_table(text: str, words: str) -> None:
    hand = ev(text)
    assert hand.describe() == words == str(hand) == describe_value(hand.value)


# -- Hold'em ----------------------------------------------------------------------------------


def test_holdem_plays_two_one_or_none_of_the_hole_cards() -> None:
    board = parse_cards("Kh Qh Jh 2c 3d")
    both = best_hand([*parse_cards("Ah Th"), *board])
    one = best_hand([*parse_cards("Ah 4c"), *board])
    none = best_hand([*parse_cards("2c 3d"), *parse_cards("Ts 9s 8s 7s 6d")])
    assert both.category is Category.ROYAL_FLUSH
    assert one.describe() == "High card, ace"
    assert none.category is Category.STRAIGHT and shown(none) == "Ts 9s 8s 7s 6d"
    board_plays = best_hand([*parse_cards("2s 3h"), *parse_cards("As Ks Qs Js Ts")])
    assert board_plays.category is Category.ROYAL_FLUSH


def test_hand_value_int_is_best_hand_value_for_five_to_seven_cards() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        cards = rng.sample(FULL_DECK, rng.randint(5, 7))
        assert hand_value_int(cards) == best_hand(cards).value


def test_more_than_seven_cards_takes_the_best_five_of_all() -> None:
    rng = random.Random(8)
    for _ in range(150):
        cards = rng.sample(FULL_DECK, rng.randint(8, 11))
        brute = max(hand_value_int(five) for five in combinations(cards, 5))
        hand = best_hand(cards)
        assert hand.value == brute == hand_value_int(cards)
        assert set(hand.cards) <= set(cards) and evaluate5(hand.cards).value == brute


def test_the_general_shape_evaluator_agrees_with_the_tables() -> None:
    rng = random.Random(9)
    for _ in range(3000):
        cards = rng.sample(FULL_DECK, rng.randint(5, 7))
        cat, ranks, _ = best_shape(cards, 0)
        assert shape_value(cat, ranks) == hand_value_int(cards)


def test_bad_hands_are_rejected() -> None:
    with pytest.raises(ValueError, match="5"):
        evaluate5(parse_cards("Ah Kh Qh Jh"))
    with pytest.raises(ValueError, match="5"):
        evaluate5(parse_cards("Ah Kh Qh Jh Th 9h"))
    with pytest.raises(ValueError, match="at least 5"):
        best_hand(parse_cards("Ah Kh"))
    ace = Card.parse("Ah")
    with pytest.raises(ValueError, match="twice"):
        best_hand([ace, ace, *parse_cards("2c 3c 4c")])


def test_hand_values_compare_by_value_only() -> None:
    a, b = ev("Ah Kd Qc Js 9h"), ev("As Kc Qd Jh 9s")
    assert a == b and not a < b and a <= b and a >= b and a.cards != b.cards
    assert len({a, b}) == 1
    assert a != "Ah Kd Qc Js 9h"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=7, unique=True), st.randoms())
def test_order_and_suit_names_do_not_matter(cards: list[Card], rnd: random.Random) -> None:
    value = best_hand(cards).value
    shuffled = cards[:]
    rnd.shuffle(shuffled)
    suits = list("cdhs")
    rnd.shuffle(suits)
    renamed = [Card.parse(c.rank_char + suits["cdhs".index(c.suit)]) for c in shuffled]
    assert best_hand(shuffled).value == value == best_hand(renamed).value


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=6, max_size=8, unique=True))
def test_another_card_never_makes_a_hand_worse(cards: list[Card]) -> None:
    assert best_hand(cards).value >= best_hand(cards[:-1]).value


# -- Omaha and Patch-Patch: exactly two from the hand, three from the board --------------------


def omaha(hole: str, board: str) -> HandValue:
    return omaha_best(parse_cards(hole), parse_cards(board))


def test_omaha_four_hearts_on_the_board_and_one_in_the_hand_is_no_flush() -> None:
    hand = omaha("Ah 2c 3d 4s", "Kh Qh Jh 8h 7c")
    assert hand.category is Category.HIGH_CARD
    assert hand.describe() == "High card, ace"
    # Hold'em's best-of-seven would have the flush.
    assert ev("Ah 2c Kh Qh Jh 8h 7c").category is Category.FLUSH


def test_omaha_two_hearts_in_the_hand_make_the_flush() -> None:
    assert omaha("Ah 2h 3d 4s", "Kh Qh Jh 8c 7c").describe() == "Flush, ace high"


def test_omaha_board_of_four_sevens_gives_nobody_four_of_a_kind() -> None:
    board = parse_cards("7c 7d 7h 7s 9c")
    hand = omaha_best(parse_cards("Ah Kd 5c 6d"), board)
    assert hand.category is Category.THREE_OF_A_KIND
    assert [c.rank for c in hand.cards] == [7, 7, 7, 14, 13]  # trips, the best two hole cards
    assert omaha_best(parse_cards("2d 2h 5c 6d"), board).describe() == "Full house, sevens full of twos"
    rng = random.Random(77)
    rest = [c for c in FULL_DECK if c not in board]
    for _ in range(500):
        hole = rng.sample(rest, 4)
        assert omaha_best(hole, board).category is not Category.FOUR_OF_A_KIND
        assert category_of(omaha_value_int(hole, board)) is not Category.FOUR_OF_A_KIND


def test_omaha_pocket_pair_matching_a_board_card_is_a_set() -> None:
    hand = omaha("8c 8d Ah 2c", "8h Ks 4d 3h Jc")
    assert hand.describe() == "Three of a kind, eights"
    assert shown(hand) == "8h 8d 8c Ks Jc"


def test_omaha_three_of_a_rank_in_the_hand_play_as_two() -> None:
    assert omaha("Kc Kd Kh 2s", "7c 8d 4h Qs 3d").describe() == "Pair of kings"
    assert omaha("Kc Kd Kh Ks", "7c 8d 4h Qs 3d").describe() == "Pair of kings"
    # With a king on the board, two of them join it for trips, never four.
    assert omaha("Kc Kd Kh 2s", "Ks 8d 4h Qs 3d").describe() == "Three of a kind, kings"


def test_omaha_straight_needing_three_hand_cards_is_at_best_a_pair_of_nines() -> None:
    hole, board = parse_cards("7c 8d 9h 9s"), parse_cards("6s Tc 2d Kh 4c")
    assert best_hand([*hole, *board]).describe() == "Straight, ten high"  # Hold'em rules
    hand = omaha_best(hole, board)
    assert hand.describe() == "Pair of nines"
    assert shown(hand) == "9s 9h Kh Tc 6s"


def test_omaha_on_the_flop_and_turn() -> None:
    assert omaha("Ah Kh 2c 3d", "Qh Jh Th").category is Category.ROYAL_FLUSH
    assert omaha("Ah Kh 2c 3d", "Qh Jh 5s Th").category is Category.ROYAL_FLUSH
    assert omaha("Ah Kd", "Qh Jh Th").describe() == "Straight, ace high"  # two hole cards only


def test_omaha_fast_path_and_brute_force_agree() -> None:
    rng = random.Random(11)
    for _ in range(1500):
        n_hole, n_board = rng.choice([(4, 5), (4, 5), (4, 3), (4, 4), (2, 5), (5, 5), (6, 5)])
        cards = rng.sample(FULL_DECK, n_hole + n_board)
        hole, board = cards[:n_hole], cards[n_hole:]
        brute = max(
            hand_value_int(pair + triple)
            for pair in combinations(hole, 2)
            for triple in combinations(board, 3)
        )
        hand = omaha_best(hole, board)
        assert hand.value == brute == omaha_value_int(hole, board)
        assert len(set(hand.cards) & set(hole)) == 2 and len(set(hand.cards) & set(board)) == 3


def test_omaha_hands_asked_again_are_the_same_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    # omaha_best keeps the hands it made lately: asked again (the same hole and board, in the
    # same order) it answers what it answered the first time, a different order is a different
    # question, a duplicated card is refused every time, and the store never outgrows its bound.
    monkeypatch.setattr(evaluation, "OMAHA_SEEN_MAX", 50)
    evaluation._OMAHA_SEEN.clear()
    rng = random.Random(5)
    asked = []
    for _ in range(300):
        cards = rng.sample(FULL_DECK, 9)
        hole, board = cards[:4], cards[4:]
        first = omaha_best(hole, board)
        asked.append((hole, board, first))
        assert len(evaluation._OMAHA_SEEN) <= 50
    for hole, board, first in asked:
        again = omaha_best(list(hole), tuple(board))
        assert (again.value, again.category, again.cards) == (first.value, first.category, first.cards)
        assert omaha_best(hole[::-1], board[::-1]).value == first.value
    hole, board = parse_cards("Ah Kd 2c 3c"), parse_cards("Kh Qh Jh Th 9h")
    omaha_best(hole, board)
    for _ in range(2):
        with pytest.raises(ValueError, match="twice"):
            omaha_best(parse_cards("Ah Ah 2c 3c"), board)
    evaluation._OMAHA_SEEN.clear()


def test_omaha_rejects_bad_card_counts() -> None:
    with pytest.raises(ValueError):
        omaha("Ah", "Kh Qh Jh")
    with pytest.raises(ValueError):
        omaha("Ah Kd 2c 3c", "Kh Qh")
    with pytest.raises(ValueError):
        omaha("Ah Kd 2c 3c", "Kh Qh Jh Th 9h 8h")
    with pytest.raises(ValueError, match="twice"):
        omaha("Ah Kd 2c 3c", "Ah Qh Jh")


def test_the_evaluator_imports_without_django() -> None:
    code = (
        "import sys; sys.modules['django'] = None\n"
        "import rules_engine.evaluation, rules_engine.batch, rules_engine.cli\n"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules"
        " if sys.modules[m] is not None)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.parametrize(
    "module", [evaluation, lowball, wild, openhand, batch], ids=lambda m: m.__name__
)
def test_the_docstring_examples_hold(module: ModuleType) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
