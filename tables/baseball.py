"""Baseball at a live table (GAMES.md section 4, issue #8): what differs from the chip games.

``tables.services`` stays the one writer of a table; it calls the few functions here where a
Baseball table works differently, always inside its own transaction with the table row locked.

Decisions (where the rules leave the table to us):

* **Units are not chips.** They are play units with no money value, so nothing is bought in and
  nothing is cashed out: ``Seat.stack`` stays 0 and the exact balance lives in ``Seat.units``
  (text such as ``"5/3"`` or ``"-2"``, read with :func:`~rules_engine.games.baseball.parse_units`).
  The chip ledger (``club.LedgerEntry``) never sees a unit.
* **The units ledger.** Every settled hand writes one :class:`~tables.models.UnitsEntry` per
  player dealt in: the exact net of that pot and the balance after it. A player's balance is the
  sum of their entries in the table's session, so a player who stands up between hands and sits
  down again in the same session finds the same balance (0 the first time); every balance starts
  a new session at 0, as its standings do.
* **The session** is counted on the table: ``Table.bb_session_no`` and ``Table.bb_pots_done``.
  Every finished hand is a completed pot (a Baseball hand always has a winner). After the eighth
  the table deals no more: it shows the standings until a seated player, the table's creator or
  a host of its club starts the next session (:func:`start_new_session`). The standings rank each
  player's sum of the session's ledger entries with
  :func:`~rules_engine.games.baseball.session_standings` (equal nets share a place, 1, 1, 3), so
  the standings page and the ledger lines under it cannot disagree.
* **The dealer** of a session's first hand is drawn with ``secrets`` among the players dealt in;
  after that the deal moves left (the next seat clockwise) as at every table.
* **No chips, no limits:** a balance may go below zero, so a seated player who is not on a break
  is always dealt in; there is no all-in and no side pot.
* **Clubs:** a club table's hands count in the club's running session with a chip net of 0 and
  the exact ``units`` (``club.services.club_hand_played``); "won" there is the pot a player took
  all or a share of.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from rules_engine.games.baseball import (
    SESSION_POTS,
    parse_units,
    session_standings,
    units_display,
    units_json,
)
from tables.models import Hand, Seat, Table, UnitsEntry

log = logging.getLogger("tables.baseball")

GAME = "BB"
# The stakes a Baseball table is stored with: ante 1 and bet 1 (the engine's fixed sizes).
# The blinds are never read by the game; they keep the table row like every other.
STAKES = (1, 1)
_DEALER_RNG = secrets.SystemRandom()  # the operating system's CSPRNG, like the deck's shuffle


def is_baseball(table: Table) -> bool:
    return table.game == GAME


def session_over(table: Table) -> bool:
    return table.bb_pots_done >= SESSION_POTS


# ---------------------------------------------------------------------------------------------
# Seats and the deal (called by tables.services with the table row locked)


def balance_of(*, table: Table, user_id: int) -> str:
    """The player's exact balance in this table's session: the sum of their ledger entries in it
    (text)."""
    amounts = (UnitsEntry.objects.filter(table=table, user_id=user_id, session_no=table.bb_session_no)
               .values_list("amount", flat=True))
    return units_json(sum((parse_units(a) for a in amounts), Fraction(0)))


def ready_seats(table: Table, seats: Iterable[Seat]) -> list[Seat]:
    """Who is dealt into the next hand: everyone seated and not on a break (no stack needed),
    nobody once the session's eight pots are played."""
    if session_over(table) or table.bb_waiting:
        return []
    return [s for s in seats if not s.sitting_out and not s.leaving]


def dealer_seat(table: Table, seat_nos: Sequence[int], moved_on: int) -> int:
    """The dealer's seat: drawn at random for a session's first hand, else ``moved_on`` (the
    next seat clockwise after the last dealer, as the caller found it)."""
    if table.button_seat < 0:
        return _DEALER_RNG.choice(list(seat_nos))
    return moved_on


def start_balances(seats: Sequence[Seat]) -> tuple[str, ...]:
    return tuple(s.units for s in seats)


def settle(table: Table, hand: Hand, state: Any, seats: dict[int, Seat]) -> None:
    """A finished hand: new balances on the seats, one ledger entry per player, the pot counted
    in the table's session (and in the club's, for a club table). The caller does the rest."""
    result = state.result
    table.bb_pots_done += 1
    table.save(update_fields=["bb_pots_done"])
    entries = []
    for i, (seat_no, user_id, _start) in enumerate(hand.players):
        balance = result.stacks[i]
        seat = seats.get(seat_no)
        if seat is not None and seat.user_id == user_id:
            seat.units = units_json(balance)
            seat.save(update_fields=["units"])
        entries.append(UnitsEntry(
            table=table, hand=hand, session_no=table.bb_session_no, pot_no=table.bb_pots_done, user_id=user_id,
            amount=units_json(result.net[i]), balance_after=units_json(balance),
        ))
    UnitsEntry.objects.bulk_create(entries)
    if table.club_id is not None:
        _club_hand_played(table, hand, result)


def _club_hand_played(table: Table, hand: Hand, result: Any) -> None:
    from club import services as club_services

    results = [
        {"user": int(user_id), "net": 0, "units": result.net[i], "won": result.pot if result.payouts[i] > 0 else 0}
        for i, (_seat_no, user_id, _start) in enumerate(hand.players)
    ]
    try:
        # A savepoint: a session that cannot count the hand must not stop the hand settling.
        with transaction.atomic():
            club_services.club_hand_played(
                club_id=int(table.club_id), table_id=table.id, hand_id=hand.id, results=results, game=GAME, pot=result.pot,
            )
    except Exception:
        log.exception("club session could not count Baseball hand %s of table %s", hand.id, table.id)


def may_start_session(table: Table, user: Any) -> bool:
    """A seated player, the table's creator, or a host of the table's club."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if table.created_by_id == user.pk or Seat.objects.filter(table=table, user_id=user.pk).exists():
        return True
    if table.club_id is not None:
        from club import selectors as club_selectors

        membership = club_selectors.membership_of(club=table.club_id, user=user)
        return bool(membership and membership.is_host)
    return False


def start_new_session(table: Table, user: Any) -> None:
    """The next session: the pot count starts again, the first dealer is drawn again, and a
    hand is dealt soon. Only once the session is over, or at a new table waiting for its first
    (``Table.bb_waiting``) once two players are seated. The caller bumps the version."""
    from tables.services import TableError, _current_hand, _deal_soon, _start_hand_if_ready

    if not is_baseball(table):
        raise TableError(_("Only a Baseball table plays sessions."))
    if table.bb_waiting:  # the table's first session
        if not may_start_session(table, user):
            raise TableError(_("Only a player at this table or a host can start a new session."))
        if Seat.objects.filter(table=table, sitting_out=False, leaving=False).count() < 2:
            raise TableError(_("A session needs two players seated to start."))
        table.bb_waiting = False
        table.save(update_fields=["bb_waiting"])
        # Everyone is here, a player says: the first pot is dealt at once (a paused table deals
        # when it resumes).
        if table.status == Table.Status.OPEN and _current_hand(table) is None:
            _start_hand_if_ready(table)
        return
    if not session_over(table):
        raise TableError(_("The session is still being played: %(done)s of %(all)s pots.")
                         % {"done": table.bb_pots_done, "all": SESSION_POTS})
    if not may_start_session(table, user):
        raise TableError(_("Only a player at this table or a host can start a new session."))
    table.bb_session_no += 1
    table.bb_pots_done = 0
    table.button_seat = -1
    table.save(update_fields=["bb_session_no", "bb_pots_done", "button_seat"])
    # Every balance starts the session at 0, as its standings do (found by an audit: the seats
    # showed the last session's balances under "0 of 8 pots · session 2").
    Seat.objects.filter(table=table).update(units=units_json(Fraction(0)))
    _deal_soon(table)


def table_new_session(*, table_id: int, user: Any) -> int:
    """Start the next session (see :func:`start_new_session`); returns the new version."""
    from tables import services

    with transaction.atomic():
        table = services._lock_table(table_id)
        if table.status == Table.Status.CLOSED:
            raise services.TableError(_("This table is closed."))
        start_new_session(table, user)
        return services._bump(table)


# ---------------------------------------------------------------------------------------------
# Readers: standings and the ledger behind them


@dataclass
class StandingRow:
    place: int
    user_id: int
    name: str
    net: Fraction

    @property
    def net_json(self) -> str:
        return units_json(self.net)

    @property
    def net_display(self) -> str:
        text = units_display(self.net)
        return f"+{text}" if self.net > 0 else text


@dataclass
class LedgerLine:
    pot_no: int
    hand_number: int
    amounts: list[dict[str, Any]]  # per player in the standings' order: {"net": Fraction, "display"}


@dataclass
class SessionReport:
    number: int
    pots: int
    over: bool
    standings: list[StandingRow] = field(default_factory=list)
    lines: list[LedgerLine] = field(default_factory=list)


def _names(user_ids: Iterable[int]) -> dict[int, str]:
    from django.contrib.auth import get_user_model

    from tables.selectors import _display_name

    users = get_user_model().objects.filter(pk__in=set(user_ids)).select_related("profile")
    return {u.pk: _display_name(u) for u in users}


def session_nets(*, table: Table, session_no: int) -> dict[int, Fraction]:
    """Each player's net change in a session: the sum of their ledger entries (first pot first)."""
    nets: dict[int, Fraction] = {}
    for user_id, amount in (
        UnitsEntry.objects.filter(table=table, session_no=session_no).order_by("id").values_list("user_id", "amount")
    ):
        nets[user_id] = nets.get(user_id, Fraction(0)) + parse_units(amount)
    return nets


def standings(*, table: Table, session_no: int, names: dict[int, str] | None = None) -> list[StandingRow]:
    nets = session_nets(table=table, session_no=session_no)
    names = names if names is not None else _names(nets)
    return [StandingRow(place, user_id, names.get(user_id, "?"), net) for place, user_id, net in session_standings(nets)]


def sessions_report(*, table: Table, session_no: int | None = None) -> list[SessionReport]:
    """Every session of the table (or one), newest first: standings and one line per pot."""
    entries = list(
        UnitsEntry.objects.filter(table=table).filter(Q(session_no=session_no) if session_no else Q())
        .select_related("hand").order_by("session_no", "pot_no", "id")
    )
    names = _names(e.user_id for e in entries)
    by_session: dict[int, list[UnitsEntry]] = {}
    for e in entries:
        by_session.setdefault(e.session_no, []).append(e)
    reports = []
    for number in sorted(by_session, reverse=True):
        rows = standings(table=table, session_no=number, names=names)
        order = [r.user_id for r in rows]
        pots: dict[int, list[UnitsEntry]] = {}
        for e in by_session[number]:
            pots.setdefault(e.pot_no, []).append(e)
        lines = []
        for pot_no in sorted(pots):
            got = {e.user_id: parse_units(e.amount) for e in pots[pot_no]}
            lines.append(LedgerLine(
                pot_no=pot_no, hand_number=pots[pot_no][0].hand.number,
                amounts=[
                    {"net": got[u], "display": _signed(got[u])} if u in got else {"net": None, "display": ""}
                    for u in order
                ],
            ))
        pots_done = len(pots)
        current = number == table.bb_session_no
        reports.append(SessionReport(
            number=number, pots=pots_done, over=not current or session_over(table), standings=rows, lines=lines,
        ))
    return reports


def _signed(x: Fraction) -> str:
    text = units_display(x)
    return f"+{text}" if x > 0 else text


def table_extra_context(*, table: Table, user: Any) -> dict[str, Any]:
    """What the live table shows besides the hand: "3 of 8", and the standings once it is over."""
    over = session_over(table)
    return {
        "bb": {
            "session_no": table.bb_session_no,
            "pots_done": table.bb_pots_done,
            "pots_all": SESSION_POTS,
            # The hand being played is pot number pots_done + 1 ("pot 3 of 8"; found by an audit:
            # "2 of 8 pots" during the third pot read as one behind).
            "pot_no": min(table.bb_pots_done + 1, SESSION_POTS),
            "over": over,
            "standings": standings(table=table, session_no=table.bb_session_no) if over else [],
            "may_restart": (over or table.bb_waiting) and may_start_session(table, user),
            # A new table before its first session: who is seated so far, and the start button.
            "waiting": table.bb_waiting,
            "viewer_id": getattr(user, "pk", None),
            # The live table's button goes through the player's websocket (a seat's action); a
            # host who is not seated starts the session from the standings page's form.
            "seated": bool(getattr(user, "pk", None)) and Seat.objects.filter(table=table, user_id=user.pk).exists(),
        }
    }
