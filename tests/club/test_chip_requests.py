"""A member asks the club's hosts for chips; a host gives them (a grant on the member's
statement, with the member's word) or declines; the member may take the request back. One
request waits per member; every refusal says why and changes nothing. Services first, then the
pages as members and hosts use them."""

from __future__ import annotations

import pytest
from django.test import Client

from club import selectors, services
from club.models import ChipRequest, LedgerEntry, Membership
from tests.club.helpers import ROLES, balance, club_with_people

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _messages(res) -> str:
    return " ".join(str(m) for m in res.context["messages"])


def test_a_member_asks_a_host_gives_and_the_statement_says_why() -> None:
    p = club_with_people("cr1")
    r = services.chips_request(club=p.club, user=p.member, amount=2000, message="for Thursday")
    again = services.chips_request(club=p.club, user=p.member, amount=1500, message=" for Friday ")
    assert again.pk == r.pk and (again.amount, again.message) == (1500, "for Friday")  # changed, not a second
    assert ChipRequest.objects.filter(club=p.club, user=p.member).count() == 1
    assert [x.pk for x in selectors.pending_chip_requests(club=p.club)] == [r.pk]
    assert selectors.my_chip_request(club=p.club, user=p.member).pk == r.pk
    services.chips_request_grant(chip_request=r, by=p.host)
    r.refresh_from_db()
    assert r.status == "granted" and r.decided_by == p.host and r.decided is not None
    assert balance(p.club, p.member) == 1500
    entry = LedgerEntry.objects.filter(club=p.club, user=p.member, account="club").latest("id")
    assert (entry.kind, entry.amount, entry.balance_after) == ("host_grant", 1500, 1500)
    assert entry.note_text == "Asked for chips: for Friday"
    # Said in the reader's language, whatever the host's was (an audit saw a Russian host's words
    # on an English statement).
    from django.utils import translation

    with translation.override("ru"):
        assert entry.note_text == "Просьба о фишках: for Friday"
    with translation.override("he"):
        assert entry.note_text.endswith(": for Friday") and "Asked" not in entry.note_text
    # Answered once: a second "Give" (another host, a double tap) gives nothing more.
    with pytest.raises(services.ClubError, match="already been answered"):
        services.chips_request_grant(chip_request=r, by=p.owner)
    assert balance(p.club, p.member) == 1500
    assert selectors.pending_chip_requests(club=p.club) == []
    assert selectors.my_chip_request(club=p.club, user=p.member).status == "granted"  # the answer, shown
    # A new request after an answer is a new row.
    r2 = services.chips_request(club=p.club, user=p.member, amount=100)
    assert r2.pk != r.pk and r2.status == "pending"


def test_decline_and_withdraw_change_no_chips() -> None:
    p = club_with_people("cr2")
    r = services.chips_request(club=p.club, user=p.member, amount=500)
    services.chips_request_decline(chip_request=r, by=p.owner)
    assert ChipRequest.objects.get(pk=r.pk).status == "declined" and balance(p.club, p.member) == 0
    r = services.chips_request(club=p.club, user=p.member, amount=700)
    with pytest.raises(services.NotAllowed):
        services.chips_request_withdraw(chip_request=r, user=p.host)  # only the member who asked
    services.chips_request_withdraw(chip_request=r, user=p.member)
    assert ChipRequest.objects.get(pk=r.pk).status == "withdrawn"
    with pytest.raises(services.ClubError, match="already been answered"):
        services.chips_request_grant(chip_request=r, by=p.host)
    assert balance(p.club, p.member) == 0
    assert selectors.my_chip_request(club=p.club, user=p.member) is None  # a withdrawn one is not shown


@pytest.mark.parametrize("amount", [0, -5, "12", 1.5, True, None, 10**9 + 1])
def test_bad_amounts_are_refused(amount) -> None:
    p = club_with_people("cr3")
    with pytest.raises(services.ClubError):
        services.chips_request(club=p.club, user=p.member, amount=amount)
    assert not ChipRequest.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_only_members_ask_and_only_hosts_answer(role: str) -> None:
    p = club_with_people("cr4")
    who = p[role]
    if role in ("outsider", "anonymous"):
        with pytest.raises(services.NotAllowed):
            services.chips_request(club=p.club, user=who, amount=10)
    else:
        services.chips_request(club=p.club, user=who, amount=10)
    r = services.chips_request(club=p.club, user=p.member, amount=300)
    if role in ("owner", "host"):
        services.chips_request_grant(chip_request=r, by=who)
        assert balance(p.club, p.member) == 300
    else:
        with pytest.raises(services.NotAllowed):
            services.chips_request_grant(chip_request=r, by=who)
        with pytest.raises(services.NotAllowed):
            services.chips_request_decline(chip_request=r, by=who)
        assert balance(p.club, p.member) == 0
        assert ChipRequest.objects.get(pk=r.pk).status == "pending"
    with pytest.raises(services.ClubError, match="at most 200"):
        services.chips_request(club=p.club, user=p.member, amount=10, message="x" * 201)


def test_a_member_who_left_is_not_asking_any_more() -> None:
    p = club_with_people("cr5")
    r = services.chips_request(club=p.club, user=p.member, amount=300)
    services.club_leave(club=p.club, user=p.member)
    assert selectors.pending_chip_requests(club=p.club) == []
    with pytest.raises(services.ClubError, match="not a member"):
        services.chips_request_grant(chip_request=r, by=p.host)
    assert Membership.objects.get(club=p.club, user=p.member).balance == 0
    assert ChipRequest.objects.get(pk=r.pk).status == "pending"
    services.chips_request_decline(chip_request=r, by=p.host)  # a host may still clear it


def test_the_pages_ask_show_give_and_refuse() -> None:
    p = club_with_people("cr6")
    home = f"/clubs/{p.club.pk}/"
    member = _client(p.member)
    page = member.get(home).content.decode()
    assert 'id="chips"' in page and f'action="/clubs/{p.club.pk}/chips/ask/"' in page
    assert '<details class="chipask__form" open>' in page  # no chips and no request: the form is open
    # Bad input: a clear error, nothing asked.
    res = member.post(f"/clubs/{p.club.pk}/chips/ask/", {"amount": "lots"}, follow=True)
    assert "message--error" in res.content.decode() and not ChipRequest.objects.exists()
    res = member.post(f"/clubs/{p.club.pk}/chips/ask/", {"amount": "2000", "message": "<b>please</b>"})
    assert res.status_code == 302 and res.url == f"{home}#chips"
    r = ChipRequest.objects.get(user=p.member)
    page = member.get(home).content.decode()
    assert 'data-status="pending"' in page and "2,000" in page and "&lt;b&gt;please&lt;/b&gt;" in page
    # The host sees it on the club's page and on the members' page, and gives.
    host = _client(p.host)
    for url in (home, f"/clubs/{p.club.pk}/members/"):
        hpage = host.get(url).content.decode()
        assert f'data-chip-request="{r.pk}"' in hpage and "Give 2,000" in hpage
    assert 'id="chips"' not in host.get(home).content.decode()  # hosts give themselves chips
    # The owner gives; a member cannot answer it; an outsider does not find it.
    res = _client(p.owner).post(f"/clubs/{p.club.pk}/chips/{r.pk}/grant/", {"back": "members"})
    assert res.url == f"/clubs/{p.club.pk}/members/"
    assert balance(p.club, p.member) == 2000
    res = member.post(f"/clubs/{p.club.pk}/chips/{r.pk}/grant/", follow=True)
    assert "Only the club's hosts" in _messages(res)
    res = host.post(f"/clubs/{p.club.pk}/chips/{r.pk}/grant/", follow=True)  # a second host, too late
    assert "already been answered" in _messages(res)
    assert _client(p.outsider).post(f"/clubs/{p.club.pk}/chips/{r.pk}/grant/").status_code == 404
    assert host.post(f"/clubs/{p.club.pk}/chips/{r.pk}/dance/").status_code == 404
    assert host.post(f"/clubs/{p.club.pk}/chips/999999/grant/").status_code == 404
    page = member.get(home).content.decode()
    assert 'data-status="granted"' in page and '<details class="chipask__form">' in page
    assert balance(p.club, p.member) == 2000


def test_a_member_cannot_answer_their_own_request_but_can_take_it_back() -> None:
    p = club_with_people("cr7")
    r = services.chips_request(club=p.club, user=p.member, amount=50)
    member = _client(p.member)
    res = member.post(f"/clubs/{p.club.pk}/chips/{r.pk}/grant/", follow=True)
    assert "Only the club's hosts" in _messages(res) and balance(p.club, p.member) == 0
    res = member.post(f"/clubs/{p.club.pk}/chips/{r.pk}/withdraw/", follow=True)
    assert "taken back" in _messages(res)
    assert ChipRequest.objects.get(pk=r.pk).status == "withdrawn"


def test_my_clubs_tells_a_host_how_many_requests_wait() -> None:
    from tests.club.helpers import make_user

    p = club_with_people("cr8")
    services.chips_request(club=p.club, user=p.member, amount=50)
    services.club_request_join(club=p.club, user=make_user("newcomercr8"))
    page = _client(p.host).get("/clubs/").content.decode()
    assert 'data-waiting="2"' in page and "2 requests wait for you" in page
    assert "data-waiting" not in _client(p.member).get("/clubs/").content.decode()  # not a host
    services.club_leave(club=p.club, user=p.member)  # a member who left asks no more
    assert 'data-waiting="1"' in _client(p.owner).get("/clubs/").content.decode()


def test_the_host_panel_at_a_club_table_says_who_waits_for_chips() -> None:
    from tables import services as table_services

    p = club_with_people("cr9")
    table = table_services.table_create(creator=p.host, name="Back room", small_blind=100, big_blind=200,
                                        max_seats=3, club=p.club)
    host = _client(p.host)
    assert "data-chip-requests" not in host.get(f"/tables/{table.id}/").content.decode()
    services.chips_request(club=p.club, user=p.member, amount=5000)
    page = host.get(f"/tables/{table.id}/").content.decode()
    assert 'data-chip-requests="1"' in page and "1 member asks for club chips" in page
    assert f'href="/clubs/{p.club.pk}/#chip-requests"' in page
    assert "data-chip-requests" not in _client(p.member).get(f"/tables/{table.id}/").content.decode()
