"""Readers for club pages: memberships, statements, sessions, leaderboards and game nights. No
writes here.

Periods for the leaderboard: ``month`` is the current calendar month; ``season`` is the current
calendar quarter (January-March, April-June, July-September, October-December: a season of
three months that everyone can name without a club calendar); ``all`` is every session. A
session belongs to the period in which it started. Running sessions count too, so a leaderboard
moves during the night.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from django.db.models import Count, F, Max, Q, QuerySet, Sum
from django.utils import timezone

from club.models import (
    ChipRequest,
    Club,
    ClubInvite,
    ClubSession,
    ClubSessionResult,
    GameNight,
    GameNightReply,
    JoinRequest,
    LedgerEntry,
    Membership,
    Profile,
)
from club.ports import ClubTable, tables_port
from rules_engine.games.baseball import units_display

PERIODS = ("month", "season", "all")

T = TypeVar("T")


def display_name(user: Any) -> str:
    profile = getattr(user, "profile", None)
    name = profile.display_name if profile is not None and profile.display_name else user.get_username()
    return str(name)[:40]


def site_chips_at_tables(*, user_id: int) -> int:
    """Chips the player has in seats at site (non-club) tables: bankroll chips, bought in."""
    return tables_port().site_chips_at_tables(user_id=user_id)


def top_up_due(*, profile: Profile, top_up_to: int, today: dt.date) -> int:
    """Chips the daily top-up would add now: up to ``top_up_to`` counting the bankroll and the
    chips at site tables (a player whose chips sit on a table is not broke). 0 if none is due.

    The caller that acts on it (``services.bankroll_top_up``) holds the profile row locked."""
    if profile.last_top_up == today:
        return 0
    held = profile.bankroll + site_chips_at_tables(user_id=profile.user_id)
    return max(0, top_up_to - held)


def membership_of(*, club: Club | int, user: Any) -> Membership | None:
    """The user's active membership, or None (anonymous visitors and outsiders)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    club_id = club if isinstance(club, int) else club.pk
    return Membership.objects.filter(club_id=club_id, user_id=user.pk, active=True).first()


def is_member(*, club_id: int, user: Any) -> bool:
    return membership_of(club=club_id, user=user) is not None


def clubs_for(*, user: Any) -> list[Membership]:
    """The user's clubs, with their role and club chips (``m.club``)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    rows = list(
        Membership.objects.filter(user=user, active=True).select_related("club")
        .annotate(members=Count("club__memberships", filter=Q(club__memberships__active=True)))
        .order_by("club__name", "club_id")
    )
    # For a host: how many ask to join or for chips (the club's page answers them).
    hosted = [m.club_id for m in rows if m.is_host]
    waiting: dict[int, int] = {}
    if hosted:
        for row in (JoinRequest.objects.filter(club_id__in=hosted, status=JoinRequest.Status.PENDING)
                    .values("club_id").annotate(n=Count("id"))):
            waiting[row["club_id"]] = waiting.get(row["club_id"], 0) + row["n"]
        for row in (ChipRequest.objects.filter(club_id__in=hosted, status=ChipRequest.Status.PENDING,
                                               user__memberships__club_id=F("club_id"), user__memberships__active=True)
                    .values("club_id").annotate(n=Count("id"))):
            waiting[row["club_id"]] = waiting.get(row["club_id"], 0) + row["n"]
    for m in rows:
        m.waiting = waiting.get(m.club_id, 0)  # type: ignore[attr-defined]
    return rows


def club_members(*, club: Club) -> list[Membership]:
    """Active members, owner and hosts first, with their names (``m.name``)."""
    order = {Membership.Role.OWNER: 0, Membership.Role.HOST: 1, Membership.Role.MEMBER: 2}
    rows = list(Membership.objects.filter(club=club, active=True).select_related("user", "user__profile"))
    for m in rows:
        m.name = display_name(m.user)  # type: ignore[attr-defined]
    rows.sort(key=lambda m: (order.get(m.role, 3), m.name.casefold(), m.pk))  # type: ignore[attr-defined]
    return rows


def former_members(*, club: Club) -> list[Membership]:
    """People who left or were removed, by name, with their names (``m.name``): their club
    chips wait on their membership for them to come back (found by an audit: hosts saw those
    chips nowhere but in scattered ledger rows)."""
    rows = list(Membership.objects.filter(club=club, active=False).select_related("user", "user__profile"))
    for m in rows:
        m.name = display_name(m.user)  # type: ignore[attr-defined]
    rows.sort(key=lambda m: (m.name.casefold(), m.pk))  # type: ignore[attr-defined]
    return rows


def pending_requests(*, club: Club) -> list[JoinRequest]:
    rows = list(
        JoinRequest.objects.filter(club=club, status=JoinRequest.Status.PENDING)
        .select_related("user", "user__profile").order_by("id")
    )
    for r in rows:
        r.name = display_name(r.user)  # type: ignore[attr-defined]
    return rows


def pending_chip_requests(*, club: Club) -> list[ChipRequest]:
    """Members' requests for club chips waiting for a host, oldest first, each with the member's
    name and balance. A member who left is not asking any more."""
    rows = list(
        ChipRequest.objects.filter(club=club, status=ChipRequest.Status.PENDING)
        .filter(user__memberships__club=club, user__memberships__active=True)
        .select_related("user", "user__profile").order_by("id")
    )
    balances = dict(Membership.objects.filter(club=club, user__in=[r.user_id for r in rows]).values_list("user_id", "balance"))
    for r in rows:
        r.name = display_name(r.user)  # type: ignore[attr-defined]
        r.balance = balances.get(r.user_id, 0)  # type: ignore[attr-defined]
    return rows


CHIP_ANSWER_SHOWN = dt.timedelta(days=3)


def my_chip_request(*, club: Club, user: Any, now: dt.datetime | None = None) -> ChipRequest | None:
    """The member's latest request: while it waits for a host, or once a host answered it, for
    three days (so the member sees it was granted or declined); else None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    latest = ChipRequest.objects.filter(club=club, user=user).order_by("-id").first()
    if latest is None or latest.status == ChipRequest.Status.PENDING:
        return latest
    answered = latest.status in (ChipRequest.Status.GRANTED, ChipRequest.Status.DECLINED)
    if answered and latest.decided is not None and latest.decided >= (now or timezone.now()) - CHIP_ANSWER_SHOWN:
        return latest
    return None  # taken back, or answered long ago


def my_pending_request(*, club: Club, user: Any) -> JoinRequest | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).first()


def removed_from(*, club: Club | int, user: Any) -> Membership | None:
    """The user's membership when a host removed them (its ``left`` says when), else None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    club_id = club if isinstance(club, int) else club.pk
    return Membership.objects.filter(club_id=club_id, user=user, active=False, removed=True).first()


DECLINE_SHOWN = dt.timedelta(days=30)


def my_declined_request(*, club: Club, user: Any, now: dt.datetime | None = None) -> JoinRequest | None:
    """The user's latest request to join, when a host declined it in the last 30 days (found by
    an audit: a declined request vanished, and the page looked as if it was never sent)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    latest = JoinRequest.objects.filter(club=club, user=user).order_by("-id").first()
    if latest is None or latest.status != JoinRequest.Status.DECLINED or latest.decided is None:
        return None
    return latest if latest.decided >= (now or timezone.now()) - DECLINE_SHOWN else None


def club_invites(*, club: Club, now: dt.datetime | None = None) -> list[ClubInvite]:
    """Every invite of the club, newest first, each with ``usable_now``."""
    now = now or timezone.now()
    rows = list(ClubInvite.objects.filter(club=club).order_by("-id"))
    for inv in rows:
        inv.usable_now = inv.usable(now)  # type: ignore[attr-defined]
    return rows


def invite_by_code(*, code: str) -> ClubInvite | None:
    if not code:
        return None
    return ClubInvite.objects.filter(code=code).select_related("club").first()


def club_tables(*, club: Club) -> list[ClubTable]:
    return tables_port().club_tables(club_id=club.pk)


def recent_freezeouts(*, club: Club, limit: int = 5) -> list[Any]:
    """The latest freeze-outs played to their end at the club's tables, newest first."""
    return tables_port().freezeouts(club_id=club.pk, limit=limit)


def freezeout_wins(*, club: Club) -> list[tuple[str, int]]:
    """Who has won the most freeze-outs at the club's tables: (name, wins), the top five."""
    return tables_port().freezeout_wins(club_id=club.pk)


def club_ledger(*, club: Club, user: Any | None = None, limit: int | None = 200) -> list[LedgerEntry]:
    """Club-chip entries, newest first: one member's (``user``) or everyone's (for hosts);
    ``limit=None``: all of them (the spreadsheet download)."""
    qs = LedgerEntry.objects.filter(club=club, account="club").select_related("user", "user__profile")
    if user is not None:
        qs = qs.filter(user=user)
    rows = list(qs.order_by("-id")[:limit])
    for e in rows:
        e.name = display_name(e.user) if e.user is not None else ""  # type: ignore[attr-defined]
    return name_tables(rows)


def name_tables(entries: list[LedgerEntry]) -> list[LedgerEntry]:
    """Each entry that belongs to a table gets ``table_name`` (the statements said "table 13"
    where a player knows the table as "Friday NLH"), in one query."""
    from django.apps import apps

    ids = {e.table_id for e in entries if e.table_id}
    table = apps.get_model("tables", "Table")
    names = dict(table.objects.filter(id__in=ids).values_list("id", "name")) if ids else {}
    for e in entries:
        e.table_name = names.get(e.table_id, "") if e.table_id else ""  # type: ignore[attr-defined]
    return entries


# -- Sessions and leaderboards ---------------------------------------------------------------


def current_session(*, club: Club) -> ClubSession | None:
    return ClubSession.objects.filter(club=club, ended__isnull=True).first()


def club_sessions(*, club: Club, limit: int = 50) -> list[ClubSession]:
    return list(
        ClubSession.objects.filter(club=club).annotate(players=Count("results")).order_by("-started", "-id")[:limit]
    )


def shared_places(rows: Iterable[T], key: Callable[[T], Any]) -> list[tuple[int, T]]:
    """Places in the order given, equal keys sharing a place, the next place skipping: 1, 1, 3.

    >>> shared_places([10, 10, 4, -3, -3, -18], key=lambda n: n)
    [(1, 10), (1, 10), (3, 4), (4, -3), (4, -3), (6, -18)]
    """
    out: list[tuple[int, T]] = []
    previous: Any = object()
    place = 0
    for i, row in enumerate(rows, start=1):
        k = key(row)
        if k != previous:
            place = i
            previous = k
        out.append((place, row))
    return out


@dataclass(frozen=True)
class Standing:
    place: int
    user_id: int
    name: str
    net: int
    hands: int
    pots_won: int
    biggest_pot: int
    boards_won: int
    scoops: int
    sessions: int = 1
    units_net: int = 0  # Baseball's play units in sixtieths (ClubSessionResult.units_net)
    units_col: bool = False  # some row of the table has units: show the column

    @property
    def units(self) -> Fraction:
        return Fraction(self.units_net, ClubSessionResult.UNITS_DENOMINATOR)

    @property
    def units_display(self) -> str:
        """The net in units as people write it, signed: ``+1 2/3``, ``-2``, ``0``."""
        text = units_display(self.units)
        return f"+{text}" if self.units > 0 else text


def _with_units_col(rows: list[Standing]) -> list[Standing]:
    if any(r.units_net for r in rows):
        return [dataclasses.replace(r, units_col=True) for r in rows]
    return rows


def session_standings(*, session: ClubSession) -> list[Standing]:
    """The session's players ranked by net result; equal results share a place.

    Chips first, then Baseball's units: a Baseball session moves no chips (every chip net is 0),
    so its players rank by their net change in units, as the game's session rule asks.
    """
    rows = list(
        ClubSessionResult.objects.filter(session=session).select_related("user", "user__profile")
        .order_by("-net", "-units_net", "user_id")
    )
    return _with_units_col([
        Standing(place=place, user_id=r.user_id, name=display_name(r.user), net=r.net, hands=r.hands,
                 pots_won=r.pots_won, biggest_pot=r.biggest_pot, boards_won=r.boards_won, scoops=r.scoops,
                 units_net=r.units_net)
        for place, r in shared_places(rows, key=lambda r: (r.net, r.units_net))
    ])


def period_start(period: str, today: dt.date) -> dt.date | None:
    """First day of the period containing ``today`` (None for all time).

    >>> period_start("month", dt.date(2026, 5, 17)), period_start("season", dt.date(2026, 5, 17))
    (datetime.date(2026, 5, 1), datetime.date(2026, 4, 1))
    """
    if period == "month":
        return today.replace(day=1)
    if period == "season":
        return dt.date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
    return None


def club_leaderboard(*, club: Club, period: str = "month", today: dt.date | None = None) -> list[Standing]:
    """Sums of session results over the period, ranked by net; ties share a place (1, 1, 3)."""
    if period not in PERIODS:
        period = "month"
    today = today or timezone.localdate()
    qs: QuerySet[ClubSessionResult] = ClubSessionResult.objects.filter(session__club=club)
    start = period_start(period, today)
    if start is not None:
        begin = timezone.make_aware(dt.datetime.combine(start, dt.time.min))
        qs = qs.filter(session__started__gte=begin)
    sums = list(
        qs.values("user_id").annotate(
            net=Sum("net"), hands=Sum("hands"), pots_won=Sum("pots_won"), biggest_pot=Max("biggest_pot"),
            boards_won=Sum("boards_won"), scoops=Sum("scoops"), sessions=Count("session", distinct=True),
            units_net=Sum("units_net"),
        ).order_by("-net", "-units_net", "user_id")
    )
    from django.contrib.auth import get_user_model

    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=[r["user_id"] for r in sums]).select_related("profile")}
    return _with_units_col([
        Standing(place=place, user_id=r["user_id"], name=display_name(users[r["user_id"]]), net=r["net"],
                 hands=r["hands"], pots_won=r["pots_won"], biggest_pot=r["biggest_pot"],
                 boards_won=r["boards_won"], scoops=r["scoops"], sessions=r["sessions"],
                 units_net=r["units_net"] or 0)
        for place, r in shared_places(sums, key=lambda r: (r["net"], r["units_net"] or 0))
    ])


# -- Game nights -----------------------------------------------------------------------------

# A night stays on the list this long after it starts: tonight's game is still "on" while it is
# played (and a latecomer can see who came), and it is gone by the next morning.
NIGHT_STAYS_LISTED = dt.timedelta(hours=6)
NIGHTS_LISTED = 10


@dataclass(frozen=True)
class NightRow:
    """A game night as the club's page shows it to one member: who answered what (names in the
    order they answered; only people still in the club), and the viewer's own answer."""

    night: GameNight
    yes: tuple[str, ...]
    maybe: tuple[str, ...]
    no: tuple[str, ...]
    mine: str  # "yes", "maybe", "no", or "" before the viewer answers
    started: bool

    @property
    def open_for_replies(self) -> bool:
        return not self.night.cancelled and not self.started


def upcoming_game_nights(*, club: Club, user: Any, now: dt.datetime | None = None) -> list[NightRow]:
    """The club's next nights, soonest first (at most 10), including one that started less than
    six hours ago and cancelled ones (marked), each with its replies."""
    now = now or timezone.now()
    nights = list(
        GameNight.objects.filter(club=club, starts_at__gte=now - NIGHT_STAYS_LISTED).order_by("starts_at", "id")[:NIGHTS_LISTED]
    )
    replies = (
        GameNightReply.objects.filter(night__in=nights)
        # A member who left is not coming, whatever they said before.
        .filter(user__memberships__club=club, user__memberships__active=True)
        .select_related("user", "user__profile").order_by("updated", "id")
    )
    answers: dict[int, dict[str, list[str]]] = {n.pk: {"yes": [], "maybe": [], "no": []} for n in nights}
    mine: dict[int, str] = {}
    viewer_id = user.pk if user is not None and getattr(user, "is_authenticated", False) else None
    for r in replies:
        answers[r.night_id][r.answer].append(display_name(r.user))
        if r.user_id == viewer_id:
            mine[r.night_id] = r.answer
    return [
        NightRow(night=n, yes=tuple(answers[n.pk]["yes"]), maybe=tuple(answers[n.pk]["maybe"]),
                 no=tuple(answers[n.pk]["no"]), mine=mine.get(n.pk, ""), started=n.starts_at <= now)
        for n in nights
    ]


@dataclass(frozen=True)
class NextNight:
    """A club's next game night as a member's home page shows it: how many are coming and the
    member's own answer ("yes", "maybe", "no", or "" before they answer)."""

    night: GameNight
    coming: int
    mine: str
    started: bool

    @property
    def open_for_replies(self) -> bool:
        return not self.started


HOME_NIGHTS_AHEAD = dt.timedelta(days=14)


def next_game_nights(*, user: Any, now: dt.datetime | None = None) -> list[NextNight]:
    """For each club ``user`` is an active member of, its next game night that is not cancelled:
    from one under way (started less than six hours ago) to two weeks ahead, soonest first."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    now = now or timezone.now()
    clubs = Membership.objects.filter(user=user, active=True).values("club_id")
    nights: dict[int, GameNight] = {}
    for n in (GameNight.objects.filter(club_id__in=clubs, cancelled=False,
                                       starts_at__gte=now - NIGHT_STAYS_LISTED, starts_at__lte=now + HOME_NIGHTS_AHEAD)
              .select_related("club").order_by("starts_at", "id")):
        nights.setdefault(n.club_id, n)
    if not nights:
        return []
    mine = dict(GameNightReply.objects.filter(night__in=nights.values(), user=user).values_list("night_id", "answer"))
    yes = (GameNightReply.objects.filter(night__in=nights.values(), answer="yes")
           # A member who left is not coming, whatever they said before (as the club's page counts).
           .filter(user__memberships__club_id=F("night__club_id"), user__memberships__active=True)
           .values("night_id").annotate(n=Count("id")))
    coming = {row["night_id"]: row["n"] for row in yes}
    return [NextNight(night=n, coming=coming.get(n.pk, 0), mine=mine.get(n.pk, ""), started=n.starts_at <= now)
            for n in sorted(nights.values(), key=lambda n: (n.starts_at, n.pk))]
