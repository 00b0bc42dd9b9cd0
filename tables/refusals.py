"""What a player reads when the rules refuse their action, in their language.

The rules engine is pure Python with no Django, and its errors speak of engine seats ("it is seat
2's turn to act, not seat 0's"), in English. A player at the table sees one of the sentences
below instead, in the language of their page; the engine's own text stays in the logs and in
hand-history tools, where it is exact.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from rules_engine.errors import MalformedAction, OutOfTurn, RulesError

# (pattern in the engine's message, what the player reads), most specific first.
_KNOWN: list[tuple[re.Pattern[str], Promise]] = [
    (re.compile(r"the arrangement is over"), _("The arrangement is over: your three hands are fixed.")),
    (re.compile(r"already submitted its arrangement"), _("Your arrangement is already in.")),
    (re.compile(r"cards are arranged once the three flops are dealt"),
     _("Cards are arranged once the three flops are dealt.")),
    (re.compile(r"the betting resumes when every arrangement is in"),
     _("The betting goes on once everyone has arranged.")),
    (re.compile(r"the betting resumes when every seat has drawn"), _("The betting goes on once everyone has drawn.")),
    (re.compile(r"the draw comes after"), _("The draw comes after the first betting round.")),
    (re.compile(r"throws away at most"), _("That is more cards than you may throw away.")),
    (re.compile(r"the hand is over"), _("This hand is over.")),
    (re.compile(r"has folded"), _("You have folded this hand.")),
    (re.compile(r"does not hold"), _("Those are not your cards.")),
    (re.compile(r"a swap|swap needs"), _("A swap takes two different cards of yours.")),
    (re.compile(r"may not bet or raise now|nobody can bet now"), _("No bet or raise is possible now.")),
    (re.compile(r" to \[?[\d, .-]+\]?, not |is the only amount|takes no amount|whole number of chips"),
     _("That amount is not allowed here.")),
    (re.compile(r"a timeout "), _("Only the clock can do that.")),
]


def player_message(exc: RulesError) -> str:
    """The sentence a player reads for this refusal, in the active language."""
    text = str(exc)
    for pattern, message in _KNOWN:
        if pattern.search(text):
            return str(message)
    if isinstance(exc, OutOfTurn):
        return str(_("It is not your turn."))
    if isinstance(exc, MalformedAction):
        return str(_("That action could not be read."))
    return str(_("That is not allowed at this point of the hand."))
