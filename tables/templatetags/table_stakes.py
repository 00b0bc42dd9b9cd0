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
