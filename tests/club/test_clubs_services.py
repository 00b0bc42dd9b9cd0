"""Club services on the real database: every use case, for every role (owner, host, member, a
signed-in outsider and an anonymous visitor)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import Sum
from django.utils import timezone

from club import selectors, services
from club.models import (
    ClubInvite,
    ClubSession,
    ClubSessionResult,
    JoinRequest,
    LedgerEntry,
    Membership,
)
from club.services import ClubError, NotAllowed
from tests.club.helpers import HOSTS, ROLES, balance, club_with_people, make_user

pytestmark = pytest.mark.django_db


def _allowed(role: str, allowed: tuple[str, ...], call) -> None:
    """Run ``call``: it must succeed for an allowed role and raise NotAllowed for the others."""
    if role in allowed:
        call()
    else:
        with pytest.raises(NotAllowed):
            call()


# -- Creating a club --------------------------------------------------------------------------


def test_anyone_signed_in_creates_a_club_and_owns_it() -> None:
    user = make_user("founder")
    club = services.club_create(user=user, name="  Kitchen Club ", description="Fridays", language="he",
                                default_game="PP", default_speed="fast")
    assert club.name == "Kitchen Club" and club.language == "he" and club.default_speed == "fast"
    m = Membership.objects.get(club=club, user=user)
    assert m.role == "owner" and m.active and m.balance == 0


@pytest.mark.parametrize("role", ROLES)
def test_create_club_by_role(role: str) -> None:
    p = club_with_people()
    _allowed(role, ("owner", "host", "member", "outsider"),
             lambda: services.club_create(user=p[role], name=f"Second club of {role}"))


@pytest.mark.parametrize(
    "kwargs",
    [{"name": ""}, {"name": "x" * 61}, {"name": "ok", "description": "d" * 301}, {"name": "ok", "language": "fr"},
     {"name": "ok", "default_speed": "warp"}, {"name": "ok", "default_game": "ZZ"}],
)
def test_create_club_refuses_bad_input(kwargs) -> None:
    user = make_user("picky")
    with pytest.raises(ClubError):
        services.club_create(user=user, **kwargs)
    assert not Membership.objects.filter(user=user).exists()


# -- Invites ----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_invite_create_and_revoke_by_role(role: str) -> None:
    p = club_with_people()
    _allowed(role, HOSTS, lambda: services.club_invite_create(club=p.club, by=p[role]))
    invite = services.club_invite_create(club=p.club, by=p.owner)
    _allowed(role, HOSTS, lambda: services.club_invite_revoke(invite=invite, by=p[role]))
    invite.refresh_from_db()
    assert (invite.revoked is not None) == (role in HOSTS)


def test_invite_limits_are_checked() -> None:
    p = club_with_people()
    with pytest.raises(ClubError):
        services.club_invite_create(club=p.club, by=p.host, expires=timezone.now() - dt.timedelta(minutes=1))
    for bad in (0, -3, True):
        with pytest.raises(ClubError):
            services.club_invite_create(club=p.club, by=p.host, max_uses=bad)


def test_join_by_invite_counts_uses_and_stops_at_the_limit() -> None:
    p = club_with_people()
    invite = services.club_invite_create(club=p.club, by=p.host, max_uses=2)
    a, b, c = make_user("ann"), make_user("ben"), make_user("cat")
    assert services.club_join_by_invite(code=invite.code, user=a).role == "member"
    # A member following the link again uses nothing up.
    services.club_join_by_invite(code=invite.code, user=a)
    services.club_join_by_invite(code=invite.code, user=b)
    invite.refresh_from_db()
    assert invite.uses == 2
    with pytest.raises(ClubError):
        services.club_join_by_invite(code=invite.code, user=c)
    assert not Membership.objects.filter(club=p.club, user=c).exists()


@pytest.mark.parametrize("role", ROLES)
def test_join_by_invite_by_role(role: str) -> None:
    p = club_with_people()
    invite = services.club_invite_create(club=p.club, by=p.host)
    _allowed(role, ("owner", "host", "member", "outsider"), lambda: services.club_join_by_invite(code=invite.code, user=p[role]))
    invite.refresh_from_db()
    assert invite.uses == (1 if role == "outsider" else 0)
    if role == "outsider":
        assert selectors.is_member(club_id=p.club.pk, user=p.outsider)
    if role in HOSTS:  # following a link never demotes a host
        assert Membership.objects.get(club=p.club, user=p[role]).role == role


def test_revoked_expired_and_unknown_links_do_not_work() -> None:
    p = club_with_people()
    revoked = services.club_invite_create(club=p.club, by=p.host)
    services.club_invite_revoke(invite=revoked, by=p.host)
    expired = services.club_invite_create(club=p.club, by=p.host, expires=timezone.now() + dt.timedelta(seconds=1))
    ClubInvite.objects.filter(pk=expired.pk).update(expires=timezone.now() - dt.timedelta(seconds=1))
    for code in (revoked.code, expired.code, "no-such-code", ""):
        with pytest.raises(ClubError):
            services.club_join_by_invite(code=code, user=p.outsider)
    assert not selectors.is_member(club_id=p.club.pk, user=p.outsider)


# -- Join requests ----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_request_join_by_role(role: str) -> None:
    p = club_with_people()
    if role == "anonymous":
        with pytest.raises(NotAllowed):
            services.club_request_join(club=p.club, user=p.anonymous)
    elif role == "outsider":
        req = services.club_request_join(club=p.club, user=p.outsider, message="I play on Thursdays")
        assert req.status == "pending"
        # Asking twice gives back the request that waits.
        assert services.club_request_join(club=p.club, user=p.outsider).pk == req.pk
    else:
        with pytest.raises(ClubError):
            services.club_request_join(club=p.club, user=p[role])


@pytest.mark.parametrize("role", ROLES)
def test_approve_and_decline_by_role(role: str) -> None:
    p = club_with_people()
    first, second = make_user("first"), make_user("second")
    r1 = services.club_request_join(club=p.club, user=first)
    r2 = services.club_request_join(club=p.club, user=second)
    _allowed(role, HOSTS, lambda: services.club_request_approve(join_request=r1, by=p[role]))
    _allowed(role, HOSTS, lambda: services.club_request_decline(join_request=r2, by=p[role]))
    assert selectors.is_member(club_id=p.club.pk, user=first) == (role in HOSTS)
    assert not selectors.is_member(club_id=p.club.pk, user=second)
    if role in HOSTS:
        assert JoinRequest.objects.get(pk=r2.pk).status == "declined"
        with pytest.raises(ClubError):  # answered already
            services.club_request_approve(join_request=r2, by=p[role])


def test_an_invite_settles_a_waiting_request() -> None:
    p = club_with_people()
    req = services.club_request_join(club=p.club, user=p.outsider)
    invite = services.club_invite_create(club=p.club, by=p.host)
    services.club_join_by_invite(code=invite.code, user=p.outsider)
    assert JoinRequest.objects.get(pk=req.pk).status == "approved"


# -- Roles ------------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_only_the_owner_names_hosts(role: str) -> None:
    p = club_with_people()
    _allowed(role, ("owner",), lambda: services.club_set_role(club=p.club, by=p[role], user=p.member, role="host"))
    assert Membership.objects.get(club=p.club, user=p.member).role == ("host" if role == "owner" else "member")


def test_role_changes_and_handing_over_the_club() -> None:
    p = club_with_people()
    with pytest.raises(ClubError):
        services.club_set_role(club=p.club, by=p.owner, user=p.owner, role="member")
    with pytest.raises(ClubError):
        services.club_set_role(club=p.club, by=p.owner, user=p.outsider, role="host")
    with pytest.raises(ClubError):
        services.club_set_role(club=p.club, by=p.owner, user=p.member, role="king")
    services.club_set_role(club=p.club, by=p.owner, user=p.host, role="member")
    assert Membership.objects.get(club=p.club, user=p.host).role == "member"
    services.club_set_role(club=p.club, by=p.owner, user=p.member, role="owner")
    roles = dict(Membership.objects.filter(club=p.club).values_list("user__username", "role"))
    assert roles[p.member.username] == "owner" and roles[p.owner.username] == "host"
    assert Membership.objects.filter(club=p.club, role="owner").count() == 1


# -- Leaving and removing ---------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_leave_by_role(role: str) -> None:
    p = club_with_people(chips=500)
    if role == "owner":
        with pytest.raises(ClubError):
            services.club_leave(club=p.club, user=p.owner)
        assert selectors.is_member(club_id=p.club.pk, user=p.owner)
        return
    _allowed(role, ("host", "member"), lambda: services.club_leave(club=p.club, user=p[role]))
    if role in ("host", "member"):
        m = Membership.objects.get(club=p.club, user=p[role])
        assert not m.active and m.left is not None and m.role == "member"
        assert m.balance == 500  # nothing lost: the chips wait for them


def test_coming_back_brings_back_the_balance() -> None:
    p = club_with_people(chips=300)
    services.club_leave(club=p.club, user=p.member)
    invite = services.club_invite_create(club=p.club, by=p.host)
    m = services.club_join_by_invite(code=invite.code, user=p.member)
    assert m.active and m.balance == 300


@pytest.mark.parametrize("role", ROLES)
def test_remove_a_member_by_role(role: str) -> None:
    p = club_with_people()
    victim = make_user("victim")
    Membership.objects.create(club=p.club, user=victim)
    _allowed(role, HOSTS, lambda: services.club_remove_member(club=p.club, by=p[role], user=victim))
    assert selectors.is_member(club_id=p.club.pk, user=victim) == (role not in HOSTS)


def test_who_may_remove_whom() -> None:
    p = club_with_people()
    other_host = make_user("hilda")
    Membership.objects.create(club=p.club, user=other_host, role="host")
    with pytest.raises(NotAllowed):  # a host does not remove a host
        services.club_remove_member(club=p.club, by=p.host, user=other_host)
    with pytest.raises(NotAllowed):  # nobody removes the owner
        services.club_remove_member(club=p.club, by=p.host, user=p.owner)
    with pytest.raises(ClubError):  # leaving is not removing
        services.club_remove_member(club=p.club, by=p.host, user=p.host)
    with pytest.raises(ClubError):
        services.club_remove_member(club=p.club, by=p.host, user=p.outsider)
    services.club_remove_member(club=p.club, by=p.owner, user=other_host)
    assert not selectors.is_member(club_id=p.club.pk, user=other_host)


# -- Club chips -------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_grant_and_take_by_role(role: str) -> None:
    p = club_with_people()
    _allowed(role, HOSTS, lambda: services.club_chips_grant(club=p.club, by=p[role], user=p.member, amount=1000, reason="welcome"))
    services.club_chips_grant(club=p.club, by=p.owner, user=p.member, amount=50, reason="tea money")
    _allowed(role, HOSTS, lambda: services.club_chips_take(club=p.club, by=p[role], user=p.member, amount=30, reason="fix"))
    expected = 1000 + 50 - 30 if role in HOSTS else 50
    assert balance(p.club, p.member) == expected


def test_every_chip_change_is_a_ledger_entry_with_a_reason() -> None:
    p = club_with_people()
    services.club_chips_grant(club=p.club, by=p.host, user=p.member, amount=700, reason="season start")
    services.club_chips_take(club=p.club, by=p.host, user=p.member, amount=200, reason="paid for pizza")
    entries = list(LedgerEntry.objects.filter(club=p.club, user=p.member, account="club").order_by("id"))
    assert [(e.kind, e.amount, e.balance_after, e.note) for e in entries] == [
        ("host_grant", 700, 700, "season start"), ("host_take", -200, 500, "paid for pizza"),
    ]
    assert balance(p.club, p.member) == 500
    # Club chips never touch the site bankroll.
    assert not LedgerEntry.objects.filter(user=p.member, account="bankroll", club__isnull=False).exists()


@pytest.mark.parametrize(
    ("amount", "reason"), [(0, "x"), (-5, "x"), (True, "x"), (2.5, "x"), (100, ""), (100, "   "), (100, "r" * 201)],
)
def test_grant_refuses_bad_amounts_and_missing_reasons(amount, reason) -> None:
    p = club_with_people()
    with pytest.raises(ClubError):
        services.club_chips_grant(club=p.club, by=p.host, user=p.member, amount=amount, reason=reason)
    assert balance(p.club, p.member) == 0
    assert not LedgerEntry.objects.filter(club=p.club).exists()


def test_take_never_makes_a_balance_negative_and_outsiders_get_nothing() -> None:
    p = club_with_people(chips=100)
    with pytest.raises(ClubError):
        services.club_chips_take(club=p.club, by=p.host, user=p.member, amount=101, reason="too much")
    assert balance(p.club, p.member) == 100
    with pytest.raises(ClubError):
        services.club_chips_grant(club=p.club, by=p.host, user=p.outsider, amount=10, reason="not a member")


def test_ledger_is_visible_to_the_member_and_to_hosts() -> None:
    p = club_with_people(chips=100)
    mine = selectors.club_ledger(club=p.club, user=p.member)
    assert {e.user_id for e in mine} == {p.member.pk}
    everyone = selectors.club_ledger(club=p.club)
    assert {e.user_id for e in everyone} == {p.owner.pk, p.host.pk, p.member.pk}


# -- Sessions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_start_and_end_a_session_by_role(role: str) -> None:
    p = club_with_people()
    _allowed(role, HOSTS, lambda: services.club_session_start(club=p.club, by=p[role]))
    session = selectors.current_session(club=p.club) or services.club_session_start(club=p.club, by=p.owner)
    _allowed(role, HOSTS, lambda: services.club_session_end(session=session, by=p[role]))
    session.refresh_from_db()
    assert (session.ended is not None) == (role in HOSTS)


def test_one_session_at_a_time() -> None:
    p = club_with_people()
    s = services.club_session_start(club=p.club, by=p.host)
    assert s.end_rule == "manual" and s.game == "PP"
    with pytest.raises(ClubError):
        services.club_session_start(club=p.club, by=p.owner)
    services.club_session_end(session=s, by=p.owner)
    with pytest.raises(ClubError):
        services.club_session_end(session=s, by=p.owner)
    services.club_session_start(club=p.club, by=p.owner)
    assert ClubSession.objects.filter(club=p.club).count() == 2


def _hand(p, hand_id: int, nets: dict, won: dict | None = None, boards: dict | None = None, scoop=None, game="PP"):
    won = won or {u: max(0, n) for u, n in nets.items()}
    results = [
        {"user": u, "net": n, "won": won.get(u, 0), "boards_won": (boards or {}).get(u, 0), "scoop": u == scoop}
        for u, n in nets.items()
    ]
    return services.club_hand_played(club_id=p.club.pk, table_id=1, hand_id=hand_id, results=results, game=game)


def test_hands_count_into_the_running_session_once() -> None:
    p = club_with_people()
    assert _hand(p, 1, {p.host: 10, p.member: -10}) is None  # no session yet: nothing recorded
    session = services.club_session_start(club=p.club, by=p.host)
    _hand(p, 2, {p.host: 40, p.member: -40}, boards={p.host: 3}, scoop=p.host)
    _hand(p, 3, {p.host: -15, p.member: 15}, won={p.member: 45, p.host: 15}, boards={p.host: 1, p.member: 2})
    assert _hand(p, 3, {p.host: -15, p.member: 15}) is None  # the same hand again is ignored
    rows = {r.user_id: r for r in ClubSessionResult.objects.filter(session=session)}
    h, m = rows[p.host.pk], rows[p.member.pk]
    assert (h.net, h.hands, h.pots_won, h.biggest_pot, h.boards_won, h.scoops) == (25, 2, 2, 40, 4, 1)
    assert (m.net, m.hands, m.pots_won, m.biggest_pot, m.boards_won, m.scoops) == (-25, 2, 1, 45, 2, 0)
    session.refresh_from_db()
    assert session.pots_completed == 2 and session.is_open
    standings = selectors.session_standings(session=session)
    assert [(s.place, s.name, s.net) for s in standings] == [(1, "Hana", 25), (2, "Misha", -25)]


def test_a_baseball_session_ends_itself_after_eight_pots() -> None:
    p = club_with_people()
    session = services.club_session_start(club=p.club, by=p.host, game="BB")
    assert session.end_rule == "pots:8" and session.pot_limit == 8
    for i in range(8):
        assert _hand(p, 100 + i, {p.host: 2, p.member: -2}, game="BB") is not None
    session.refresh_from_db()
    assert session.ended is not None and session.pots_completed == 8
    assert _hand(p, 200, {p.host: 2, p.member: -2}, game="BB") is None  # after the end: not counted
    assert ClubSessionResult.objects.get(session=session, user=p.host).hands == 8


def test_end_rules_are_checked() -> None:
    p = club_with_people()
    for bad in ("pots:0", "pots:x", "whenever", "pots:1001"):
        with pytest.raises(ClubError):
            services.club_session_start(club=p.club, by=p.host, end_rule=bad)
    assert services.club_session_start(club=p.club, by=p.host, end_rule="pots:3").pot_limit == 3


# -- Leaderboards -----------------------------------------------------------------------------


def test_leaderboard_over_periods_with_shared_places() -> None:
    p = club_with_people()
    extra = make_user("zoe")
    Membership.objects.create(club=p.club, user=extra)
    now = timezone.now()
    old = services.club_session_start(club=p.club, by=p.host)
    _hand(p, 1, {p.host: 100, p.member: -100})
    services.club_session_end(session=old, by=p.host)
    ClubSession.objects.filter(pk=old.pk).update(started=now - dt.timedelta(days=400))
    services.club_session_start(club=p.club, by=p.host)
    _hand(p, 2, {p.host: 30, p.member: 30, extra: -60})
    month = selectors.club_leaderboard(club=p.club, period="month")
    assert [(s.place, s.name, s.net) for s in month] == [(1, "Hana", 30), (1, "Misha", 30), (3, "Zoe", -60)]
    everything = selectors.club_leaderboard(club=p.club, period="all")
    assert [(s.place, s.name, s.net, s.sessions) for s in everything] == [
        (1, "Hana", 130, 2), (2, "Zoe", -60, 1), (3, "Misha", -70, 2),
    ]
    # An unknown period reads as this month.
    assert selectors.club_leaderboard(club=p.club, period="decade") == month


def test_season_is_the_calendar_quarter() -> None:
    assert selectors.period_start("season", dt.date(2026, 12, 31)) == dt.date(2026, 10, 1)
    assert selectors.period_start("season", dt.date(2026, 1, 1)) == dt.date(2026, 1, 1)
    assert selectors.period_start("month", dt.date(2026, 2, 28)) == dt.date(2026, 2, 1)
    assert selectors.period_start("all", dt.date(2026, 2, 28)) is None


def test_shared_places_skip_after_a_tie() -> None:
    places = [pl for pl, _ in selectors.shared_places([5, 5, 5, 2, 2, 1], key=lambda n: n)]
    assert places == [1, 1, 1, 4, 4, 6]


def test_club_chips_sum_to_grants_minus_takes() -> None:
    p = club_with_people(chips=1000)
    services.club_chips_take(club=p.club, by=p.host, user=p.member, amount=250, reason="settled up")
    total = Membership.objects.filter(club=p.club).aggregate(s=Sum("balance"))["s"]
    assert total == 3 * 1000 - 250
