"""A high hand named with its ranks, in the reader's language: "Two pair, jacks and fours",
"Straight, king high", "Ace high", as card rooms say them at a showdown.

Found by an audit of the classic games: three seats all read "High card" at a showdown and the
winner's line said "+420 · High card", which does not say why one high card beat another. The
engine's own descriptions are English only (``rules_engine.evaluation.describe_value``); these are
the same facts with translated rank names. A hand whose five cards are not all known keeps its
category's name; a Baseball hand (wild cards stand for other ranks) is named by the ranks the
engine resolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from rules_engine.cards import Card, CardParseError
from rules_engine.evaluation import Category, evaluate5

# A rank alone ("ace"), as the highest card of a high-card hand.
_ONE: dict[int, Callable[[], str]] = {
    14: lambda: pgettext("rank", "ace"), 13: lambda: pgettext("rank", "king"), 12: lambda: pgettext("rank", "queen"),
    11: lambda: pgettext("rank", "jack"), 10: lambda: pgettext("rank", "ten"), 9: lambda: pgettext("rank", "nine"),
    8: lambda: pgettext("rank", "eight"), 7: lambda: pgettext("rank", "seven"), 6: lambda: pgettext("rank", "six"),
    5: lambda: pgettext("rank", "five"), 4: lambda: pgettext("rank", "four"), 3: lambda: pgettext("rank", "three"),
    2: lambda: pgettext("rank", "two"),
}
# Several of a rank ("aces"): pairs, sets, full houses, fours.
_MANY: dict[int, Callable[[], str]] = {
    14: lambda: pgettext("ranks", "aces"), 13: lambda: pgettext("ranks", "kings"), 12: lambda: pgettext("ranks", "queens"),
    11: lambda: pgettext("ranks", "jacks"), 10: lambda: pgettext("ranks", "tens"), 9: lambda: pgettext("ranks", "nines"),
    8: lambda: pgettext("ranks", "eights"), 7: lambda: pgettext("ranks", "sevens"), 6: lambda: pgettext("ranks", "sixes"),
    5: lambda: pgettext("ranks", "fives"), 4: lambda: pgettext("ranks", "fours"), 3: lambda: pgettext("ranks", "threes"),
    2: lambda: pgettext("ranks", "twos"),
}
# Several of a rank after the hand's name ("Pair of aces", "Four of a kind, aces"): Russian says
# them in the genitive plural ("Пара тузов", "Каре тузов").
_OF: dict[int, Callable[[], str]] = {
    14: lambda: pgettext("ranks of", "aces"), 13: lambda: pgettext("ranks of", "kings"),
    12: lambda: pgettext("ranks of", "queens"), 11: lambda: pgettext("ranks of", "jacks"),
    10: lambda: pgettext("ranks of", "tens"), 9: lambda: pgettext("ranks of", "nines"),
    8: lambda: pgettext("ranks of", "eights"), 7: lambda: pgettext("ranks of", "sevens"),
    6: lambda: pgettext("ranks of", "sixes"), 5: lambda: pgettext("ranks of", "fives"),
    4: lambda: pgettext("ranks of", "fours"), 3: lambda: pgettext("ranks of", "threes"),
    2: lambda: pgettext("ranks of", "twos"),
}
# The top card of a straight or a flush ("Straight, king high"): Russian says it after "до",
# in the genitive ("Стрит до короля"), so it has words of its own.
_TOP: dict[int, Callable[[], str]] = {
    14: lambda: pgettext("top rank", "ace"), 13: lambda: pgettext("top rank", "king"),
    12: lambda: pgettext("top rank", "queen"), 11: lambda: pgettext("top rank", "jack"),
    10: lambda: pgettext("top rank", "ten"), 9: lambda: pgettext("top rank", "nine"),
    8: lambda: pgettext("top rank", "eight"), 7: lambda: pgettext("top rank", "seven"),
    6: lambda: pgettext("top rank", "six"), 5: lambda: pgettext("top rank", "five"),
    4: lambda: pgettext("top rank", "four"), 3: lambda: pgettext("top rank", "three"),
    2: lambda: pgettext("top rank", "two"),
}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def hand_name(
    category: str | None, cards: Sequence[str] | None, fallback: Callable[[str | None], str],
    ranks: Sequence[int] | None = None,
) -> str:
    """``category`` ("two_pair") with its ranks read from the five ``cards`` ("Js", "Jd", ...);
    ``fallback(category)`` (the category's own name) when they cannot be read.

    ``ranks`` (most important first, as the engine gives them) name it instead of the cards:
    Baseball's hands, whose wild cards stand for other ranks, and its open cards, fewer than five.
    """
    # Every picture of a table at its showdown names the same few hands again, for each viewer
    # and each action: a name is made once per language and kept (the same facts, the same words).
    key = (get_language(), category, tuple(cards) if cards else None, tuple(ranks) if ranks else None, fallback)
    name = _NAMES.get(key)
    if name is None:
        name = _hand_name(category, cards, fallback, ranks)
        if len(_NAMES) >= _NAMES_MAX:
            _NAMES.clear()
        _NAMES[key] = name
    return name


_NAMES: dict[tuple[object, ...], str] = {}
_NAMES_MAX = 20000


def _hand_name(
    category: str | None, cards: Sequence[str] | None, fallback: Callable[[str | None], str],
    ranks: Sequence[int] | None,
) -> str:
    if ranks:
        try:
            return _named(Category[str(category).upper()], tuple(int(r) for r in ranks), fallback, category)
        except (KeyError, ValueError, TypeError, IndexError):
            return fallback(category)
    if not cards or len(cards) != 5 or category in (None, "", "low"):
        return fallback(category)
    try:
        value = evaluate5([Card.parse(c) for c in cards])
    except (CardParseError, ValueError, TypeError):
        return fallback(category)
    if value.category.label != category:  # not the hand the cards make: say only what was said
        return fallback(category)
    return _named(value.category, value.ranks, fallback, category)


def _joined(text: str) -> str:
    """Hebrew's "and" (ו) is joined to the word after it, with a maqaf only before a number ("ו־4"):
    its two-pair sentence has the maqaf, and it goes where a word follows ("אסים ומלכים"; found by
    an audit). Only Hebrew text can hold the pair of letters."""
    return _MAQAF_BEFORE_WORD.sub("\u05d5", text)


_MAQAF_BEFORE_WORD = re.compile("\u05d5\u05be(?=[\u05d0-\u05ea])")


def _named(kind: Category, r: tuple[int, ...], fallback: Callable[[str | None], str], category: str | None) -> str:
    match kind:
        case Category.HIGH_CARD:
            return _capital(_("%(rank)s high") % {"rank": _ONE[r[0]]()})
        case Category.ONE_PAIR:
            return _("Pair of %(ranks)s") % {"ranks": _OF[r[0]]()}
        case Category.TWO_PAIR:
            return _joined(_("Two pair, %(high)s and %(low)s") % {"high": _MANY[r[0]](), "low": _MANY[r[2]]()})
        case Category.THREE_OF_A_KIND:
            return _("Three of a kind, %(ranks)s") % {"ranks": _OF[r[0]]()}
        case Category.STRAIGHT:
            return _("Straight, %(rank)s high") % {"rank": _TOP[r[0]]()}
        case Category.FLUSH:
            return _("Flush, %(rank)s high") % {"rank": _TOP[r[0]]()}
        case Category.FULL_HOUSE:
            return _("Full house, %(three)s full of %(two)s") % {"three": _MANY[r[0]](), "two": _MANY[r[3]]()}
        case Category.FOUR_OF_A_KIND:
            return _("Four of a kind, %(ranks)s") % {"ranks": _OF[r[0]]()}
        case Category.STRAIGHT_FLUSH:
            return _("Straight flush, %(rank)s high") % {"rank": _TOP[r[0]]()}
        case Category.FIVE_OF_A_KIND:
            return _("Five of a kind, %(ranks)s") % {"ranks": _OF[r[0]]()}
        case _:
            return fallback(category)
