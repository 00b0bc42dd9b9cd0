"""Readers for pages. No writes here."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _
from django.utils.functional import Promise


@dataclass(frozen=True)
class GameInfo:
    code: str
    name: str | Promise
    summary: str | Promise


def game_catalogue() -> list[GameInfo]:
    """The games the site runs, flagship first."""
    return [
        GameInfo("PP", _("Patch-Patch"),
                 _("12 cards each, three boards, two from your hand and three from the board on each, pot-only betting.")),
        GameInfo("NT", _("No-limit Hold'em"), _("Two hole cards, five on the board, any bet up to your stack.")),
        GameInfo("PO", _("Pot-limit Omaha"), _("Four hole cards, exactly two of them with three from the board.")),
        GameInfo("FT", _("Limit and pot-limit Hold'em"), _("Hold'em with fixed or pot-sized bets.")),
        GameInfo("FO/8", _("Omaha Hi-Lo"), _("Omaha with the pot split between the best high and the best eight-or-better low.")),
        GameInfo("F7S", _("Seven-card stud"), _("Two down, four up, one down; the best five of seven.")),
        GameInfo("FR", _("Razz"), _("Seven-card stud for the lowest hand; five-four-three-two-ace is the best.")),
        GameInfo("F7S/8", _("Stud Hi-Lo"), _("Seven-card stud with the pot split between high and an eight-or-better low.")),
        GameInfo("F5S", _("Five-card stud"), _("One card down, four up, four betting rounds.")),
        GameInfo("F5D", _("Five-card draw"), _("Five cards down, one draw of up to five cards.")),
        GameInfo("BB", _("Baseball"), _("Seven-card stud with wild threes and nines and a free card for every open four.")),
    ]
