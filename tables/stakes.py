"""What a table's stakes mean in its game's own terms.

A table stores two numbers, a small and a big blind: a rung of the stakes ladder (5-10 ...
500-1000, GAMES.md) or a private table's own pair. Each game's engine turns them into its own
structure (``setup_for_table`` in ``rules_engine.games``): blinds for Patch-Patch, Hold'em, Omaha
and draw; in the limit games, bets of the big blind and twice it; in stud, an ante, a bring-in
and those bets instead of blinds; Baseball antes 1 and bets 1 in play units whatever the table
says. The live table deals every hand from :func:`hand_setup`, and the pages describe stakes from
the same setup (:func:`stakes_terms`), so what a player reads is what the table deals.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from rules_engine.games import HandSetup, get_variant
from tables import baseball
from tables.models import LIVE_GAMES


def hand_setup(
    variant: Any, *, stacks: Sequence[Any], button: int, small_blind: int, big_blind: int,
    speed: str = "medium", public: bool = False,
) -> HandSetup:
    """The setup of a hand at a table with these blinds: the game's own ``setup_for_table``
    where it has one (every game but Patch-Patch), else the blinds as they are."""
    params: dict[str, Any] = {
        "stacks": tuple(stacks), "button": button, "small_blind": small_blind, "big_blind": big_blind,
        "speed": speed, "public": public,
    }
    if hasattr(variant, "setup_for_table"):
        return variant.setup_for_table(**params)  # type: ignore[no-any-return]
    return HandSetup(**params)


@dataclass(frozen=True)
class StakesTerms:
    """A table's stakes as its game plays them.

    ``kind``: ``blinds`` (no-limit and pot-limit games, Patch-Patch), ``limit`` (blinds and
    fixed bets), ``stud`` (ante, bring-in, fixed bets; no blinds) or ``units`` (Baseball)."""

    kind: str
    small_blind: int
    big_blind: int
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0

    def text(self) -> str:
        """Short and lower-case, for a tag or the middle of a line: "ante 2, bring-in 5, bets 10/20"."""
        if self.kind == "units":
            return _("ante %(ante)s, bet %(bet)s, play units") % {"ante": self.ante, "bet": self.small_bet}
        if self.kind == "stud":
            return _("ante %(ante)s, bring-in %(bring_in)s, bets %(small_bet)s/%(big_bet)s") % {
                "ante": self.ante, "bring_in": self.bring_in, "small_bet": self.small_bet, "big_bet": self.big_bet}
        if self.kind == "limit":
            return _("blinds %(small)s/%(big)s, bets %(small_bet)s/%(big_bet)s") % {
                "small": self.small_blind, "big": self.big_blind, "small_bet": self.small_bet, "big_bet": self.big_bet}
        return _("blinds %(small)s/%(big)s") % {"small": self.small_blind, "big": self.big_blind}


@functools.lru_cache(maxsize=1024)
def stakes_terms(game: str, small_blind: int, big_blind: int) -> StakesTerms:
    """The terms a table of ``game`` at these blinds plays, read from the setup it deals from."""
    variant = get_variant(game)
    setup = hand_setup(variant, stacks=(0, 0), button=0, small_blind=small_blind, big_blind=big_blind)
    if game == baseball.GAME:
        kind = "units"
    elif setup.bring_in:
        kind = "stud"
    elif setup.small_bet:
        kind = "limit"
    else:
        kind = "blinds"
    return StakesTerms(
        kind=kind, small_blind=setup.small_blind, big_blind=setup.big_blind, ante=setup.ante,
        bring_in=setup.bring_in, small_bet=setup.small_bet, big_bet=setup.big_bet,
    )


def stakes_text(game: str, small_blind: int, big_blind: int) -> str:
    """``stakes_terms(...).text()``; a game the engine does not know shows its blinds."""
    try:
        return stakes_terms(game, int(small_blind), int(big_blind)).text()
    except (KeyError, ValueError, TypeError):
        return _("blinds %(small)s/%(big)s") % {"small": small_blind, "big": big_blind}


# ---------------------------------------------------------------------------------------------
# The new-table forms' help: what the chosen stakes mean in the chosen game, and in every game

MAX_BLIND = 2_000_000


def _whole(raw: Any) -> int | None:
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return None
    return value if 0 < value <= MAX_BLIND else None


def blinds_from(data: Any, default: tuple[int, int] = (5, 10)) -> tuple[int, int]:
    """The blinds a new-table form stands at (sent or not yet valid): its own blinds when both
    are given and make sense, else the ladder choice ``stakes`` ("5-10"), else ``default``."""
    small, big = _whole(data.get("small_blind")), _whole(data.get("big_blind"))
    if small is not None and big is not None and small < big:
        return small, big
    parts = str(data.get("stakes") or "").split("-")
    if len(parts) == 2:
        small, big = _whole(parts[0]), _whole(parts[1])
        if small is not None and big is not None and small < big:
            return small, big
    return default


@dataclass(frozen=True)
class StakesHelp:
    game: str
    game_name: str
    small_blind: int
    big_blind: int
    text: str
    #: (names of the games that read the same, what it means), in the form's game order.
    rows: list[tuple[str, str]]

    @property
    def rung(self) -> str:
        """The stakes as the ladder names them, like 5/10 (one left-to-right run in Hebrew too)."""
        return f"{self.small_blind}/{self.big_blind}"


def stakes_help(*, games: Sequence[tuple[str, str]], game: Any, small_blind: int, big_blind: int) -> StakesHelp:
    """The help under a new-table form's stakes for ``game`` (any live game; else the first),
    and one line per group of games that play these blinds the same way."""
    codes = [code for code, _name in games if code in LIVE_GAMES]
    names = dict(games)
    chosen = game if game in codes else (codes[0] if codes else "PP")
    grouped: dict[str, list[str]] = {}
    for code in codes:
        grouped.setdefault(stakes_text(code, small_blind, big_blind), []).append(str(names[code]))
    return StakesHelp(
        game=chosen, game_name=str(names.get(chosen, chosen)), small_blind=small_blind, big_blind=big_blind,
        text=stakes_text(chosen, small_blind, big_blind),
        rows=[(", ".join(group), text) for text, group in grouped.items()],
    )


def stakes_help_for_form(form: Any, *, games: Sequence[tuple[str, str]]) -> StakesHelp:
    """The help a new-table form (the site's or a club's) shows as it stands: what was sent,
    else the form's initial values."""
    if form.is_bound:
        data: Any = form.data
    else:
        data = {name: field.initial for name, field in form.fields.items()} | dict(form.initial)
    small, big = blinds_from(data)
    return stakes_help(games=games, game=data.get("game") or "PP", small_blind=small, big_blind=big)
