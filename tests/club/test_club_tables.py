"""Club tables on the real database: who opens, watches and sits; chips from and back to club
balances; no rake; host controls for every role; hands counted into the club's session."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db.models import Sum
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from club import selectors as club_selectors
from club import services as club_services
from club.models import ClubSession, ClubSessionResult, LedgerEntry, Membership, Profile
from tables import hosting, selectors, services
from tables.models import Hand, Seat, SeatRequest, Table
from tables.services import TableError
from tests.club.helpers import HOSTS, ROLES, balance, club_with_people
from tests.tables.helpers import current_state, play_passively, user_for_index

pytestmark = pytest.mark.django_db


def _club_table(p, **kwargs) -> Table:
    opts = {"creator": p.host, "name": "Back room", "small_blind": 100, "big_blind": 200, "max_seats": 3,
            "club": p.club}
    opts.update(kwargs)
    return services.table_create(**opts)


def _allowed(role: str, allowed: tuple[str, ...], call) -> None:
    if role in allowed:
        call()
    else:
        with pytest.raises(TableError):
            call()


@pytest.mark.parametrize("role", ROLES)
def test_only_hosts_open_club_tables(role: str) -> None:
    p = club_with_people()
    creator = None if role == "anonymous" else p[role]
    _allowed(role, HOSTS, lambda: _club_table(p, creator=creator))


def test_a_club_table_is_private_plays_any_blinds_and_only_live_games() -> None:
    p = club_with_people()
    t = _club_table(p, small_blind=7, big_blind=13, is_public=True)
    assert not t.is_public and t.club_id == p.club.pk and not t.takes_rake
    assert t.min_buy_in_bb == 5 and t.max_buy_in_bb == 150
    with pytest.raises(TableError):
        _club_table(p, game="ZZ")  # only games the live table can draw (LIVE_GAMES)
    assert t not in selectors.lobby_tables()
    assert t not in selectors.private_tables_for(user=p.host)


@pytest.mark.parametrize("role", ROLES)
def test_members_watch_club_tables_nobody_else(role: str) -> None:
    p = club_with_people()
    t = _club_table(p)
    # The table's own invite link opens nothing here.
    assert selectors.can_watch(table_id=t.id, user=p[role], invite_code=t.invite_code, invited={t.id: t.invite_code}) == (
        role in ("owner", "host", "member")
    )


@pytest.mark.parametrize("role", ROLES)
def test_members_sit_with_club_chips(role: str) -> None:
    p = club_with_people(chips=5000)
    t = _club_table(p)
    if role == "anonymous":
        return  # the views send anonymous visitors to log in; the service needs a user
    _allowed(role, ("owner", "host", "member"), lambda: services.table_take_seat(table_id=t.id, user=p[role], buy_in=2000))
    if role != "outsider":
        assert balance(p.club, p[role]) == 3000
        assert Profile.objects.get(user=p[role]).bankroll == 20_000  # the site bankroll is untouched


def test_buy_in_needs_enough_club_chips_and_cash_out_returns_them() -> None:
    p = club_with_people(chips=1500)
    t = _club_table(p)
    with pytest.raises(TableError):
        services.table_take_seat(table_id=t.id, user=p.member, buy_in=2000)  # has 1500 club chips
    services.table_take_seat(table_id=t.id, user=p.member, buy_in=1000)
    assert balance(p.club, p.member) == 500
    services.table_leave_seat(table_id=t.id, user=p.member)
    assert balance(p.club, p.member) == 1500
    kinds = list(LedgerEntry.objects.filter(club=p.club, user=p.member).order_by("id").values_list("account", "kind", "amount"))
    assert kinds[-4:] == [("club", "buy_in", -1000), (f"table:{t.id}", "buy_in", 1000),
                          (f"table:{t.id}", "cash_out", -1000), ("club", "cash_out", 1000)]


def _seated(p, buy_in: int = 4000, n: int = 3, **kwargs) -> Table:
    t = _club_table(p, **kwargs)
    services.table_pause(table_id=t.id, now=True)
    for u in (p.owner, p.host, p.member)[:n]:
        services.table_take_seat(table_id=t.id, user=u, buy_in=buy_in)
    services.table_resume(table_id=t.id)
    t.refresh_from_db()
    return t


def _next_hand(t: Table) -> None:
    later = timezone.now() + dt.timedelta(seconds=60)
    services.table_expire(table_id=t.id, now=later)
    t.refresh_from_db()


def test_club_tables_take_no_rake_even_at_high_stakes() -> None:
    p = club_with_people(chips=10_000)
    t = _seated(p)
    for _ in range(3):
        hand = play_passively(t)
        assert hand.result["rake"] == 0
        _next_hand(t)
    assert not LedgerEntry.objects.filter(kind="rake").exists()
    stacks = Seat.objects.filter(table=t).aggregate(s=Sum("stack"))["s"]
    assert stacks == 3 * 4000


def test_hands_go_into_the_session_with_boards_and_scoops() -> None:
    p = club_with_people(chips=10_000)
    session = club_services.club_session_start(club=p.club, by=p.host)
    t = _seated(p)
    hands = []
    for _ in range(4):
        hands.append(play_passively(t))
        _next_hand(t)
    rows = {r.user_id: r for r in ClubSessionResult.objects.filter(session=session)}
    assert set(rows) == {p.owner.pk, p.host.pk, p.member.pk}
    assert sum(r.net for r in rows.values()) == 0
    assert all(r.hands == 4 for r in rows.values())
    # Cross-check against the stored hands: nets, boards won and scoops.
    expected_net = {u: 0 for u in rows}
    expected_boards = {u: 0 for u in rows}
    expected_scoops = {u: 0 for u in rows}
    for h in hands:
        for i, (_seat, user_id, _start) in enumerate(h.players):
            expected_net[user_id] += h.result["net"][i]
            boards = {b["board"] for pot in h.result["pots"] for b in pot["boards"] for w in b["winners"] if w["seat"] == i}
            expected_boards[user_id] += len(boards)
            expected_scoops[user_id] += 1 if h.result["scoop"] == i else 0
    assert {u: r.net for u, r in rows.items()} == expected_net
    assert {u: r.boards_won for u, r in rows.items()} == expected_boards
    assert {u: r.scoops for u, r in rows.items()} == expected_scoops
    assert sum(r.boards_won for r in rows.values()) >= 3 * 4  # every board has a winner at a showdown
    session.refresh_from_db()
    assert session.pots_completed == 4


def test_public_tables_do_not_touch_club_sessions() -> None:
    p = club_with_people(chips=1000)
    club_services.club_session_start(club=p.club, by=p.host)
    t = services.table_create(creator=None, name="Public", small_blind=5, big_blind=10, is_public=True)
    services.table_pause(table_id=t.id, now=True)
    for u in (p.host, p.member):
        services.table_take_seat(table_id=t.id, user=u, buy_in=1000)
    services.table_resume(table_id=t.id)
    t.refresh_from_db()
    play_passively(t)
    assert not ClubSessionResult.objects.exists()


# -- Host controls ----------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_pause_and_resume_by_role(role: str) -> None:
    p = club_with_people(chips=10_000)
    t = _seated(p, n=2)
    _allowed(role, HOSTS, lambda: hosting.table_host_pause(table_id=t.id, by=p[role]))
    t.refresh_from_db()
    assert t.pause_after_hand == (role in HOSTS)  # a hand is running: pause after it
    _allowed(role, HOSTS, lambda: hosting.table_host_resume(table_id=t.id, by=p[role]))


@pytest.mark.parametrize("role", ROLES)
def test_sit_a_player_out_by_role(role: str) -> None:
    p = club_with_people(chips=10_000)
    t = _seated(p, n=2)
    _allowed(role, HOSTS, lambda: hosting.table_host_sit_out(table_id=t.id, by=p[role], user_id=p.owner.pk))
    assert Seat.objects.get(table=t, user=p.owner).break_next == (role in HOSTS)


def test_a_player_sat_out_is_not_dealt_the_next_hand() -> None:
    p = club_with_people(chips=10_000)
    t = _seated(p)
    hosting.table_host_sit_out(table_id=t.id, by=p.host, user_id=p.member.pk)
    play_passively(t)
    _next_hand(t)
    hand, _state = current_state(t)
    assert hand.number == 2 and p.member.pk not in [u for _s, u, _st in hand.players]
    with pytest.raises(TableError):
        hosting.table_host_sit_out(table_id=t.id, by=p.host, user_id=p.outsider.pk)


@pytest.mark.parametrize("role", ROLES)
def test_close_by_role(role: str) -> None:
    p = club_with_people(chips=10_000)
    t = _club_table(p)
    services.table_take_seat(table_id=t.id, user=p.member, buy_in=3000)
    _allowed(role, HOSTS, lambda: hosting.table_host_close(table_id=t.id, by=p[role]))
    t.refresh_from_db()
    if role in HOSTS:  # no hand running: closed at once, the stack back in the club balance
        assert t.status == "closed" and not Seat.objects.filter(table=t).exists()
        assert balance(p.club, p.member) == 10_000
        with pytest.raises(TableError):
            services.table_take_seat(table_id=t.id, user=p.host, buy_in=3000)
    else:
        assert t.status == "open"


def test_close_waits_for_the_hand_and_returns_every_stack() -> None:
    p = club_with_people(chips=10_000)
    t = _seated(p)
    hosting.table_host_close(table_id=t.id, by=p.owner)
    t.refresh_from_db()
    assert t.status == "open" and t.close_after_hand
    with pytest.raises(TableError):  # nobody new sits down at a closing table
        services.table_take_seat(table_id=t.id, user=p.outsider, buy_in=3000)
    play_passively(t)
    t.refresh_from_db()
    assert t.status == "closed" and not Seat.objects.filter(table=t).exists()
    total = Membership.objects.filter(club=p.club).aggregate(s=Sum("balance"))["s"]
    assert total == 3 * 10_000
    _next_hand(t)  # the showdown pause ends: no new hand at a closed table
    assert Hand.objects.filter(table=t).count() == 1


@pytest.mark.parametrize("role", ROLES)
def test_seat_requests_by_role(role: str) -> None:
    p = club_with_people(chips=5000)
    t = _club_table(p, seat_approval=True)
    assert t.seat_approval
    with pytest.raises(TableError):  # a member cannot just sit down here
        services.table_take_seat(table_id=t.id, user=p.member, buy_in=2000)
    services.table_take_seat(table_id=t.id, user=p.host, buy_in=2000)  # hosts may
    req = hosting.table_seat_request(table_id=t.id, user=p.member, buy_in=2000)
    _allowed(role, HOSTS, lambda: hosting.table_seat_request_approve(request_id=req.id, by=p[role]))
    seated = Seat.objects.filter(table=t, user=p.member).exists()
    assert seated == (role in HOSTS)
    assert balance(p.club, p.member) == (3000 if role in HOSTS else 5000)


def test_seat_request_rules() -> None:
    p = club_with_people(chips=5000)
    plain = _club_table(p, name="No approval")
    with pytest.raises(TableError):
        hosting.table_seat_request(table_id=plain.id, user=p.member, buy_in=2000)
    t = _club_table(p, seat_approval=True)
    with pytest.raises(TableError):
        hosting.table_seat_request(table_id=t.id, user=p.outsider, buy_in=2000)
    with pytest.raises(TableError):
        hosting.table_seat_request(table_id=t.id, user=p.member, buy_in=10)  # below the minimum
    first = hosting.table_seat_request(table_id=t.id, user=p.member, buy_in=2000)
    again = hosting.table_seat_request(table_id=t.id, user=p.member, buy_in=2500)
    assert first.pk == again.pk and SeatRequest.objects.get(pk=first.pk).buy_in == 2500
    hosting.table_seat_request_decline(request_id=first.pk, by=p.host)
    assert SeatRequest.objects.get(pk=first.pk).status == "declined"
    with pytest.raises(TableError):
        hosting.table_seat_request_approve(request_id=first.pk, by=p.host)
    assert balance(p.club, p.member) == 5000
    # Answered from a table's page: hosts only first, then a request of that table.
    pending = hosting.table_seat_request(table_id=t.id, user=p.member, buy_in=2000)
    other = _club_table(p, name="Other", seat_approval=True)
    with pytest.raises(TableError, match="no such request"):
        hosting.table_seat_request_approve(request_id=99999, by=p.host, table_id=t.id)
    with pytest.raises(TableError, match="no such request"):
        hosting.table_seat_request_approve(request_id=pending.pk, by=p.host, table_id=other.id)
    with pytest.raises(TableError) as refused:
        hosting.table_seat_request_decline(request_id=99999, by=p.member, table_id=t.id)
    assert "no such request" not in str(refused.value) and "answered" not in str(refused.value)
    assert SeatRequest.objects.get(pk=pending.pk).status == "pending"


# -- Removing a member settles their seats ----------------------------------------------------


def test_removing_a_member_between_hands_cashes_them_out_at_once() -> None:
    p = club_with_people(chips=5000)
    t = _club_table(p)
    services.table_take_seat(table_id=t.id, user=p.member, buy_in=2500)
    club_services.club_remove_member(club=p.club, by=p.host, user=p.member)
    assert not Seat.objects.filter(table=t).exists()
    m = Membership.objects.get(club=p.club, user=p.member)
    assert not m.active and m.balance == 5000
    assert not selectors.can_watch(table_id=t.id, user=p.member)


def test_removing_a_member_whose_seat_just_went_still_removes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by a review: the seat list is read before each seat is left; a seat gone meanwhile
    # (they stood up themselves) raised "You have no seat" and the removal failed with a 500.
    p = club_with_people(chips=5000)
    t = _club_table(p)
    services.table_take_seat(table_id=t.id, user=p.member, buy_in=2500)
    real_leave = services.table_leave_seat

    def left_meanwhile(**kwargs: object) -> None:
        real_leave(**kwargs)  # they leave first ...
        real_leave(**kwargs)  # ... and the removal's own leave finds no seat

    monkeypatch.setattr(services, "table_leave_seat", left_meanwhile)
    club_services.club_remove_member(club=p.club, by=p.host, user=p.member)
    m = Membership.objects.get(club=p.club, user=p.member)
    assert not m.active and m.balance == 5000 and not Seat.objects.filter(table=t).exists()


def test_removing_a_member_during_a_hand_settles_after_it_nothing_lost() -> None:
    p = club_with_people(chips=10_000)
    t = _seated(p)
    club_services.club_remove_member(club=p.club, by=p.owner, user=p.member)
    assert Seat.objects.get(table=t, user=p.member).leaving
    # The removed player cannot act any more; the clock (here: timeouts) plays their turns.
    for _ in range(60):
        t.refresh_from_db()
        hand, state = current_state(t)
        if hand.ended is not None:
            break
        idx = state.actors()[0]
        actor = user_for_index(hand, idx)
        if actor == p.member:
            with pytest.raises(TableError):
                services.table_act(table_id=t.id, user=actor, message={"action": "fold", "version": t.version})
            Hand.objects.filter(pk=hand.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
            services.table_expire(table_id=t.id)
            continue
        kinds = [a.kind for a in state.legal_actions(idx)]
        choice = next(k for k in ("done", "check", "call", "fold") if k in kinds)
        services.table_act(table_id=t.id, user=actor, message={"action": choice, "version": t.version})
    assert not Seat.objects.filter(table=t, user=p.member).exists()
    stacks = Seat.objects.filter(table=t).aggregate(s=Sum("stack"))["s"] or 0
    total = Membership.objects.filter(club=p.club).aggregate(s=Sum("balance"))["s"]
    assert total + stacks == 3 * 10_000


def test_club_tables_listed_for_the_club() -> None:
    p = club_with_people()
    t = _club_table(p, name="Corner")
    rows = club_selectors.club_tables(club=p.club)
    assert [(r.id, r.name, r.game_name, r.big_blind) for r in rows] == [(t.id, "Corner", "Patch-Patch", 200)]
    assert not rows[0].straddles and not rows[0].run_twice  # Patch-Patch has neither
    # A Hold'em table where the host allows both says so on the club's pages.
    nl = services.table_create(creator=p.host, club=p.club, name="Side game", game="NT", small_blind=5, big_blind=10,
                               straddles=True, run_twice=True)
    row = next(r for r in club_selectors.club_tables(club=p.club) if r.id == nl.id)
    assert row.straddles and row.run_twice
    page = Client()
    page.force_login(p.member)
    html = page.get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert "straddles" in html and "run it twice" in html
    services.table_close(table_id=nl.id)
    services.table_close(table_id=t.id)
    assert club_selectors.club_tables(club=p.club) == []


@pytest.mark.parametrize("role", ROLES)
def test_only_hosts_stand_a_member_up_and_the_chips_go_back_to_the_club_balance(role: str) -> None:
    p = club_with_people(chips=5000)
    table = _club_table(p)
    services.table_take_seat(table_id=table.id, user=p.member, buy_in=2000)
    assert balance(p.club, p.member) == 3000
    _allowed(role, HOSTS, lambda: hosting.table_host_stand_up(table_id=table.id, by=p[role], user_id=p.member.pk))
    if role in HOSTS:  # no hand was being played: the seat went at once, its chips home
        assert not Seat.objects.filter(table=table, user=p.member).exists()
        assert balance(p.club, p.member) == 5000
    else:
        assert Seat.objects.filter(table=table, user=p.member).exists() and balance(p.club, p.member) == 3000


def _back_room(tag: str) -> tuple[Any, Table, Client, Client]:
    """A club's table opened by its host, with the host's and a plain member's browsers."""
    p = club_with_people(tag)
    table = services.table_create(creator=p.host, name="Back room", small_blind=5, big_blind=10,
                                  max_seats=3, club=p.club)
    host, member = Client(), Client()
    host.force_login(p.host)
    member.force_login(p.member)
    return p, table, host, member


def test_the_host_panel_says_when_no_session_counts_the_hands_and_starts_one() -> None:
    """A club table's hands count into the club's results only while a session runs: the host
    panel says so when none does, and starts one from the table, back to the table."""
    p, table, host, member = _back_room("ns1")
    url = f"/tables/{table.id}/"
    page = host.get(url).content.decode()
    assert "data-no-session" in page and "do not count in the club's results" in page
    assert "data-no-session" not in member.get(url).content.decode()  # a plain member has no panel
    with translation.override("ru"):
        assert "Сессия не идёт: раздачи за этим столом" in host.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    # An address elsewhere is not followed: the session starts and its page is shown.
    answer = host.post(f"/clubs/{p.club.pk}/sessions/start/", {"next": "https://evil.example/"})
    session = ClubSession.objects.get(club=p.club, ended__isnull=True)
    assert answer.status_code == 302 and answer["Location"] == f"/clubs/{p.club.pk}/sessions/{session.pk}/"
    club_services.club_session_end(session=session, by=p.host)
    answer = host.post(f"/clubs/{p.club.pk}/sessions/start/", {"next": url}, follow=True)
    assert answer.redirect_chain[-1][0] == url
    assert "every hand at the club" in answer.content.decode()
    assert "data-no-session" not in answer.content.decode()
    assert ClubSession.objects.filter(club=p.club, ended__isnull=True).count() == 1
    # A member who does not host cannot start one from there either.
    refused = member.post(f"/clubs/{p.club.pk}/sessions/start/", {"next": url})
    assert refused.status_code in (302, 403) and ClubSession.objects.filter(club=p.club).count() == 2


def test_a_hosts_table_page_links_to_the_host_controls_from_its_top() -> None:
    """On a phone the host panel is under the chat: the page's head links to it, for hosts only."""
    _p, table, host, member = _back_room("jh1")
    page = host.get(f"/tables/{table.id}/").content.decode()
    link = page.find('href="#host-panel" data-jump-host>Host controls</a>')
    assert 0 < link < page.find('id="table-root"') and 'id="host-panel"' in page
    assert "data-jump-host" not in member.get(f"/tables/{table.id}/").content.decode()
