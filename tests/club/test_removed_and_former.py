"""A removed member stays out until a host lets them back in; a declined request says so; the
hosts see what former members hold; messages say what a role change did (session 33 audit)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club import selectors, services
from club.models import JoinRequest, Membership
from club.services import ClubError
from tables import services as table_services
from tests.club.helpers import club_with_people, make_user

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _messages(res) -> list[str]:
    return [str(m) for m in res.context["messages"]]


def test_a_removed_member_cannot_walk_back_in_through_a_link() -> None:
    p = club_with_people(chips=300)
    invite = services.club_invite_create(club=p.club, by=p.host)
    services.club_remove_member(club=p.club, by=p.host, user=p.member)
    m = Membership.objects.get(club=p.club, user=p.member)
    assert not m.active and m.removed
    with pytest.raises(ClubError, match="removed you"):
        services.club_join_by_invite(code=invite.code, user=p.member)
    invite.refresh_from_db()
    assert invite.uses == 0 and not selectors.is_member(club_id=p.club.pk, user=p.member)
    # A request a host says yes to brings them back, chips and all; the mark goes.
    req = services.club_request_join(club=p.club, user=p.member, message="sorry")
    services.club_request_approve(join_request=req, by=p.host)
    m.refresh_from_db()
    assert m.active and not m.removed and m.balance == 300
    # Leaving of one's own accord is not being removed: a link brings them back.
    services.club_leave(club=p.club, user=p.member)
    assert not Membership.objects.get(club=p.club, user=p.member).removed
    assert services.club_join_by_invite(code=invite.code, user=p.member).active


def test_the_join_page_tells_a_removed_member_why_and_once() -> None:
    p = club_with_people()
    invite = services.club_invite_create(club=p.club, by=p.host)
    services.club_remove_member(club=p.club, by=p.host, user=p.member)
    c = _client(p.member)
    url = reverse("club_join", args=[invite.code])
    page = c.get(url).content.decode()
    assert "removed you from this club" in page and 'type="submit"' not in page.split("<main", 1)[-1].split("</main>")[0]
    res = c.post(url, follow=True)
    body = res.content.decode()
    assert body.count("removed you from this club") == 1, "said once, not as a message and again on the page"
    assert not selectors.is_member(club_id=p.club.pk, user=p.member)
    # The club's about page says when, and offers the request (no "join at once with a link").
    about = c.get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert "Only a host can let you back in" in about and "Ask to join" in about
    assert "With an invite link from a host you can join at once" not in about


def test_a_revoked_link_is_refused_once_on_the_page() -> None:
    p = club_with_people()
    invite = services.club_invite_create(club=p.club, by=p.host)
    newcomer = make_user("newcomer")
    c = _client(newcomer)
    url = reverse("club_join", args=[invite.code])
    assert "Join" in c.get(url).content.decode()
    services.club_invite_revoke(invite=invite, by=p.host)
    body = c.post(url, follow=True).content.decode()
    assert body.count("This invite link is not valid any more") == 1


def test_a_declined_request_is_said_and_can_be_sent_again() -> None:
    p = club_with_people()
    c = _client(p.outsider)
    req = services.club_request_join(club=p.club, user=p.outsider)
    services.club_request_decline(join_request=req, by=p.host)
    about = c.get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert "declined your request" in about and "Ask to join" in about
    # A month on, the old answer is not news any more.
    JoinRequest.objects.filter(pk=req.pk).update(decided=timezone.now() - dt.timedelta(days=31))
    assert "declined your request" not in c.get(reverse("club_home", args=[p.club.pk])).content.decode()
    # A new request replaces the notice with "waiting".
    JoinRequest.objects.filter(pk=req.pk).update(decided=timezone.now())
    services.club_request_join(club=p.club, user=p.outsider)
    about = c.get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert "declined your request" not in about and "is with the club" in about


def test_hosts_see_former_members_chips_and_their_statements() -> None:
    p = club_with_people(chips=400)
    gone = make_user("gil")
    Membership.objects.create(club=p.club, user=gone)
    services.club_chips_grant(club=p.club, by=p.owner, user=gone, amount=250, reason="start")
    services.club_leave(club=p.club, user=gone)
    services.club_remove_member(club=p.club, by=p.host, user=p.member)
    page = _client(p.host).get(reverse("club_members", args=[p.club.pk])).content.decode()
    former = page.split("Former members", 1)[1]
    assert 'data-former="Gil"' in former and 'data-former="Misha"' in former
    assert "left " in former and "removed " in former and "250" in former
    members = sum(m.balance for m in Membership.objects.filter(club=p.club, active=True))
    assert f"Club chips held by members: <span class=\"num\" dir=\"ltr\">{members:,}</span>" in page
    assert "by former members: <span class=\"num\" dir=\"ltr\">650</span>" in page  # 400 + 250
    ledger = _client(p.host).get(reverse("club_ledger", args=[p.club.pk])).content.decode()
    group = ledger.split('<optgroup label="Former members">', 1)[1].split("</optgroup>", 1)[0]
    assert f'value="{gone.pk}"' in group and f'value="{p.member.pk}"' in group
    # A plain member sees no former members.
    plain = make_user("plain")
    Membership.objects.create(club=p.club, user=plain)
    assert "Former members" not in _client(plain).get(reverse("club_members", args=[p.club.pk])).content.decode()


def test_role_changes_say_what_they_did() -> None:
    p = club_with_people()
    owner = _client(p.owner)
    url = reverse("club_member_role", args=[p.club.pk, p.member.pk])
    said = " ".join(_messages(owner.post(url, {"role": "host"}, follow=True)))
    assert "is a host now" in said
    said = " ".join(_messages(owner.post(url, {"role": "member"}, follow=True)))
    assert "no longer a host" in said
    said = " ".join(_messages(owner.post(url, {"role": "owner", "sure": "yes"}, follow=True)))
    assert "owns the club now" in said and "one of its hosts" in said
    assert Membership.objects.get(club=p.club, user=p.member).role == "owner"


def test_a_host_short_of_club_chips_is_sent_to_the_members_page() -> None:
    p = club_with_people(chips=0)
    table = table_services.table_create(creator=p.host, name="T", small_blind=5, big_blind=10, club=p.club)
    host_page = _client(p.host).get(reverse("table", args=[table.id])).content.decode()
    assert "As a host you can give yourself chips" in host_page
    assert reverse("club_members", args=[p.club.pk]) in host_page
    member_page = _client(p.member).get(reverse("table", args=[table.id])).content.decode()
    assert "A host can give you chips" in member_page and "As a host" not in member_page


def test_the_owner_changes_the_clubs_settings_and_nobody_else_can() -> None:
    p = club_with_people()
    url = reverse("club_settings", args=[p.club.pk])
    owner = _client(p.owner)
    page = owner.get(url).content.decode()
    assert 'value="Thursday Club"' in page and 'aria-current="page">Settings<' in page
    res = owner.post(url, {"name": "  Friday Club ", "description": "Now on Fridays", "language": "ru",
                           "default_game": "NT", "default_speed": "fast"}, follow=True)
    assert "settings are saved" in " ".join(_messages(res))
    p.club.refresh_from_db()
    assert (p.club.name, p.club.description, p.club.language, p.club.default_game, p.club.default_speed) == (
        "Friday Club", "Now on Fridays", "ru", "NT", "fast")
    # Bad input: said, nothing changed.
    for bad in ({"name": ""}, {"name": "x" * 61}, {"language": "fr"}, {"default_game": "ZZ"}, {"default_speed": "warp"}):
        data = {"name": "Other", "description": "", "language": "en", "default_game": "PP", "default_speed": "slow", **bad}
        res = owner.post(url, data)
        body = res.content.decode()
        assert res.status_code == 200 and ("field--error" in body or "errorlist" in body), bad
    p.club.refresh_from_db()
    assert p.club.name == "Friday Club" and p.club.language == "ru"
    # Hosts and members: 403; outsiders and anonymous visitors: not found / log in.
    for who in (p.host, p.member):
        assert _client(who).get(url).status_code == 403
        assert _client(who).post(url, {"name": "Hijacked", "language": "en", "default_game": "PP",
                                        "default_speed": "slow"}).status_code == 403
        assert "Settings<" not in _client(who).get(reverse("club_home", args=[p.club.pk])).content.decode()
    assert _client(p.outsider).get(url).status_code == 404
    assert Client().get(url).status_code == 302
    p.club.refresh_from_db()
    assert p.club.name == "Friday Club"
    with pytest.raises(services.NotAllowed):
        services.club_update(club=p.club, by=p.host, name="Hijacked")
    # The language is shown to whoever is invited.
    invite = services.club_invite_create(club=p.club, by=p.owner)
    assert "Club language: <bdi>Русский</bdi>" in Client().get(reverse("club_join", args=[invite.code])).content.decode()
    assert "Club language: <bdi>Русский</bdi>" in _client(p.outsider).get(reverse("club_home", args=[p.club.pk])).content.decode()


def test_a_club_made_by_mistake_can_be_deleted_and_no_other() -> None:
    founder = make_user("founder")
    trial = services.club_create(user=founder, name="xxx")
    services.club_invite_create(club=trial, by=founder)
    c = _client(founder)
    page = c.get(reverse("club_settings", args=[trial.pk])).content.decode()
    assert reverse("club_delete", args=[trial.pk]) in page
    res = c.post(reverse("club_delete", args=[trial.pk]), follow=True)
    assert "xxx is deleted" in " ".join(_messages(res))
    assert not Membership.objects.filter(club_id=trial.pk).exists()
    # A club someone joined (even if they left), or where chips moved, or with a table, stays.
    p = club_with_people()
    assert reverse("club_delete", args=[p.club.pk]) not in _client(p.owner).get(
        reverse("club_settings", args=[p.club.pk])).content.decode()
    res = _client(p.owner).post(reverse("club_delete", args=[p.club.pk]), follow=True)
    assert "can be deleted" in " ".join(_messages(res))
    alone = services.club_create(user=founder, name="chips")
    services.club_chips_grant(club=alone, by=founder, user=founder, amount=5, reason="me")
    with pytest.raises(ClubError):
        services.club_delete(club=alone, by=founder)
    tabled = services.club_create(user=founder, name="tabled")
    table_services.table_create(creator=founder, name="T", small_blind=5, big_blind=10, club=tabled)
    with pytest.raises(ClubError):
        services.club_delete(club=tabled, by=founder)
    # Nobody but the owner deletes.
    lone = services.club_create(user=founder, name="lone")
    assert _client(p.member).post(reverse("club_delete", args=[lone.pk])).status_code == 404
    with pytest.raises(services.NotAllowed):
        services.club_delete(club=lone, by=p.owner)
    assert Membership.objects.filter(club=lone).exists()
