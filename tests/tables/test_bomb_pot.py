"""Bomb pots at a hosted table: the host asks for one, the next Hold'em or Omaha hand is dealt
with everyone putting the same amount in, no blinds, and the flop at once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from rules_engine.games import get_variant
from rules_engine.notation import parse_phh
from tables import hosting, selectors, services
from tables.models import Seat, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, play_passively
from tests.tables.test_post_big_blind import _html
from tests.tables.test_table_fragment import _same

pytestmark = pytest.mark.django_db


def _hosted(game: str = "NT", players: int = 3) -> tuple[Table, list]:
    host = make_user(f"bohost{game}{players}")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, game=game,
                                  max_seats=6, is_public=False)
    services.table_pause(table_id=table.id, now=True)
    users = [host] + [make_user(f"boguest{table.id}_{i}") for i in range(players - 1)]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000)
    table.refresh_from_db()
    return table, users


def _next(table: Table) -> None:
    finished = play_passively(table)
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()


def test_the_host_asks_for_a_bomb_pot_and_the_next_hand_is_one() -> None:
    table, users = _hosted()
    hosting.table_host_bomb(table_id=table.id, by=users[0], big_blinds=3)
    table.refresh_from_db()
    assert table.bomb_next_bb == 3
    # Everyone is told before it is dealt.
    assert "Next hand: a bomb pot, 30 from everyone, the flop at once." in _html(table, users[1])
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    hand, state = current_state(table)
    assert state.setup.bomb == 30 and state.phase == "flop" and state.pot == 90
    assert not [e for e in state.start_events if e.kind in ("blind", "straddle")]
    assert table.bomb_next_bb == 0  # one hand only
    for user in users:
        html = _html(table, user)
        assert '<span class="pot__bomb">Bomb pot</span>' in html and "next-bomb" not in html
        _same(selectors.table_context(table_id=table.id, user=user))
    chips = sum(int(s.stack) for s in Seat.objects.filter(table=table))
    finished = play_passively(table)
    assert sum(int(s.stack) for s in Seat.objects.filter(table=table)) == chips
    client = Client()
    client.force_login(users[1])
    page = client.get(reverse("hand_history", args=[table.id, finished.number])).content.decode()
    assert ": bomb pot 30" in page
    phh = client.get(reverse("hand_history_phh", args=[table.id, finished.number])).content.decode()
    assert "_bomb_pot = 30" in phh
    parsed = parse_phh(phh)
    assert parsed.setup.bomb == 30 and parsed.state.stacks == get_variant("NT").from_json(finished.state).stacks
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    # The next hand has its blinds again, the button moved on.
    hand2, state2 = current_state(table)
    assert state2.setup.bomb == 0 and state2.small_blind_seat is not None
    assert hand2.players[state2.button][0] != hand.players[state.button][0]


def test_the_host_calls_it_off_and_bad_choices_change_nothing() -> None:
    table, users = _hosted()
    hosting.table_host_bomb(table_id=table.id, by=users[0], big_blinds=2)
    for bad in (4, -1, "2", None, 100):
        with pytest.raises(TableError, match="Choose a bomb pot"):
            hosting.table_host_bomb(table_id=table.id, by=users[0], big_blinds=bad)
    assert Table.objects.get(pk=table.id).bomb_next_bb == 2
    with pytest.raises(TableError):
        hosting.table_host_bomb(table_id=table.id, by=users[1], big_blinds=5)  # not a host
    hosting.table_host_bomb(table_id=table.id, by=users[0], big_blinds=0)
    assert Table.objects.get(pk=table.id).bomb_next_bb == 0
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    assert current_state(table)[1].setup.bomb == 0


def test_public_tables_and_games_without_a_board_have_none() -> None:
    public = services.table_create(creator=None, name="Lobby", small_blind=5, big_blind=10, game="NT",
                                   max_seats=6, is_public=True)
    host = make_user("bopublic")
    with pytest.raises(TableError):
        hosting.table_host_bomb(table_id=public.id, by=host, big_blinds=2)
    table, users = _hosted(game="F7S")
    with pytest.raises(TableError, match="Hold'em and Omaha only"):
        hosting.table_host_bomb(table_id=table.id, by=users[0], big_blinds=2)
    client = Client()
    client.force_login(users[0])
    assert "hostpanel__bomb" not in client.get(reverse("table", args=[table.id])).content.decode()


def test_a_player_coming_in_pays_the_bomb_not_a_big_blind_and_nobody_straddles() -> None:
    table, users = _hosted(players=4)
    hosting.table_host_straddles(table_id=table.id, by=users[0], on=True)
    for u in users:
        table.refresh_from_db()
        services.table_act(table_id=table.id, user=u, message={"action": "straddle_on", "version": table.version})
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    _next(table)
    newcomer = make_user(f"bonew{table.id}")
    services.table_take_seat(table_id=table.id, user=newcomer, buy_in=1000)
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=newcomer, message={"action": "post_bb", "version": table.version})
    hosting.table_host_bomb(table_id=table.id, by=users[0], big_blinds=1)
    _next(table)
    hand, state = current_state(table)
    assert state.setup.bomb == 10 and state.setup.straddle == 0 and state.setup.posts == ()
    me = [i for i, p in enumerate(hand.players) if p[1] == newcomer.pk]
    assert me and state.contributed[me[0]] == 10


def test_the_host_panel_form() -> None:
    table, users = _hosted()
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("table", args=[table.id])).content.decode()
    assert "hostpanel__bomb" in page and "Bomb pot next hand" in page
    url = reverse("table_host_bomb", args=[table.id])
    for bad in ({}, {"bb": "x"}, {"bb": "7"}):
        response = client.post(url, bad, follow=True)
        assert "Choose a bomb pot of 1, 2, 3, 5 big blinds." in response.content.decode()
    assert Table.objects.get(pk=table.id).bomb_next_bb == 0
    response = client.post(url, {"bb": "5"}, follow=True)
    text = response.content.decode()
    assert "The next hand is a bomb pot." in text and "Call off the bomb pot" in text
    assert "The next hand is a bomb pot of 5 big blinds each." in text
    assert Table.objects.get(pk=table.id).bomb_next_bb == 5
    response = client.post(url, {"bb": "0"}, follow=True)
    assert "No bomb pot next hand." in response.content.decode()
    assert Table.objects.get(pk=table.id).bomb_next_bb == 0
