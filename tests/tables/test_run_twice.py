"""Running it twice at a hosted table: the host allows it, players turn on "Run it twice", and
when an all-in ends the betting before the river with everyone still in agreeing, the rest of the
board is dealt twice and each pot split between the boards (rules_engine.games.flop)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from rules_engine.notation import parse_phh
from tables import hosting, selectors, services
from tables.models import Hand, Seat, Table
from tables.services import TableError
from tests.tables.helpers import current_state, make_user, user_for_index
from tests.tables.test_post_big_blind import _html, _say
from tests.tables.test_table_fragment import _same

pytestmark = pytest.mark.django_db


def _hosted(game: str = "NT", players: int = 2, allow: bool = True, agree: Any = "all") -> tuple[Table, list]:
    host = make_user(f"rthost{game}{players}{allow}")
    table = services.table_create(creator=host, name="Kitchen", small_blind=5, big_blind=10, game=game,
                                  max_seats=6 if game != "PP" else 3, is_public=False)
    services.table_pause(table_id=table.id, now=True)
    users = [host] + [make_user(f"rtguest{table.id}_{i}") for i in range(players - 1)]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000)
    if allow:
        hosting.table_host_run_twice(table_id=table.id, by=host, on=True)
    for i, u in enumerate(users):
        if agree == "all" or i in agree:
            _say(table, u, "run_twice_on")
    services.table_resume(table_id=table.id)
    table.refresh_from_db()
    return table, users


def _all_in(table: Table) -> Hand:
    """Whoever acts goes all-in, the others call it, to the hand's end."""
    for _ in range(20):
        table.refresh_from_db()
        hand, state = current_state(table)
        if hand.ended is not None:
            return hand
        seat = state.to_act
        legal = {a.kind: a for a in state.legal_actions(seat)}
        big = legal.get("raise") or legal.get("bet") or legal.get("all_in")
        message: dict[str, Any] = {"action": "call" if "call" in legal and big is None else big.kind,
                                   "version": table.version}
        if big is not None:
            message["amount"] = big.max_amount or big.to
        services.table_act(table_id=table.id, user=user_for_index(hand, seat), message=message)
    raise AssertionError("the hand did not end")


def _seeded(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    decks = random.Random(seed)
    monkeypatch.setattr(services.secrets, "SystemRandom", lambda: random.Random(decks.random()))


def _chips(table: Table) -> int:
    return sum(int(s.stack) for s in Seat.objects.filter(table=table))


def test_everyone_agreeing_an_all_in_runs_twice_and_every_page_shows_both_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    _seeded(monkeypatch, 5)
    table, users = _hosted()
    assert current_state(table)[1].setup.run_twice == (0, 1)
    before = _chips(table)  # the seats keep their stacks until the hand is settled
    hand = _all_in(table)
    state = current_state(table)[1]
    assert state.second_board is not None and len(state.second_board) == 5
    boards = [b.board for p in state.result.pots for b in p.boards]
    assert boards == [0, 1]
    assert _chips(table) == before  # nothing made or lost
    for user in users:
        html = _html(table, user)
        assert "board--second" in html and ">Second run<" in html
        assert " · run 1" in html and " · run 2" in html
        # Under a player's own cards: what they make on each board.
        assert "<p class=\"board__made\">run 1: " in html and " · run 2: " in html
        context = selectors.table_context(table_id=table.id, user=user)
        _same(context)  # the felt is the reference partial's, second board and all
        # The second board lights the cards that won on it.
        second = context["second_run"]
        assert [str(c["pic"].card) for c in second] == [str(c) for c in state.second_board]
        won = {str(c) for p in state.result.pots for b in p.boards if b.board == 1 for w in b.winners for c in w.cards}
        assert {str(c["pic"].card) for c in second if c["pic"].used} == won & {str(c) for c in state.second_board}
    with translation.override("he"):
        assert "board--second" in _html(table, users[0])
    client = Client()
    client.force_login(users[1])
    page = client.get(reverse("hand_history", args=[table.id, hand.number])).content.decode()
    assert "Second run" in page and "agreed to run it twice" in page and "(run 2" in page
    assert "board--second" in page and "· run 2" in page  # the hand's last picture has both boards
    story = selectors.finished_hand_context(hand=Hand.objects.get(pk=hand.pk), user=users[1])["story"]
    second = [part for part in story if part.title == "Second run"]
    assert len(second) == 1 and len(second[0].boards) == 1
    assert [str(c["pic"].card) for c in second[0].boards[0]] == [str(c) for c in state.second_board]
    phh = client.get(reverse("hand_history_phh", args=[table.id, hand.number])).content.decode()
    assert "_run_twice = [1, 2]" in phh and "# second run" in phh
    parsed = parse_phh(phh)
    assert parsed.state.second_board == state.second_board and parsed.state.stacks == state.stacks


def test_one_player_without_it_and_the_board_runs_once(monkeypatch: pytest.MonkeyPatch) -> None:
    _seeded(monkeypatch, 5)
    table, users = _hosted(agree=(0,))
    assert current_state(table)[1].setup.run_twice == tuple(
        i for i, p in enumerate(current_state(table)[0].players) if p[1] == users[0].pk)
    _all_in(table)
    state = current_state(table)[1]
    assert state.second_board is None
    assert "board--second" not in _html(table, users[0]) and " · run 1" not in _html(table, users[0])


def test_the_player_turns_it_on_and_off_and_sees_it() -> None:
    table, users = _hosted(agree=())
    me = users[1]
    page = _html(table, me)
    assert 'data-action="run_twice_on" aria-pressed="false"' in page and ">Run it twice<" in page
    _say(table, me, "run_twice_on")
    assert Seat.objects.get(table=table, user=me).run_twice
    assert 'data-action="run_twice_off" aria-pressed="true"' in _html(table, me)
    _say(table, me, "run_twice_off")
    assert not Seat.objects.get(table=table, user=me).run_twice


def test_without_the_hosts_leave_nothing_runs_twice_and_the_button_is_not_there() -> None:
    table, users = _hosted(allow=False, agree=())
    assert "act--run-twice" not in _html(table, users[1])
    version = Table.objects.get(pk=table.id).version
    with pytest.raises(TableError, match="runs the board once"):
        _say(table, users[1], "run_twice_on")
    assert Table.objects.get(pk=table.id).version == version
    assert not Seat.objects.get(table=table, user=users[1]).run_twice
    assert current_state(table)[1].setup.run_twice == ()


def test_the_host_stops_it_and_the_next_hand_runs_once() -> None:
    table, users = _hosted()
    assert current_state(table)[1].setup.run_twice == (0, 1)
    hosting.table_host_run_twice(table_id=table.id, by=users[0], on=False)
    assert current_state(table)[1].setup.run_twice == (0, 1)  # the hand being played keeps its own
    finished = _all_in(table)
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    for s in Seat.objects.filter(table=table, stack=0):
        services.table_leave_seat(table_id=table.id, user=s.user)
    newcomer = make_user(f"rtnew{table.id}")
    services.table_take_seat(table_id=table.id, user=newcomer, buy_in=1000)
    _say(table, newcomer, "run_twice_off")
    services.table_sweep(now=finished.deadline + dt.timedelta(minutes=1))
    assert current_state(table)[0].number > finished.number
    assert current_state(table)[1].setup.run_twice == ()
    assert "act--run-twice" not in _html(table, users[0])
    # The seats keep their wish for when the host allows it again.
    assert Seat.objects.filter(table=table, run_twice=True).exists()


def test_only_a_host_decides_and_public_tables_run_once() -> None:
    table, users = _hosted(allow=False, agree=())
    with pytest.raises(TableError):
        hosting.table_host_run_twice(table_id=table.id, by=users[1], on=True)
    assert not Table.objects.get(pk=table.id).run_twice
    public = services.table_create(creator=None, name="Lobby", small_blind=5, big_blind=10, game="NT",
                                   max_seats=6, is_public=True, run_twice=True)
    assert not public.run_twice
    with pytest.raises(TableError):
        hosting.table_host_run_twice(table_id=public.id, by=users[0], on=True)


def test_the_host_panel_form_and_bad_input() -> None:
    table, users = _hosted(allow=False, agree=())
    client = Client()
    client.force_login(users[0])
    page = client.get(reverse("table", args=[table.id])).content.decode()
    assert "hostpanel__run-twice" in page and "Allow running it twice" in page
    assert "<span data-table-run-twice hidden>" in page and 'data-run-twice="off"' in page
    url = reverse("table_host_run_twice", args=[table.id])
    for bad in ({}, {"on": "yes"}, {"on": "2"}):
        response = client.post(url, bad, follow=True)
        assert "Say whether running it twice is allowed." in response.content.decode()
        assert not Table.objects.get(pk=table.id).run_twice
    response = client.post(url, {"on": "1"}, follow=True)
    text = response.content.decode()
    assert "Players may run it twice from the next hand." in text and "Stop running it twice" in text
    assert Table.objects.get(pk=table.id).run_twice
    assert "<span data-table-run-twice>" in text and 'data-run-twice="on"' in text
    guest = Client()
    guest.force_login(users[1])
    guest.post(url, {"on": "0"})
    assert Table.objects.get(pk=table.id).run_twice
    response = client.post(url, {"on": "0"}, follow=True)
    assert "The board runs once from the next hand." in response.content.decode()


@pytest.mark.parametrize("game", ["F7S", "PP"])
def test_games_without_a_board_to_run_twice(game: str) -> None:
    table, users = _hosted(game=game, players=2, agree=())
    assert not services.runs_twice(table)
    with pytest.raises(TableError, match="runs the board once"):
        _say(table, users[1], "run_twice_on")
    assert "act--run-twice" not in _html(table, users[1])
    client = Client()
    client.force_login(users[0])
    assert "The game dealt now has one board run once." in client.get(reverse("table", args=[table.id])).content.decode()


def test_limit_hold_em_runs_twice_too(monkeypatch: pytest.MonkeyPatch) -> None:
    _seeded(monkeypatch, 5)
    table, users = _hosted(game="FT")
    assert services.runs_twice(table)
    assert current_state(table)[1].setup.run_twice == (0, 1)


def test_a_table_is_opened_with_running_it_twice_allowed() -> None:
    creator = make_user("rtopener")
    client = Client()
    client.force_login(creator)
    form = {"name": "Late game", "game": "PO", "stakes": "5-10", "speed": "medium", "max_seats": "6",
            "run_twice": "on"}
    client.post(reverse("table_new"), {**form, "visibility": "private"})
    assert Table.objects.get(name="Late game", is_public=False).run_twice
    client.post(reverse("table_new"), {**form, "name": "Lobby game", "visibility": "public"})
    assert not Table.objects.get(name="Lobby game").run_twice
    client.post(reverse("table_new"), {**form, "name": "Plain game", "visibility": "private", "run_twice": ""})
    assert not Table.objects.get(name="Plain game").run_twice
    assert "Running it twice allowed" in client.get(reverse("table_new")).content.decode()
