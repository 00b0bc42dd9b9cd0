"""The live table's websocket at a club table (members in, everyone else refused), the admin
pages of every club and table model, and the examples in the club code's docstrings."""

from __future__ import annotations

import doctest
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from config.asgi import application
from tables import services as table_services
from tests.club.helpers import club_with_people


def _cookie_for(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def _open(table_id: int, user: Any = None, query: str = "") -> tuple[bool, WebsocketCommunicator]:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(_cookie_for)(user)))
    path = f"/ws/tables/{table_id}/" + (f"?{query}" if query else "")
    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await comm.connect()
    return connected, comm


@pytest.mark.django_db(transaction=True)
async def test_club_table_socket_lets_members_in_and_refuses_everyone_else() -> None:
    p = await database_sync_to_async(club_with_people)(chips=1000)
    table = await database_sync_to_async(table_services.table_create)(
        creator=p.host, name="Socket", small_blind=5, big_blind=10, club=p.club,
    )
    for user in (p.owner, p.host, p.member):
        connected, comm = await _open(table.id, user)
        assert connected
        snap = json.loads(await comm.receive_from(timeout=3))
        assert snap["type"] == "state" and snap["version"] == table.version
        await comm.disconnect()
    # An outsider, an anonymous visitor, and an outsider holding the table's own invite code.
    for user, query in ((p.outsider, ""), (None, ""), (p.outsider, f"invite={table.invite_code}")):
        connected, comm = await _open(table.id, user, query)
        assert not connected
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_removed_member_loses_the_live_table_at_once() -> None:
    from club import services as club_services

    p = await database_sync_to_async(club_with_people)(chips=1000)
    table = await database_sync_to_async(table_services.table_create)(
        creator=p.host, name="Removal", small_blind=5, big_blind=10, club=p.club,
    )
    _ok, leaving = await _open(table.id, p.member)
    _ok2, staying = await _open(table.id, p.host)
    for comm in (leaving, staying):
        assert json.loads(await comm.receive_from(timeout=3))["type"] == "state"
    await database_sync_to_async(club_services.club_remove_member)(club=p.club, by=p.host, user=p.member)
    said = json.loads(await leaving.receive_from(timeout=3))
    assert said["type"] == "error" and "no longer a member" in said["message"]
    closed = await leaving.receive_output(timeout=3)
    assert closed == {"type": "websocket.close", "code": 4403}
    # The host's socket stays open and hears nothing about it.
    assert await staying.receive_nothing(timeout=0.3)
    await staying.disconnect()


@pytest.mark.django_db
def test_admin_lists_and_searches_every_club_and_table_model() -> None:
    p = club_with_people(chips=100)
    table_services.table_create(creator=p.host, name="Admin", small_blind=5, big_blind=10, club=p.club)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "root-pass-2026")
    c = Client()
    c.force_login(admin)
    models = ["club_club", "club_membership", "club_clubinvite", "club_joinrequest", "club_chiprequest", "club_clubsession",
              "club_clubsessionresult", "club_clubsessionhand", "club_ledgerentry", "club_profile",
              "tables_table", "tables_seat", "tables_hand", "tables_seatrequest"]
    for name in models:
        url = reverse(f"admin:{name}_changelist")
        assert c.get(url).status_code == 200, url
        assert c.get(url, {"q": "olga"}).status_code == 200, url
    assert c.get(reverse("admin:club_club_change", args=[p.club.pk])).status_code == 200


def test_docstring_examples() -> None:
    from club import selectors
    from tables import services

    assert doctest.testmod(selectors).failed == 0
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    for test in finder.find(services.club_hand_results, "club_hand_results", globs={"club_hand_results": services.club_hand_results}):
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 0


@pytest.mark.django_db
def test_seed_demo_makes_one_demo_club(monkeypatch: pytest.MonkeyPatch) -> None:
    from io import StringIO

    monkeypatch.delenv("DATABASE_URL", raising=False)

    from django.core.management import call_command

    from club.models import Club, Membership
    from tables.models import Table

    out = StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=StringIO())
    club = Club.objects.get(name="Thursday Club")
    roles = dict(Membership.objects.filter(club=club).values_list("user__username", "role"))
    assert roles == {"alice": "owner", "bob": "host", "carol": "member"}
    assert set(Membership.objects.filter(club=club).values_list("balance", flat=True)) == {10_000}
    assert Table.objects.filter(club=club).count() == 1
    assert f"/clubs/{club.pk}/" in out.getvalue()


@pytest.mark.django_db(transaction=True)
async def test_a_new_invite_link_closes_the_sockets_that_came_by_the_old_one() -> None:
    from tables import hosting
    from tests.tables.helpers import make_user

    host = await database_sync_to_async(make_user)("linkhost")
    player = await database_sync_to_async(make_user)("linkplayer")
    table = await database_sync_to_async(table_services.table_create)(
        creator=host, name="Leaked", small_blind=5, big_blind=10, is_public=False, game="NT", max_seats=6)
    await database_sync_to_async(table_services.table_take_seat)(table_id=table.id, user=player, buy_in=500)
    # One socket at a time, the logged-in one first: logging in writes to the database, which the
    # tests' shared in-memory SQLite refuses while another thread reads it.
    _ok, seated = await _open(table.id, player)
    assert _ok and json.loads(await seated.receive_from(timeout=3))["type"] == "state"
    _ok2, watcher = await _open(table.id, None, f"invite={table.invite_code}")
    assert _ok2 and json.loads(await watcher.receive_from(timeout=3))["type"] == "state"
    code = await database_sync_to_async(hosting.table_host_new_invite)(table_id=table.id, by=host)
    assert code != table.invite_code
    said = json.loads(await watcher.receive_from(timeout=3))
    assert said["type"] == "error" and "new invite link" in said["message"]
    assert await watcher.receive_output(timeout=3) == {"type": "websocket.close", "code": 4403}
    # The seated player's socket stays open and hears nothing about it.
    assert await seated.receive_nothing(timeout=0.3)
    await seated.disconnect()
    connected, again = await _open(table.id, None, f"invite={code}")  # the new link opens it
    assert connected
    await again.disconnect()


def test_seed_demo_prints_addresses_people_can_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by an audit: with `make run HOST=0.0.0.0` every printed link was http://0.0.0.0:...,
    which no phone (and no browser on the laptop) opens."""
    from tables.management.commands import seed_demo

    monkeypatch.setattr("config.lan.lan_address", lambda: "192.168.1.20")
    base, friends = seed_demo._for_people("http://0.0.0.0:8003")
    assert base == "http://127.0.0.1:8003" and "http://192.168.1.20:8003/" in friends
    base, friends = seed_demo._for_people("http://127.0.0.1:8000")
    assert base == "http://127.0.0.1:8000" and "make run HOST=0.0.0.0" in friends
    monkeypatch.setattr("config.lan.lan_address", lambda: None)
    assert "only this computer" in seed_demo._for_people("http://0.0.0.0:8000")[1]
    assert seed_demo._for_people("https://poker.example.org") == ("https://poker.example.org", "")
