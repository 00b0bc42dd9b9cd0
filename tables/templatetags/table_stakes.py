"""``{{ table|stakes }}``: a table's stakes in its game's own terms (``tables.stakes``).

Works on anything with ``game``, ``small_blind`` and ``big_blind``: a ``Table``, a lobby row, a
club page's ``ClubTable``.
"""

from __future__ import annotations

from typing import Any

from django import template

from tables.stakes import stakes_text

register = template.Library()


@register.filter(name="stakes")
def stakes(table: Any) -> str:
    return stakes_text(table.game, table.small_blind, table.big_blind)


@register.filter(name="game_name")
def game_name(code: Any) -> str:
    """A game's name in the page's language (``"NT"`` is "No-limit Hold'em")."""
    from tables.selectors import game_name as name

    return name(str(code))


# Each game's rules page (rulesdocs.pages): a newcomer at a table finds how it is played.
RULES_SLUGS = {
    "PP": "patchpatch", "NT": "holdem", "PT": "holdem", "FT": "holdem", "PO": "omaha", "FO": "omaha",
    "PO/8": "omaha", "FO/8": "omaha", "F5D": "draw", "P5D": "draw", "F5S": "stud5", "F7S": "stud7",
    "FR": "razz", "F7S/8": "stud8", "BB": "baseball",
}


RULES_SECTIONS = {"PO/8": "#hi-lo", "FO/8": "#hi-lo"}


@register.filter(name="rules_url")
def rules_url(code: Any) -> str:
    """The rules page of the game ``code`` ("NT" -> /rules/holdem/), or the rules' index."""
    from django.urls import reverse

    slug = RULES_SLUGS.get(str(code))
    if not slug:
        return reverse("rulesdocs:index")
    # Omaha Hi-Lo has its own section of the Omaha page (found by an audit: the link opened the
    # page's top, high-only Omaha).
    return reverse("rulesdocs:page", args=[slug]) + RULES_SECTIONS.get(str(code), "")
