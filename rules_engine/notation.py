"""Hand histories in the Poker Hand History format (PHH, uoftcprg/phh-std), read and written.

A PHH file is TOML: the game (``variant``, ``antes``, ``blinds_or_straddles``, ``min_bet``,
``starting_stacks``), the ``actions`` as short strings (``d dh p1 AhKh``, ``p2 cbr 30``,
``p1 cc``, ``p1 f``, ``p2 sm -``) and optional fields (``finishing_stacks``, ``winnings``,
``seats``, ``players``...). Fields starting with ``_`` are our own.

Patch-Patch (``variant = "PP"``) adds a little, documented in ``docs/hand-histories.md``:

* players are listed from the small blind (p1) round the table; heads-up the small blind is the
  button, so p1 is the button; ``blinds_or_straddles = [sb, bb]`` (or ``[sb, bb, 0]``) in that
  order; ``min_bet`` is the big blind;
* ``d dh pN C1...C12`` deals a player's 12 cards in dealt order;
* ``d db F1/F2/F3`` deals the three boards at once (three flops, then three turns, then three
  rivers), boards separated by ``/``;
* ``pN arr C1...C12`` is a player's final arrangement (cards 1-4 play board 1, 5-8 board 2,
  9-12 board 3) after the flops and before the flop betting; a player in the hand without one
  keeps the dealt order;
* a ``# timeout`` commentary marks an action the server applied when a clock ran out;
* ``_table_speed``, ``_public`` (rake only on public tables), ``_rake`` (checked on replay).

Every game has a small :class:`VariantNotation` hook: Patch-Patch (``PP``), Baseball (``BB``,
see :class:`BaseballNotation`) and the classic games (:class:`ClassicNotation`): the standard
codes ``NT``, ``FT``, ``PO``, ``FO/8``, ``F7S``, ``F7S/8``, ``FR`` exactly as phh-std defines
them, and our own ``PT``, ``FO``, ``PO/8``, ``F5S``, ``F5D``, ``P5D`` for the games it lacks.

>>> from rules_engine.games.patchpatch import PatchPatch
>>> from rules_engine.games import HandSetup
>>> import random
>>> state = PatchPatch.start(HandSetup((500, 500), 0, 5, 10), rng=random.Random(4))
>>> _ = state.apply(Action(0, "fold"))
>>> text = to_phh(state)
>>> replay_phh(text).stacks == state.stacks
True
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

import tomli_w

from rules_engine.cards import RANKS, Card, CardParseError
from rules_engine.errors import IllegalAction, MalformedAction, OutOfTurn, RulesError
from rules_engine.games import SPEEDS, Action, Event, HandSetup
from rules_engine.games.baseball import Baseball, BaseballState, parse_units, units_json
from rules_engine.games.classic import ClassicState, fill_deck
from rules_engine.games.patchpatch import (
    BOARDS,
    HAND_SIZE,
    PatchPatch,
    PatchPatchState,
    validate_setup,
)
from rules_engine.pots import clockwise_from_button

if TYPE_CHECKING:
    import argparse

__all__ = [
    "HistoryError",
    "ParsedHistory",
    "VariantNotation",
    "read_phh",
    "replay_phh",
    "replay_summary",
    "to_phh",
]


class HistoryError(MalformedAction):
    """A hand history that cannot be read (bad TOML, a missing field, an unreadable action)."""


def _fail(where: str, message: str) -> HistoryError:
    return HistoryError(f"{where}: {message}" if where else message)


def _parse_phh_cards(text: str, where: str) -> list[Card | None]:
    """``AhKd??`` -> cards, ``None`` for an unknown card (``??``)."""
    if len(text) % 2:
        raise _fail(where, f"{text!r} is not a run of two-character cards")
    out: list[Card | None] = []
    for k in range(0, len(text), 2):
        token = text[k : k + 2]
        if token == "??":
            out.append(None)
            continue
        if token[0] not in "23456789TJQKA" or token[1] not in "cdhs":
            raise _fail(where, f"{token!r} is not a card (write e.g. Ah, Td, 2c; ?? if unknown)")
        try:
            out.append(Card.parse(token))
        except CardParseError as exc:
            raise _fail(where, str(exc)) from None
    return out


def _phh_cards(cards: Sequence[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Line:
    """One parsed entry of ``actions``: who, what, its arguments, and the ``# commentary``."""

    index: int
    text: str
    actor: str  # "d" or "pN" ("" for a no-op)
    verb: str
    args: tuple[str, ...]
    comment: str

    @property
    def where(self) -> str:
        return f"action {self.index + 1} ({self.text.strip()!r})"

    @property
    def timeout(self) -> bool:
        return self.comment.strip().lower().startswith("timeout")


def _split_line(index: int, text: object) -> Line:
    if not isinstance(text, str):
        raise _fail(f"action {index + 1}", "every action is a string")
    body, _, comment = text.partition("#")
    tokens = body.split()
    if not tokens:
        return Line(index, text, "", "", (), comment)
    if len(tokens) < 2:
        raise _fail(f"action {index + 1} ({text.strip()!r})", "an action is an actor and a verb")
    return Line(index, text, tokens[0], tokens[1], tuple(tokens[2:]), comment)


@dataclass(frozen=True, slots=True)
class ParsedHistory:
    """A history read and replayed: the setup, the engine actions, the final state."""

    setup: HandSetup
    actions: tuple[Action, ...]
    state: Any  # the game's hand state (PatchPatchState, BaseballState, ClassicState...)
    players: tuple[int, ...]  # table seat of p1, p2, ...
    fields: Mapping[str, Any]


class VariantNotation:
    """What one game adds to PHH. Subclasses implement reading and writing for their code."""

    code = ""

    def read(self, fields: Mapping[str, Any], lines: list[Line]) -> ParsedHistory:
        raise NotImplementedError

    def write(
        self, state: Any, *, hide_unshown: bool, viewer: int | None, extra: Mapping[str, Any]
    ) -> str:
        raise NotImplementedError

    def summary(self, parsed: ParsedHistory, verbose: bool) -> dict[str, Any]:
        raise NotImplementedError


# -- Patch-Patch ------------------------------------------------------------------------------


def _int_list(fields: Mapping[str, Any], name: str, n: int | None = None) -> list[int]:
    value = fields.get(name)
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise _fail("", f"{name} must be a list of whole numbers")
    if n is not None and len(value) != n:
        raise _fail("", f"{name} has {len(value)} entries for {n} players")
    return list(value)


def _is_player_number(value: object, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= n


def _whole(text: str) -> bool:
    """An amount as a history writes one: ASCII digits ("²" and "٣" are digits to Python, and
    ``int`` refuses the first), short enough for ``int`` (over 4,300 digits it raises)."""
    return text.isascii() and text.isdigit() and len(text) <= 30


def _player(actor: str, n: int, where: str) -> int:
    """``p2`` -> 1 (0-based PHH index)."""
    if len(actor) < 2 or actor[0] != "p" or not (actor[1:].isascii() and actor[1:].isdigit() and len(actor) <= 4):
        raise _fail(where, f"{actor!r} is not a player (p1 to p{n}) or the dealer (d)")
    k = int(actor[1:])
    if not 1 <= k <= n:
        raise _fail(where, f"there is no {actor} in a {n}-player hand")
    return k - 1


class PatchPatchNotation(VariantNotation):
    """The ``PP`` variant: see the module docstring and ``docs/hand-histories.md``."""

    code = "PP"

    # -- seats ---------------------------------------------------------------------------------

    @staticmethod
    def players_of(button: int, n: int) -> tuple[int, ...]:
        """Table seats of p1..pN: from the small blind round the table (heads-up: the button)."""
        first = button if n == 2 else (button + 1) % n
        return tuple((first + k) % n for k in range(n))

    # -- reading -------------------------------------------------------------------------------

    def read(self, fields: Mapping[str, Any], lines: list[Line]) -> ParsedHistory:
        stacks_phh = _int_list(fields, "starting_stacks")
        n = len(stacks_phh)
        if n not in (2, 3):
            raise _fail("", f"Patch-Patch is played by 2 or 3 players, not {n}")
        antes = _int_list(fields, "antes", n)
        if any(antes):
            raise _fail("", "Patch-Patch has no antes: antes must be all 0")
        blinds = _int_list(fields, "blinds_or_straddles", n)
        sb, bb = blinds[0], blinds[1]
        if any(blinds[2:]) or not 0 < sb <= bb:
            raise _fail(
                "",
                "blinds_or_straddles lists the small blind then the big blind (p1, p2), "
                f"then zeros, e.g. [5, 10, 0]; got {blinds}",
            )
        min_bet = fields.get("min_bet")
        if min_bet != bb:
            raise _fail("", f"min_bet is the big blind ({bb}), not {min_bet!r}")
        speed = fields.get("_table_speed", "medium")
        if speed not in SPEEDS:
            raise _fail("", f"_table_speed is slow, medium or fast, not {speed!r}")
        public = fields.get("_public", False)
        if not isinstance(public, bool):
            raise _fail("", "_public is true or false")
        check_buy_in = fields.get("_check_buy_in", False)
        if not isinstance(check_buy_in, bool):
            raise _fail("", "_check_buy_in is true or false")

        # Table seats: from ``seats`` when given (their order round the table), else p1.. in order.
        seat_numbers = fields.get("seats")
        if seat_numbers is None:
            table_of = list(range(n))
        else:
            seat_numbers = _int_list(fields, "seats", n)
            if len(set(seat_numbers)) != n:
                raise _fail("", "seats must be different")
            ranked = sorted(seat_numbers)
            table_of = [ranked.index(s) for s in seat_numbers]
        button = table_of[0] if n == 2 else table_of[2]
        if tuple(table_of) != self.players_of(button, n):
            raise _fail(
                "",
                "seats must go round the table from the small blind (p1) to the button",
            )
        stacks = [0] * n
        for k, seat in enumerate(table_of):
            stacks[seat] = stacks_phh[k]

        # First pass: the cards, to stack the deck.
        holes: list[list[Card | None] | None] = [None] * n
        boards: list[list[Card | None]] = [[], [], []]
        streets = 0
        for line in lines:
            if line.actor != "d":
                continue
            if line.verb == "dh":
                if len(line.args) != 2:
                    raise _fail(line.where, "deal hole cards as 'd dh pN CARDS'")
                k = _player(line.args[0], n, line.where)
                if holes[k] is not None:
                    raise _fail(line.where, f"p{k + 1} is dealt twice")
                dealt = _parse_phh_cards(line.args[1], line.where)
                if len(dealt) != HAND_SIZE:
                    raise _fail(line.where, f"a Patch-Patch player is dealt {HAND_SIZE} cards, not {len(dealt)}")
                holes[k] = dealt
            elif line.verb == "db":
                if len(line.args) != 1:
                    raise _fail(line.where, "deal the boards as 'd db F1/F2/F3' (no spaces)")
                parts = line.args[0].split("/")
                want = 3 if streets == 0 else 1
                if streets >= 3:
                    raise _fail(line.where, "the boards are complete after three deals")
                if len(parts) != BOARDS:
                    raise _fail(line.where, "deal all three boards at once, separated by '/'")
                for b, part in enumerate(parts):
                    got = _parse_phh_cards(part, line.where)
                    if len(got) != want:
                        name = ("flop", "turn", "river")[streets]
                        raise _fail(line.where, f"each {name} is {want} card{'s' if want > 1 else ''}")
                    boards[b].extend(got)
                streets += 1
            else:
                raise _fail(line.where, f"the dealer deals hole cards (dh) or boards (db), not {line.verb!r}")
        by_seat: list[list[Card | None] | None] = [None] * n
        for k, seat in enumerate(table_of):
            by_seat[seat] = holes[k]
        try:
            deck = PatchPatch.stacked_deck(by_seat, button, boards)
        except RulesError as exc:
            raise _fail("", f"the cards dealt repeat a card ({exc})") from None
        setup = HandSetup(
            stacks=tuple(stacks),
            button=button,
            small_blind=sb,
            big_blind=bb,
            speed=speed,
            public=public,
            deck=deck,
            check_buy_in=check_buy_in,
        )
        validate_setup(setup)
        return self._replay(setup, fields, lines, tuple(table_of))

    def _replay(
        self,
        setup: HandSetup,
        fields: Mapping[str, Any],
        lines: list[Line],
        players: tuple[int, ...],
    ) -> ParsedHistory:
        n = len(players)
        state = PatchPatch.start(setup)
        actions: list[Action] = []
        streets_seen = 0
        dealt_holes = 0
        shown: set[int] = set()

        def apply(action: Action, line: Line) -> None:
            try:
                state.apply(action)
            except RulesError as exc:
                raise type(exc)(f"{line.where}: {exc}") from None
            actions.append(action)

        def close_arrangement(line: Line) -> None:
            # Everyone still arranging keeps the order they have (the dealt order).
            if state.phase == "arrange" and streets_seen >= 1:
                for seat in state.actors():
                    apply(Action(seat, "done"), line)

        for line in lines:
            if not line.actor:
                continue
            if line.actor == "d":
                if line.verb == "dh":
                    if actions:
                        raise _fail(line.where, "hole cards are dealt before anyone acts")
                    dealt_holes += 1
                    continue
                # d db: the engine deals by itself; check the history agrees on when.
                if dealt_holes != n:
                    raise _fail(line.where, "every player's cards are dealt before the boards")
                if streets_seen >= 1:
                    close_arrangement(line)
                streets_seen += 1
                dealt = len(state.boards[0])
                need = (3, 4, 5)[streets_seen - 1]
                if dealt < need:
                    name = ("flops", "turns", "rivers")[streets_seen - 1]
                    raise IllegalAction(f"{line.where}: the {name} are dealt before the betting before them is over")
                continue
            k = _player(line.actor, n, line.where)
            seat = players[k]
            if dealt_holes != n:
                raise _fail(line.where, "every player's cards are dealt before anyone acts")
            verb = line.verb
            if verb == "arr":
                if state.phase != "arrange" or streets_seen != 1:
                    raise IllegalAction(f"{line.where}: arrangements come after the flops, before the flop betting")
                if len(line.args) != 1:
                    raise _fail(line.where, "write 'pN arr C1...C12' (12 cards, no spaces)")
                order = _parse_phh_cards(line.args[0], line.where)
                if None in order:
                    raise _fail(line.where, "an arrangement lists known cards")
                known = tuple(c for c in order if c is not None)
                if len(known) != HAND_SIZE:
                    raise _fail(line.where, f"an arrangement lists {HAND_SIZE} cards, not {len(known)}")
                apply(Action(seat, "arrange", order=known), line)
                apply(Action(seat, "done", timeout=line.timeout), line)
                continue
            if verb == "sm":
                if not state.is_over or state.result is None or not state.result.showdown:
                    raise IllegalAction(f"{line.where}: hands are shown at the showdown")
                if seat not in state.result.shown:
                    raise IllegalAction(f"{line.where}: p{k + 1} is not in the showdown")
                if seat in shown:
                    raise _fail(line.where, f"p{k + 1} shows twice")
                if not line.args:
                    raise IllegalAction(
                        f"{line.where}: every hand still in is shown in Patch-Patch; write 'pN sm -'"
                    )
                if line.args != ("-",):
                    got = _parse_phh_cards("".join(line.args), line.where)
                    mine = state.hand_of(seat)
                    if len(got) != HAND_SIZE or any(c is not None and c not in mine for c in got):
                        raise IllegalAction(f"{line.where}: p{k + 1} shows cards it does not hold")
                shown.add(seat)
                continue
            # Betting.
            close_arrangement(line)
            dealt_now = (0, 0, 0, 1, 2, 3)[len(state.boards[0])]
            if dealt_now > streets_seen:
                name = ("flops", "turns", "rivers")[dealt_now - 1]
                raise _fail(line.where, f"the {name} were dealt: a 'd db' line is missing before this")
            legal = state.legal_actions(seat)
            if verb == "f":
                if line.args:
                    raise _fail(line.where, "f takes no amount")
                action = Action(seat, "fold", timeout=line.timeout)
            elif verb == "cc":
                if line.args:
                    raise _fail(line.where, "cc takes no amount")
                kind = "check" if any(la.kind == "check" for la in legal) else "call"
                action = Action(seat, kind, timeout=line.timeout)
            elif verb == "cbr":
                if len(line.args) != 1 or not _whole(line.args[0]):
                    raise _fail(line.where, "write 'pN cbr AMOUNT' with a whole number (raise-to)")
                to = int(line.args[0])
                match = [la for la in legal if la.kind in ("bet_pot", "raise_pot", "all_in")]
                if not match:
                    if state.to_act is not None and state.to_act != seat:
                        raise IllegalAction(f"{line.where}: it is p{players.index(state.to_act) + 1}'s turn")
                    raise IllegalAction(f"{line.where}: p{k + 1} may not bet or raise now")
                la = match[0]
                if la.to != to:
                    raise IllegalAction(
                        f"{line.where}: pot-only betting: p{k + 1} may only {la.label.lower()}, not {to}"
                    )
                action = Action(seat, la.kind, amount=la.amount)
            elif verb in ("pb", "sd"):
                raise IllegalAction(f"{line.where}: Patch-Patch has no bring-in and no draw")
            else:
                raise _fail(line.where, f"unknown action {verb!r} (use f, cc, cbr, arr or sm)")
            apply(action, line)

        self._check_totals(state, fields, players)
        return ParsedHistory(setup, tuple(actions), state, players, fields)

    @staticmethod
    def _check_totals(state: PatchPatchState, fields: Mapping[str, Any], players: tuple[int, ...]) -> None:
        n = len(players)
        expected = fields.get("finishing_stacks")
        if expected is not None:
            want = _int_list(fields, "finishing_stacks", n)
            got = [state.stacks[seat] for seat in players]
            if want != got:
                raise IllegalAction(f"finishing_stacks say {want}, the replay gives {got}")
        result = state.result
        if result is None:
            return
        if fields.get("winnings") is not None:
            want = _int_list(fields, "winnings", n)
            got = [result.payouts[seat] for seat in players]
            if want != got:
                raise IllegalAction(f"winnings say {want}, the replay gives {got}")
        rake = fields.get("_rake")
        if rake is not None and rake != result.rake:
            raise IllegalAction(f"_rake says {rake}, the replay gives {result.rake}")

    # -- writing -------------------------------------------------------------------------------

    def write(
        self, state: Any, *, hide_unshown: bool, viewer: int | None, extra: Mapping[str, Any]
    ) -> str:
        if not isinstance(state, PatchPatchState):
            raise TypeError("to_phh needs a Patch-Patch hand state")
        setup = state.setup
        n = state.n
        players = self.players_of(setup.button, n)
        name = {seat: f"p{k + 1}" for k, seat in enumerate(players)}
        result = state.result
        shown = set(result.shown) if result is not None else set()

        def hidden(seat: int) -> bool:
            return hide_unshown and seat not in shown and seat != viewer

        lines: list[str] = []
        for seat in players:
            dealt: Sequence[Card | None] = state.dealt[seat]
            if hidden(seat):
                dealt = [None] * HAND_SIZE
            lines.append(f"d dh {name[seat]} {_phh_cards(dealt)}")

        # Replay the log on a fresh hand to learn when each street was dealt.
        timed_out_done = {a.seat for a in state.log if a.kind == "done" and a.timeout}
        fresh = PatchPatch.start(setup)

        def deals(events: Sequence[Event]) -> None:
            for street in ("flop", "turn", "river"):
                dealt = [e for e in events if e.kind == street]
                if not dealt:
                    continue
                lines.append("d db " + "/".join(_phh_cards(e.cards) for e in dealt))
                if street != "flop":
                    continue
                for seat in players:
                    # Folded before the flops, still arranging, or never shown (when hiding):
                    # no arrangement line.
                    if fresh.folded[seat] or hidden(seat):
                        continue
                    if state.phase == "arrange" and not state.submitted[seat]:
                        continue
                    text = f"{name[seat]} arr {_phh_cards(state.hand_of(seat))}"
                    if seat in timed_out_done:
                        text += " # timeout"
                    lines.append(text)

        deals(fresh.start_events)
        for action in state.log:
            events = fresh.apply(action)
            if action.kind in ("fold", "check", "call", "bet_pot", "raise_pot", "all_in"):
                text = f"{name[action.seat]} "
                if action.kind == "fold":
                    text += "f"
                elif action.kind in ("check", "call"):
                    text += "cc"
                else:
                    to = next(
                        e.amount
                        for e in events
                        if e.seat == action.seat and e.kind in ("bet", "raise", "all_in")
                    )
                    text += f"cbr {to}"
                if action.timeout:
                    text += " # timeout"
                lines.append(text)
            deals(events)
        if result is not None and result.showdown:
            for seat in players:
                if seat in shown:
                    lines.append(f"{name[seat]} sm -")

        out: dict[str, Any] = {
            "variant": "PP",
            "antes": [0] * n,
            "blinds_or_straddles": [setup.small_blind, setup.big_blind] + [0] * (n - 2),
            "min_bet": setup.big_blind,
            "starting_stacks": [setup.stacks[seat] for seat in players],
            "seats": [seat + 1 for seat in players],
            "actions": lines,
            "finishing_stacks": [state.stacks[seat] for seat in players],
        }
        if result is not None:
            out["winnings"] = [result.payouts[seat] for seat in players]
        out["_table_speed"] = setup.speed
        out["_public"] = setup.public
        if setup.check_buy_in:
            out["_check_buy_in"] = True
        if result is not None:
            out["_rake"] = result.rake
        for key, value in extra.items():
            if key in out:
                raise ValueError(f"{key} is written by the engine")
            out[key] = value
        return _dump_toml(out)

    # -- summary -------------------------------------------------------------------------------

    def summary(self, parsed: ParsedHistory, verbose: bool) -> dict[str, Any]:
        state = parsed.state
        players = parsed.players
        out: dict[str, Any] = {"finishing_stacks": [state.stacks[seat] for seat in players]}
        if not verbose:
            return out
        name = {seat: f"p{k + 1}" for k, seat in enumerate(players)}
        result = state.result
        out["over"] = state.is_over
        out["phase"] = state.phase
        out["boards"] = ["".join(map(str, b)) for b in state.boards]
        if result is None:
            return out
        out["showdown"] = result.showdown
        out["rake"] = result.rake
        out["winnings"] = [result.payouts[seat] for seat in players]
        out["scoop"] = None if result.scoop is None else name[result.scoop]
        out["pots"] = [
            {
                "amount": pot.amount,
                "rake": pot.rake,
                "players": [name[s] for s in players if s in pot.eligible],
                "winnings": {name[s]: pot.payouts[s] for s in players if pot.payouts[s]},
                "boards": [
                    {
                        "board": b.board + 1,
                        "share": b.share,
                        "winners": [
                            {
                                "player": name[w.seat],
                                "amount": w.amount,
                                "cards": "".join(map(str, w.cards)),
                                "hand": w.description,
                            }
                            for w in sorted(b.winners, key=lambda w: players.index(w.seat))
                        ],
                    }
                    for b in pot.boards
                ],
            }
            for pot in result.pots
        ]
        return out


_NOTATIONS: dict[str, VariantNotation] = {"PP": PatchPatchNotation()}


# -- Baseball ---------------------------------------------------------------------------------

_BB_WILDS = [RANKS[r - 2] for r in sorted(Baseball.WILD_RANKS)]
_BB_FREE_CARD = RANKS[Baseball.FREE_CARD_RANK - 2]


def _bb_number(x: Fraction) -> int | float:
    """A balance for a standard PHH number field: exact when whole, else the nearest float."""
    return x.numerator if x.denominator == 1 else float(x)


def _bb_dump(data: Mapping[str, Any]) -> str:
    """:func:`_dump_toml`, but a list of numbers with floats in it stays on one line."""
    out = []
    for key, value in data.items():
        if isinstance(value, list) and any(isinstance(v, float) for v in value):
            out.append(f"{key} = [{', '.join(repr(v) for v in value)}]\n")
        else:
            out.append(_dump_toml({key: value}))
    return "".join(out)


def _bb_units(fields: Mapping[str, Any], name: str, n: int) -> list[Fraction]:
    """``_exact_<name>`` (exact text such as "5/3") when present, else ``name`` (whole numbers)."""
    exact = fields.get(f"_exact_{name}")
    if exact is None:
        return [Fraction(v) for v in _int_list(fields, name, n)]
    if not isinstance(exact, list) or len(exact) != n:
        raise _fail("", f"_exact_{name} lists one exact value per player ({n})")
    try:
        return [parse_units(v, f"_exact_{name}") for v in exact]
    except RulesError as exc:
        raise _fail("", str(exc)) from None


class BaseballNotation(VariantNotation):
    """The ``BB`` variant (Baseball): see ``docs/hand-histories.md``.

    Players are listed from the dealer's left (p1, dealt first) round to the dealer (pN). One
    ``d dh pN CARDS`` line per player per deal, in deal order: round 1 is the two down cards, the
    up card and its free cards; rounds 2-4 the up card and its free cards; round 5 the down card.
    Down cards may be ``??``; up cards never are. Balances that are not whole are also written
    exactly in ``_exact_*`` fields.
    """

    code = "BB"

    @staticmethod
    def players_of(dealer: int, n: int) -> tuple[int, ...]:
        """Table seats of p1..pN: from the dealer's left round to the dealer."""
        return Baseball.deal_order(dealer, n)

    def read(self, fields: Mapping[str, Any], lines: list[Line]) -> ParsedHistory:
        raw = fields.get("starting_stacks")
        n = len(raw) if isinstance(raw, list) else 0
        if not Baseball.MIN_PLAYERS <= n <= Baseball.MAX_PLAYERS:
            raise _fail("", f"Baseball is played by 2 to 6 players, not {n}")
        stacks_phh = _bb_units(fields, "starting_stacks", n)
        if _int_list(fields, "antes", n) != [Baseball.ANTE] * n:
            raise _fail("", f"every Baseball player antes {Baseball.ANTE}: antes = {[1] * n}")
        for name in ("small_bet", "big_bet"):
            if fields.get(name) != Baseball.BET:
                raise _fail("", f"{name} is {Baseball.BET}: Baseball bets 1 in every round")
        if any(fields.get("blinds_or_straddles") or []) or fields.get("bring_in"):
            raise _fail("", "Baseball has no blinds and no bring-in, only antes")
        if fields.get("_wild_ranks", _BB_WILDS) != _BB_WILDS:
            raise _fail("", f"this engine plays 3s and 9s wild: _wild_ranks = {_BB_WILDS}")
        if fields.get("_free_card", _BB_FREE_CARD) != _BB_FREE_CARD:
            raise _fail("", 'this engine gives the free card for an open 4: _free_card = "4"')
        speed = fields.get("_table_speed", "medium")
        if speed not in SPEEDS:
            raise _fail("", f"_table_speed is slow, medium or fast, not {speed!r}")
        public = fields.get("_public", False)
        if not isinstance(public, bool):
            raise _fail("", "_public is true or false")
        seat_numbers = fields.get("seats")
        if seat_numbers is None:
            table_of = list(range(n))
        else:
            seat_numbers = _int_list(fields, "seats", n)
            if len(set(seat_numbers)) != n:
                raise _fail("", "seats must be different")
            ranked = sorted(seat_numbers)
            table_of = [ranked.index(s) for s in seat_numbers]
        dealer = table_of[-1]
        if tuple(table_of) != self.players_of(dealer, n):
            raise _fail("", "seats must go round the table from the dealer's left (p1) to the dealer")
        stacks = [Fraction(0)] * n
        for k, seat in enumerate(table_of):
            stacks[seat] = stacks_phh[k]

        # First pass: the cards of each deal (a run of 'd dh' lines), to stack the deck.
        streets: list[dict[int, list[Card | None]]] = []
        in_run = False
        for line in lines:
            if not line.actor:
                continue
            if line.actor != "d":
                in_run = False
                continue
            if line.verb != "dh" or len(line.args) != 2:
                raise _fail(line.where, "Baseball has no board: deal as 'd dh pN CARDS'")
            if not in_run:
                streets.append({})
                in_run = True
            k = _player(line.args[0], n, line.where)
            if table_of[k] in streets[-1]:
                raise _fail(line.where, f"p{k + 1} is dealt twice in round {len(streets)}")
            got = _parse_phh_cards(line.args[1], line.where)
            r = len(streets)
            hidden_ok = (0, 1) if r == 1 else (0,) if r == Baseball.ROUNDS else ()
            if any(c is None and i not in hidden_ok for i, c in enumerate(got)):
                raise _fail(line.where, "up cards are dealt face up: write them, not ??")
            streets[-1][table_of[k]] = got
        try:
            deck = Baseball.deck_for_streets(streets, dealer, n)
            setup = Baseball.setup_for_table(
                stacks=stacks, button=dealer, speed=speed, public=public, deck=deck
            )
        except RulesError as exc:
            raise _fail("", f"the cards dealt cannot come from one deck: {exc}") from None
        return self._replay(setup, fields, lines, tuple(table_of))

    def _replay(
        self,
        setup: HandSetup,
        fields: Mapping[str, Any],
        lines: list[Line],
        players: tuple[int, ...],
    ) -> ParsedHistory:
        n = len(players)
        state = Baseball.start(setup)
        actions: list[Action] = []
        street = 0
        in_run = False
        dealt: set[int] = set()
        for line in lines:
            if not line.actor:
                continue
            if line.actor == "d":
                k = _player(line.args[0], n, line.where)
                seat = players[k]
                if not in_run:
                    street, in_run, dealt = street + 1, True, set()
                    if state.is_over or state.round != street:
                        raise IllegalAction(
                            f"{line.where}: round {street}'s cards come only once the betting "
                            "before them is over"
                        )
                want = state.dealt_in(seat, street)
                got = _parse_phh_cards(line.args[1], line.where)
                if not want:
                    raise IllegalAction(f"{line.where}: p{k + 1} has folded and gets no more cards")
                if len(got) != len(want) or any(
                    c is not None and c != d.card for c, d in zip(got, want, strict=False)
                ):
                    raise IllegalAction(
                        f"{line.where}: the deal gives p{k + 1} "
                        f"{_phh_cards([d.card for d in want])} in round {street}"
                    )
                dealt.add(seat)
                continue
            in_run = False
            k = _player(line.actor, n, line.where)
            seat = players[k]
            if line.verb == "sm":
                result = state.result
                if result is None or not result.showdown or seat not in result.shown:
                    raise IllegalAction(f"{line.where}: only hands still in at the showdown are shown")
                if line.args and line.args != ("-",):
                    got = _parse_phh_cards("".join(line.args), line.where)
                    if sorted(c for c in got if c is not None) != sorted(state.hand_of(seat)):
                        raise IllegalAction(f"{line.where}: p{k + 1} shows cards it does not hold")
                continue
            if street < state.round:
                raise _fail(line.where, f"round {state.round}'s cards are dealt: a 'd dh' line is missing")
            missing = [
                f"p{players.index(s) + 1}"
                for s in state.in_hand
                if state.dealt_in(s, street) and s not in dealt
            ]
            if missing:
                raise _fail(line.where, f"round {street} has no 'd dh' line for {', '.join(missing)}")
            verb, timeout = line.verb, line.timeout
            if verb in ("f", "cc") and line.args:
                raise _fail(line.where, f"{verb} takes no amount")
            if verb == "f":
                action = Action(seat, "fold", timeout=timeout)
            elif verb == "cc":
                legal = state.legal_actions(seat)
                kind = "check" if any(la.kind == "check" for la in legal) else "call"
                action = Action(seat, kind, timeout=timeout)
            elif verb == "cbr":
                if len(line.args) != 1 or not _whole(line.args[0]):
                    raise _fail(line.where, "write 'pN cbr AMOUNT' with a whole number (raise-to)")
                to = int(line.args[0])
                match = [la for la in state.legal_actions(seat) if la.kind in ("bet", "raise")]
                if not match and state.to_act == seat:
                    raise IllegalAction(f"{line.where}: p{k + 1} may not bet or raise now")
                if match and match[0].to != to:
                    raise IllegalAction(
                        f"{line.where}: fixed limit: p{k + 1} may only {match[0].label.lower()}"
                    )
                action = Action(seat, match[0].kind if match else "bet")
            elif verb in ("pb", "sd"):
                raise IllegalAction(f"{line.where}: Baseball has no bring-in and no draw")
            else:
                raise _fail(line.where, f"unknown action {verb!r} (use f, cc, cbr or sm)")
            if state.to_act is not None and state.to_act != seat:
                turn = players.index(state.to_act) + 1
                raise OutOfTurn(f"{line.where}: it is p{turn}'s turn, not p{k + 1}'s")
            try:
                state.apply(action)
            except RulesError as exc:
                raise type(exc)(f"{line.where}: {exc}") from None
            actions.append(action)
        self._check_totals(state, fields, players)
        # ParsedHistory.state is annotated with Patch-Patch's state; it holds any game's.
        return ParsedHistory(setup, tuple(actions), cast(Any, state), players, fields)

    @staticmethod
    def _check_totals(
        state: BaseballState, fields: Mapping[str, Any], players: tuple[int, ...]
    ) -> None:
        n = len(players)
        if "finishing_stacks" in fields or "_exact_finishing_stacks" in fields:
            want = _bb_units(fields, "finishing_stacks", n)
            got = [state.stacks[seat] for seat in players]
            if want != got:
                raise IllegalAction(
                    f"finishing_stacks say {[units_json(x) for x in want]}, "
                    f"the replay gives {[units_json(x) for x in got]}"
                )
        result = state.result
        if result is not None and ("winnings" in fields or "_exact_winnings" in fields):
            want = _bb_units(fields, "winnings", n)
            got = [result.payouts[seat] for seat in players]
            if want != got:
                raise IllegalAction(
                    f"winnings say {[units_json(x) for x in want]}, "
                    f"the replay gives {[units_json(x) for x in got]}"
                )

    def write(
        self, state: Any, *, hide_unshown: bool, viewer: int | None, extra: Mapping[str, Any]
    ) -> str:
        if not isinstance(state, BaseballState):
            raise TypeError("to_phh needs a Baseball hand state")
        n = state.n
        players = self.players_of(state.dealer, n)
        name = {seat: f"p{k + 1}" for k, seat in enumerate(players)}
        result = state.result
        shown = set(result.shown) if result is not None else set()
        lines: list[str] = []

        def deal(round_: int) -> None:
            for seat in players:
                cards = state.dealt_in(seat, round_)
                if not cards:
                    continue
                hide = hide_unshown and seat not in shown and seat != viewer
                text = "".join("??" if hide and not d.up else str(d.card) for d in cards)
                note = " # free card for an open 4" if any(d.extra for d in cards) else ""
                lines.append(f"d dh {name[seat]} {text}{note}")

        fresh = Baseball.start(state.setup)
        deal(1)
        for action in state.log:
            before = fresh.round
            events = fresh.apply(action)
            text = f"{name[action.seat]} "
            if action.kind == "fold":
                text += "f"
            elif action.kind in ("check", "call"):
                text += "cc"
            else:
                to = next(e.amount for e in events if e.kind == action.kind)
                text += f"cbr {to}"
            lines.append(text + (" # timeout" if action.timeout else ""))
            if fresh.round > before:
                deal(fresh.round)
        if result is not None and result.showdown:
            lines.extend(f"{name[seat]} sm -" for seat in players if seat in shown)

        def numbers(key: str, values: Sequence[Fraction], out: dict[str, Any]) -> None:
            out[key] = [_bb_number(v) for v in values]
            if any(v.denominator != 1 for v in values):
                out[f"_exact_{key}"] = [units_json(v) for v in values]

        out: dict[str, Any] = {
            "variant": "BB",
            "antes": [Baseball.ANTE] * n,
            "small_bet": Baseball.BET,
            "big_bet": Baseball.BET,
        }
        numbers("starting_stacks", [state.start_stacks[s] for s in players], out)
        out["seats"] = [seat + 1 for seat in players]
        out["actions"] = lines
        numbers("finishing_stacks", [state.stacks[s] for s in players], out)
        if result is not None:
            numbers("winnings", [result.payouts[s] for s in players], out)
        out["_wild_ranks"] = _BB_WILDS
        out["_free_card"] = _BB_FREE_CARD
        out["_table_speed"] = state.setup.speed
        out["_public"] = state.setup.public
        for key, value in extra.items():
            if key in out:
                raise ValueError(f"{key} is written by the engine")
            out[key] = value
        return _bb_dump(out)

    def summary(self, parsed: ParsedHistory, verbose: bool) -> dict[str, Any]:
        state = cast(BaseballState, parsed.state)
        players = parsed.players

        def plain(x: Fraction) -> int | str:
            return x.numerator if x.denominator == 1 else units_json(x)

        out: dict[str, Any] = {"finishing_stacks": [plain(state.stacks[s]) for s in players]}
        if not verbose:
            return out
        name = {seat: f"p{k + 1}" for k, seat in enumerate(players)}
        out["over"] = state.is_over
        out["phase"] = state.phase
        out["round"] = state.round
        out["up"] = [_phh_cards(state.up_cards(s)) for s in players]
        result = state.result
        if result is None:
            return out
        out["showdown"] = result.showdown
        out["pot"] = result.pot
        out["winnings"] = [plain(result.payouts[s]) for s in players]
        out["hands"] = [
            {
                "player": name[h.seat],
                "cards": _phh_cards(h.best.cards),
                "hand": h.best.describe(),
                "won": plain(result.payouts[h.seat]),
            }
            for h in sorted(result.hands, key=lambda h: players.index(h.seat))
        ]
        return out


_NOTATIONS["BB"] = BaseballNotation()


# -- Hold'em, Omaha, stud and draw --------------------------------------------------------------


def _uniform(fields: Mapping[str, Any], name: str, n: int, what: str) -> int:
    values = _int_list(fields, name, n)
    if len(set(values)) > 1:
        raise _fail("", f"{name} must be the same for every player ({what}); got {values}")
    return values[0]


def _positive(fields: Mapping[str, Any], name: str) -> int:
    value = fields.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise _fail("", f"{name} must be a positive whole number, not {value!r}")
    return value


def _check_classic_totals(state: Any, fields: Mapping[str, Any], players: tuple[int, ...]) -> None:
    n = len(players)
    if fields.get("finishing_stacks") is not None:
        want = _int_list(fields, "finishing_stacks", n)
        got = [state.stacks[seat] for seat in players]
        if want != got:
            raise IllegalAction(f"finishing_stacks say {want}, the replay gives {got}")
    result = state.result
    if result is None:
        return
    if fields.get("winnings") is not None:
        want = _int_list(fields, "winnings", n)
        got = [result.payouts[seat] for seat in players]
        if want != got:
            raise IllegalAction(f"winnings say {want}, the replay gives {got}")
    rake = fields.get("_rake")
    if rake is not None and rake != result.rake:
        raise IllegalAction(f"_rake says {rake}, the replay gives {result.rake}")


def _flag(fields: Mapping[str, Any], name: str) -> bool:
    value = fields.get(name, False)
    if not isinstance(value, bool):
        raise _fail("", f"{name} is true or false")
    return value


class _Hidden:
    """A card a history hides (``??``), while the draw is rebuilt: compared by identity."""

    __slots__ = ()


@dataclass(slots=True)
class _Draw:
    """One seat's draw in a five-card draw history: what it threw away and was dealt."""

    seat: int
    discards: list[Card | None]
    replacements: list[Card | None]


class ClassicNotation(VariantNotation):
    """The standard PHH variants ``NT``, ``FT``, ``PO``, ``FO/8``, ``F7S``, ``F7S/8``, ``FR``
    exactly as phh-std defines them, and ours for the games it lacks: ``PT``, ``FO``, ``PO/8``,
    ``F5S``, ``F5D``, ``P5D`` (same fields, same action grammar). See ``docs/hand-histories.md``.

    Player order is PHH's: p1 is the first seat left of the button and pN the button, so in
    button games p1 posts the small blind (heads-up p1 is the big blind: phh-std reverses the
    blinds for two players) and in stud p1 is the first seat dealt. ``blinds_or_straddles`` is
    written ``[sb, bb, 0, ...]`` (p3's straddle of twice the big blind in place of its 0, and minus
    the big blind for a player posting one to come in); ``antes`` are uniform. Burn cards are not written (``d db``
    lists only board cards). Every hand still in at the showdown is shown (``pN sm CARDS``),
    right after the betting is over, in order from the first bettor of the final round (the
    first seat to act when nobody bet).
    """

    def __init__(self, code: str) -> None:
        from rules_engine.games import get_variant

        self.code = code
        self.game: Any = get_variant(code)

    # -- seats ---------------------------------------------------------------------------------

    @staticmethod
    def players_of(button: int, n: int) -> tuple[int, ...]:
        """Table seats of p1..pN: from the seat left of the button round to the button."""
        return tuple((button + 1 + k) % n for k in range(n))

    # -- reading -------------------------------------------------------------------------------

    def _read_setup(self, fields: Mapping[str, Any], n: int) -> dict[str, Any]:
        game = self.game
        if game.FAMILY == "stud":
            out: dict[str, Any] = {"ante": _uniform(fields, "antes", n, "one ante for all")}
            if "blinds_or_straddles" in fields:
                raise _fail("", "stud has a bring-in, not blinds: leave out blinds_or_straddles")
            out["bring_in"] = _positive(fields, "bring_in")
            out["small_bet"] = _positive(fields, "small_bet")
            out["big_bet"] = _positive(fields, "big_bet")
            blinds = fields.get("_blinds", [out["bring_in"], out["small_bet"]])
            if not isinstance(blinds, list) or len(blinds) != 2:
                raise _fail("", "_blinds is the table's [small blind, big blind]")
            out["small_blind"], out["big_blind"] = blinds
            return out
        antes = _int_list(fields, "antes", n)
        blinds = _int_list(fields, "blinds_or_straddles", n)
        sb, bb = blinds[0], blinds[1]
        # One ante for all, plus the small blind for a player paying one dead (owed for one
        # missed during a break): PHH has no field of its own for dead money, and PokerKit
        # takes a player's ante as exactly that.
        ante = min(antes)
        if any(a not in (ante, ante + sb) for a in antes) or any(antes[k] != ante for k in (0, 1)):
            raise _fail("", "antes must be the same for every player (one ante for all), plus the "
                        f"small blind for a player paying one dead; got {antes}")
        out = {"ante": ante, "_dead": [k for k in range(2, n) if antes[k] != ante]}
        # A straddle is p3's (left of the big blind), twice the big blind (HandSetup.straddle).
        straddle = blinds[2] if n > 2 and blinds[2] > 0 else 0
        if (any(b not in (0, -bb) for b in blinds[3:]) or blinds[2:3] not in ([], [0], [-bb], [2 * bb])
                or not 0 < sb <= bb):
            raise _fail(
                "",
                "blinds_or_straddles lists the small blind then the big blind, then zeros "
                "or minus the big blind for one posted to come in, and p3 may straddle twice the "
                f"big blind, e.g. [5, 10, 0], [5, 10, 0, -10] or [5, 10, 20]; got {blinds}",
            )
        out["small_blind"], out["big_blind"] = sb, bb
        if straddle:
            out["straddle"] = straddle
        # A big blind posted out of turn (GAMES.md section 3: a player joining a running game),
        # written negative as PokerKit reads it: a live blind that does not move the first to
        # act, as a straddle would. Indexes are PHH players here (p1 left of the button).
        out["_posted"] = [k for k in range(2, n) if blinds[k] < 0]
        if game.STRUCTURE == "fixed-limit":
            out["small_bet"] = _positive(fields, "small_bet")
            out["big_bet"] = _positive(fields, "big_bet")
        else:
            min_bet = fields.get("min_bet")
            if min_bet != bb:
                raise _fail("", f"min_bet is the big blind ({bb}), not {min_bet!r}")
        return out

    def read(self, fields: Mapping[str, Any], lines: list[Line]) -> ParsedHistory:
        game = self.game
        raw = fields.get("starting_stacks")
        n = len(raw) if isinstance(raw, list) else 0
        if not game.MIN_PLAYERS <= n <= game.MAX_PLAYERS:
            raise _fail(
                "", f"{game.name} is played by {game.MIN_PLAYERS} to {game.MAX_PLAYERS} players, not {n}"
            )
        stacks_phh = _int_list(fields, "starting_stacks", n)
        speed = fields.get("_table_speed", "medium")
        if speed not in SPEEDS:
            raise _fail("", f"_table_speed is slow, medium or fast, not {speed!r}")
        seat_numbers = fields.get("seats")
        if seat_numbers is None:
            table_of = list(range(n))
        else:
            seat_numbers = _int_list(fields, "seats", n)
            if len(set(seat_numbers)) != n:
                raise _fail("", "seats must be different")
            ranked = sorted(seat_numbers)
            table_of = [ranked.index(s) for s in seat_numbers]
        button = table_of[-1]
        if tuple(table_of) != self.players_of(button, n):
            raise _fail("", "seats must go round the table from p1 (left of the button) to the button")
        stacks = [0] * n
        for k, seat in enumerate(table_of):
            stacks[seat] = stacks_phh[k]
        params = self._read_setup(fields, n)
        players = tuple(table_of)
        posted, dead = params.pop("_posted", []), params.pop("_dead", [])
        if posted:
            params["posts"] = tuple(players[k] for k in posted)
        if dead:
            params["dead"] = tuple(players[k] for k in dead)
        if "_run_twice" in fields:
            if game.FAMILY != "flop":
                raise _fail("", f"{game.name} is not run twice: leave out _run_twice")
            agreed = fields["_run_twice"]
            if (not isinstance(agreed, list) or not all(_is_player_number(p, n) for p in agreed)
                    or len(set(agreed)) != len(agreed)):
                raise _fail("", f"_run_twice lists the players who agree to run it twice, e.g. [1, 2]; got {agreed!r}")
            params["run_twice"] = tuple(sorted(players[p - 1] for p in agreed))
        if "_bomb_pot" in fields:
            bomb = fields["_bomb_pot"]
            if game.FAMILY != "flop" or not _is_player_number(bomb, 10**12):
                raise _fail("", f"_bomb_pot is what every player puts in a Hold'em or Omaha bomb pot, e.g. 20; got {bomb!r}")
            params["bomb"] = bomb
        if "_seven_deuce" in fields:
            bounty = fields["_seven_deuce"]
            if game.FAMILY != "flop" or getattr(game, "HOLE", 0) != 2 or not _is_player_number(bounty, 10**12):
                raise _fail("", f"_seven_deuce is the Hold'em seven-deuce bounty each player pays, e.g. 20; got {bounty!r}")
            params["seven_deuce"] = bounty
        deck, reshuffle = self._deck_from(lines, players, button, run_twice="_run_twice" in fields)
        setup = HandSetup(
            stacks=tuple(stacks),
            button=button,
            speed=speed,
            public=_flag(fields, "_public"),
            deck=deck,
            check_buy_in=_flag(fields, "_check_buy_in"),
            reshuffle=reshuffle,
            **params,
        )
        try:
            game.validate_setup(setup)
        except RulesError as exc:
            raise _fail("", str(exc)) from None
        return self._replay(setup, fields, lines, players)

    def _deals(
        self, lines: list[Line], players: tuple[int, ...]
    ) -> tuple[list[list[Card | None]], list[Card | None], list[_Draw], set[int]]:
        """Every card the history deals: per table seat (in order), the board, the draws (seat,
        discards, replacements) and the seats that folded before the draw."""
        n = len(players)
        hole: list[list[Card | None]] = [[] for _ in range(n)]
        board: list[Card | None] = []
        draws: list[_Draw] = []
        folded: set[int] = set()
        for line in lines:
            if line.actor == "d":
                if line.verb == "dh":
                    if len(line.args) != 2:
                        raise _fail(line.where, "deal hole cards as 'd dh pN CARDS'")
                    seat = players[_player(line.args[0], n, line.where)]
                    got = _parse_phh_cards(line.args[1], line.where)
                    if any(d.seat == seat for d in draws):
                        draws[-1].replacements.extend(got)
                    else:
                        hole[seat].extend(got)
                elif line.verb == "db":
                    if len(line.args) != 1:
                        raise _fail(line.where, "deal board cards as 'd db CARDS' (no spaces)")
                    board.extend(_parse_phh_cards(line.args[0], line.where))
                else:
                    raise _fail(line.where, f"the dealer deals hole cards (dh) or board cards (db), not {line.verb!r}")
            elif line.actor and line.verb == "sd":
                seat = players[_player(line.actor, n, line.where)]
                discards = _parse_phh_cards("".join(line.args), line.where) if line.args else []
                draws.append(_Draw(seat, discards, []))
            elif line.actor and line.verb == "f" and not draws:
                folded.add(players[_player(line.actor, n, line.where)])
        return hole, board, draws, folded

    def _deck_from(
        self, lines: list[Line], players: tuple[int, ...], button: int, run_twice: bool = False
    ) -> tuple[tuple[Card, ...], tuple[Card, ...] | None]:
        """A deck order (and for draw a reshuffle order) that deals what the history deals."""
        game = self.game
        n = len(players)
        hole, board, draws, folded = self._deals(lines, players)
        order = clockwise_from_button(button, n)
        try:
            if game.FAMILY == "flop":
                for seat in range(n):
                    if len(hole[seat]) > game.HOLE:
                        raise _fail("", f"a {game.name} player is dealt {game.HOLE} cards")
                if len(board) > 5 and run_twice:
                    second = board[5:]
                    if len(second) not in (5, 2, 1):
                        raise _fail("", "a second run deals the cards the first did not share: 5, 2 or 1 of them")
                    return game.stacked_deck(hole, button, board[:5], second), None
                if len(board) > 5:
                    raise _fail("", "the board has five cards at most")
                return game.stacked_deck(hole, button, board), None
            if game.FAMILY == "stud":
                first = len(game.FIRST_STREET)
                most = first + len(game.LATER_STREETS)
                slots: list[Card | None] = []
                for k in range(first):
                    slots.extend(hole[s][k] if k < len(hole[s]) else None for s in order)
                for k in range(first, most):
                    if k == most - 1 and board:
                        slots.extend(board[:1])
                        break
                    slots.extend(hole[s][k] for s in order if len(hole[s]) > k)
                if any(len(h) > most for h in hole):
                    raise _fail("", f"a {game.name} player is dealt {most} cards at most")
                return fill_deck(slots[:52]), None
            # five-card draw: the first five each, then the draws in the order dealt
            return self._draw_deck(order, hole, draws, folded)
        except RulesError as exc:
            if isinstance(exc, HistoryError):
                raise
            raise _fail("", f"the cards dealt repeat a card ({exc})") from None

    @staticmethod
    def _draw_deck(
        order: tuple[int, ...],
        hole: list[list[Card | None]],
        draws: list[_Draw],
        folded: set[int],
    ) -> tuple[tuple[Card, ...], tuple[Card, ...] | None]:
        """Five-card draw: a deck order, and a reshuffle order under which the discards come
        back as the history deals them.

        The draw is followed card by card as the engine plays it (the stub first, then the
        discards so far less the drawer's own, shuffled). Hidden cards (``??``) are stand-ins
        until a reshuffle has to deal a known card that only a hidden card can have been: that
        stand-in becomes the card. A hidden card dealt after a reshuffle takes any card of the
        pile. Whatever stays hidden is filled with unused cards.
        """
        n = len(order)
        initial: list[Card | _Hidden] = []
        for k in range(5):
            for s in order:
                c = hole[s][k] if k < len(hole[s]) else None
                initial.append(c if c is not None else _Hidden())
        stub_size = 52 - 5 * n
        wanted = [c for d in draws for c in d.replacements]
        stub: list[Card | _Hidden] = [c if c is not None else _Hidden() for c in wanted[:stub_size]]
        dealt_stub = list(stub)
        queue = wanted[stub_size:]
        hands = {s: [initial[k * n + j] for k in range(5)] for j, s in enumerate(order)}
        muck = [x for s in sorted(folded) for x in hands[s]]
        assigned: dict[_Hidden, Card] = {}
        piles: list[list[Card | _Hidden]] = []
        for d in draws:
            k = len(d.discards)
            hand = hands[d.seat]
            thrown: list[Card | _Hidden] = [c for c in d.discards if c is not None]
            if len(thrown) < k:
                # Hidden discards: the hidden cards of the hand went, since the cards a later
                # showdown names were kept (taking known cards here would leave the pile short of
                # stand-ins when a reshuffle deals a card only a hidden discard can have been).
                unknown = [x for x in hand if isinstance(x, _Hidden)]
                thrown = (unknown + [x for x in hand if not isinstance(x, _Hidden)])[:k]
            new: list[Card | _Hidden] = []
            while len(new) < k:
                if not stub:
                    avail, muck = list(muck), []
                    upcoming, queue = queue[: len(avail)], queue[len(avail) :]
                    pile: list[Card | _Hidden | None] = []
                    for card in upcoming:
                        if card is None:
                            pile.append(None)
                        elif card in avail:
                            avail.remove(card)
                            pile.append(card)
                        else:
                            stand_in = next((x for x in avail if isinstance(x, _Hidden)), None)
                            if stand_in is None:
                                raise _fail("", f"{card} is dealt after the reshuffle but was not among the discards")
                            assigned[stand_in] = card
                            avail.remove(stand_in)
                            pile.append(stand_in)
                    stub = [x if x is not None else avail.pop(0) for x in pile] + avail
                    piles.append(list(stub))
                new.append(stub.pop(0))
            hands[d.seat] = [x for x in hand if x not in thrown] + new
            muck += thrown

        def known(x: Card | _Hidden) -> Card | None:
            return x if isinstance(x, Card) else assigned.get(x)

        slots = [known(x) for x in initial + dealt_stub]
        deck = fill_deck(slots)
        final: dict[_Hidden, Card] = {
            x: deck[i] for i, x in enumerate(initial + dealt_stub) if isinstance(x, _Hidden)
        }
        if not piles:
            return deck, None
        ranked = [x if isinstance(x, Card) else final[x] for pile_ in piles for x in pile_]
        taken = set(ranked)
        return deck, tuple(ranked) + tuple(c for c in deck if c not in taken)

    def _replay(
        self,
        setup: HandSetup,
        fields: Mapping[str, Any],
        lines: list[Line],
        players: tuple[int, ...],
    ) -> ParsedHistory:
        game = self.game
        n = len(players)
        state = game.start(setup)
        actions: list[Action] = []
        seen_hole = [0] * n  # cards per seat the history has dealt so far
        named_hole: list[set[Card]] = [set() for _ in range(n)]  # ... and those it names (not ??)
        seen_board = 0
        shown: set[int] = set()
        family = game.FAMILY
        name = {seat: f"p{k + 1}" for k, seat in enumerate(players)}

        def apply(action: Action, line: Line) -> None:
            try:
                state.apply(action)
            except RulesError as exc:
                raise type(exc)(f"{line.where}: {exc}") from None
            actions.append(action)

        def dealt_total(seat: int) -> int:
            # Cards the engine has dealt this seat (a draw adds the replacements).
            drawn = state.drawn[seat] if family == "draw" else None
            return len(state.hole[seat]) + (drawn or 0)

        for line in lines:
            if not line.actor:
                continue
            if line.actor == "d":
                if line.verb == "dh":
                    k = _player(line.args[0], n, line.where)
                    seat = players[k]
                    count = len(line.args[1]) // 2
                    if seen_hole[seat] + count > dealt_total(seat):
                        raise IllegalAction(
                            f"{line.where}: {name[seat]} is dealt these cards only when the betting "
                            "before them is over"
                        )
                    seen_hole[seat] += count
                    named_hole[seat].update(c for c in _parse_phh_cards(line.args[1], line.where) if c is not None)
                else:
                    count = len(line.args[0]) // 2
                    second = getattr(state, "second_board", None)
                    out = len(state.board) + (0 if second is None else len(second) - state._shared)
                    if seen_board + count > out:
                        raise IllegalAction(
                            f"{line.where}: the board cards come only when the betting before them is over"
                        )
                    seen_board += count
                continue
            k = _player(line.actor, n, line.where)
            seat = players[k]
            verb = line.verb
            if verb == "sm":
                result = state.result
                over = result is not None and result.showdown
                if not over and state.showdown_after is None:
                    raise IllegalAction(f"{line.where}: hands are shown at the showdown")
                if state.folded[seat]:
                    raise IllegalAction(f"{line.where}: {name[seat]} has folded")
                # A seat may show again (after an all-in showdown in stud, the last down card).
                if not line.args:
                    raise IllegalAction(
                        f"{line.where}: every hand still in is shown on this site; write "
                        f"'{name[seat]} sm -' or the cards"
                    )
                if line.args != ("-",):
                    got = _parse_phh_cards("".join(line.args), line.where)
                    mine = state.hand_of(seat) + tuple(getattr(state, "discards", [()] * n)[seat])
                    if any(c is not None and c not in mine for c in got):
                        raise IllegalAction(f"{line.where}: {name[seat]} shows cards it does not hold")
                shown.add(seat)
                continue
            if any(seen_hole[s] < dealt_total(s) for s in range(n) if not state.folded[s]) or (
                seen_board < len(state.board)
            ):
                raise _fail(line.where, "cards were dealt that the history has not shown yet (a 'd dh' or 'd db' line is missing)")
            if verb == "sd":
                if family != "draw":
                    raise IllegalAction(f"{line.where}: {game.name} has no draw")
                discards: tuple[Card, ...] = ()
                if line.args:
                    got = _parse_phh_cards("".join(line.args), line.where)
                    hand = list(state.hand_of(seat))
                    if None in got:
                        # Hidden discards: how many, and they are among the cards this history
                        # does not name (a shown hand names only the cards it kept).
                        unnamed = [c for c in hand if c not in named_hole[seat]]
                        discards = tuple((unnamed + [c for c in hand if c in named_hole[seat]])[: len(got)])
                    else:
                        discards = tuple(c for c in got if c is not None)
                apply(Action(seat, "draw", cards=discards, timeout=line.timeout), line)
                continue
            legal = state.legal_actions(seat)
            if not legal and state.to_act is not None and state.to_act != seat:
                raise OutOfTurn(f"{line.where}: it is {name[state.to_act]}'s turn, not {name[seat]}'s")
            kinds = {la.kind for la in legal}
            if verb == "f":
                if line.args:
                    raise _fail(line.where, "f takes no amount")
                action = Action(seat, "fold", timeout=line.timeout)
            elif verb == "cc":
                if line.args:
                    raise _fail(line.where, "cc takes no amount")
                action = Action(seat, "check" if "check" in kinds else "call", timeout=line.timeout)
            elif verb == "pb":
                if line.args:
                    raise _fail(line.where, "pb takes no amount")
                action = Action(seat, "bring_in", timeout=line.timeout)
            elif verb == "cbr":
                if len(line.args) != 1 or not _whole(line.args[0]):
                    raise _fail(line.where, "write 'pN cbr AMOUNT' with a whole number (the raise-to total)")
                to = int(line.args[0])
                kind = None
                for la in legal:
                    lo = la.min_amount if la.min_amount is not None else la.to
                    hi = la.max_amount if la.max_amount is not None else la.to
                    if la.kind in ("bet", "raise", "complete", "all_in") and lo <= to <= hi:
                        kind = la.kind
                        break
                if kind is None:
                    sizes = ", ".join(la.label.lower() for la in legal) or "nothing"
                    raise IllegalAction(f"{line.where}: {name[seat]} may not raise to {to} (may: {sizes})")
                action = Action(seat, kind, amount=to)
            else:
                raise _fail(line.where, f"unknown action {verb!r} (use f, cc, cbr, pb, sd or sm)")
            apply(action, line)

        for seat in range(n):
            # The history's cards (when given in full) are the ones the engine dealt.
            if seen_hole[seat] > dealt_total(seat):
                raise IllegalAction(f"{name[seat]} is dealt more cards than the game deals")
        _check_classic_totals(state, fields, players)
        return ParsedHistory(setup, tuple(actions), state, players, fields)

    # -- writing -------------------------------------------------------------------------------

    def write(
        self, state: Any, *, hide_unshown: bool, viewer: int | None, extra: Mapping[str, Any]
    ) -> str:
        if not isinstance(state, ClassicState) or state.game is not self.game:
            raise TypeError(f"to_phh needs a {self.game.name} hand state")
        game: Any = self.game
        setup = state.setup
        n = state.n
        players = self.players_of(setup.button, n)
        name = {seat: f"p{k + 1}" for k, seat in enumerate(players)}
        result = state.result
        shown = set(result.shown) if result is not None else set()
        family = game.FAMILY

        def hidden(seat: int) -> bool:
            return hide_unshown and seat not in shown and seat != viewer

        # Five-card draw: what a seat threw away is never shown, not even when its hand is (the
        # showdown shows the five it holds), so only the seat itself reads its discards.
        discarded = {a.seat: set(a.cards) for a in state.log if a.kind == "draw"} if family == "draw" else {}

        def secret_discards(seat: int) -> bool:
            return hide_unshown and seat != viewer and bool(discarded.get(seat))

        def cards_text(seat: int, cards: Sequence[Card], ups: Sequence[bool] = ()) -> str:
            if not hidden(seat):
                if secret_discards(seat):
                    return _phh_cards([None if c in discarded[seat] else c for c in cards])
                return _phh_cards(cards)
            return _phh_cards([c if k < len(ups) and ups[k] else None for k, c in enumerate(cards)])

        lines: list[str] = []
        fresh = game.start(setup)
        dealt = [0] * n

        def deals(events: Sequence[Event]) -> None:
            # One line per deal, street by street, as the engine dealt them (a draw's
            # replacements are written with its discards).
            for e in events:
                if e.kind == "deal" and e.seat is not None:
                    seat, k = e.seat, e.amount
                    new = fresh.hole[seat][dealt[seat] : dealt[seat] + k]
                    ups = fresh.up[seat][dealt[seat] : dealt[seat] + k] if family == "stud" else ()
                    lines.append(f"d dh {name[seat]} {cards_text(seat, new, ups)}")
                    dealt[seat] += k
                elif e.kind in ("flop", "turn", "river", "board"):
                    # A hand run twice: the second run's cards follow the first run's river.
                    lines.append(f"d db {_phh_cards(e.cards)}" + (" # second run" if e.board == 1 else ""))

        shown_cards = [0] * n

        def showdown(held: list[int]) -> None:
            for seat in fresh._show_order(fresh.in_hand):
                if held[seat] > shown_cards[seat]:
                    lines.append(f"{name[seat]} sm {_phh_cards(fresh.hole[seat][: held[seat]])}")
                    shown_cards[seat] = held[seat]

        first_deal = [e for e in fresh.start_events if e.kind == "deal"][:n]
        deals(first_deal)
        if fresh.showdown_after == 0 and fresh.result is not None and fresh.result.showdown:
            showdown(list(dealt))  # everyone all-in from the forced bets
        deals([e for e in fresh.start_events if e not in first_deal])
        for i, action in enumerate(state.log):
            before = [len(h) for h in fresh.hole]
            events = fresh.apply(action)
            seat = action.seat
            if action.kind == "draw":
                k = len(action.cards)
                if hidden(seat) or secret_discards(seat):
                    lines.append(f"{name[seat]} sd {'??' * k}".rstrip())
                else:
                    lines.append(f"{name[seat]} sd {_phh_cards(action.cards)}".rstrip())
                if action.timeout:
                    lines[-1] += " # timeout"
                if k:
                    new = fresh.hole[seat][5 - k :]
                    lines.append(f"d dh {name[seat]} {cards_text(seat, new)}")
            else:
                verb = {"fold": "f", "check": "cc", "call": "cc", "bring_in": "pb"}.get(action.kind)
                if verb is None:
                    to = next(e.amount for e in events if e.seat == seat and e.kind == action.kind)
                    text = f"{name[seat]} cbr {to}"
                else:
                    text = f"{name[seat]} {verb}"
                if action.timeout:
                    text += " # timeout"
                lines.append(text)
            if fresh.showdown_after == i + 1 and fresh.result is not None and fresh.result.showdown:
                showdown(before)
            deals(events)

        if fresh.result is not None and fresh.result.showdown:
            # Stud: a seat shown when the betting ended gets its last card face down after the
            # run-out, so it shows again with all its cards (PHH readers expect it).
            showdown([len(h) for h in fresh.hole])

        # A dead small blind is written as that player's ante grown by it (see _read_setup).
        out: dict[str, Any] = {"variant": game.code,
                               "antes": [setup.ante + (setup.small_blind if seat in setup.dead else 0) for seat in players]}
        if family == "stud":
            out["bring_in"] = setup.bring_in
        else:
            forced = [setup.small_blind, setup.big_blind] + [0] * (n - 2)
            for k, seat in enumerate(players):
                if seat in setup.posts:
                    forced[k] = -setup.big_blind  # live, not a straddle (see _read_setup)
            if setup.straddle:
                forced[2] = setup.straddle  # p3, the seat left of the big blind
            out["blinds_or_straddles"] = forced
        if game.STRUCTURE == "fixed-limit":
            out["small_bet"] = setup.small_bet
            out["big_bet"] = setup.big_bet
        else:
            out["min_bet"] = setup.big_blind
        out["starting_stacks"] = [setup.stacks[seat] for seat in players]
        out["seats"] = [seat + 1 for seat in players]
        out["actions"] = lines
        out["finishing_stacks"] = [state.stacks[seat] for seat in players]
        if result is not None:
            out["winnings"] = [result.payouts[seat] for seat in players]
        if family == "stud":
            out["_blinds"] = [setup.small_blind, setup.big_blind]
        out["_table_speed"] = setup.speed
        out["_public"] = setup.public
        if setup.check_buy_in:
            out["_check_buy_in"] = True
        if setup.run_twice:
            out["_run_twice"] = [k + 1 for k, seat in enumerate(players) if seat in setup.run_twice]
        if setup.bomb:
            out["_bomb_pot"] = setup.bomb
        if setup.seven_deuce:
            out["_seven_deuce"] = setup.seven_deuce
        if result is not None:
            out["_rake"] = result.rake
        for key, value in extra.items():
            if key in out:
                raise ValueError(f"{key} is written by the engine")
            out[key] = value
        return _dump_toml(out)

    # -- summary -------------------------------------------------------------------------------

    def summary(self, parsed: ParsedHistory, verbose: bool) -> dict[str, Any]:
        state = parsed.state
        players = parsed.players
        out: dict[str, Any] = {"finishing_stacks": [state.stacks[seat] for seat in players]}
        if not verbose:
            return out
        name = {seat: f"p{k + 1}" for k, seat in enumerate(players)}
        result = state.result
        out["over"] = state.is_over
        out["phase"] = state.phase
        out["board"] = "".join(map(str, state.board))
        second = getattr(state, "second_board", None)
        if second is not None:  # run twice: each share below says its run
            out["second_board"] = "".join(map(str, second))
        if result is None:
            return out
        out["showdown"] = result.showdown
        out["rake"] = result.rake
        out["winnings"] = [result.payouts[seat] for seat in players]
        out["scoop"] = None if result.scoop is None else name[result.scoop]
        out["pots"] = [
            {
                "amount": pot.amount,
                "rake": pot.rake,
                "players": [name[s] for s in players if s in pot.eligible],
                "winnings": {name[s]: pot.payouts[s] for s in players if pot.payouts[s]},
                "halves": [
                    {
                        "half": part.half,
                        **({"run": part.board + 1} if second is not None else {}),
                        "share": part.share,
                        "winners": [
                            {
                                "player": name[w.seat],
                                "amount": w.amount,
                                "cards": "".join(map(str, w.cards)),
                                "hand": w.description,
                            }
                            for w in sorted(part.winners, key=lambda w: players.index(w.seat))
                        ],
                    }
                    for part in pot.boards
                ],
            }
            for pot in result.pots
        ]
        return out


for _code in ("NT", "PT", "FT", "PO", "FO", "FO/8", "PO/8", "F7S", "F7S/8", "FR", "F5S", "F5D", "P5D"):
    _NOTATIONS[_code] = ClassicNotation(_code)


# -- TOML -------------------------------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and all(isinstance(v, int | str | bool) for v in value):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError


def _dump_toml(data: Mapping[str, Any]) -> str:
    """Our fields one per line, ``actions`` one action per line; anything else via tomli-w."""
    out = []
    for key, value in data.items():
        if key == "actions":
            out.append("actions = [")
            out.extend(f"  {_toml_value(v)}," for v in value)
            out.append("]")
            continue
        try:
            out.append(f"{key} = {_toml_value(value)}")
        except TypeError:
            out.append(tomli_w.dumps({key: value}).rstrip("\n"))
    return "\n".join(out) + "\n"


# -- public functions -------------------------------------------------------------------------


def load_toml(text: str, what: str) -> dict[str, Any]:
    """The fields of a history's TOML; :class:`HistoryError` (``what: why``) when it is not TOML,
    or nests arrays or tables so deep that the reader runs out of stack (``[[[[...`` thousands
    deep is still valid TOML: a few kilobytes of it reached a RecursionError, found by fuzzing)."""
    try:
        # A byte-order mark (Windows Notepad saves one) is not part of the TOML (an audit).
        return tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise HistoryError(f"{what}: {exc}") from None
    except RecursionError:
        raise HistoryError(f"{what}: its arrays or tables are nested too deep") from None


def _load(text: str) -> tuple[VariantNotation, dict[str, Any], list[Line]]:
    fields = load_toml(text, "the history is not valid TOML")
    variant = fields.get("variant")
    if not isinstance(variant, str):
        raise HistoryError("the history has no variant (e.g. variant = \"PP\")")
    notation = _NOTATIONS.get(variant)
    if notation is None:
        known = ", ".join(sorted(_NOTATIONS))
        raise HistoryError(f"variant {variant!r} is not supported here (supported: {known})")
    raw = fields.get("actions")
    if not isinstance(raw, list):
        raise HistoryError("the history has no actions list")
    return notation, fields, [_split_line(k, a) for k, a in enumerate(raw)]


def parse_phh(text: str) -> ParsedHistory:
    """Read and replay a history: setup, engine actions and the state they reach.

    Raises :class:`HistoryError` (a :class:`MalformedAction`) for an unreadable history and
    :class:`IllegalAction`/:class:`OutOfTurn` for one that breaks the rules, naming the action.
    """
    notation, fields, lines = _load(text)
    return notation.read(fields, lines)


def read_phh(text: str) -> tuple[HandSetup, list[Action]]:
    """The setup (with a deck that deals what the history deals) and the engine actions.

    ``get_variant("PP").replay(setup, actions)`` rebuilds the hand.
    """
    parsed = parse_phh(text)
    return parsed.setup, list(parsed.actions)


def replay_phh(text: str) -> Any:
    """Replay a history and return the state it reaches."""
    return parse_phh(text).state


def phh_players(state: Any) -> tuple[int, ...]:
    """The engine seats of p1, p2, ... in the PHH that :func:`to_phh` writes for ``state``
    (to name them in an optional ``players`` field, say)."""
    notation = _NOTATIONS.get(getattr(state, "variant", ""))
    if notation is None:
        raise TypeError("phh_players needs a hand state of a supported game")
    if isinstance(notation, BaseballNotation):
        return notation.players_of(state.dealer, state.n)
    return notation.players_of(state.setup.button, state.n)  # type: ignore[attr-defined, no-any-return]


def to_phh(
    state: Any,
    *,
    hide_unshown: bool = False,
    viewer: int | None = None,
    fields: Mapping[str, Any] | None = None,
) -> str:
    """Export a hand (finished or not) as PHH text.

    ``hide_unshown`` writes ``??`` for the cards of every player not shown at a showdown (and
    leaves out their arrangements), except the table seat ``viewer``: the history that player
    (or, with ``viewer=None``, a spectator) may see. ``fields`` adds
    optional PHH fields (``players``, ``hand``, ``table``, ``time``...) or ``_`` fields.
    Replaying the export gives the same stacks, pots and board winners.
    """
    notation = _NOTATIONS.get(getattr(state, "variant", ""))
    if notation is None:
        raise TypeError("to_phh needs a hand state of a supported game")
    return notation.write(state, hide_unshown=hide_unshown, viewer=viewer, extra=fields or {})


# -- several hands in one file (.phhs) -----------------------------------------------------------

_SECTION = re.compile(r"^(\[\[?)\s*([^\]]+?)\s*(\]\]?)\s*$")


def join_phhs(hands: Iterable[tuple[int, str]]) -> Iterator[str]:
    """Several hands as one PHH file (``.phhs``): each hand's fields under a table named by its
    number (``[1]``, ``[2]``, ... as PokerKit's ``HandHistory.dumps_all`` writes them; a table's
    own hand numbers here). Yields the file a hand at a time."""
    first = True
    for number, text in hands:
        lines = []
        for line in text.splitlines():
            # A table of its own inside a hand (none of ours writes one) moves under the hand's.
            m = _SECTION.match(line) if line.startswith("[") else None
            lines.append(f"{m.group(1)}{number}.{m.group(2)}{m.group(3)}" if m else line)
        yield ("" if first else "\n") + f"[{number}]\n" + "\n".join(lines) + "\n"
        first = False


def split_phhs(text: str) -> list[tuple[str, str]] | None:
    """The hands of a ``.phhs`` file as ``(name, PHH text)``, in the file's order; ``None`` when
    the text is a single hand's history (it has its fields at the top). Raises
    :class:`HistoryError` for text that is not TOML, or a file of hands with something else in it."""
    fields = load_toml(text, "the history is not valid TOML")
    if "variant" in fields or "actions" in fields or not fields:
        return None
    hands = []
    for name, value in fields.items():
        if not isinstance(value, dict):
            raise HistoryError(f"{name!r} is neither a hand (a table such as [1]) nor a field of one")
        hands.append((name, _dump_toml(value)))
    return hands


def replay_summary(text: str, *, verbose: bool = False) -> dict[str, Any]:
    """What ``python -m rules_engine replay`` prints: finishing stacks (and with ``verbose`` the
    pots, rake and per-board winners), players in PHH order, boards numbered from 1."""
    notation, fields, lines = _load(text)
    return notation.summary(notation.read(fields, lines), verbose)


# -- command line (registered with rules_engine.cli) ------------------------------------------


def _configure_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a .phh hand history, or a .phhs file of several hands")
    p.add_argument("--verbose", action="store_true", help="also print pots and board winners")


def read_history_file(path: str) -> list[tuple[str | None, str]]:
    """A history file's hands as ``(name, text)``: one nameless hand for a ``.phh``, each
    numbered hand of a ``.phhs``. A file that cannot be read is a ``UsageError``."""
    from rules_engine.cli import UsageError

    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None
    try:
        hands = split_phhs(text)
    except RulesError as exc:
        raise UsageError(f"{path}: {exc}") from None
    if hands is None:
        return [(None, text)]
    if not hands:
        raise UsageError(f"{path}: the file holds no hand")
    return list(hands)


def _run_replay(args: argparse.Namespace) -> int:
    """One JSON line per hand (a ``.phhs`` file's lines name their hand); the whole file is
    read and replayed before anything is printed, so a bad hand prints nothing but the error."""
    from rules_engine.cli import UsageError

    lines = []
    for name, text in read_history_file(args.file):
        where = args.file if name is None else f"{args.file}, hand [{name}]"
        try:
            summary = replay_summary(text, verbose=args.verbose)
        except RulesError as exc:
            raise UsageError(f"{where}: {exc}") from None
        lines.append(summary if name is None else {"hand": name, **summary})
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))
    return 0


def _register_cli() -> None:
    from rules_engine.cli import Subcommand, register_subcommand

    register_subcommand(
        Subcommand(
            name="replay",
            help="replay a PHH hand history and print the finishing stacks",
            configure=_configure_replay,
            run=_run_replay,
        )
    )


_register_cli()
