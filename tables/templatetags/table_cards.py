"""``{% card_row %}``: a row of cards at the table, written in Python.

The table fragment is rendered for every viewer each time a table moves, and a Patch-Patch table
draws a dozen rows of cards; as an ``{% include %}`` they were most of the render's time (see
``bench/bench_hotpath.py``). The markup is the same as the include it replaces.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

register = template.Library()

_FACE_DOWN: dict[str, str] = {}


def _face_down() -> str:
    lang = get_language() or ""
    html = _FACE_DOWN.get(lang)
    if html is None:
        label = escape(_("face-down card"))
        html = f'<li class="card card--back"><span class="card__face" role="img" aria-label="{label}"></span></li>'
        _FACE_DOWN[lang] = html
    return html


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


@register.simple_tag
def card_row(cards: Any, size: str = "", blanks: int = 0, swappable: bool = False, discardable: bool = False) -> SafeString:
    """``cards``: ``[{"pic": CardPicture, "swap": "Ah" or "", "extra": bool} or {"hidden": True}]``;
    ``blanks``: empty slots still to come; ``swappable``: the cards are buttons that swap
    (arrangement); ``discardable``: the cards toggle for a draw."""
    parts = [f'<ul class="cards{" cards--" + escape(size) if size else ""}" dir="ltr">']
    for c in cards or ():
        if _get(c, "hidden"):
            parts.append(_face_down())
            continue
        pic = _get(c, "pic")
        classes = ["card", f"card--{pic.color}"]
        if pic.used:
            classes.append("card--used")
        elif pic.kicker:
            classes.append("card--idle")
        if pic.wild:
            classes.append("card--wild")
        if _get(c, "extra"):
            classes.append("card--extra")
        text = escape(pic.text)
        label = escape(pic.label)
        face = (f'<span class="card__rank" aria-hidden="true">{escape(pic.rank)}</span>'
                f'<span class="card__suit" aria-hidden="true">{escape(pic.suit)}</span>')
        swap = _get(c, "swap")
        if swappable and swap:
            inner = (f'<button type="button" class="card__face card__btn" data-swap="{escape(swap)}" '
                     f'draggable="true" aria-label="{label}">{face}</button>')
        elif discardable:
            inner = (f'<button type="button" class="card__face card__btn" data-discard="{text}" '
                     f'aria-pressed="false" aria-label="{label}">{face}</button>')
        else:
            inner = f'<span class="card__face" role="img" aria-label="{label}">{face}</span>'
        parts.append(f'<li class="{" ".join(classes)}" data-card="{text}">{inner}</li>')
    for _i in range(int(blanks or 0)):
        parts.append('<li class="card card--blank"><span class="card__face" aria-hidden="true"></span></li>')
    parts.append("</ul>")
    return mark_safe("".join(parts))  # noqa: S308 - every value above is escaped
