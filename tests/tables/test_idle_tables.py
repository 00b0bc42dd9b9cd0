"""A public table a player opened and left empty for a day closes by itself, so the lobby keeps
to tables in use; the site's own tables, private and club tables, and any table with someone
seated or a recent hand stay open."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from club import services as club_services
from tables import selectors, services
from tables.models import Hand, Table
from tests.tables.helpers import make_user, play_passively, seated_table

pytestmark = pytest.mark.django_db


def _table(creator, name: str, age_hours: float, **kwargs) -> Table:
    table = services.table_create(creator=creator, name=name, small_blind=5, big_blind=10, **kwargs)
    Table.objects.filter(id=table.id).update(created=timezone.now() - dt.timedelta(hours=age_hours))
    return table


def test_only_empty_public_tables_players_opened_a_day_ago_close() -> None:
    opener = make_user("opener")
    stale = _table(opener, "Left behind", 30)
    fresh = _table(opener, "Opened today", 2)
    ladder = _table(None, "The site's own", 30)
    private = _table(opener, "Kitchen", 30, is_public=False)
    club = club_services.club_create(user=opener, name="Idle club")
    club_table = _table(opener, "Club night", 30, club=club, is_public=False)
    occupied = _table(opener, "Someone sits", 30)
    services.table_take_seat(table_id=occupied.id, user=make_user("sitter"), buy_in=500)
    version = stale.version

    assert services.close_idle_public_tables() == 1
    status = dict(Table.objects.values_list("name", "status"))
    assert status["Left behind"] == Table.Status.CLOSED
    for name in ("Opened today", "The site's own", "Kitchen", "Club night", "Someone sits"):
        assert status[name] == Table.Status.OPEN, name
    stale.refresh_from_db()
    assert stale.version > version  # the open pages of it hear that it closed
    assert stale.id not in {t.id for t in selectors.lobby_tables()}
    assert {fresh.id, ladder.id, occupied.id} <= {t.id for t in selectors.lobby_tables()}
    assert {private.id, club_table.id}.isdisjoint(t.id for t in selectors.lobby_tables())
    # Nothing more to close the next time round.
    assert services.close_idle_public_tables() == 0


def test_a_table_played_on_recently_stays_and_its_hands_outlive_its_closing(client) -> None:
    table, users = seated_table(n=2)
    opener = users[0]
    Table.objects.filter(id=table.id).update(created_by=opener, created=timezone.now() - dt.timedelta(days=3))
    hand = play_passively(table)
    for u in users:
        services.table_leave_seat(table_id=table.id, user=u)
    table.refresh_from_db()
    assert not table.seats.exists()
    # The last hand was an hour ago: the table stays.
    Hand.objects.filter(table=table).update(started=timezone.now() - dt.timedelta(hours=1))
    assert services.close_idle_public_tables() == 0
    # A day and more: it closes, and its hands can still be read.
    Hand.objects.filter(table=table).update(started=timezone.now() - dt.timedelta(hours=25))
    assert services.close_idle_public_tables() == 1
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    page = client.get(f"/tables/{table.id}/hands/{hand.number}/")
    assert page.status_code == 200


def test_a_closed_tables_page_says_so_and_offers_no_seat(client) -> None:
    opener = make_user("closer")
    table = _table(opener, "Gone quiet", 30)
    services.close_idle_public_tables()
    watcher = make_user("latecomer")
    client.force_login(watcher)
    page = client.get(f"/tables/{table.id}/").content.decode()
    assert page.count("This table is closed.") == 2  # on the felt, and where the sit form was
    assert 'class="sit"' not in page and "Waiting for players" not in page
    answer = client.post(f"/tables/{table.id}/sit/", {"buy_in": "500"}, follow=True).content.decode()
    assert "This table is closed." in answer and not table.seats.exists()


def test_a_players_public_tables_have_their_own_names_and_a_few_at_once() -> None:
    """Found by an audit: one new player opened six public tables named "Spam table" in a row, all
    in the lobby. A player's public table needs a name no open public table has, and a player
    keeps at most MAX_OPEN_PUBLIC_TABLES open; private tables and the site's own are not limited."""
    ann, bo = make_user("lobby-ann"), make_user("lobby-bo")
    first = services.table_create(creator=ann, name="Corner", small_blind=10, big_blind=20)
    with pytest.raises(services.TableError, match="already has a table called corner"):
        services.table_create(creator=bo, name="corner", small_blind=10, big_blind=20)
    services.table_create(creator=bo, name="corner", small_blind=10, big_blind=20, is_public=False)
    services.table_create(creator=None, name="Corner", small_blind=10, big_blind=20)  # the site's own
    for n in range(services.MAX_OPEN_PUBLIC_TABLES - 1):
        services.table_create(creator=ann, name=f"Ann {n}", small_blind=10, big_blind=20)
    with pytest.raises(services.TableError, match=f"already have {services.MAX_OPEN_PUBLIC_TABLES} public tables"):
        services.table_create(creator=ann, name="One more", small_blind=10, big_blind=20)
    assert Table.objects.filter(created_by=ann).count() == services.MAX_OPEN_PUBLIC_TABLES
    Table.objects.filter(pk=first.pk).update(status=Table.Status.CLOSED)  # an empty one closed
    services.table_create(creator=ann, name="Corner 2", small_blind=10, big_blind=20)
