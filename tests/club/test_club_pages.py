"""Club pages through Django's test client: who sees what (404 for outsiders, 403 for members on
hosts' pages), forms that call the services, htmx fragments, and the three languages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from club import services
from club.models import ClubInvite, ClubSession, JoinRequest, LedgerEntry, Membership
from tables import services as table_services
from tables.models import Seat, SeatRequest, Table
from tests.club.helpers import balance, club_with_people, make_user

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    c = Client()
    if user is not None and user.is_authenticated:
        c.force_login(user)
    return c


def _messages(res) -> list[str]:
    return [str(m) for m in res.context["messages"]]


ROLE_STATUS = {"owner": 200, "host": 200, "member": 200, "outsider": 404}


@pytest.mark.parametrize("role", ["owner", "host", "member", "outsider", "anonymous"])
@pytest.mark.parametrize("page", ["club_members", "club_ledger", "club_sessions", "club_leaderboard", "club_invites"])
def test_member_pages_by_role(role: str, page: str) -> None:
    p = club_with_people()
    res = _client(p[role]).get(reverse(page, args=[p.club.pk]))
    if role == "anonymous":
        assert res.status_code == 302 and "/accounts/login/" in res["Location"]
        return
    expected = ROLE_STATUS[role]
    if page == "club_invites" and role == "member":
        expected = 403
    assert res.status_code == expected


def test_my_clubs_and_creating_a_club() -> None:
    user = make_user("nora")
    c = _client(user)
    assert "not in a club yet" in c.get(reverse("my_clubs")).content.decode()
    res = c.post(reverse("club_new"), {"name": "Nora's Nights", "description": "Tuesdays", "language": "ru",
                                       "default_game": "PP", "default_speed": "slow"})
    club = Membership.objects.get(user=user).club
    assert res.status_code == 302 and res["Location"] == reverse("club_invites", args=[club.pk])
    assert club.language == "ru" and club.default_speed == "slow"
    # The club's first invite link is made with it, with no limits, ready to copy.
    invite = ClubInvite.objects.get(club=club)
    assert invite.expires is None and invite.max_uses is None and invite.created_by == user
    page = c.get(res["Location"]).content.decode()
    assert invite.code in page and "data-copy" in page
    body = c.get(reverse("my_clubs")).content.decode()
    assert "Nora&#x27;s Nights" in body and "Owner" in body
    bad = c.post(reverse("club_new"), {"name": "", "language": "en", "default_game": "PP", "default_speed": "slow"})
    assert bad.status_code == 200 and Membership.objects.filter(user=user).count() == 1


def test_anonymous_visitors_are_sent_to_log_in() -> None:
    assert _client().get(reverse("my_clubs"))["Location"].startswith("/accounts/login/")
    assert _client().get(reverse("club_new"))["Location"].startswith("/accounts/login/")


def test_club_home_for_members_and_for_outsiders() -> None:
    p = club_with_people(chips=2000)
    t = table_services.table_create(creator=p.host, name="Kitchen felt", small_blind=5, big_blind=10, club=p.club)
    home = _client(p.member).get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert "Kitchen felt" in home and reverse("table", args=[t.id]) in home
    assert "2,000" in home  # my club chips
    assert reverse("club_table_new", args=[p.club.pk]) not in home  # only hosts open tables
    assert reverse("club_table_new", args=[p.club.pk]) in _client(p.host).get(reverse("club_home", args=[p.club.pk])).content.decode()
    # An outsider sees the club's name and can ask to join, but none of its tables.
    outside = _client(p.outsider).get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert p.club.name in outside and "Kitchen felt" not in outside and "Ask to join" in outside
    anon = _client().get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert "Kitchen felt" not in anon and "Log in" in anon
    assert _client().get(reverse("club_home", args=[99999])).status_code == 404


def test_asking_to_join_and_a_host_letting_in() -> None:
    p = club_with_people()
    c = _client(p.outsider)
    for bad in ("x" * 201, "a\x00b"):  # too long, a NUL: refused and said, nothing asked
        res = c.post(reverse("club_request_join", args=[p.club.pk]), {"message": bad}, follow=True)
        assert "message--error" in res.content.decode() and not JoinRequest.objects.exists()
    res = c.post(reverse("club_request_join", args=[p.club.pk]), {"message": "Olga sent me"}, follow=True)
    assert "Your request is with the club" in res.content.decode()
    req = JoinRequest.objects.get(user=p.outsider)
    assert req.message == "Olga sent me"
    members_page = _client(p.host).get(reverse("club_members", args=[p.club.pk])).content.decode()
    # Names and messages keep their own direction on a Hebrew page (an audit saw ".Игорь П").
    assert "“<bdi>Olga sent me</bdi>”" in members_page and members_page.count("<strong><bdi>") >= 1
    # A plain member cannot answer it.
    assert _client(p.member).post(reverse("club_request_answer", args=[p.club.pk, req.pk, "approve"])).status_code == 403
    _client(p.host).post(reverse("club_request_answer", args=[p.club.pk, req.pk, "approve"]))
    assert Membership.objects.get(club=p.club, user=p.outsider).active
    anon = _client().post(reverse("club_request_join", args=[p.club.pk]))
    assert anon.status_code == 302 and "/accounts/login/" in anon["Location"]


def test_invite_page_makes_and_revokes_links_and_the_join_page_works() -> None:
    p = club_with_people()
    host = _client(p.host)
    host.post(reverse("club_invites", args=[p.club.pk]), {"expires_in": "7", "max_uses": "5"})
    invite = ClubInvite.objects.get(club=p.club)
    assert invite.max_uses == 5 and invite.expires is not None
    page = host.get(reverse("club_invites", args=[p.club.pk])).content.decode()
    join_url = reverse("club_join", args=[invite.code])
    assert join_url in page
    # The join page: anonymous visitors are offered sign-up and log-in that come back here.
    anon = _client().get(join_url).content.decode()
    assert p.club.name in anon and "next=" + join_url in anon
    newbie = make_user("newbie")
    c = _client(newbie)
    assert "Join" in c.get(join_url).content.decode()
    res = c.post(join_url)
    assert res.status_code == 302 and res["Location"] == reverse("club_home", args=[p.club.pk])
    assert Membership.objects.get(club=p.club, user=newbie).active
    host.post(reverse("club_invite_revoke", args=[p.club.pk, invite.pk]))
    late = make_user("late")
    body = _client(late).get(join_url).content.decode()
    assert "not valid any more" in body
    _client(late).post(join_url)
    assert not Membership.objects.filter(club=p.club, user=late).exists()
    assert _client(late).get(reverse("club_join", args=["nope"])).status_code == 404


def test_host_gives_and_takes_chips_with_a_reason_and_members_see_their_statement() -> None:
    p = club_with_people()
    host = _client(p.host)
    url = reverse("club_member_chips", args=[p.club.pk, p.member.pk])
    host.post(url, {"direction": "grant", "amount": "1500", "reason": "season start"})
    host.post(url, {"direction": "take", "amount": "200", "reason": "pizza"})
    res = host.post(url, {"direction": "grant", "amount": "10", "reason": ""}, follow=True)
    assert "Reason: " in " ".join(_messages(res))
    # Each refusal names the box that is wrong (one sentence for every case before).
    for form, box in ((("-5", "grant"), "Chips: "), (("9" * 20, "grant"), "Chips: "), (("10", "steal"), "Give or take: ")):
        res = host.post(url, {"direction": form[1], "amount": form[0], "reason": "x"}, follow=True)
        assert box in " ".join(_messages(res)), _messages(res)
    assert balance(p.club, p.member) == 1300
    mine = _client(p.member).get(reverse("club_ledger", args=[p.club.pk])).content.decode()
    assert "season start" in mine and "pizza" in mine and "1,300" in mine
    # A member cannot move chips, and sees only their own statement.
    assert _client(p.member).post(url, {"direction": "grant", "amount": "5", "reason": "me"}).status_code == 403
    services.club_chips_grant(club=p.club, by=p.owner, user=p.host, amount=77, reason="host's own")
    assert "host&#x27;s own" not in _client(p.member).get(reverse("club_ledger", args=[p.club.pk])).content.decode()
    everyone = host.get(reverse("club_ledger", args=[p.club.pk])).content.decode()
    assert "host&#x27;s own" in everyone and "pizza" in everyone
    only = host.get(reverse("club_ledger", args=[p.club.pk]) + f"?member={p.host.pk}").content.decode()
    assert "host&#x27;s own" in only and "pizza" not in only
    for odd in ("²", "9" * 30, "x"):  # not a member: the whole ledger, no server error
        for name in ("club_ledger", "club_ledger_csv"):
            res = host.get(reverse(name, args=[p.club.pk]) + f"?member={odd}")
            assert res.status_code == 200


def test_roles_and_removal_from_the_members_page() -> None:
    p = club_with_people(chips=500)
    owner = _client(p.owner)
    owner.post(reverse("club_member_role", args=[p.club.pk, p.member.pk]), {"role": "host"})
    assert Membership.objects.get(club=p.club, user=p.member).role == "host"
    refused = _client(p.host).post(reverse("club_member_role", args=[p.club.pk, p.member.pk]), {"role": "member"}, follow=True)
    assert "Only the club's owner can do that." in " ".join(_messages(refused))
    assert Membership.objects.get(club=p.club, user=p.member).role == "host"
    table = table_services.table_create(creator=p.host, name="T", small_blind=5, big_blind=10, club=p.club)
    table_services.table_take_seat(table_id=table.id, user=p.member, buy_in=400)
    owner.post(reverse("club_member_remove", args=[p.club.pk, p.member.pk]))
    m = Membership.objects.get(club=p.club, user=p.member)
    assert not m.active and m.balance == 500 and not Seat.objects.filter(table=table).exists()
    # Removed: the club's pages and tables are closed to them now.
    assert _client(p.member).get(reverse("club_members", args=[p.club.pk])).status_code == 404
    assert _client(p.member).get(reverse("table", args=[table.id])).status_code == 404


def test_leaving_the_club() -> None:
    p = club_with_people()
    res = _client(p.member).post(reverse("club_leave", args=[p.club.pk]))
    assert res["Location"] == reverse("my_clubs")
    assert not Membership.objects.get(club=p.club, user=p.member).active
    res = _client(p.owner).post(reverse("club_leave", args=[p.club.pk]), follow=True)
    assert "hand the club" in " ".join(_messages(res))


def test_sessions_pages_and_live_fragment() -> None:
    p = club_with_people()
    assert _client(p.member).post(reverse("club_session_start", args=[p.club.pk])).status_code == 403
    res = _client(p.host).post(reverse("club_session_start", args=[p.club.pk]))
    session = ClubSession.objects.get(club=p.club)
    assert res["Location"] == reverse("club_session", args=[p.club.pk, session.pk])
    services.club_hand_played(club_id=p.club.pk, table_id=1, hand_id=1, game="PP", results=[
        {"user": p.host, "net": 60, "won": 90, "boards_won": 2, "scoop": False},
        {"user": p.member, "net": -60, "won": 30, "boards_won": 1, "scoop": False},
    ])
    url = reverse("club_session", args=[p.club.pk, session.pk])
    page = _client(p.member).get(url).content.decode()
    assert 'hx-trigger="every 5s"' in page and "+60" in page and "-60" in page
    frag = _client(p.member).get(url, headers={"HX-Request": "true", "HX-Target": "session-results"})
    body = frag.content.decode()
    assert "<html" not in body and 'id="session-results"' in body and "+60" in body
    _client(p.host).post(reverse("club_session_end", args=[p.club.pk, session.pk]))
    ended = _client(p.member).get(url).content.decode()
    assert "every 5s" not in ended  # nothing to poll once it ended
    # The ended session's results as text for the group's chat: the club, the day, each player's
    # place and net, the number of hands.
    import html
    import re

    text = html.unescape(re.search(r"<textarea[^>]*data-share-text>(.*?)</textarea>", ended, re.S).group(1))
    lines = text.splitlines()
    assert lines[0].startswith(f"{p.club.name} · Session of ")
    assert re.fullmatch(r"1\. .+ \+60", lines[1]) and re.fullmatch(r"2\. .+ -60", lines[2]) and lines[3] == "1 hand"
    assert "<" not in text and "&" not in text
    # In Hebrew each line is laid out right to left with its names and numbers intact (an audit
    # saw "5- תמר .2" and the club's name moved into the middle of the first line).
    c = _client(p.member)
    c.cookies["lang"] = "he"
    he = html.unescape(re.search(r"<textarea[^>]*data-share-text>(.*?)</textarea>", c.get(url).content.decode(), re.S).group(1))
    he_lines = he.splitlines()
    assert all(line.startswith("\u200f") for line in he_lines), he_lines
    assert he_lines[0].startswith(f"\u200f\u2068{p.club.name}\u2069 · ")
    assert he_lines[1].endswith("\u2066+60\u2069") and he_lines[2].endswith("\u2066-60\u2069")
    # (In English on this device: the member chose Hebrew above, and a device that chose nothing
    # now follows the account's choice, club.middleware.AccountLanguageMiddleware.)
    english = _client(p.member)
    english.cookies["lang"] = "en"
    listing = english.get(reverse("club_sessions", args=[p.club.pk])).content.decode()
    assert url in listing
    # Each session says when it started (two on one day were told apart by nothing).
    from django.utils import dateformat, timezone

    started = dateformat.time_format(timezone.localtime(session.started), "P")
    assert f", {started}</a>" in listing
    assert _client(p.outsider).get(url).status_code == 404
    # Patch-Patch's own columns only where Patch-Patch was played.
    assert "Boards won" in ended and "Scoops" in ended
    _client(p.host).post(reverse("club_session_start", args=[p.club.pk]))
    night = ClubSession.objects.get(club=p.club, ended__isnull=True)
    services.club_hand_played(club_id=p.club.pk, table_id=2, hand_id=2, game="NT", results=[
        {"user": p.host, "net": 10, "won": 20, "boards_won": 0, "scoop": False},
        {"user": p.member, "net": -10, "won": 0, "boards_won": 0, "scoop": False},
    ])
    holdem = _client(p.member).get(reverse("club_session", args=[p.club.pk, night.pk])).content.decode()
    assert "+10" in holdem and "Boards won" not in holdem and "Scoops" not in holdem
    csv = _client(p.member).get(reverse("club_session_csv", args=[p.club.pk, night.pk])).content.decode()
    assert "Boards won" not in csv.splitlines()[0] and "Pots won" in csv.splitlines()[0]


def test_leaderboard_periods_and_fragment() -> None:
    p = club_with_people()
    session = services.club_session_start(club=p.club, by=p.host)
    services.club_hand_played(club_id=p.club.pk, table_id=1, hand_id=1, game="PP", results=[
        {"user": p.host, "net": 25, "won": 50, "boards_won": 3, "scoop": True},
        {"user": p.member, "net": -25, "won": 0, "boards_won": 0, "scoop": False},
    ])
    assert session.pk
    url = reverse("club_leaderboard", args=[p.club.pk])
    for period in ("month", "season", "all", "bogus"):
        body = _client(p.member).get(url, {"period": period}).content.decode()
        assert "+25" in body and "-25" in body
    frag = _client(p.member).get(url, {"period": "all"}, headers={"HX-Request": "true", "HX-Target": "leaderboard"})
    assert "<html" not in frag.content.decode() and 'id="leaderboard"' in frag.content.decode()
    assert "HX-Request" in frag["Vary"]
    home_frag = _client(p.member).get(reverse("club_home", args=[p.club.pk]), {"period": "season"},
                                      headers={"HX-Request": "true", "HX-Target": "leaderboard"})
    assert "<html" not in home_frag.content.decode() and "+25" in home_frag.content.decode()


# -- The club table's page ------------------------------------------------------------------


def test_host_opens_a_club_table_from_the_form() -> None:
    p = club_with_people()
    url = reverse("club_table_new", args=[p.club.pk])
    assert _client(p.member).get(url).status_code == 403
    assert _client(p.outsider).get(url).status_code == 404
    form = _client(p.host).get(url).content.decode()
    assert "Patch-Patch" in form
    res = _client(p.host).post(url, {"name": "Odd blinds", "game": "PP", "small_blind": "3", "big_blind": "7", "speed": "fast",
                                     "max_seats": "2", "min_buy_in_bb": "10", "max_buy_in_bb": "50", "seat_approval": "on"})
    table = Table.objects.get(name="Odd blinds")
    assert res["Location"] == reverse("table", args=[table.id])
    assert (table.club_id, table.is_public, table.small_blind, table.big_blind, table.max_seats, table.seat_approval) == (
        p.club.pk, False, 3, 7, 2, True)
    bad = _client(p.host).post(url, {"name": "Bad", "game": "PP", "small_blind": "7", "big_blind": "7", "speed": "fast",
                                     "max_seats": "2", "min_buy_in_bb": "10", "max_buy_in_bb": "50"})
    assert bad.status_code == 200 and not Table.objects.filter(name="Bad").exists()
    # Straddles allowed from the start (a no-limit Hold'em table): the form's box.
    assert "Straddles allowed" in form
    _client(p.host).post(url, {"name": "Late NL", "game": "NT", "small_blind": "5", "big_blind": "10", "speed": "fast",
                               "max_seats": "6", "min_buy_in_bb": "10", "max_buy_in_bb": "50", "straddles": "on"})
    assert Table.objects.get(name="Late NL").straddles and not table.straddles
    # A second open table of the club with the same name (any case) is refused and not made;
    # once the first is closed the name is free again.
    again = _client(p.host).post(url, {"name": "late nl", "game": "NT", "small_blind": "5", "big_blind": "10", "speed": "fast",
                                       "max_seats": "6", "min_buy_in_bb": "10", "max_buy_in_bb": "50"})
    assert again.status_code == 200 and "already has an open table called late nl" in again.content.decode()
    assert Table.objects.filter(name__iexact="late nl").count() == 1
    Table.objects.filter(name="Late NL").update(status=Table.Status.CLOSED)
    _client(p.host).post(url, {"name": "late nl", "game": "NT", "small_blind": "5", "big_blind": "10", "speed": "fast",
                               "max_seats": "6", "min_buy_in_bb": "10", "max_buy_in_bb": "50"})
    assert Table.objects.filter(name__iexact="late nl").count() == 2


def test_club_table_page_buy_in_from_club_chips_and_404_for_outsiders() -> None:
    p = club_with_people(chips=3000)
    table = table_services.table_create(creator=p.host, name="Den", small_blind=25, big_blind=50, club=p.club)
    url = reverse("table", args=[table.id])
    assert _client(p.outsider).get(url).status_code == 404
    assert _client().get(url).status_code == 404
    assert _client(p.outsider).get(url + f"?invite={table.invite_code}").status_code in (302, 404)
    assert _client(p.outsider).get(url).status_code == 404  # the table's own link opened nothing
    page = _client(p.member).get(url).content.decode()
    assert "club table, no rake" in page and 'value="3000"' in page and "Host controls" not in page
    assert "Host controls" in _client(p.host).get(url).content.decode()
    res = _client(p.member).post(reverse("table_sit", args=[table.id]), {"buy_in": "5000"}, follow=True)
    assert "3,000 club chips" in " ".join(_messages(res))
    _client(p.member).post(reverse("table_sit", args=[table.id]), {"buy_in": "1200"})
    assert balance(p.club, p.member) == 1800
    res = _client(p.member).post(reverse("table_leave", args=[table.id]), follow=True)
    assert "club chips" in " ".join(_messages(res))
    assert balance(p.club, p.member) == 3000
    ledger = _client(p.member).get(reverse("club_ledger", args=[p.club.pk])).content.decode()
    assert ledger.count(f'href="/tables/{table.id}/"><bdi>Den</bdi></a>') == 2  # buy-in and cash-out
    assert _client(p.outsider).post(reverse("table_sit", args=[table.id]), {"buy_in": "100"}).status_code == 404


def test_seat_requests_and_host_controls_on_the_table_page() -> None:
    p = club_with_people(chips=3000)
    table = table_services.table_create(creator=p.host, name="Den", small_blind=5, big_blind=10, club=p.club, seat_approval=True)
    page = _client(p.member).get(reverse("table", args=[table.id])).content.decode()
    assert "Ask for a seat" in page
    _client(p.member).post(reverse("table_sit", args=[table.id]), {"buy_in": "600"})
    req = SeatRequest.objects.get(table=table, user=p.member)
    assert "asks for a seat" in _client(p.host).get(reverse("table", args=[table.id])).content.decode()
    panel = _client(p.host).get(reverse("table", args=[table.id]), headers={"HX-Request": "true", "HX-Target": "host-panel"})
    assert panel.content.decode().lstrip().startswith("<section id=\"host-panel\"")
    approve = reverse("table_seat_request_answer", args=[table.id, req.pk, "approve"])
    assert _client(p.member).post(approve).status_code == 302
    assert not Seat.objects.filter(table=table, user=p.member).exists()  # a member's "approval" was refused
    _client(p.host).post(approve)
    assert Seat.objects.get(table=table, user=p.member).stack == 600
    sit_out = reverse("table_host_sit_out", args=[table.id])
    _client(p.member).post(sit_out, {"user": str(p.member.pk)})
    assert not Seat.objects.get(table=table, user=p.member).sitting_out
    _client(p.host).post(sit_out, {"user": str(p.member.pk)})
    assert Seat.objects.get(table=table, user=p.member).sitting_out
    _client(p.host).post(reverse("table_host_action", args=[table.id, "pause"]))
    table.refresh_from_db()
    assert table.status == "paused"
    _client(p.host).post(reverse("table_host_action", args=[table.id, "resume"]))
    table.refresh_from_db()
    assert table.status == "open"
    res = _client(p.host).post(reverse("table_host_action", args=[table.id, "close"]))
    assert res["Location"] == reverse("club_home", args=[p.club.pk])
    table.refresh_from_db()
    assert table.status == "closed" and balance(p.club, p.member) == 3000
    assert _client(p.outsider).post(reverse("table_host_action", args=[table.id, "pause"])).status_code == 404


def test_every_club_chip_change_on_pages_left_a_ledger_entry() -> None:
    p = club_with_people(chips=100)
    entries = LedgerEntry.objects.filter(club=p.club, account="club")
    assert entries.count() == 3 and all(e.note == "start of season" for e in entries)


@pytest.mark.parametrize(("lang", "direction", "words"), [
    ("en", "ltr", "Leaderboard"), ("he", "rtl", "טבלת המובילים"), ("ru", "ltr", "Рейтинг"),
])
def test_club_pages_in_three_languages(lang: str, direction: str, words: str) -> None:
    p = club_with_people()
    services.club_session_start(club=p.club, by=p.host)
    c = _client(p.host)
    c.cookies["lang"] = lang
    invite = services.club_invite_create(club=p.club, by=p.host)
    session = ClubSession.objects.get(club=p.club)
    for url in (reverse("my_clubs"), reverse("club_new"), reverse("club_home", args=[p.club.pk]),
                reverse("club_members", args=[p.club.pk]), reverse("club_invites", args=[p.club.pk]),
                reverse("club_ledger", args=[p.club.pk]), reverse("club_sessions", args=[p.club.pk]),
                reverse("club_session", args=[p.club.pk, session.pk]), reverse("club_leaderboard", args=[p.club.pk]),
                reverse("club_join", args=[invite.code]), reverse("club_table_new", args=[p.club.pk])):
        res = c.get(url)
        assert res.status_code == 200, url
        html = res.content.decode()
        assert f'<html lang="{lang}" dir="{direction}">' in html, url
    assert words in c.get(reverse("club_leaderboard", args=[p.club.pk])).content.decode()


def test_handing_the_club_over_needs_im_sure() -> None:
    p = club_with_people()
    url = reverse("club_member_role", args=[p.club.pk, p.member.pk])
    res = _client(p.owner).post(url, {"role": "owner"}, follow=True)
    assert "I'm sure" in " ".join(_messages(res))
    assert Membership.objects.get(club=p.club, user=p.owner).role == "owner"
    _client(p.owner).post(url, {"role": "owner", "sure": "yes"})
    assert Membership.objects.get(club=p.club, user=p.member).role == "owner"
    assert Membership.objects.get(club=p.club, user=p.owner).role == "host"


def test_a_member_named_host_gets_the_host_controls_without_a_reload() -> None:
    """A member's club table page holds a hidden slot where the host controls go; it asks now and
    then, and the answer is the panel once the owner names them host, the slot again once the
    role is taken back."""
    p = club_with_people(chips=3000)
    table = table_services.table_create(creator=p.host, name="Den", small_blind=5, big_blind=10, club=p.club)
    url = reverse("table", args=[table.id])
    member = _client(p.member)
    page = member.get(url).content.decode()
    slot = page.split('<section id="host-panel"', 1)[1].split(">", 1)[0]
    assert " hidden" in slot and 'hx-trigger="every' in slot and "Host controls" not in page
    refresh = {"HX-Request": "true", "HX-Target": "host-panel"}
    answer = member.get(url, headers=refresh).content.decode()
    assert answer.lstrip().startswith('<section id="host-panel" hidden') and "Host controls" not in answer
    services.club_set_role(club=p.club, by=p.owner, user=p.member, role="host")
    answer = member.get(url, headers=refresh).content.decode()
    assert answer.lstrip().startswith('<section id="host-panel" class="hostpanel"') and "Pause after this hand" in answer
    assert "<html" not in answer  # the panel alone, never the whole page inside it
    services.club_set_role(club=p.club, by=p.owner, user=p.member, role="member")
    answer = member.get(url, headers=refresh).content.decode()
    assert answer.lstrip().startswith('<section id="host-panel" hidden') and "Host controls" not in answer
    # Someone outside the club gets nothing at all.
    assert _client(p.outsider).get(url, headers=refresh).status_code == 404
