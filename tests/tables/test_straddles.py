"""Straddles at a hosted table: the host allows them, a player turns on "Straddle", and whenever
that player sits left of the big blind in no-limit or pot-limit Hold'em or Omaha (three players or
more) the hand is dealt with their straddle of twice the big blind (rules_engine.games.flop)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tables import hosting, services
from tables.models import Hand, Seat, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, play_passively
from tests.tables.test_post_big_blind import _html, _say

pytestmark = pytest.mark.django_db


def _hosted(game: str = "NT", players: int = 4, allow: bool = True, straddlers: Any = "all",
            stacks: int = 1000) -> tuple[Table, list]:
    host = make_user(f"shost{game}{players}{allow}")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, game=game,
                                  max_seats=6 if game != "PP" else 3, is_public=False)
    services.table_pause(table_id=table.id, now=True)
    users = [host] + [make_user(f"sguest{table.id}_{i}") for i in range(players - 1)]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=stacks)
    if allow:
        hosting.table_host_straddles(table_id=table.id, by=host, on=True)
    for i, u in enumerate(users):
        if straddlers == "all" or i in straddlers:
            _say(table, u, "straddle_on")
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    return table, users


def _next(table: Table) -> Hand:
    finished = play_passively(table)
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    return finished


def _straddler(table: Table) -> int | None:
    """The table seat number that straddled the current hand, or None."""
    hand, state = current_state(table)
    seat = [e.seat for e in state.start_events if e.kind == "straddle"]
    return hand.players[seat[0]][0] if seat else None


def test_the_seat_left_of_the_big_blind_straddles_when_it_asked_to() -> None:
    table, users = _hosted()
    hand, state = current_state(table)
    assert state.setup.straddle == 20
    seats = [p[0] for p in hand.players]
    assert _straddler(table) == seats[(state.button + 3) % 4]
    assert state.bets[(state.button + 3) % 4] == 20 and state.pot == 35
    assert state.to_act == state.button  # four players: the button is left of the straddler
    # Every viewer's seat list says who straddled, until that player acts.
    assert '<span class="seat__act">straddle</span>' in _html(table, users[0])
    chips = sum(int(s.stack) for s in Seat.objects.filter(table=table)) + state.pot
    finished = _next(table)
    # The straddle moves on with the button, to the next seat round the table.
    assert _straddler(table) == seats[(state.button + 4) % 4]
    hand2, state2 = current_state(table)
    assert sum(int(s.stack) for s in Seat.objects.filter(table=table)) + state2.pot == chips
    # The hand's page tells it, and its history writes it as p3's forced bet.
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("hand_history", args=[table.id, finished.number])).content.decode()
    assert ": straddle 20" in page
    phh = client.get(reverse("hand_history_phh", args=[table.id, finished.number])).content.decode()
    assert "blinds_or_straddles = [5, 10, 20, 0]" in phh


def test_only_a_player_who_turned_it_on_straddles() -> None:
    table, users = _hosted(straddlers=())
    assert current_state(table)[1].setup.straddle == 0
    seen = set()
    straddler = users[1]
    _say(table, straddler, "straddle_on")
    for _hand in range(5):
        _next(table)
        who = _straddler(table)
        seen.add(who)
        hand, state = current_state(table)
        utg = hand.players[(state.button + 3) % 4][0]
        mine = Seat.objects.get(table=table, user=straddler).seat_no
        assert who == (mine if utg == mine else None)
    assert seen == {None, Seat.objects.get(table=table, user=straddler).seat_no}
    # Turned off, it stays off.
    _say(table, straddler, "straddle_off")
    for _hand in range(4):
        _next(table)
        assert _straddler(table) is None


def test_three_handed_the_button_straddles_and_heads_up_nobody_does() -> None:
    table, users = _hosted(players=3)
    hand, state = current_state(table)
    assert _straddler(table) == hand.players[state.button][0]
    assert state.to_act == state.small_blind_seat
    two, _users = _hosted(players=2)
    assert current_state(two)[1].setup.straddle == 0


def test_a_short_stack_does_not_straddle() -> None:
    table, users = _hosted(stacks=1000)
    hand, state = current_state(table)
    utg = (state.button + 3) % 4
    # Play the hand out, then leave the next straddler with 2 big blinds or less.
    play_passively(table)
    nxt = hand.players[(state.button + 4) % 4][0]
    Seat.objects.filter(table=table, seat_no=nxt).update(stack=20)
    finished = Hand.objects.filter(table=table).order_by("-number").first()
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    assert utg != (state.button + 4) % 4
    assert current_state(table)[1].setup.straddle == 0


def test_the_player_turns_it_on_and_off_from_the_table_and_sees_it() -> None:
    table, users = _hosted(straddlers=())
    me = users[2]
    page = _html(table, me)
    assert 'data-action="straddle_on" aria-pressed="false"' in page and ">Straddle<" in page
    _say(table, me, "straddle_on")
    assert Seat.objects.get(table=table, user=me).straddle
    page = _html(table, me)
    assert 'data-action="straddle_off" aria-pressed="true"' in page
    _say(table, me, "straddle_off")
    assert not Seat.objects.get(table=table, user=me).straddle


def test_without_the_hosts_leave_nobody_straddles_and_the_button_is_not_there() -> None:
    table, users = _hosted(allow=False, straddlers=())
    assert "act--straddle" not in _html(table, users[1])
    version = Table.objects.get(pk=table.id).version
    with pytest.raises(TableError, match="does not play straddles"):
        _say(table, users[1], "straddle_on")
    assert Table.objects.get(pk=table.id).version == version
    assert not Seat.objects.get(table=table, user=users[1]).straddle


def test_the_host_stops_straddles_and_the_next_hand_has_none() -> None:
    table, users = _hosted()
    assert current_state(table)[1].setup.straddle == 20
    host = users[0]
    hosting.table_host_straddles(table_id=table.id, by=host, on=False)
    assert current_state(table)[1].setup.straddle == 20  # the hand being played keeps its own
    _next(table)
    assert current_state(table)[1].setup.straddle == 0
    assert "act--straddle" not in _html(table, users[1])
    # The seats keep their wish for when the host allows them again.
    assert Seat.objects.get(table=table, user=users[1]).straddle


def test_only_a_host_decides_and_public_tables_have_none() -> None:
    table, users = _hosted(allow=False, straddlers=())
    with pytest.raises(TableError):
        hosting.table_host_straddles(table_id=table.id, by=users[1], on=True)
    assert not Table.objects.get(pk=table.id).straddles
    public = services.table_create(creator=None, name="Lobby", small_blind=5, big_blind=10, game="NT",
                                   max_seats=6, is_public=True)
    with pytest.raises(TableError):
        hosting.table_host_straddles(table_id=public.id, by=users[0], on=True)


def test_the_host_panel_form_and_bad_input() -> None:
    table, users = _hosted(allow=False, straddlers=())
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("table", args=[table.id])).content.decode()
    assert "hostpanel__straddles" in page and "Allow straddles" in page
    assert "<span data-table-straddles hidden>" in page  # the header names straddles only when they are on
    assert 'data-straddles="off"' in page
    url = reverse("table_host_straddles", args=[table.id])
    for bad in ({}, {"on": "yes"}, {"on": "2"}):
        response = client.post(url, bad, follow=True)
        assert "Say whether straddles are allowed." in response.content.decode()
        assert not Table.objects.get(pk=table.id).straddles
    response = client.post(url, {"on": "1"}, follow=True)
    assert "Players may straddle from the next hand." in response.content.decode()
    assert Table.objects.get(pk=table.id).straddles
    assert "Stop straddles" in response.content.decode()
    assert "<span data-table-straddles>" in response.content.decode()  # the header says so
    assert 'data-straddles="on"' in response.content.decode()  # and the picture, for the others' headers
    # A guest's post changes nothing.
    guest = Client()
    guest.force_login(users[1])
    guest.post(url, {"on": "0"})
    assert Table.objects.get(pk=table.id).straddles


@pytest.mark.parametrize("game", ["FT", "PP"])
def test_games_without_a_straddle_deal_none(game: str) -> None:
    table, users = _hosted(game=game, players=3, straddlers=())
    assert not services.straddles_on(table)
    with pytest.raises(TableError, match="does not play straddles"):
        _say(table, users[1], "straddle_on")
    assert "act--straddle" not in _html(table, users[1])
    client = Client()
    client.force_login(users[0])
    assert "The game dealt now has no straddle." in client.get(reverse("table", args=[table.id])).content.decode()


def test_a_table_is_opened_with_straddles_allowed() -> None:
    creator = make_user("opener")
    client = Client()
    client.force_login(creator)
    form = {"name": "Late game", "game": "NT", "stakes": "5-10", "speed": "medium", "max_seats": "6",
            "straddles": "on"}
    client.post(reverse("table_new"), {**form, "visibility": "private"})
    private = Table.objects.get(name="Late game", is_public=False)
    assert private.straddles
    client.post(reverse("table_new"), {**form, "name": "Lobby game", "visibility": "public"})
    assert not Table.objects.get(name="Lobby game").straddles  # public tables play without
    client.post(reverse("table_new"), {**form, "name": "Plain game", "visibility": "private", "straddles": ""})
    assert not Table.objects.get(name="Plain game").straddles
    assert "Straddles allowed" in client.get(reverse("table_new")).content.decode()
