"""A table's ledger: each player's buy-ins, what they took away, what is on the table and their
net, read from the chips ledger so that it adds up; for those who may watch the table only."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from tables import selectors, services
from tables.models import Hand, Seat
from tests.tables.helpers import make_user, play_passively, seated_table


def _next_hand(table) -> None:
    """Play the hand being played out, then let its showdown pause run out: the next is dealt."""
    finished = play_passively(table)
    if finished.deadline is not None:
        services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()

pytestmark = pytest.mark.django_db


def test_the_ledger_adds_up_after_hands_top_ups_and_a_player_leaving(client: Client) -> None:
    table, users = seated_table(n=3, buy_in=1000, small_blind=10, big_blind=20)  # 10-20: raked
    for _ in range(4):
        _next_hand(table)
    leaver = users[2]
    services.table_leave_seat(table_id=table.id, user=leaver)
    _next_hand(table)  # the leaver stands up when the hand being played ends
    ledger = selectors.table_ledger(table=table)
    rows = {r["user_id"]: r for r in ledger["rows"]}
    assert set(rows) == {u.pk for u in users}
    assert sum(r["net"] for r in rows.values()) + ledger["rake"] == 0
    for u in users:
        r = rows[u.pk]
        seat = Seat.objects.filter(table=table, user=u).first()
        assert r["bought"] == 1000
        if seat is None:
            assert r["on_table"] is None and r["left"] == 1000 + r["net"]
        else:
            assert r["left"] == 0 and r["on_table"] == seat.stack == 1000 + r["net"]
    assert [r["net"] for r in ledger["rows"]] == sorted((r["net"] for r in ledger["rows"]), reverse=True)
    assert ledger["hands"] >= 5

    # A top-up between hands is bought in too.
    stayer = users[0]
    if Hand.objects.filter(table=table, ended__isnull=True).exists():
        play_passively(table)
    services.table_add_chips(table_id=table.id, user=stayer, amount=300)
    after = {r["user_id"]: r for r in selectors.table_ledger(table=table)["rows"]}[stayer.pk]
    assert after["bought"] == 1300 and after["on_table"] == Seat.objects.get(table=table, user=stayer).stack

    # The page: a row a player, the nets as signed numbers, the text for the group's chat.
    page = client.get(f"/tables/{table.id}/ledger/").content.decode()
    assert page.count('<tr data-player="') == 3
    nets = [int(n) for n in re.findall(r'data-net="(-?\d+)"', page)]
    assert sorted(nets) == sorted(r["net"] for r in selectors.table_ledger(table=table)["rows"])
    assert "data-share-text" in page and "bought in 1,000" in page
    heading = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert heading and "Patch-Patch" in heading.group(1) and "Razz" not in heading.group(1)
    # A table that dealt several games (a dealer's choice night) names them all, not only today's.
    Hand.objects.filter(table=table, number=1).update(game="FR")
    heading = re.search(r"<h1>(.*?)</h1>", client.get(f"/tables/{table.id}/ledger/").content.decode(), re.S)
    assert heading and "Patch-Patch, Razz" in heading.group(1)


def test_a_private_tables_ledger_is_for_those_who_may_watch_it(client: Client) -> None:
    host = make_user("kitchenhost")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, is_public=False)
    services.table_take_seat(table_id=table.id, user=host, buy_in=500)
    stranger = make_user("stranger")
    client.force_login(stranger)
    assert client.get(f"/tables/{table.id}/ledger/").status_code == 404
    client.force_login(host)
    page = client.get(f"/tables/{table.id}/ledger/")
    assert page.status_code == 200 and "Kitchen" in page.content.decode()
    assert client.get("/tables/999999/ledger/").status_code == 404


def test_a_player_who_left_a_private_table_still_reads_its_ledger_from_a_new_browser(client: Client) -> None:
    """The invite link a guest came by is remembered in that browser's session only; having
    bought in at the table keeps its ledger readable after they stand up (not the table)."""
    host, guest = make_user("kitchenhost2"), make_user("kitchenguest2")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, is_public=False)
    services.table_take_seat(table_id=table.id, user=guest, buy_in=500)
    services.table_leave_seat(table_id=table.id, user=guest)
    assert not Seat.objects.filter(table=table, user=guest).exists()
    client.force_login(guest)
    page = client.get(f"/tables/{table.id}/ledger/")
    assert page.status_code == 200 and "kitchenguest2" in page.content.decode()
    assert f'href="/tables/{table.id}/"' not in page.content.decode()  # no way on to the table
    assert 'href="/accounts/me/hands/"' in page.content.decode()
    assert client.get(f"/tables/{table.id}/ledger.csv").status_code == 200
    assert client.get(f"/tables/{table.id}/").status_code == 404  # the table needs the link
    assert not selectors.can_watch(table_id=table.id, user=guest)
    assert selectors.played_at(table_id=table.id, user=guest)
    client.force_login(make_user("kitchenstranger2"))
    assert client.get(f"/tables/{table.id}/ledger/").status_code == 404


def test_an_empty_table_says_nobody_played_and_the_table_page_links_its_ledger(client: Client) -> None:
    table = services.table_create(creator=None, name="Quiet", small_blind=5, big_blind=10)
    page = client.get(f"/tables/{table.id}/ledger/").content.decode()
    assert "Nobody has sat at this table yet." in page and "data-share-text" not in page
    table2, _users = seated_table(n=2)
    play_passively(table2)
    assert f'href="/tables/{table2.id}/ledger/"' in client.get(f"/tables/{table2.id}/").content.decode()
