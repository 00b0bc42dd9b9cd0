"""Numbers as each language writes them."""

from __future__ import annotations

from fractions import Fraction

from django.utils import translation

from rulesdocs.templatetags import rulesdocs as tags


def test_numbers_per_language() -> None:
    assert tags.format_number(2598960, lang="en") == "2,598,960"
    assert tags.format_number(2598960, lang="he") == "2,598,960"
    assert tags.format_number(2598960, lang="ru") == "2\u00a0598\u00a0960"
    assert tags.format_number(37.5, 1, lang="ru") == "37,5"
    assert tags.format_number(-1500, lang="en") == "-1,500"


def test_filters_follow_the_active_language() -> None:
    with translation.override("ru"):
        assert tags.num(37.5) == "37,5" and tags.num(180.0) == "180" and tags.num(1000) == "1\u00a0000"
        assert tags.pct(0.4226) == "42,3\u00a0%" and tags.pct(0.4226, 4) == "42,26\u00a0%"
    with translation.override("en"):
        assert tags.pct(4 / 2598960, 4) == "0.0001539%"
        assert tags.pct(0) == "0%"
        assert tags.odds_against(649739.0) == "649,739\u00a0:\u00a01"
        assert tags.odds_against(1.3665) == "1.37\u00a0:\u00a01"
    with translation.override("fr"):
        assert tags.num(1000) == "1,000"  # any other language reads the English pages


def test_fractions_are_mixed_numbers() -> None:
    assert tags.fraction(Fraction(5, 3)) == "1\u00a02/3"
    assert tags.fraction(Fraction(2, 3)) == "2/3"
    assert tags.fraction(Fraction(6, 3)) == "2"
