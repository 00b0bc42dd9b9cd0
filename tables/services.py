"""Writers for tables: the only code that changes a table, its seats or its hands.

Every use case is one short transaction: lock the table row (``select_for_update``; on SQLite the
IMMEDIATE transaction does the same), check the version the client saw, rebuild the hand from its
stored state, apply the action through the rules engine, save, bump ``Table.version``, and on
commit broadcast "table N is at version V" and schedule the next timer.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from club import selectors as club_selectors
from club import services as club_services
from club.services import ChipsError
from rules_engine import fairness
from rules_engine.cards import Card, CardParseError, Deck
from rules_engine.errors import RulesError
from rules_engine.games import get_variant
from tables import baseball, freezeout, hotsql, levels, refusals, stakes
from tables.models import (
    LIVE_GAMES,
    STAKES_LADDER,
    TIME_BANK_STEP,
    FreezeoutResult,
    Hand,
    Seat,
    SeatRequest,
    Table,
    time_bank_left,
)

log = logging.getLogger("tables.services")

DECISION_SECONDS = {"slow": 37.5, "medium": 25.0, "fast": 12.0}
ARRANGE_SECONDS = {"slow": 180.0, "medium": 120.0, "fast": 100.0}
SHOWDOWN_SECONDS = 6.0
# Patch-Patch's showdown has three boards' winners and every hand's three fours to read: on a
# phone they run below the fold, and 6 s was gone before a player had scrolled (an audit).
PP_SHOWDOWN_EXTRA_SECONDS = 4.0
DEAL_SECONDS = 4.0
# A player whose clock ran out earlier in this hand, and who has not said "I'm back", is not at
# the screen: their later decisions in the hand get this much, not a whole clock each (found by
# an audit: after one timeout the others sat through 25 s for every street of it).
AWAY_DECISION_SECONDS = 3.0

# Actions a player may send that the engine decides; the rest are the table's own.
ENGINE_ACTIONS = frozenset(
    {"fold", "check", "call", "bet_pot", "raise_pot", "all_in", "swap", "done", "arrange",
     "bet", "raise", "complete", "bring_in", "draw"}
)
ARRANGE_ACTIONS = frozenset({"swap", "arrange", "done"})
# A player's choices about their own seat (and what they show after a hand): each means the same
# on any picture of the table, so one drawn before another player's change is not refused for it.
SEAT_CHOICES = frozenset({"sit_out", "im_back", "post_bb", "wait_bb", "straddle_on", "straddle_off",
                          "run_twice_on", "run_twice_off", "show_cards", "rabbit"})
TABLE_ACTIONS = frozenset({"sit_out", "im_back", "new_session", "show_cards", "post_bb", "wait_bb", "time",
                           "straddle_on", "straddle_off", "run_twice_on", "run_twice_off", "rabbit"})


class TableError(ValueError):
    """A request the table refuses, with a message a player can read. Nothing was changed."""


class StaleVersion(TableError):
    """The client acted on an old picture of the table."""


_P = ParamSpec("_P")
_R = TypeVar("_R")
BUSY_ATTEMPTS = 6


def _is_busy(exc: OperationalError) -> bool:
    text = str(exc).lower()
    # SQLite: "database is locked" / "database table is locked" (a shared-cache database, as
    # in tests, does not wait for its busy timeout); PostgreSQL: a deadlock or serialization
    # failure. All mean "another writer held the table": the whole transaction rolled back.
    return "locked" in text or "deadlock" in text or "could not serialize" in text


def _is_lost(exc: Exception) -> bool:
    """Whether the error says this thread's connection is gone: PostgreSQL restarted, failed
    over or cut it (SQLSTATE classes 08 and 57P), or Django already closed it after that."""
    if isinstance(exc, InterfaceError):
        return True
    state = getattr(exc.__cause__, "sqlstate", None) or ""
    text = str(exc).lower()
    return state.startswith(("08", "57P")) or any(words in text for words in (
        "server closed the connection", "terminating connection", "connection is closed",
        "connection already closed", "consuming input failed"))


def on_a_live_connection(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` once more on a new connection when it found this thread's connection lost
    (PostgreSQL restarted or cut it: the threads serving the tables keep theirs between calls).

    Safe for the same reason the busy retry is: each writer inside is one transaction carrying
    the table's version, so one whose COMMIT went through with only its answer lost is refused as
    stale on the second run, never applied twice. Inside an outer transaction the error goes up
    unchanged."""

    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(*args, **kwargs)
        except (OperationalError, InterfaceError) as exc:
            if connection.in_atomic_block or not _is_lost(exc):
                raise
            log.warning("%s: the database connection was lost (%s); trying again on a new one", fn.__name__, exc)
            connection.close()
            return fn(*args, **kwargs)

    return wrapper


def retry_when_busy(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run a writer again, a few times with a short pause, when the database was busy.

    Each writer is one transaction that either committed or changed nothing, so running it
    again is safe; the version check inside still refuses a stale action. Inside an outer
    transaction nothing can be retried and the error goes up unchanged. (A connection found cut
    is for ``on_a_live_connection``, around the socket's and the timer's calls.)
    """

    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        for attempt in range(1, BUSY_ATTEMPTS + 1):
            try:
                return fn(*args, **kwargs)
            except OperationalError as exc:
                if attempt == BUSY_ATTEMPTS or connection.in_atomic_block or not _is_busy(exc):
                    raise
                log.info("%s: database busy (%s); trying again", fn.__name__, exc)
                time.sleep(0.02 * attempt + secrets.randbelow(20) / 1000)
        raise AssertionError("unreachable")

    return wrapper


def _clock_seconds(kind: str, speed: str) -> float:
    if kind == "decision":
        override = getattr(settings, "TABLE_DECISION_SECONDS", None)
        return float(override) if override else DECISION_SECONDS[speed]
    if kind == "arrange":
        override = getattr(settings, "TABLE_ARRANGE_SECONDS", None)
        return float(override) if override else ARRANGE_SECONDS[speed]
    if kind == "deal":
        override = getattr(settings, "TABLE_DEAL_SECONDS", None)
        return float(override) if override is not None else DEAL_SECONDS
    override = getattr(settings, "TABLE_SHOWDOWN_SECONDS", None)
    return float(override) if override is not None else SHOWDOWN_SECONDS


# An all-in's run-out is dealt on the felt a street a second (static/css/table.css, "run-out"):
# the pause before the next hand starts after it, so the result is seen as long as any other.
RUNOUT_STEP_SECONDS = 1.0


def runout_seconds(result: Any, state: Any) -> float:
    """The seconds the felt takes to deal a finished hand's run-out (0 without one; Baseball's
    session and the draw games have none)."""
    streets = getattr(state, "runout_streets", None)
    if not isinstance(result, dict) or not result.get("showdown") or not callable(streets):
        return 0.0
    return streets() * RUNOUT_STEP_SECONDS


def speed_help() -> str:
    """What each speed gives a player, for the new-table forms (found by an audit: "Slow /
    Medium / Fast" said nothing a newcomer could weigh)."""
    def s(kind: str, speed: str) -> str:
        # "37.5" in English and Hebrew, "37,5" in Russian (the language's decimal mark; an audit).
        x = _clock_seconds(kind, speed)
        return formats.number_format(x, decimal_pos=0 if x == int(x) else 1)

    return _("Time to act: slow %(slow)s s, medium %(medium)s s, fast %(fast)s s; Patch-Patch's arrangement: "
             "%(aslow)s s, %(amedium)s s, %(afast)s s.") % {
        "slow": s("decision", "slow"), "medium": s("decision", "medium"), "fast": s("decision", "fast"),
        "aslow": s("arrange", "slow"), "amedium": s("arrange", "medium"), "afast": s("arrange", "fast")}


# ---------------------------------------------------------------------------------------------
# Creating tables and taking seats


def table_create(
    *, creator: AbstractBaseUser | None, name: str, small_blind: int, big_blind: int,
    speed: str = "medium", max_seats: int = 3, is_public: bool = True, game: str = "PP",
    min_buy_in_bb: int = 5, max_buy_in_bb: int = 150, club: Any = None, seat_approval: bool = False,
    straddles: bool = False, run_twice: bool = False, seven_deuce_bb: int = 0, rabbit_hunt: bool = False,
) -> Table:
    """Open a table. A club table (``club``, opened by one of its hosts) is private to the club,
    plays any blinds and takes no rake; only games the live table can draw (``LIVE_GAMES``)."""
    if club is not None:
        try:
            club_services.club_require_host(club=club, user=creator)
        except club_services.ClubError as exc:
            raise TableError(str(exc)) from exc
        if game not in LIVE_GAMES:
            raise TableError(_("Unknown game %(game)s.") % {"game": game})
        is_public = False
    name = (name or "").strip()
    if not name:
        raise TableError(_("A table needs a name."))
    if len(name) > 60:
        raise TableError(_("A table name has at most 60 characters."))
    if speed not in DECISION_SECONDS:
        raise TableError(_("Speed must be slow, medium or fast."))
    if game == "PP" and max_seats not in (2, 3):
        raise TableError(_("A Patch-Patch table seats two or three players."))
    low_players = getattr(_variant_or_none(game), "MIN_PLAYERS", 2)
    high_players = getattr(_variant_or_none(game), "MAX_PLAYERS", 3)
    if not low_players <= max_seats <= high_players:
        raise TableError(
            _("This game seats %(low)s to %(high)s players.") % {"low": low_players, "high": high_players}
        )
    if game == baseball.GAME:
        small_blind, big_blind = baseball.STAKES  # ante 1, bet 1: whatever blinds were given
    elif not 0 < small_blind < big_blind:
        raise TableError(_("The small blind must be positive and smaller than the big blind."))
    if is_public and game != baseball.GAME and (small_blind, big_blind) not in STAKES_LADDER:
        raise TableError(
            _("Public tables use the stakes ladder: %(ladder)s.")
            % {"ladder": ", ".join(f"{s}/{b}" for s, b in STAKES_LADDER)}
        )
    if not 1 <= min_buy_in_bb <= max_buy_in_bb:
        raise TableError(_("The buy-in range is not valid."))
    if type(seven_deuce_bb) is not int or seven_deuce_bb not in (0, *SEVEN_DEUCE_CHOICES):
        raise TableError(_("Choose a seven-deuce bounty of %(choices)s big blinds.")
                         % {"choices": ", ".join(str(c) for c in SEVEN_DEUCE_CHOICES)})
    try:
        get_variant(game)
    except KeyError as exc:
        raise TableError(_("Unknown game %(game)s.") % {"game": game}) from exc
    # Two open tables of one club with one name look the same on its pages (found by an audit).
    if club is not None and Table.objects.filter(club=club, name__iexact=name).exclude(status=Table.Status.CLOSED).exists():
        raise TableError(_("The club already has an open table called %(name)s. Give this one another name.") % {"name": name})
    if is_public and club is None and creator is not None:
        # The lobby is everyone's (found by an audit: one new player opened six "Spam table"s in a
        # row): a player's public table has a name no other open public table has, and a player
        # keeps a few open at once. The site's own tables (opened by nobody) are not counted.
        lobby = Table.objects.filter(is_public=True, club__isnull=True).exclude(status=Table.Status.CLOSED)
        if lobby.filter(name__iexact=name).exists():
            raise TableError(_("The lobby already has a table called %(name)s. Give this one another name.") % {"name": name})
        if lobby.filter(created_by=creator).count() >= MAX_OPEN_PUBLIC_TABLES:
            raise TableError(_("You already have %(n)s public tables open. Play at one of them: an empty one closes after a day.")
                             % {"n": MAX_OPEN_PUBLIC_TABLES})
    table = Table.objects.create(
        name=name, game=game, small_blind=small_blind, big_blind=big_blind, speed=speed,
        max_seats=max_seats, is_public=is_public, created_by=creator,
        min_buy_in_bb=min_buy_in_bb, max_buy_in_bb=max_buy_in_bb,
        club=club, seat_approval=bool(club is not None and seat_approval),
        straddles=bool(straddles and not is_public),  # public tables play without (DECISIONS.md)
        run_twice=bool(run_twice and not is_public),  # so do they run once
        seven_deuce_bb=0 if is_public else seven_deuce_bb,  # and pay no bounties
        rabbit_hunt=bool(rabbit_hunt and not is_public),  # nor hunt rabbits
        bb_waiting=game == baseball.GAME,  # its first session starts when a player says so
    )
    transaction.on_commit(_lobby_changed)
    return table


def _variant_or_none(game: str) -> Any:
    try:
        return get_variant(game)
    except KeyError:
        return None


def _lock_table(table_id: int) -> Table:
    table = hotsql.first(Table, "lock table", lambda: Table.objects.select_for_update().filter(id=table_id)[:1],
                         [table_id])
    if table is None:
        raise TableError(_("No such table."))
    return table


def _latest_hand(table: Table) -> Hand | None:
    return hotsql.first(Hand, "latest hand", lambda: Hand.objects.filter(table_id=table.id).order_by("-number")[:1],
                        [table.id])


def _latest_deadline(table: Table) -> dt.datetime | None:
    return Hand.objects.filter(table=table).order_by("-number").values_list("deadline", flat=True).first()


def _current_hand(table: Table) -> Hand | None:
    hand = _latest_hand(table)
    if hand is None or hand.ended is not None:
        return None
    return hand


def _seat_of(table: Table, user: AbstractBaseUser) -> Seat | None:
    return hotsql.first(Seat, "seat of user",
                        lambda: Seat.objects.filter(table_id=table.id, user_id=user.pk).order_by("pk")[:1],
                        [table.id, user.pk])


def _bump(table: Table) -> int:
    if not getattr(table, "_timer_scheduled", False):
        # A change that set no clock (a seat taken, a break asked for, "I'm back", a pause) still
        # makes the pending timer's version stale. The pending timer hands the clock on when it
        # fires (table_timer); only when none is pending is the running clock scheduled here, or
        # it would wait for the periodic sweep (seconds late).
        deadline = _latest_deadline(table)
        if deadline is not None:
            _schedule_at(table, deadline)
    table.version += 1
    hotsql.save(table, ["version", "button_seat", "hands_played", "status", "pause_after_hand", "next_hand_at",
                        "close_after_hand", "timer_at"])
    version = table.version
    table_id = table.id
    hand_only = bool(getattr(table, "_hand_only", False))
    transaction.on_commit(lambda: _changed(table_id, version, hand_only))
    return version


# At the site's public tables, a player who stood up comes back within this time with at least
# what they took away (found by an audit: up 4,925, out, and straight back in with the 250
# minimum; card rooms keep such a rule for 30 to 60 minutes).
REJOIN_WINDOW = dt.timedelta(minutes=30)


def rejoin_minimum(table: Table, user: Any, now: dt.datetime | None = None) -> int:
    """The chips a player must bring back to one of the site's public tables: what they took away
    when they last stood up there, within REJOIN_WINDOW, up to the table's most; else 0."""
    if not table.is_public or table.club_id is not None or baseball.is_baseball(table) or not user.is_authenticated:
        return 0
    from club.models import LedgerEntry

    since = (now or timezone.now()) - REJOIN_WINDOW
    out = (LedgerEntry.objects.filter(user=user, table_id=table.id, kind=LedgerEntry.Kind.CASH_OUT,
                                      account=f"table:{table.id}", created__gte=since)
           .order_by("-id").values_list("amount", flat=True).first())
    return min(-int(out), table.max_buy_in_bb * table.big_blind) if out else 0


@retry_when_busy
def table_take_seat(
    *, table_id: int, user: AbstractBaseUser, buy_in: int, seat_no: int | None = None, approved: bool = False,
) -> Seat:
    """Sit down with ``buy_in`` chips from the bankroll (between the table's min and max).

    At a club table the player must be a member and the chips come from their club balance; where
    a host approves every seat, only a host sits down directly (``approved`` is the approval).
    """
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status == Table.Status.CLOSED or table.close_after_hand:
            raise TableError(_("This table is closed."))
        if freezeout.running(table) and not freezeout.entry_open(table):
            raise TableError(_("A freeze-out is being played here: new players join the next one."))
        if table.club_id is not None:
            _check_club_seat(table, user, approved)
        units = baseball.is_baseball(table)  # play units: no buy-in (tables.baseball)
        low, high = table.min_buy_in_bb * table.big_blind, table.max_buy_in_bb * table.big_blind
        if not isinstance(buy_in, int) or isinstance(buy_in, bool):
            raise TableError(_("The buy-in must be a whole number of chips."))
        back = 0 if units else rejoin_minimum(table, user)
        if back > low and not isinstance(buy_in, bool) and isinstance(buy_in, int) and low <= buy_in < back:
            raise TableError(_("You left this table with %(chips)s chips less than half an hour ago: come back with at least as many.")
                             % {"chips": club_services.chips_text(back)})
        if not units and not low <= buy_in <= high:
            raise TableError(_("The buy-in here is between %(low)s and %(high)s chips.") % {"low": club_services.chips_text(low), "high": club_services.chips_text(high)})
        seats = list(Seat.objects.filter(table=table))
        if any(s.user_id == user.pk for s in seats):
            raise TableError(_("You already have a seat at this table."))
        taken = {s.seat_no for s in seats}
        if seat_no is None:
            free = [n for n in range(table.max_seats) if n not in taken]
            if not free:
                raise TableError(_("The table is full."))
            seat_no = free[0]
        if not 0 <= seat_no < table.max_seats:
            raise TableError(_("There is no such seat."))
        if seat_no in taken:
            raise TableError(_("That seat is taken."))
        club_services.profile_ensure(user=user)
        if units:
            seat = Seat.objects.create(table=table, seat_no=seat_no, user=user, stack=0,
                                       units=baseball.balance_of(table=table, user_id=user.pk))
        else:
            _chips_to_table(table, user, buy_in)
            late = freezeout.running(table)  # late entry: dealt in from the next hand, as everyone is
            seat = Seat.objects.create(table=table, seat_no=seat_no, user=user, stack=buy_in,
                                       wait_bb=not late and _joins_running_game(table, seats))
            if late:
                freezeout.enter(table, user.pk, club_selectors.display_name(user))
                hotsql.save(table, freezeout.FIELDS)
        if _current_hand(table) is None:
            _deal_soon(table)
        _bump(table)
    transaction.on_commit(_lobby_changed)
    return seat


@retry_when_busy
def table_leave_seat(*, table_id: int, user: AbstractBaseUser) -> None:
    """Stand up. In a hand, the player leaves when it ends, and their turns meanwhile are played
    at once (``_answer_leavers``: a fold, else a check; an arrangement as it stands)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise TableError(_("You have no seat at this table."))
        hand = _current_hand(table)
        if hand is not None and _engine_index(hand, seat) is not None:
            seat.leaving = True
            seat.break_next = True
            seat.save(update_fields=["leaving", "break_next"])
            state = _load_state(table, hand)
            idx = _engine_index(hand, seat)
            if idx is not None and idx not in hand.leavers:
                hand.leavers = [*hand.leavers, idx]
                hotsql.save(hand, ["leavers"])
            if _answer_leavers(hand, state):  # their turn now: a fold (or check) at once
                _after_engine_step(table, hand, state)
        else:
            if freezeout.running(table) and seat.stack > 0:
                # Out of the freeze-out, below everyone still holding chips; the chips go with them.
                holders = Seat.objects.filter(table=table, stack__gt=0).count()
                freezeout.left(table, seat.user_id, club_selectors.display_name(seat.user), holders)
                hotsql.save(table, freezeout.FIELDS)
            _cash_out(table, seat)
            # During a hand the seats' stacks are those it was dealt with, and a player standing
            # up from it still holds chips in it: the hand's end decides the freeze-out (_settle;
            # found by an audit: a late entrant standing up mid-hand declared the other player
            # the winner of a hand they went on to lose).
            if freezeout.running(table) and hand is None:
                holders_left = list(Seat.objects.filter(table=table, stack__gt=0, leaving=False).select_related("user"))
                _finish_freezeout_if_won(table, holders_left, timezone.now())
        _bump(table)
    transaction.on_commit(_lobby_changed)


def _finish_freezeout_if_won(table: Table, holders: list[Seat], now: dt.datetime) -> None:
    """One player (or none) holds chips: the freeze-out is won. The table pauses, the clock
    stops and the blinds go back to where it started, for the next one (tables.freezeout)."""
    if not freezeout.finish_if_won(table, [(s.user_id, club_selectors.display_name(s.user)) for s in holders], now):
        return
    latest = _latest_hand(table)
    table.freezeout["ended_at_hand"] = latest.number if latest is not None else 0
    fo = table.freezeout
    rows = sorted(fo["out"], key=lambda r: (int(r[2]), str(r[1])))
    FreezeoutResult.objects.create(table=table, started=dt.datetime.fromisoformat(fo["started"]), ended=now,
                                   entrants=len(fo["entrants"]), places=rows, reentries=int(fo.get("reentries") or 0))
    if levels.on(table) and table.level_base_small and table.level_base_big:
        table.small_blind, table.big_blind = table.level_base_small, table.level_base_big
    levels.stop(table)
    if table.status == Table.Status.OPEN:
        table.status = Table.Status.PAUSED
    table.pause_after_hand = False
    table.next_hand_at = None
    hotsql.save(table, (*freezeout.FIELDS, *levels.FIELDS, "small_blind", "big_blind"))
    transaction.on_commit(_lobby_changed)


@retry_when_busy
def table_add_chips(*, table_id: int, user: AbstractBaseUser, amount: int) -> int:
    """Add ``amount`` chips to your stack from the bankroll (club chips at a club table): a
    rebuy after going broke, or a top-up. Only while you are not in a hand being played, and a
    stack may hold at most the table's maximum buy-in. Returns the new stack."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if baseball.is_baseball(table):
            raise TableError(_("Baseball plays for units: there are no chips to add."))
        if table.status == Table.Status.CLOSED or table.close_after_hand:
            raise TableError(_("This table is closed."))
        if freezeout.running(table):
            raise TableError(_("No chips are added during a freeze-out: a player whose chips run out is out."))
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise TableError(_("Chips are added in whole numbers."))
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise TableError(_("You have no seat at this table."))
        if seat.leaving:
            raise TableError(_("You are leaving this table when the hand ends."))
        hand = _current_hand(table)
        if hand is not None and _engine_index(hand, seat) is not None:
            raise TableError(_("Chips can be added once this hand is over."))
        high = table.max_buy_in_bb * table.big_blind
        room = high - int(seat.stack)
        if room <= 0:
            raise TableError(_("Your stack has already reached this table's most, %(high)s chips.") % {"high": club_services.chips_text(high)})
        if not 1 <= amount <= room:
            raise TableError(_("You can add up to %(room)s chips here: a stack holds at most %(high)s.")
                             % {"room": club_services.chips_text(room), "high": club_services.chips_text(high)})
        # A stack under the table's minimum buy-in (gone broke, or short) comes back to at least
        # that minimum, as sitting down does (found by an audit: a broke player added 1 chip, or
        # 100 at a table whose buy-in starts at 500, and was dealt in for it).
        low = table.min_buy_in_bb * table.big_blind
        if int(seat.stack) + amount < low:
            raise TableError(_("Add at least %(need)s chips: a stack comes back to this table's minimum buy-in, %(low)s.")
                             % {"need": club_services.chips_text(low - int(seat.stack)), "low": club_services.chips_text(low)})
        _chips_to_table(table, user, amount)
        seat.stack += amount
        seat.save(update_fields=["stack"])
        if hand is None:
            _deal_soon(table)
        _bump(table)
        return int(seat.stack)


def _chips_to_table(table: Table, user: AbstractBaseUser, amount: int) -> None:
    """Move chips onto the table, on the ledger: from the club chips at a club table, else from
    the bankroll (the caller puts them on the seat in the same transaction)."""
    try:
        if table.club_id is not None:
            club_services.club_chips_to_table(club_id=table.club_id, user=user, amount=amount, table_id=table.id)
        else:
            club_services.bankroll_to_table(user=user, amount=amount, table_id=table.id)
    except ChipsError as exc:
        raise TableError(str(exc)) from exc


def _check_club_seat(table: Table, user: AbstractBaseUser, approved: bool) -> None:
    try:
        member = club_services.club_require_member(club=table.club_id, user=user)
    except club_services.ClubError as exc:
        raise TableError(str(exc)) from exc
    if table.seat_approval and not approved and not member.is_host:
        raise TableError(_("A host approves every seat at this table: ask for a seat."))


def _cash_out(table: Table, seat: Seat) -> None:
    if baseball.is_baseball(table):
        pass  # units stay in the table's ledger (tables.baseball); no chips were bought in
    elif table.club_id is not None:
        club_services.club_chips_from_table(club_id=table.club_id, user=seat.user, amount=int(seat.stack), table_id=table.id)
    else:
        club_services.table_to_bankroll(user=seat.user, amount=int(seat.stack), table_id=table.id)
    seat.delete()


_TERMS = ("small_blind", "big_blind", "speed", "next_small_blind", "next_big_blind", "next_speed")


def apply_next_terms(table: Table) -> None:
    """A host's change of stakes or speed waiting for the hand to end takes effect (the caller
    holds the table's lock and bumps its version); the lobby hears of it on commit."""
    if table.next_big_blind is not None and table.next_small_blind is not None:
        table.small_blind, table.big_blind = table.next_small_blind, table.next_big_blind
    if table.next_speed:
        table.speed = table.next_speed
    table.next_small_blind = table.next_big_blind = None
    table.next_speed = ""
    hotsql.save(table, _TERMS)
    transaction.on_commit(_lobby_changed)


def _close(table: Table) -> None:
    """Close the table now: every stack goes back where it came from; waiting requests lapse."""
    for seat in Seat.objects.filter(table=table).select_related("user"):
        _cash_out(table, seat)
    SeatRequest.objects.filter(table=table, status=SeatRequest.Status.PENDING).update(status=SeatRequest.Status.DECLINED)
    table.status = Table.Status.CLOSED
    table.close_after_hand = False
    table.pause_after_hand = False
    table.next_hand_at = None
    if freezeout.running(table):  # closed before anyone won: nobody is placed
        freezeout.call_off(table)
        hotsql.save(table, freezeout.FIELDS)


@retry_when_busy
def table_close(*, table_id: int) -> int:
    """Close the table after the hand being played (at once when none is). Who may call this
    is checked by the caller (a club's host, see ``tables.hosting``)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status == Table.Status.CLOSED:
            raise TableError(_("This table is closed."))
        if _current_hand(table) is None:
            _close(table)
        else:
            table.close_after_hand = True
            table.pause_after_hand = True
        version = _bump(table)
    transaction.on_commit(_lobby_changed)
    return version


# ---------------------------------------------------------------------------------------------
# Playing


@dataclass(frozen=True)
class ActResult:
    version: int


@retry_when_busy
def table_act(*, table_id: int, user: AbstractBaseUser, message: dict[str, Any]) -> ActResult:
    """Apply one player's message (already parsed JSON) to the table.

    ``message`` is ``{"action": NAME, "version": V, ...}``; ``V`` must be the table's current
    version. Raises :class:`TableError` (or a ``RulesError``) and changes nothing when refused.
    """
    action = message.get("action")
    if not isinstance(action, str) or action not in ENGINE_ACTIONS | TABLE_ACTIONS:
        raise TableError(_("Unknown action."))
    version = message.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise TableError(_("Every action must say which version of the table it answers."))
    with transaction.atomic():
        table = _lock_table(table_id)
        # Everyone arranges at once and every swap bumps the version, so an arrangement action
        # may answer an older picture: it names the player's own cards, which nobody else moves
        # (the engine refuses it if the arrangement is over). Everything else must be current.
        if action in ARRANGE_ACTIONS or action in SEAT_CHOICES:
            if not 0 <= version <= table.version:
                raise StaleVersion(_("The table has moved on; here is the latest picture."))
        elif action == "time":
            pass  # any picture of the clock it asks more time for (_more_time)
        elif version != table.version and not _same_turn(table, version):
            raise StaleVersion(_("The table has moved on; here is the latest picture."))
        seat = _seat_of(table, user)
        if seat is None:
            raise TableError(_("You are not seated at this table."))
        if table.club_id is not None and not club_selectors.is_member(club_id=table.club_id, user=user):
            # Removed from the club: their seat is being settled; the clock plays their hand out.
            raise TableError(_("Only members of this club can do that."))
        if action == "sit_out":
            if _current_hand(table) is None:
                # Between hands the break starts now, so the next deal leaves the seat out (found
                # by an audit: it only started after the next hand), as a host's sit-out does.
                seat.sitting_out = True
            else:
                seat.break_next = True
            seat.save(update_fields=["break_next", "sitting_out"])
        elif action == "im_back":
            seat.break_next = False
            seat.sitting_out = False
            seat.save(update_fields=["break_next", "sitting_out"])
            if _current_hand(table) is None:
                _deal_soon(table)
            else:
                _whole_clock_again(table, seat)
        elif action == "new_session":
            baseball.start_new_session(table, user)
        elif action == "show_cards":
            _show_cards(table, seat)
        elif action == "rabbit":
            _hunt_rabbit(table, seat)
        elif action == "time":
            _more_time(table, seat, version)
        elif action in ("straddle_on", "straddle_off"):
            # Kept on the seat until turned off; each deal checks it (_straddle).
            if action == "straddle_on" and not straddles_on(table):
                raise TableError(_("This table does not play straddles."))
            seat.straddle = action == "straddle_on"
            seat.save(update_fields=["straddle"])
        elif action in ("run_twice_on", "run_twice_off"):
            # Kept on the seat until turned off; each deal passes the seats that agree (_deal).
            if action == "run_twice_on" and not runs_twice(table):
                raise TableError(_("This table runs the board once."))
            seat.run_twice = action == "run_twice_on"
            seat.save(update_fields=["run_twice"])
        elif action in ("post_bb", "wait_bb"):
            if not seat.wait_bb:
                raise TableError(_("You are already dealt in: there is no big blind to post."))
            seat.post_bb = action == "post_bb"
            seat.save(update_fields=["post_bb"])
        else:
            hand = _current_hand(table)
            if hand is None:
                raise TableError(_("No hand is being played."))
            idx = _engine_index(hand, seat)
            if idx is None:
                raise TableError(_("You are not in this hand."))
            state = _load_state(table, hand)
            _apply_engine(table, hand, state, idx, message)
            if hand.ended is None:
                transaction.on_commit(functools.partial(_prime_reads, table, hand, state))
                # Only the hand and the table row change: the other processes' viewers may
                # reuse the seats they read for the version before (selectors._shared_reads).
                table._hand_only = True  # type: ignore[attr-defined]
        new_version = _bump(table)
    return ActResult(version=new_version)


def _same_turn(table: Table, version: int) -> bool:
    """Whether a picture at ``version`` (older than the table's) shows the hand as it stands: no
    card or bet of the hand moved since it was drawn, only things beside it (another player's
    break or "More time", a host's setting for the next hand). A bet or call
    on it means what the player saw, so it is taken (found by an audit: a "Call" tapped as
    another player chose a break was refused). ``Hand.banked["after"]`` is the version before
    the hand's last step (_after_engine_step)."""
    if not 0 <= version < table.version:
        return False
    hand = _current_hand(table)
    after = (hand.banked or {}).get("after") if hand is not None else None
    return isinstance(after, int) and after < version


def _whole_clock_again(table: Table, seat: Seat) -> None:
    """Back during a hand in which their clock ran out: a decision of theirs running on the short
    clock of a player away (AWAY_DECISION_SECONDS) gets a whole clock from now."""
    hand = _current_hand(table)
    if hand is None or hand.clock != "decision" or hand.deadline is None or not hand.banked.get("away"):
        return  # only the short clock, and only once: a break asked for and taken back adds nothing
    idx = _engine_index(hand, seat)
    if idx is None or idx not in _load_state(table, hand).actors():
        return
    hand.deadline = max(hand.deadline, timezone.now() + dt.timedelta(seconds=_clock_seconds("decision", table.speed)))
    hand.banked = {k: v for k, v in hand.banked.items() if k != "away"}
    hand.save(update_fields=["deadline", "banked"])
    # _bump (next) schedules the later clock, as after "More time".


def _more_time(table: Table, seat: Seat, version: int) -> None:
    """"More time": up to TIME_BANK_STEP seconds from the seat's time bank added to the clock it
    is on (its decision, or the arrangement it has not sent yet: everyone's arrangement clock is
    one, so it runs longer for all). Asked for, never spent for a player who is not there.

    ``version`` may be older than the table's, as long as it is a picture of the clock running
    now (``Hand.banked["after"]``) drawn after this player's last "More time" on it: the other
    players' swaps, a seat taken or a break asked for move the version on while a player reaches
    for the button, and a click sent twice still adds its seconds once."""
    hand = _current_hand(table)
    if version != table.version:
        banked = hand.banked if hand is not None else {}
        idx = _engine_index(hand, seat) if hand is not None else None
        last = max((v for i, v in banked.get("took", ()) if i == idx), default=0)
        after = banked.get("after")
        if after is None or not max(after, last - 1) < version < table.version:
            raise StaleVersion(_("The table has moved on; here is the latest picture."))
    if hand is None or hand.deadline is None or hand.clock not in ("decision", "arrange"):
        raise TableError(_("No clock is running for you."))
    idx = _engine_index(hand, seat)
    if idx is None:
        raise TableError(_("You are not in this hand."))
    state = _load_state(table, hand)
    if idx not in state.actors():
        raise TableError(_("No clock is running for you."))
    left = time_bank_left(seat, table.hands_played)
    take = min(TIME_BANK_STEP, left)
    if take <= 0:
        raise TableError(_("Your time bank is empty."))
    hand.deadline = max(hand.deadline, timezone.now()) + dt.timedelta(seconds=take)
    # The version this makes (_bump, next): the seat's clock shows the bank to everyone, and a
    # click from a picture before it is a resend.
    hand.banked = {**hand.banked, "took": [*hand.banked.get("took", ()), [idx, table.version + 1]]}
    hand.save(update_fields=["deadline", "banked"])
    seat.time_bank = left - take
    seat.time_bank_at = table.hands_played
    seat.save(update_fields=["time_bank", "time_bank_at"])
    # _bump schedules the later clock when no timer is pending; a pending one (for the old
    # deadline) finds the table moved on when it fires and hands the clock on (table_timer).


def showable(table: Table, hand: Hand | None) -> bool:
    """Whether the players of ``hand`` may still show their cards: it is the table's latest hand,
    it is over, and the table still shows it (its showdown pause runs; Baseball keeps its last
    pot in sight until the next deal)."""
    return (hand is not None and hand.ended is not None
            and (hand.deadline is not None or baseball.is_baseball(table)))


def shown_seats(hand: Hand, state: Any) -> set[int]:
    """The engine indexes whose cards every viewer sees: shown at the showdown or after it."""
    shown = set(state.result.shown) if state.result is not None else set()
    return shown | {int(i) for i in hand.shown_after or ()}


def _show_cards(table: Table, seat: Seat) -> None:
    """After the hand, a player who was dealt in shows their cards to everyone at the table (a
    winner nobody called, or anyone who folded), until the next deal. Once shown, shown."""
    hand = _latest_hand(table)
    if not showable(table, hand):
        raise TableError(_("Cards can be shown after a hand, until the next one is dealt."))
    assert hand is not None
    idx = _engine_index(hand, seat)
    if idx is None:
        raise TableError(_("You were not dealt into the last hand."))
    if idx in shown_seats(hand, _load_state(table, hand)):
        raise TableError(_("Your cards are already shown."))
    hand.shown_after = [*hand.shown_after, idx]
    hotsql.save(hand, ["shown_after"])


def rabbit_cards(table: Table, hand: Hand | None, state: Any) -> list[list[Any]] | None:
    """The board cards ``hand`` would have dealt had it gone on, when a player may still hunt
    them: the host allows the rabbit hunt, the hand is the table's latest, over and still shown
    (``showable``), its game has a board (Hold'em, Omaha, Patch-Patch) and the board was not all
    out. The engine says which cards (``rabbit()``)."""
    if not table.rabbit_hunt or not showable(table, hand) or not game_has_rabbit(hand.game):  # type: ignore[union-attr]
        return None
    return state.rabbit()  # type: ignore[no-any-return]


def rabbit_on(table: Table) -> bool:
    """Whether the players at ``table`` may hunt the rabbit in the game dealt now."""
    return table.rabbit_hunt and game_has_rabbit(table.game)


def game_has_rabbit(game: str) -> bool:
    """The games with a board to hunt: Hold'em and Omaha (every structure) and Patch-Patch."""
    return game == "PP" or game_runs_twice(game)


def _hunt_rabbit(table: Table, seat: Seat) -> None:
    """A player dealt into the last hand asks to see the board cards it would have dealt; every
    viewer sees them until the next deal (and on the hand's page). They are not part of the hand:
    nothing is won or lost with them. Once hunted, hunted."""
    if not table.rabbit_hunt:
        raise TableError(_("This table does not hunt rabbits."))
    hand = _latest_hand(table)
    if hand is not None and not game_has_rabbit(hand.game):
        # Said as it is (found by an audit: a draw table answered "after a hand, until the next
        # one is dealt" in the very moment it named).
        raise TableError(_("This game has no board: there is no rabbit to hunt."))
    if not showable(table, hand):
        raise TableError(_("The rabbit can be hunted after a hand, until the next one is dealt."))
    assert hand is not None
    if _engine_index(hand, seat) is None:
        raise TableError(_("You were not dealt into the last hand."))
    if hand.rabbit:
        raise TableError(_("The rabbit was hunted already."))
    if _load_state(table, hand).rabbit() is None:  # the house rule and the hand checked above
        raise TableError(_("Every card of that hand was dealt: there is no rabbit to hunt."))
    hand.rabbit = True
    hotsql.save(hand, ["rabbit"])


def _prime_reads(table: Table, hand: Hand, state: Any) -> None:
    from tables.selectors import prime_shared_reads

    prime_shared_reads(table=table, hand=hand, state=state)


def _engine_index(hand: Hand, seat: Seat) -> int | None:
    for i, (seat_no, user_id, _start) in enumerate(hand.players):
        if seat_no == seat.seat_no and user_id == seat.user_id:
            return i
    return None


def _variant(table: Table) -> Any:
    return get_variant(table.game)


def _load_state(table: Table, hand: Hand) -> Any:
    """A hand's engine state, read by the rules of the game it was dealt (``Hand.game``: a table
    may have changed its game since). When this process's viewers hold the state of an earlier
    version of the same hand (nearly always, for an action from one of its sockets), the actions
    since are applied to a copy of it (``rules_engine.resume``: checked to be that hand's log up to
    there) instead of the hand replayed from its deal. The result is the caller's to change."""
    from rules_engine.resume import resume
    from tables.selectors import held_state

    held = held_state(table=table, hand=hand)
    if held is None:
        return get_variant(hand.game).from_json(hand.state)
    return resume(get_variant(hand.game), hand.state, before=held[0], before_data=held[1])


def _is_legal(state: Any, idx: int, kind: str) -> bool:
    return any(a.kind == kind for a in state.legal_actions(idx))


def _parse_engine_action(idx: int, message: dict[str, Any]) -> Any:
    from rules_engine.games import Action

    kind = message["action"]
    if kind == "swap":
        cards = message.get("cards")
        if not isinstance(cards, list) or len(cards) != 2 or not all(isinstance(c, str) and len(c) <= 4 for c in cards):
            raise TableError(_("A swap names two of your cards."))
        try:
            pair = (Card.parse(cards[0]), Card.parse(cards[1]))
        except CardParseError as exc:
            raise TableError(str(exc)) from exc
        return Action(seat=idx, kind="swap", cards=pair)
    if kind == "arrange":
        order = message.get("order")
        if not isinstance(order, list) or len(order) != 12 or not all(isinstance(c, str) and len(c) <= 4 for c in order):
            raise TableError(_("An arrangement lists your twelve cards."))
        try:
            cards12 = tuple(Card.parse(c) for c in order)
        except CardParseError as exc:
            raise TableError(str(exc)) from exc
        return Action(seat=idx, kind="arrange", order=cards12)
    if kind == "draw":
        cards = message.get("cards", [])
        if not isinstance(cards, list) or len(cards) > 5 or not all(isinstance(c, str) and len(c) <= 4 for c in cards):
            raise TableError(_("A draw names up to five of your cards to throw away."))
        try:
            return Action(seat=idx, kind="draw", cards=tuple(Card.parse(c) for c in cards))
        except CardParseError as exc:
            raise TableError(str(exc)) from exc
    amount = message.get("amount")
    if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool) or not 0 <= amount < 10**12):
        raise TableError(_("An amount is a whole number of chips."))
    return Action(seat=idx, kind=kind, amount=amount)


def _apply_engine(table: Table, hand: Hand, state: Any, idx: int, message: dict[str, Any]) -> None:
    action = _parse_engine_action(idx, message)
    try:
        state.apply(action)
    except RulesError as exc:
        log.info("table %s: the rules refused %r: %s", table.id, message.get("action"), exc)
        raise TableError(refusals.player_message(exc)) from exc
    _after_engine_step(table, hand, state)


# What a player who left during a hand does when their turn comes, in this order of preference:
# give the hand up, else check, else hand in their arrangement as it stands. Anything else (a
# stud bring-in, a draw) is left to their clock.
_LEAVER_ACTIONS = ("fold", "check", "done")


def _answer_leavers(hand: Hand, state: Any) -> bool:
    """Play the turns of the players who left the table during this hand (``Hand.leavers``) at
    once, so the others do not wait for a clock nobody is watching. True when one was played."""
    from rules_engine.games import Action

    leavers = set(hand.leavers)
    moved = False
    while not state.is_over:
        turn = next(((i, kind) for i in state.actors() if i in leavers
                     for kind in _LEAVER_ACTIONS if _is_legal(state, i, kind)), None)
        if turn is None:
            break
        state.apply(Action(seat=turn[0], kind=turn[1]))
        moved = True
    return moved


def _waiting_on_the_away(table: Table, hand: Hand, state: Any) -> bool:
    """Whether every player the decision clock waits for timed out earlier in this hand
    (``state.breaks``) and is still on the break it started (the seat's ``break_next``)."""
    breaks = getattr(state, "breaks", None)
    if not breaks:
        return False
    actors = state.actors()
    if not actors or any(i not in breaks for i in actors):
        return False
    wanted = {(hand.players[i][0], hand.players[i][1]) for i in actors}
    away = set(Seat.objects.filter(table=table, seat_no__in=[s for s, _u in wanted], break_next=True)
               .values_list("seat_no", "user_id"))
    return wanted <= away


def _after_engine_step(table: Table, hand: Hand, state: Any) -> None:
    """Save the state, set the clock, and settle the hand when it is over."""
    if hand.leavers:
        _answer_leavers(hand, state)
    hand.state = state.to_json()
    now = timezone.now()
    if state.is_over:
        _settle(table, hand, state, now)
        return
    clock = state.clock() or ""
    if clock != hand.clock or clock == "decision":
        # A new decision (or a new phase) starts a new clock; swaps during arrangement don't.
        hand.clock = clock
        seconds = _clock_seconds(clock, table.speed) if clock else 0.0
        away = clock == "decision" and _waiting_on_the_away(table, hand, state)
        if away:
            seconds = min(seconds, AWAY_DECISION_SECONDS)
        hand.deadline = now + dt.timedelta(seconds=seconds) if clock else None
        # A "More time" may answer any picture of this clock (_more_time): from the next version on.
        hand.banked = {"after": table.version} if clock else {}
        if away:
            hand.banked["away"] = True  # "I'm back" turns it into a whole clock, once
    hotsql.save(hand, ["state", "clock", "deadline", "banked"])
    _schedule_expiry(table, hand)


# What settling a hand writes (one compiled UPDATE each, tables.hotsql): the seats' stacks and
# breaks, and the hand's end. Nothing else of a hand changes after its deal but its state, clock
# and deadline (_after_engine_step, which hands the state to _settle unsaved).
_SETTLED_SEAT = ("stack", "sitting_out", "break_next")
_SETTLED_HAND = ("state", "clock", "deadline", "banked", "ended", "result", "phh")


def _settle(table: Table, hand: Hand, state: Any, now: dt.datetime) -> None:
    seats = {s.seat_no: s for s in Seat.objects.filter(table=table).select_related("user")}
    nets: list[tuple[AbstractBaseUser, int]] = []
    if baseball.is_baseball(table):
        baseball.settle(table, hand, state, seats)  # play units and their own ledger, no chips
    else:
        stacks = [int(x) for x in state.stacks]
        starts = [int(p[2]) for p in hand.players]
        for i, (seat_no, _user_id, _start) in enumerate(hand.players):
            seat = seats[seat_no]
            nets.append((seat.user, stacks[i] - starts[i]))
            seat.stack = stacks[i]
        # The rake is the engine's, not the difference: hand_settled checks that the players' nets
        # and the rake sum to zero, a check the difference could never fail.
        rake = int(state.result.rake)
        if sum(starts) - sum(stacks) != rake:
            log.error("table %s hand %s: the stacks moved by %s but the engine's rake is %s",
                      table.id, hand.id, sum(starts) - sum(stacks), rake)
        club_services.hand_settled(
            table_id=table.id, hand_id=hand.id, nets=nets, rake=rake, club_id=table.club_id,
        )
    busted = _freezeout_after_hand(table, hand, seats)
    # A timeout's break was put on the seat when the clock ran out (table_expire), so a player
    # who pressed "I'm back" since then is dealt into the next hand.
    for seat in seats.values():
        if seat.break_next:
            seat.sitting_out = True
            seat.break_next = False
        hotsql.save(seat, _SETTLED_SEAT)
        if seat.leaving or seat.pk in busted:
            _cash_out(table, seat)
    if freezeout.running(table):
        holders = [s for s in seats.values() if s.stack > 0 and not s.leaving]
        _finish_freezeout_if_won(table, holders, now)
    hand.ended = now
    hand.result = state.view_for(None).get("result")
    try:
        from rules_engine import notation

        hand.phh = notation.to_phh(state)
    except Exception:  # the hand is settled either way; a history we cannot write is logged
        log.exception("could not export hand %s as PHH", hand.id)
    hand.clock = "next"
    pause = _clock_seconds("next", table.speed) + runout_seconds(hand.result, state)
    if table.game == "PP" and hand.result and hand.result.get("showdown") and getattr(settings, "TABLE_SHOWDOWN_SECONDS", None) is None:
        pause += PP_SHOWDOWN_EXTRA_SECONDS  # three boards' results to read (an audit, on a phone)
    hand.deadline = now + dt.timedelta(seconds=pause)
    hand.banked = {}
    hotsql.save(hand, _SETTLED_HAND)
    table.hands_played += 1
    if table.club_id is not None and not baseball.is_baseball(table):
        _club_hand_played(table, hand, nets)
    if table.next_big_blind is not None or table.next_speed:
        apply_next_terms(table)
    if table.close_after_hand:
        _close(table)
    elif table.pause_after_hand:
        table.status = Table.Status.PAUSED
        table.pause_after_hand = False
        _pause_level_clock(table, now)
    _schedule_expiry(table, hand)


def _freezeout_after_hand(table: Table, hand: Hand, seats: dict[int, Seat]) -> set[int]:
    """In a freeze-out, the players whose chips ran out in this hand are out, placed (and
    stood up: the seats returned); players standing up with chips are out below those still
    holding chips. Returns the busted seats' primary keys."""
    if not freezeout.running(table) or baseball.is_baseball(table):
        return set()
    starts = {int(p[0]): int(p[2]) for p in hand.players}
    holders = sum(1 for s in seats.values() if s.stack > 0)
    busted = [s for s in seats.values() if s.seat_no in starts and s.stack <= 0]
    freezeout.bust(table, [(s.user_id, starts[s.seat_no], club_selectors.display_name(s.user)) for s in busted], holders)
    places = {int(row[0]): int(row[2]) for row in table.freezeout["out"]}
    for s in busted:
        transaction.on_commit(functools.partial(_tell_out, table.id, s.user_id, places.get(s.user_id, 0)))
    for s in sorted((s for s in seats.values() if s.leaving and s.stack > 0), key=lambda s: s.seat_no):
        freezeout.left(table, s.user_id, club_selectors.display_name(s.user), holders)
        holders -= 1
    hotsql.save(table, freezeout.FIELDS)
    return {s.pk for s in busted}


def _pause_level_clock(table: Table, now: dt.datetime) -> None:
    if levels.on(table):
        levels.pause(table, now)
        hotsql.save(table, levels.FIELDS)


def club_hand_results(game: str, players: list[list[int]], nets: list[int], result: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Per player of a settled hand, what a club session counts (see ``club_hand_played``):
    net, chips collected, and for Patch-Patch the boards won (a split board counts) and a scoop.

    >>> r = {"payouts": [0, 60], "scoop": 1, "pots": [{"boards": [
    ...     {"board": 0, "winners": [{"seat": 1}]}, {"board": 1, "winners": [{"seat": 1}]},
    ...     {"board": 2, "winners": [{"seat": 1}]}]}]}
    >>> [(x["user"], x["net"], x["won"], x["boards_won"], x["scoop"])
    ...  for x in club_hand_results("PP", [[0, 7, 100], [1, 8, 100]], [-30, 30], r)]
    [(7, -30, 0, 0, False), (8, 30, 60, 3, True)]
    """
    result = result or {}
    payouts = result.get("payouts") or []
    boards: dict[int, set[int]] = {}
    if game == "PP":
        for pot in result.get("pots") or []:
            for b in pot.get("boards") or []:
                for w in b.get("winners") or []:
                    boards.setdefault(int(w["seat"]), set()).add(int(b["board"]))
    out = []
    for i, (_seat_no, user_id, _start) in enumerate(players):
        won = int(payouts[i]) if i < len(payouts) else max(0, nets[i])
        out.append({
            "user": int(user_id), "net": int(nets[i]), "won": won,
            "boards_won": len(boards.get(i, ())), "scoop": game == "PP" and result.get("scoop") == i,
        })
    return out


def _club_hand_played(table: Table, hand: Hand, nets: list[tuple[AbstractBaseUser, int]]) -> None:
    results = club_hand_results(table.game, hand.players, [n for _user, n in nets], hand.result)
    pot = sum(int(p.get("amount", 0)) for p in (hand.result or {}).get("pots") or [])
    try:
        # A savepoint: a session that cannot count the hand must not stop the hand settling.
        with transaction.atomic():
            club_services.club_hand_played(
                club_id=int(table.club_id), table_id=table.id, hand_id=hand.id, results=results, game=table.game, pot=pot,
            )
    except Exception:
        log.exception("club session could not count hand %s of table %s", hand.id, table.id)


MAX_OPEN_PUBLIC_TABLES = 3  # public tables one player may have open at once (table_create)

# A site's public table stands up a player it has dealt this many hands in a row without (on a
# break, or short of a big blind): the seat goes to someone who will play (DECISIONS.md).
ABSENT_HANDS = 10


def _stand_up_the_long_absent(table: Table, ready: list[Seat]) -> None:
    """At one of the site's public tables (not a club's, not a private one: their hosts decide),
    cash out every seated player who was at the table for the last ABSENT_HANDS hands and dealt
    into none of them. Their chips go back to their bankroll, as when they stand up."""
    if not table.is_public or table.club_id is not None or baseball.is_baseball(table):
        return
    absent = list(Seat.objects.filter(table=table, leaving=False).exclude(pk__in=[s.pk for s in ready])
                  .select_related("user"))
    if not absent:
        return
    recent = list(Hand.objects.filter(table=table).order_by("-number").values_list("players", "started")[:ABSENT_HANDS])
    if len(recent) < ABSENT_HANDS:
        return
    since = recent[-1][1]
    dealt = {int(p[1]) for players, _started in recent for p in players}
    gone = [s for s in absent if s.joined < since and s.user_id not in dealt]
    for seat in gone:
        log.info("table %s: %s stood up after %s hands without being dealt in", table.id, seat.user_id, ABSENT_HANDS)
        _cash_out(table, seat)
        transaction.on_commit(functools.partial(_tell_stood_up, table.id, seat.user_id))
    if gone:
        transaction.on_commit(_lobby_changed)


# A site's public table that cannot deal (fewer than two players ready: the others out of chips,
# on a break or gone) stands its idle players up after this long without a hand, so the seats go
# to someone who will play (found by an audit: a table "full" of broke and absent players stayed
# full, and the ten-hand rule above never ran, since no hand was dealt).
STALLED_TABLE = dt.timedelta(minutes=5)


def stand_up_at_stalled_tables(*, now: dt.datetime | None = None, stalled: dt.timedelta = STALLED_TABLE) -> int:
    """At each of the site's public tables (not a club's, not a private one, not Baseball) that
    has dealt nothing for ``stalled`` and has fewer than two players ready to be dealt in, cash out
    every seated player who is not ready and sat down before then (their chips go back to their
    bankroll). Run by the beat every minute. Returns how many players were stood up."""
    from django.db.models import Exists, OuterRef, Q, Subquery

    cutoff = (now or timezone.now()) - stalled
    # Only tables with no hand started since the cutoff are looked at under their lock: a table
    # that deals is never locked here (this runs every minute beside the live tables' writers).
    last_started = Hand.objects.filter(table=OuterRef("pk")).order_by("-number").values("started")[:1]
    ids = list(Table.objects.filter(is_public=True, club__isnull=True, status=Table.Status.OPEN, created__lt=cutoff)
               .exclude(game="BB").filter(Exists(Seat.objects.filter(table=OuterRef("pk"))))
               .annotate(last_started=Subquery(last_started))
               .filter(Q(last_started__isnull=True) | Q(last_started__lt=cutoff))
               .values_list("id", flat=True))
    stood = 0
    for table_id in ids:
        with transaction.atomic():
            table = _lock_table(table_id)
            if table.status != Table.Status.OPEN or _current_hand(table) is not None:
                continue
            last = Hand.objects.filter(table=table).order_by("-number").values_list("ended", "started").first()
            quiet_since = (last[0] or last[1]) if last else table.created
            if quiet_since > cutoff:
                continue
            ready = _ready_seats(table)
            if len(ready) >= 2:
                continue  # it deals, or is about to
            idle = [s for s in Seat.objects.filter(table=table, leaving=False).exclude(pk__in=[r.pk for r in ready])
                    .select_related("user") if s.joined < cutoff]
            for seat in idle:
                log.info("table %s: %s stood up, the table dealt nothing for %s", table.id, seat.user_id, stalled)
                _cash_out(table, seat)
                transaction.on_commit(functools.partial(_tell_stood_up, table.id, seat.user_id, "stalled"))
            if idle:
                _bump(table)
                transaction.on_commit(_lobby_changed)
                stood += len(idle)
    return stood


def _tell_out(table_id: int, user_id: int, place: int) -> None:
    from tables.live import broadcast_access_changed

    broadcast_access_changed(table_id, user_id, out_place=place)


def _tell_stood_up(table_id: int, user_id: int, why: str = "absent") -> None:
    """``why``: "absent" (ten hands dealt without them) or "stalled" (the table dealt nothing
    for five minutes): their pages say which (found by an audit: a table that never dealt said
    "not dealt in for ten hands")."""
    from tables.live import broadcast_access_changed

    broadcast_access_changed(table_id, user_id, stood_up=why)


def _ready_seats(table: Table) -> list[Seat]:
    if baseball.is_baseball(table):
        return baseball.ready_seats(table, Seat.objects.filter(table=table).order_by("seat_no"))
    if freezeout.running(table):
        # As in a tournament, a player on a break is dealt in and blinded away (their turns
        # played at once: a fold, else a check; ``_answer_leavers``), but only while someone
        # at the table is playing.
        seats = [s for s in Seat.objects.filter(table=table).order_by("seat_no") if not s.leaving and s.stack > 0]
        return seats if any(not s.sitting_out for s in seats) else []
    least = _least_stack(table)
    return [
        s for s in Seat.objects.filter(table=table).order_by("seat_no")
        if not s.sitting_out and not s.leaving and s.stack >= least
    ]


def _least_stack(table: Table) -> int:
    """The stack a player needs to be dealt in: a big blind at a cash table; at a table whose
    blinds rise on a clock, any chips at all, as in a tournament (a short stack posts what it
    has and is all-in)."""
    return 1 if levels.on(table) else table.big_blind


def straddles_on(table: Table) -> bool:
    """Whether a player at ``table`` may straddle now: the host allows it and the game dealt is
    no-limit or pot-limit Hold'em or Omaha (rules_engine.games.flop)."""
    return table.straddles and game_takes_straddle(table.game)


def game_takes_straddle(game: str) -> bool:
    """No-limit and pot-limit Hold'em and Omaha: the games a straddle is played in."""
    variant = _variant_or_none(game)
    return getattr(variant, "FAMILY", "") == "flop" and getattr(variant, "STRUCTURE", "") != "fixed-limit"


def runs_twice(table: Table) -> bool:
    """Whether the players at ``table`` may agree to run the board twice: the host allows it and
    the game dealt is Hold'em or Omaha (rules_engine.games.flop)."""
    return table.run_twice and game_runs_twice(table.game)


BOMB_CHOICES = (1, 2, 3, 5)  # big blinds each, the host's choice


def game_runs_twice(game: str) -> bool:
    """Hold'em and Omaha, every structure: the games with a board to run twice."""
    return getattr(_variant_or_none(game), "FAMILY", "") == "flop"


game_has_bomb = game_runs_twice  # the same games deal a bomb pot: it skips to their flop

SEVEN_DEUCE_CHOICES = (1, 2, 5)  # big blinds from each player, the host's choice


def game_has_seven_deuce(game: str) -> bool:
    """Hold'em, every structure: the games with two hole cards to hold a seven and a deuce in."""
    variant = _variant_or_none(game)
    return getattr(variant, "FAMILY", "") == "flop" and getattr(variant, "HOLE", 0) == 2


def seven_deuce_chips(table: Table) -> int:
    """The seven-deuce bounty each player pays at ``table``'s next hand, in chips (0: none): the
    host's big blinds at a Hold'em table."""
    return table.seven_deuce_bb * table.big_blind if table.seven_deuce_bb and game_has_seven_deuce(table.game) else 0


def _straddle(table: Table, ready: list[Seat], button: int, posted: list[int], dead: list[int]) -> int:
    """The straddle of the hand about to be dealt (0 for none): twice the big blind, when the
    seat left of the big blind (``ready[button + 3]``, three players or more) asked for it, is not
    posting to come in and has more chips than that. Otherwise the hand is dealt without one."""
    n = len(ready)
    if n < 3 or not straddles_on(table):
        return 0
    seat = ready[(button + 3) % n]
    amount = 2 * table.big_blind
    if (not seat.straddle or seat.sitting_out or seat.seat_no in posted or seat.seat_no in dead
            or int(seat.stack) <= amount):
        return 0
    return amount


def _blind_game(table: Table) -> bool:
    """Hold'em, Omaha and draw: the ring games with blinds that rotate (GAMES.md section 3).
    Stud and Baseball ante every hand; Patch-Patch seats two or three and deals everyone in."""
    return getattr(_variant(table), "FAMILY", "") in ("flop", "draw")


def _playing(table: Table, s: Seat) -> bool:
    return not s.sitting_out and not s.leaving and not s.wait_bb and s.stack >= _least_stack(table)


def _joins_running_game(table: Table, others: list[Seat]) -> bool:
    """Whether a player sitting down now waits for the big blind (GAMES.md section 3: a player
    joining a running table posts a big blind to be dealt in at once, or waits until the big
    blind reaches their seat; the site has them wait). A game is running once it has dealt and
    two others would be dealt the next hand without the newcomer."""
    if not _blind_game(table) or (table.hands_played == 0 and _current_hand(table) is None):
        return False
    return sum(1 for s in others if _playing(table, s)) >= 2


def _blind_seat(seat_nos: list[int], button_seat: int, k: int = 2) -> int:
    """The big blind's seat number among ``seat_nos`` (three or more) with the button there
    (``k=1``: the small blind's): the small blind is left of the button, the big blind left of
    that."""
    order = sorted(seat_nos)
    i = order.index(button_seat)
    return order[(i + k) % len(order)]


def _deal_in_waiting(table: Table, ready: list[Seat], posts: list[int]) -> tuple[list[Seat], int | None]:
    """Who is dealt the next hand, and its button, when seats wait for the big blind: the button
    moves among the players already playing, and a waiting seat comes in on the hand whose big
    blind falls on it, or at once with a posted big blind (its seat number added to ``posts``).
    With fewer than two others ready nobody waits (the game would not run)."""
    waiting = [s for s in ready if s.wait_bb]
    if not waiting:
        return ready, None
    playing = [s for s in ready if not s.wait_bb]
    button: int | None = None
    if len(playing) < 2:
        coming = waiting
    else:
        nos = [s.seat_no for s in playing]
        after = [n for n in nos if n > table.button_seat]
        button = after[0] if after else nos[0]
        coming = []
        for w in sorted(waiting, key=lambda s: (s.seat_no <= button, s.seat_no)):  # clockwise from the button
            if _blind_seat([*nos, w.seat_no], button) == w.seat_no:
                coming.append(w)
                nos.append(w.seat_no)
        # Then those who chose to post a big blind: in at once from any seat but the small
        # blind's (there they wait for the button to pass; in the big blind's they come in as
        # the big blind). Clockwise from the button, so each one's place counts the ones before.
        for w in sorted(waiting, key=lambda s: (s.seat_no <= button, s.seat_no)):
            if w in coming or not w.post_bb:
                continue
            if _blind_seat([*nos, w.seat_no], button, 1) == w.seat_no:
                continue
            coming.append(w)
            nos.append(w.seat_no)
            if _blind_seat(nos, button) != w.seat_no:
                posts.append(w.seat_no)
    for s in coming:
        if s.seat_no not in posts:  # in on its big blind: nothing more is owed
            s.missed_sb = False
        s.wait_bb = s.post_bb = s.missed_bb = False
        s.save(update_fields=["wait_bb", "post_bb", "missed_bb", "missed_sb"])
    dealt = sorted([*playing, *coming], key=lambda s: s.seat_no)
    return dealt, button


def _mark_missed_blinds(table: Table, dealt: list[Seat], button_seat: int) -> None:
    """A seated player left out of this hand (on a break, or short of a big blind) whose big
    blind it would have been has missed it: back in the game, they wait for the big blind as a
    newcomer does (or post it and the small blind they missed, dead), so a break cannot skip the
    blinds. One whose small blind it would have been owes it, dead, when next dealt in.
    Newcomers waiting for their first big blind owe nothing."""
    nos = [s.seat_no for s in dealt]
    for s in Seat.objects.filter(table=table, leaving=False).exclude(seat_no__in=nos):
        if s.wait_bb and not s.missed_bb:
            continue  # a newcomer
        if _blind_seat([*nos, s.seat_no], button_seat, 1) == s.seat_no and not s.missed_sb:
            s.missed_sb = True
            s.save(update_fields=["missed_sb"])
        elif not s.wait_bb and _blind_seat([*nos, s.seat_no], button_seat) == s.seat_no:
            s.wait_bb = s.missed_bb = True
            s.save(update_fields=["wait_bb", "missed_bb"])


def _dead_small_blinds(dealt: list[Seat], button_seat: int) -> list[int]:
    """The seats dealt this hand that pay a small blind they missed, dead: any but this hand's
    own blinds (whose blinds settle what they owe). Clears what is settled."""
    nos = [s.seat_no for s in dealt]
    if len(nos) < 3:
        for s in dealt:
            if s.missed_sb:
                s.missed_sb = False
                s.save(update_fields=["missed_sb"])
        return []
    i = nos.index(button_seat)
    blinds = {nos[(i + 1) % len(nos)], nos[(i + 2) % len(nos)]}
    dead = []
    for s in dealt:
        if s.missed_sb:
            if s.seat_no not in blinds:
                dead.append(s.seat_no)
            s.missed_sb = False
            s.save(update_fields=["missed_sb"])
    return dead


def _switch_game(table: Table) -> None:
    """Dealer's choice: the game a host chose is dealt from this hand on (the caller is about to
    deal, holding the table's lock). A game without blinds deals everyone in, so nobody waits for
    a big blind or owes a missed one any more; a game with blinds takes the button on from where
    it was."""
    table.game, table.next_game = table.next_game, ""
    hotsql.save(table, ["game", "next_game"])
    if not _blind_game(table):
        Seat.objects.filter(table=table).update(wait_bb=False, post_bb=False, missed_bb=False, missed_sb=False)
    transaction.on_commit(_lobby_changed)


def _deal_soon(table: Table) -> None:
    """Set the table to deal in a few seconds if two players are ready and no deal is pending
    (the wait lets a third player sit down before the first two are dealt in)."""
    if table.status != Table.Status.OPEN or table.next_hand_at is not None:
        return
    latest = _latest_hand(table)
    if latest is not None and latest.deadline is not None:
        return  # the showdown pause is running; its end deals
    if len(_ready_seats(table)) < 2:
        return
    delay = _clock_seconds("deal", table.speed)
    if delay <= 0:
        _start_hand_if_ready(table)
        return
    table.next_hand_at = timezone.now() + dt.timedelta(seconds=delay)
    # No version: players sitting down meanwhile bump it, and the deal must still happen.
    _schedule_at(table, table.next_hand_at, with_version=False)


def _start_hand_if_ready(table: Table) -> Hand | None:
    """Deal a new hand if at least two seated players are not on a break."""
    table.next_hand_at = None
    if table.status != Table.Status.OPEN:
        return None
    if table.next_game and table.next_game != table.game:
        _switch_game(table)
    ready = _ready_seats(table)
    _stand_up_the_long_absent(table, ready)
    if len(ready) < 2:
        _pause_level_clock(table, timezone.now())  # the blinds' clock waits with the table
        return None
    if levels.on(table):
        # Blinds on a clock: a clock that waited for players goes on, and a level whose time is
        # up is dealt now (tables.levels).
        now = timezone.now()
        levels.resume(table, now)
        if levels.rise_if_due(table, now):
            transaction.on_commit(_lobby_changed)
        hotsql.save(table, (*levels.FIELDS, "small_blind", "big_blind"))
    # The last hand's clock (its showdown pause) ends with this deal: a deadline left on it would
    # bring the sweep back to this table every time it runs.
    Hand.objects.filter(table=table, deadline__isnull=False, ended__isnull=False).update(clock="", deadline=None)
    # The button moves one seat clockwise among the players dealt in (among those already
    # playing when someone waits for the big blind: they come in behind it).
    posted: list[int] = []
    ready, moved = _deal_in_waiting(table, ready, posted)
    seat_nos = [s.seat_no for s in ready]
    after = [n for n in seat_nos if n > table.button_seat]
    button_seat = moved if moved is not None else (after[0] if after else seat_nos[0])
    units = baseball.is_baseball(table)
    if units:  # a session's first dealer is drawn at random (tables.baseball)
        button_seat = baseball.dealer_seat(table, seat_nos, button_seat)
    # A bomb pot the host asked for, at the first Hold'em or Omaha hand dealt: everyone puts it
    # in, so a player coming in pays it instead of a big blind, nobody straddles, and nobody
    # misses a blind or pays one owed (none is posted).
    bomb = table.bomb_next_bb * table.big_blind if table.bomb_next_bb and not units and game_has_bomb(table.game) else 0
    dead: list[int] = []
    if not units and _blind_game(table) and not bomb:  # a small blind owed waits for a hand with blinds
        _mark_missed_blinds(table, ready, button_seat)
        dead = _dead_small_blinds(ready, button_seat)
    table.button_seat = button_seat
    variant = _variant(table)
    # The same setup the pages describe the stakes from (tables.stakes).
    setup = stakes.hand_setup(
        variant,
        stacks=baseball.start_balances(ready) if units else tuple(int(s.stack) for s in ready),
        button=seat_nos.index(button_seat), small_blind=table.small_blind, big_blind=table.big_blind,
        speed=table.speed, public=table.is_public,
    )
    # The deck comes from the OS's CSPRNG and is committed to before anything is dealt. Five-card
    # draw also needs the order its discards are reshuffled in when the stub runs out: fixed by
    # the committed deck and salts (without one the engine would use the natural card order).
    deck = Deck.shuffled(secrets.SystemRandom()).order
    commit = fairness.ShuffleCommitment.create(deck)
    if bomb:
        posted = []
        table.bomb_next_bb = 0
        hotsql.save(table, ["bomb_next_bb"])
    setup = dataclasses.replace(setup, deck=deck, posts=tuple(seat_nos.index(n) for n in posted), bomb=bomb,
                                dead=tuple(seat_nos.index(n) for n in dead),
                                straddle=0 if units or bomb else _straddle(table, ready, setup.button, posted, dead),
                                # The seats whose "Run it twice" is on: the engine runs the board
                                # twice only when all those still in at an all-in are among them.
                                run_twice=tuple(i for i, s in enumerate(ready) if s.run_twice) if runs_twice(table) else (),
                                seven_deuce=0 if units else seven_deuce_chips(table))
    if getattr(variant, "FAMILY", "") == "draw":
        setup = dataclasses.replace(setup, reshuffle=fairness.reshuffle_order(commit))
    state = variant.start(setup)
    number = (Hand.objects.filter(table=table).order_by("-number").values_list("number", flat=True).first() or 0) + 1
    hand = Hand.objects.create(
        table=table, number=number, game=table.game, players=[[s.seat_no, s.user_id, s.units if units else int(s.stack)] for s in ready],
        state=state.to_json(), deck_commitment=commit.commitment, deck_salts=list(commit.salts),
        # In a freeze-out the players on a break are dealt in, their turns played at once.
        leavers=[i for i, s in enumerate(ready) if s.sitting_out] if freezeout.running(table) else [],
    )
    if freezeout.dealt(table):
        hotsql.save(table, freezeout.FIELDS)
    _after_engine_step(table, hand, state)
    return hand


# ---------------------------------------------------------------------------------------------
# Pausing (host controls; who may call these is checked by the caller)


@retry_when_busy
def table_pause(*, table_id: int, now: bool = False) -> int:
    """Pause after the current hand (or at once when no hand is being played)."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status == Table.Status.CLOSED:
            raise TableError(_("This table is closed."))
        if table.close_after_hand:
            # A pause or resume from a panel drawn before the close was answered as done, and the
            # table closed all the same (found by an audit).
            raise TableError(_("This table closes when this hand ends."))
        if now or _current_hand(table) is None:
            table.status = Table.Status.PAUSED
            table.pause_after_hand = False
            _pause_level_clock(table, timezone.now())
        else:
            table.pause_after_hand = True
        return _bump(table)


@retry_when_busy
def table_resume(*, table_id: int) -> int:
    """Open a paused table again and deal if enough players are ready."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.status == Table.Status.CLOSED:
            raise TableError(_("This table is closed."))
        if table.close_after_hand:
            # A pause or resume from a panel drawn before the close was answered as done, and the
            # table closed all the same (found by an audit).
            raise TableError(_("This table closes when this hand ends."))
        if table.status == Table.Status.OPEN and not table.pause_after_hand:
            return table.version  # not paused: a second click changes nothing
        if table.status == Table.Status.PAUSED and levels.on(table):
            levels.resume(table, timezone.now())
            hotsql.save(table, levels.FIELDS)
        table.status = Table.Status.OPEN
        table.pause_after_hand = False
        if _current_hand(table) is None:
            latest = _latest_hand(table)
            # During the last hand's showdown pause its timer deals when the pause ends, as at a
            # table that never paused (found by an audit: dealing here cut the pause short and
            # left that hand's deadline set, so the sweep took the table's lock every 2 s).
            if latest is None or latest.deadline is None or latest.deadline <= timezone.now():
                _start_hand_if_ready(table)
        version = _bump(table)
    transaction.on_commit(_lobby_changed)
    return version


# ---------------------------------------------------------------------------------------------
# Timers


@retry_when_busy
def table_expire(*, table_id: int, version: int | None = None, now: dt.datetime | None = None) -> bool:
    """Apply the clock that ran out. Does nothing unless (when given) ``version`` is still the
    table's version and the deadline has really passed. Returns True when something changed."""
    now = now or timezone.now()
    if version is not None and not Table.objects.filter(id=table_id, version=version).exists():
        # A stale version (a timer sent straight to the worker, a duplicate delivery): answer it
        # with one plain read, without taking the row lock, which would queue it with the
        # players' actions and write a lock record. Checked again under the lock below.
        return False
    with transaction.atomic():
        table = _lock_table(table_id)
        if version is not None and version != table.version:
            return False
        hand = _latest_hand(table)
        if hand is not None and hand.ended is None:
            if hand.deadline is None or hand.deadline > now:
                return False
            state = _load_state(table, hand)
            before = set(getattr(state, "breaks", ()) or ())
            state.timeout()
            # Whoever timed out is on a break from the next hand: put it on the seat now, so their
            # page says so and offers "I'm back" at once, not only after the hand is settled.
            for i in set(getattr(state, "breaks", ()) or ()) - before:
                seat_no, user_id, _start = hand.players[i]
                Seat.objects.filter(table=table, seat_no=seat_no, user_id=user_id).update(break_next=True)
            _after_engine_step(table, hand, state)
            _bump(table)
            return True
        # Between hands: the showdown pause or the wait before a first deal.
        due = [d for d in (hand.deadline if hand is not None else None, table.next_hand_at) if d is not None]
        if not due or min(due) > now:
            return False
        if hand is not None and hand.deadline is not None:
            hand.clock = ""
            hand.deadline = None
            hand.save(update_fields=["clock", "deadline"])
        _start_hand_if_ready(table)
        _bump(table)
        return True


def table_timer(*, table_id: int, version: int | None, due: str | None = None, now: dt.datetime | None = None) -> bool:
    """A timer fired (``tables.expire_clock``): apply the clock if ``version`` is current and
    its deadline passed. A table keeps one timer pending, not one per action: an action whose
    deadline comes after the pending timer schedules none, and the pending timer, when it fires
    on a table that moved on, schedules the next one for the running clock, or applies that
    clock when it has run out already. A timer that is not the table's pending one (``due``
    differs, or none is given) changes nothing when stale. Returns True when something changed.

    Most timers that fire find the table moved on, so that case takes one read and at most one
    conditional UPDATE, without the row lock: a writer that changes the clock meanwhile also
    changes ``timer_at``, and then the UPDATE matches nothing and this timer steps aside.
    """
    now = now or timezone.now()
    row = hotsql.timer_row(table_id)  # the version, timer_at and the latest hand's deadline
    if row is None:
        return False
    current, timer_at, deadline = row
    if (version is None or version == current) and table_expire(table_id=table_id, version=version, now=now):
        return True
    if due is None:
        return False
    try:
        due_at = dt.datetime.fromisoformat(due)
    except (TypeError, ValueError):
        log.warning("table %s: a timer with an unreadable due time %r", table_id, due)
        return False
    if timer_at != due_at:
        return False  # another timer is pending for this table: this one was superseded
    if deadline is None or deadline <= now:
        # The clock this read saw has run out (a change that set no clock moved the version on),
        # or none runs: no timer is pending from now on, and the clock is applied. When there is
        # nothing to apply, a writer may have set a new clock after the read while this timer was
        # still pending (so it sent none): the clock is handed on under the table's lock, not
        # from this read (found by an audit: the read's "ran out" left the new clock with no
        # timer but the sweep's).
        if not Table.objects.filter(id=table_id, timer_at=due_at).update(timer_at=None):
            return False  # a writer sent a timer of its own meanwhile
        if deadline is not None and table_expire(table_id=table_id, now=now):
            return True
        _hand_the_clock_on(table_id)
        return False
    if Table.objects.filter(id=table_id, timer_at=due_at).update(timer_at=deadline):
        _send_timer(table_id, current, deadline)
    return False


@retry_when_busy
def _hand_the_clock_on(table_id: int) -> None:
    """The pending timer cleared ``timer_at`` and found nothing to apply: under the table's lock,
    unless a writer has sent a timer since, one for the running clock becomes the pending one."""
    with transaction.atomic():
        table = _lock_table(table_id)
        if table.timer_at is not None:
            return  # a writer sent a timer of its own meanwhile
        deadline = _latest_deadline(table)
        Table.objects.filter(id=table_id).update(timer_at=deadline)
        if deadline is not None:
            version = table.version
            # A deadline already past (it ran out between the two reads) fires at once.
            transaction.on_commit(lambda: _send_timer(table_id, version, deadline))


def table_sweep(*, now: dt.datetime | None = None) -> int:
    """Expire every deadline that passed while no timer fired (a crashed worker, a restart)."""
    now = now or timezone.now()
    due = set(Hand.objects.filter(deadline__lte=now).values_list("table_id", flat=True))
    due |= set(Table.objects.filter(next_hand_at__lte=now).values_list("id", flat=True))
    done = 0
    for table_id in sorted(due):
        try:
            if table_expire(table_id=table_id, now=now):
                done += 1
        except Exception:
            log.exception("sweep could not expire table %s", table_id)
    return done


IDLE_PUBLIC_TABLE = dt.timedelta(hours=24)


def close_idle_public_tables(*, now: dt.datetime | None = None, idle: dt.timedelta = IDLE_PUBLIC_TABLE) -> int:
    """Close every public table a player opened that has had nobody seated and no hand dealt for
    ``idle`` (a day): the lobby keeps to tables in use. The site's own tables (the ladder's and the
    demo's, opened by nobody) stay, and so do private and club tables (their hosts close them).
    A closed table keeps its hands and their pages. Returns how many were closed."""
    from django.db.models import Exists, OuterRef, Q, Subquery

    cutoff = (now or timezone.now()) - idle
    last_hand = Hand.objects.filter(table=OuterRef("pk")).order_by("-started").values("started")[:1]
    idle_ids = list(
        Table.objects.filter(is_public=True, club__isnull=True, created_by__isnull=False,
                             status=Table.Status.OPEN, created__lt=cutoff)
        .exclude(Exists(Seat.objects.filter(table=OuterRef("pk"))))
        .annotate(last_hand=Subquery(last_hand))
        .filter(Q(last_hand__isnull=True) | Q(last_hand__lt=cutoff))
        .values_list("id", flat=True)
    )
    closed = 0
    for table_id in idle_ids:
        with transaction.atomic():
            table = _lock_table(table_id)
            # Looked at again under the lock: someone may have sat down since the query.
            if table.status != Table.Status.OPEN or Seat.objects.filter(table=table).exists() \
                    or _current_hand(table) is not None:
                continue
            _close(table)
            _bump(table)
            closed += 1
    if closed:
        log.info("closed %s idle public tables", closed)
        transaction.on_commit(_lobby_changed)
    return closed


def _schedule_expiry(table: Table, hand: Hand) -> None:
    if hand.deadline is not None:
        _schedule_at(table, hand.deadline)


def _schedule_at(table: Table, deadline: dt.datetime, with_version: bool = True) -> None:
    """After commit, ask the worker to expire the table's clock at ``deadline``.

    With ``with_version`` the timer is the table's pending one (``Table.timer_at``, saved by
    ``_bump``), and none is sent when the pending timer comes first: it hands the clock on
    (``table_timer``). Without, it is a deal timer, sent whatever is pending.
    """
    table_id = table.id
    if with_version:
        table._timer_scheduled = True  # type: ignore[attr-defined]  # see _bump
        pending = table.timer_at
        if pending is not None and timezone.now() < pending <= deadline:
            return
        table.timer_at = deadline

    def schedule() -> None:
        # The version this transaction committed: _bump has run on this same object by now.
        # (Reading it back from the database cost a query and could pick up a later version.)
        _send_timer(table_id, table.version if with_version else None, deadline if with_version else None,
                    at=deadline)

    transaction.on_commit(schedule)


def _send_timer(table_id: int, version: int | None, due: dt.datetime | None, at: dt.datetime | None = None) -> None:
    from tables.tasks import expire_clock

    when = at or due
    assert when is not None
    delay = max(0.0, (when - timezone.now()).total_seconds())
    try:
        expire_clock.apply_async((table_id, version, due.isoformat() if due else None), countdown=delay + 0.05)
    except Exception:  # the sweep will catch it
        log.exception("could not schedule the timer of table %s", table_id)


def _changed(table_id: int, version: int, hand_only: bool = False) -> None:
    from tables.live import broadcast_table_changed

    broadcast_table_changed(table_id, version, hand_only=hand_only)


def _lobby_changed() -> None:
    from tables.live import broadcast_lobby_changed

    broadcast_lobby_changed()
