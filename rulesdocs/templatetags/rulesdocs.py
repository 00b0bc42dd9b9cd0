"""Numbers as each language writes them, and a few lookups the rules templates need.

English and Hebrew group thousands with a comma and use a decimal point; Russian groups with a
no-break space and uses a decimal comma ("2 598 960", "0,0240 %").
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from django import template

from rulesdocs.pages import doc_language
from tables.handreader import CATEGORY_NAMES

register = template.Library()

NBSP = "\u00a0"


def _group(digits: str, lang: str) -> str:
    sep = NBSP if lang == "ru" else ","
    out = []
    while len(digits) > 3:
        out.append(digits[-3:])
        digits = digits[:-3]
    out.append(digits)
    return sep.join(reversed(out))


def format_number(value: float | int, decimals: int = 0, lang: str | None = None) -> str:
    """``2598960`` -> ``2,598,960`` (``2 598 960`` in Russian); ``decimals`` places after the point.

    >>> format_number(2598960, lang="en"), format_number(37.5, 1, lang="ru")
    ('2,598,960', '37,5')
    """
    lang = lang or doc_language()
    text = f"{abs(value):.{decimals}f}"
    whole, _, frac = text.partition(".")
    out = _group(whole, lang)
    if frac:
        out += ("," if lang == "ru" else ".") + frac
    return ("-" if value < 0 else "") + out


def significant_decimals(x: float, digits: int = 3) -> int:
    """How many decimals show ``digits`` significant digits of ``x`` (at least 1, at most 8)."""
    if x == 0:
        return 1
    return max(1, min(8, digits - 1 - math.floor(math.log10(abs(x)))))


@register.filter
def num(value: Any) -> str:
    """A whole number, or a number with as many decimals as it has (37.5, 12)."""
    if isinstance(value, Fraction):
        return fraction(value)
    if isinstance(value, float) and not value.is_integer():
        return format_number(value, len(repr(value).partition(".")[2]))
    return format_number(int(value))


@register.filter
def pct(share: float, digits: int = 3) -> str:
    """A share (0..1) as a percentage with three significant digits: ``0.000154%``."""
    value = share * 100
    if value == 0:
        return "0" + (NBSP + "%" if doc_language() == "ru" else "%")
    text = format_number(value, significant_decimals(value, int(digits)))
    return text + (NBSP + "%" if doc_language() == "ru" else "%")


@register.filter
def odds_against(n: float) -> str:
    """Odds against, "N : 1": whole numbers from 10 up, two decimals below."""
    if math.isinf(n):
        return "—"
    return format_number(n, 0 if n >= 10 else 2) + NBSP + ":" + NBSP + "1"


@register.filter
def fraction(value: Fraction) -> str:
    """A mixed number: ``5/3`` -> ``1 2/3``."""
    whole, rest = divmod(value.numerator, value.denominator)
    if not rest:
        return format_number(whole)
    tail = f"{rest}/{value.denominator}"
    return f"{whole}{NBSP}{tail}" if whole else tail


@register.filter
def hand_name(label: str) -> str:
    """The name of a hand category (``full_house``) in the reader's language."""
    return str(CATEGORY_NAMES.get(label, label))


@register.filter
def get(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` for keys a template cannot write with a dot (``P1`` works; ``10`` not)."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return ""


@register.inclusion_tag("rulesdocs/_heading.html", takes_context=True)
def heading(context: template.Context, section_id: str) -> dict[str, Any]:
    """A section's ``<h2>`` with its title from the page registry and a link to its anchor."""
    page = context["page"]
    section = next(s for s in page.sections if s.id == section_id)
    return {"id": section_id, "title": section.title}


@register.filter
def split(text: str, sep: str = "|") -> list[str]:
    """``"Me|Dana"|split`` -> ``["Me", "Dana"]``: a short list written in a template."""
    return text.split(sep)
