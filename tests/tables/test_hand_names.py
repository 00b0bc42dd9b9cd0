"""A high hand is named with its ranks at the showdown and under the player's cards (found by an
audit of the classic games: three seats read "High card" and the winner "+420 · High card").
Hebrew writes the ranks two to ten as numbers ("זוג 9"): its words for threes and fours are also
the words for three and four of a kind; Russian says "Пара девяток", as players do."""

from __future__ import annotations

import pytest
from django.utils import translation

from tables.handnames import hand_name
from tables.presenter import category_name

CASES = [
    ("high_card", "Ah Jd 8c 5s 2h", "Ace high", "קלף גבוה: אס", "Старшая карта: туз"),
    ("one_pair", "9h 9d Kc 5s 2h", "Pair of nines", "זוג 9", "Пара девяток"),
    ("two_pair", "Js Jd 4c 4h Ah", "Two pair, jacks and fours", "שני זוגות: נסיכים ו־4", "Две пары: валеты и четвёрки"),
    # Hebrew joins "and" to a word, with a maqaf only before a number (found by an audit).
    ("two_pair", "As Ad Kc Kh 2h", "Two pair, aces and kings", "שני זוגות: אסים ומלכים", "Две пары: тузы и короли"),
    ("three_of_a_kind", "6h 6d 6c Ks 2h", "Three of a kind, sixes", "שלישייה של 6", "Тройка шестёрок"),
    ("straight", "Kh Qd Jc Ts 9h", "Straight, king high", "סטרייט עד מלך", "Стрит до короля"),
    ("straight", "5h 4d 3c 2s Ah", "Straight, five high", "סטרייט עד 5", "Стрит до пятёрки"),
    ("flush", "Qh 9h 7h 4h 2h", "Flush, queen high", "פלאש עד מלכה", "Флеш до дамы"),
    ("full_house", "Kh Kd Kc 7s 7h", "Full house, kings full of sevens", "פול האוס: מלכים על 7", "Фулл-хаус: короли и семёрки"),
    ("four_of_a_kind", "2h 2d 2c 2s Ah", "Four of a kind, twos", "רביעייה של 2", "Каре двоек"),
    ("straight_flush", "9s 8s 7s 6s 5s", "Straight flush, nine high", "סטרייט פלאש עד 9", "Стрит-флеш до девятки"),
    ("royal_flush", "As Ks Qs Js Ts", "Royal flush", "רויאל פלאש", "Роял-флеш"),
]


@pytest.mark.parametrize(("category", "cards", "en", "he", "ru"), CASES)
def test_every_category_named_with_its_ranks(category: str, cards: str, en: str, he: str, ru: str) -> None:
    for lang, want in (("en", en), ("he", he), ("ru", ru)):
        with translation.override(lang):
            assert hand_name(category, cards.split(), category_name) == want


def test_without_its_five_cards_a_hand_keeps_its_categorys_name() -> None:
    assert hand_name("two_pair", ["Js", "Jd", "4c", "4h"], category_name) == "Two pair"
    assert hand_name("two_pair", None, category_name) == "Two pair"
    assert hand_name("two_pair", ["Js", "Jd", "4c", "4h", "zz"], category_name) == "Two pair"
    # Cards that make another hand (a wild card stood for another rank): only the category.
    assert hand_name("three_of_a_kind", ["Kh", "Kd", "3c", "7s", "2h"], category_name) == "Three of a kind"
    assert hand_name("low", ["7h", "5d", "3c", "2s", "Ah"], category_name) == "low"


def test_baseball_names_what_its_wild_cards_stand_for() -> None:
    """Found by an audit of Baseball: with wild threes and nines the seats said "showing: One
    pair" for Q-Q and for 9-3 (two wild cards: aces), and the winner "+39 · Straight flush"."""
    from rules_engine.cards import parse_cards
    from rules_engine.evaluation import best_wild_hand
    from rules_engine.openhand import open_hand_key

    wild = {3, 9}
    kings = best_wild_hand(parse_cards("Kh Kd Kc 3s 9h 2c 5d"), wild)
    assert kings.category.label == "five_of_a_kind"
    named = {}
    for lang in ("en", "he", "ru"):
        with translation.override(lang):
            named[lang] = hand_name(kings.category.label, [str(c) for c in kings.cards], category_name, ranks=kings.ranks)
    assert named["en"] == "Five of a kind, kings"
    assert named["ru"] == "Пять королей" and "מלכים" in named["he"]
    flush = best_wild_hand(parse_cards("7d 8h Ts 9s 6s 4h 5h 9h"), wild)
    assert hand_name(flush.category.label, None, category_name, ranks=flush.ranks) == "Straight flush, eight high"
    # Open cards, fewer than five: two wild cards are a pair of aces, a real pair of queens is less.
    category, ranks = open_hand_key(parse_cards("9c 3c"), wild)
    assert hand_name("one_pair", None, category_name, ranks=ranks) == "Pair of aces" and category == 1
    _c, queens = open_hand_key(parse_cards("Qh Qd"), wild)
    assert hand_name("one_pair", None, category_name, ranks=queens) == "Pair of queens"
    _c, sixes = open_hand_key(parse_cards("2c 3h 9c 6c"), wild)
    assert hand_name("three_of_a_kind", None, category_name, ranks=sixes) == "Three of a kind, sixes"
    # Ranks that do not fit the category say only the category.
    assert hand_name("two_pair", None, category_name, ranks=[99]) == "Two pair"


def test_a_name_is_kept_per_language() -> None:
    """Names are kept once made (every picture at a showdown asks again): the same cards asked in
    another language get that language's name, and a list or a tuple of them is one hand."""
    with translation.override("en"):
        first = hand_name("one_pair", ["9h", "9d", "Kc", "5s", "2h"], category_name)
    with translation.override("ru"):
        russian = hand_name("one_pair", ("9h", "9d", "Kc", "5s", "2h"), category_name)
    with translation.override("en"):
        again = hand_name("one_pair", ("9h", "9d", "Kc", "5s", "2h"), category_name)
    assert (first, russian, again) == ("Pair of nines", "Пара девяток", "Pair of nines")
