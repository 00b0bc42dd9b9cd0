"""A private table's host is whoever opened it: they pause, resume, sit a player out and close it,
from the same panel a club host has; nobody else at the table can, and a public table has no host."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Profile
from tables import hosting, services
from tables.models import Seat, Table
from tables.services import TableError
from tests.tables.helpers import make_user, play_passively

pytestmark = pytest.mark.django_db


def _private(n: int = 2) -> tuple[Table, Any, list[Any]]:
    """A private table opened by its host, who sits with ``n - 1`` friends."""
    host = make_user("kitchen-host")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, max_seats=3, is_public=False)
    services.table_pause(table_id=table.id, now=True)
    friends = [make_user(f"friend{i}") for i in range(n - 1)]
    for u in (host, *friends):
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000)
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    return table, host, friends


def test_the_creator_hosts_a_private_table_and_nobody_else_does() -> None:
    table, host, friends = _private(3)
    assert hosting.hosts(table=table, user=host)
    assert not any(hosting.hosts(table=table, user=f) for f in friends)
    for who in (*friends, make_user("stranger"), None):
        for call in (hosting.table_host_pause, hosting.table_host_resume, hosting.table_host_close):
            with pytest.raises(TableError):
                call(table_id=table.id, by=who)
        with pytest.raises(TableError):
            hosting.table_host_sit_out(table_id=table.id, by=who, user_id=host.pk)
    table.refresh_from_db()
    assert table.status == "open" and not table.pause_after_hand and not table.close_after_hand
    # A public table has no host, not even whoever opened it.
    public = services.table_create(creator=host, name="Open", small_blind=5, big_blind=10, max_seats=3, is_public=True)
    assert not hosting.hosts(table=public, user=host)
    with pytest.raises(TableError):
        hosting.table_host_pause(table_id=public.id, by=host)


def test_the_host_pauses_sits_a_friend_out_and_closes_with_every_chip_home() -> None:
    table, host, friends = _private(3)
    hosting.table_host_pause(table_id=table.id, by=host)
    hosting.table_host_sit_out(table_id=table.id, by=host, user_id=friends[0].pk)
    assert Seat.objects.get(table=table, user=friends[0]).break_next
    play_passively(table)
    table.refresh_from_db()
    assert table.status == "paused"
    hosting.table_host_resume(table_id=table.id, by=host)
    table.refresh_from_db()
    assert table.status == "open"
    stacks = {s.user_id: int(s.stack) for s in Seat.objects.filter(table=table)}
    before = {u.pk: int(Profile.objects.get(user=u).bankroll) for u in (host, *friends)}
    hosting.table_host_close(table_id=table.id, by=host)
    table.refresh_from_db()
    if table.status != "closed":  # the resume dealt a hand: it closes after it
        play_passively(table)
        table.refresh_from_db()
        stacks = None
    assert table.status == "closed" and not Seat.objects.filter(table=table).exists()
    after = {u.pk: int(Profile.objects.get(user=u).bankroll) for u in (host, *friends)}
    assert sum(after.values()) == sum(before.values()) + (sum(stacks.values()) if stacks else 3000)
    if stacks:
        assert all(after[u] == before[u] + stacks[u] for u in stacks)


def test_the_panel_is_on_the_hosts_page_and_its_buttons_work() -> None:
    table, host, friends = _private(2)
    client, friend = Client(), Client()
    client.force_login(host)
    friend.force_login(friends[0])
    page = client.get(reverse("table", args=[table.id])).content.decode()
    assert 'id="host-panel"' in page and "Sit a player out" in page and friends[0].username in page.lower()
    # The friend has no panel, and the buttons' addresses refuse them with a reason.
    invite = f"?invite={table.invite_code}"
    assert 'id="host-panel"' not in friend.get(reverse("table", args=[table.id]) + invite).content.decode()
    friend.get(reverse("table", args=[table.id]) + invite)  # the invite link lets them watch
    refused = friend.post(reverse("table_host_action", args=[table.id, "pause"]), follow=True).content.decode()
    assert "Only whoever opened this table" in refused
    table.refresh_from_db()
    assert not table.pause_after_hand
    # The host's buttons: pause after this hand, then close, which sends the host to the lobby.
    client.post(reverse("table_host_action", args=[table.id, "pause"]))
    table.refresh_from_db()
    assert table.pause_after_hand
    play_passively(table)
    closed = client.post(reverse("table_host_action", args=[table.id, "close"]))
    assert closed.status_code == 302 and closed["Location"] == reverse("lobby")
    table.refresh_from_db()
    assert table.status == "closed"
    # A public table's host buttons do not exist.
    public = services.table_create(creator=host, name="Open", small_blind=5, big_blind=10, max_seats=3, is_public=True)
    assert client.post(reverse("table_host_action", args=[public.id, "pause"])).status_code == 404


def test_the_host_stands_a_player_up_and_their_chips_go_home() -> None:
    from tables.services import _current_hand

    table, host, friends = _private(3)
    quiet, other = friends
    client = Client()
    client.force_login(host)
    page = client.get(reverse("table", args=[table.id])).content.decode()
    # The panel offers the others, not the host.
    options = page.split('id="stand-up-who"', 1)[1].split("</select>", 1)[0]
    assert quiet.username in options.lower() and host.username not in options.lower()
    # A friend cannot; the host can. In a hand the seat goes when the hand ends.
    with pytest.raises(TableError):
        hosting.table_host_stand_up(table_id=table.id, by=other, user_id=quiet.pk)
    assert _current_hand(table) is not None
    bankroll = int(Profile.objects.get(user=quiet).bankroll)
    done = client.post(reverse("table_host_stand_up", args=[table.id]), {"user": str(quiet.pk)}, follow=True).content.decode()
    assert "leaves the table when this hand ends" in done
    assert Seat.objects.get(table=table, user=quiet).leaving
    play_passively(table)
    assert not Seat.objects.filter(table=table, user=quiet).exists()
    stack_back = int(Profile.objects.get(user=quiet).bankroll) - bankroll
    assert stack_back > 0
    # Between hands the seat goes at once; a player with no seat, or junk, is refused.
    hosting.table_host_pause(table_id=table.id, by=host)
    table.refresh_from_db()
    before = int(Profile.objects.get(user=other).bankroll)
    stack = int(Seat.objects.get(table=table, user=other).stack)
    assert _current_hand(table) is None
    assert hosting.table_host_stand_up(table_id=table.id, by=host, user_id=other.pk)
    assert int(Profile.objects.get(user=other).bankroll) == before + stack
    with pytest.raises(TableError, match="no seat"):
        hosting.table_host_stand_up(table_id=table.id, by=host, user_id=quiet.pk)
    junk = client.post(reverse("table_host_stand_up", args=[table.id]), {"user": "x"}, follow=True).content.decode()
    assert "Choose a player." in junk
    # A digit to Python that int() refuses, and an id no database column holds (fuzzing's finds:
    # both were a server error).
    for odd in ("²", "9" * 30):
        for name in ("table_host_stand_up", "table_host_sit_out"):
            res = client.post(reverse(name, args=[table.id]), {"user": odd}, follow=True)
            assert res.status_code == 200 and "Choose a player." in res.content.decode()
