"""GAMES.md section 3: a player joining a running table (Hold'em, Omaha, draw) is dealt in when
the big blind reaches their seat, unless they choose to post one (tests/tables/test_post_big_blind.py). The button
moves among the players already playing, and nobody waits where the game would not run without
them; stud, Baseball and Patch-Patch deal a newcomer in at once."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from tables import selectors, services
from tables.fragment import render_table
from tables.models import Hand, Seat, Table
from tests.tables.helpers import current_state, make_user, play_passively, seated_table

pytestmark = pytest.mark.django_db


def _next_deal(table: Table) -> Hand | None:
    finished = Hand.objects.filter(table=table).order_by("-number").first()
    assert finished is not None and finished.ended is not None and finished.deadline is not None
    services.table_expire(table_id=table.id, now=finished.deadline + dt.timedelta(seconds=1))
    table.refresh_from_db()
    latest = Hand.objects.filter(table=table).order_by("-number").first()
    return latest if latest is not None and latest.number == finished.number + 1 else None


def _blinds(table: Table) -> dict[str, int]:
    """The seat numbers of this hand's button, small blind and big blind."""
    hand, state = current_state(table)
    seat_of = [p[0] for p in hand.players]
    return {"button": seat_of[state.button], "sb": seat_of[state.small_blind_seat], "bb": seat_of[state.big_blind_seat]}


def _dealt(table: Table) -> list[int]:
    hand, _state = current_state(table)
    return [p[0] for p in hand.players]


def _join(table: Table, name: str, seat_no: int) -> Any:
    user = make_user(name)
    services.table_take_seat(table_id=table.id, user=user, buy_in=1000, seat_no=seat_no)
    return user


@pytest.mark.parametrize("game", ["NT", "PO", "F5D"])
def test_a_newcomer_waits_for_the_big_blind_and_comes_in_on_it(game: str) -> None:
    table, users = seated_table(n=2, game=game, max_seats=6)
    assert _dealt(table) == [0, 1]
    newcomer = _join(table, f"new{table.id}", 4)
    seat = Seat.objects.get(table=table, user=newcomer)
    assert seat.wait_bb
    html = str(render_table(selectors.table_context(table_id=table.id, user=None)))
    assert "waits for the big blind" in html
    for _ in range(6):
        play_passively(table)
        assert _next_deal(table) is not None
        dealt = _dealt(table)
        if 4 in dealt:
            # The hand it comes in on, it is the big blind.
            assert _blinds(table)["bb"] == 4
            assert not Seat.objects.get(pk=seat.pk).wait_bb
            break
        assert dealt == [0, 1]
    else:
        raise AssertionError("the big blind never reached the newcomer")
    # From then on it is dealt in every hand, and the button goes on round the three.
    buttons = []
    for _ in range(3):
        play_passively(table)
        assert _next_deal(table) is not None
        assert _dealt(table) == [0, 1, 4]
        buttons.append(_blinds(table)["button"])
    assert sorted(buttons) == [0, 1, 4]


def test_the_button_keeps_moving_among_the_players_while_someone_waits() -> None:
    table, users = seated_table(n=3, game="NT", max_seats=6)
    assert _blinds(table)["button"] == 0
    play_passively(table)
    _next_deal(table)
    assert _blinds(table)["button"] == 1
    _join(table, f"w{table.id}", 3)  # after the hand whose button is seat 1
    seen = []
    for _ in range(3):
        play_passively(table)
        _next_deal(table)
        seen.append((_blinds(table)["button"], _dealt(table)))
    # Buttons 2 and 0 go by without seat 3 (its big blind is seats 0 and 2); with the button on
    # seat 1 the big blind is seat 3's, and it comes in.
    assert seen == [(2, [0, 1, 2]), (0, [0, 1, 2]), (1, [0, 1, 2, 3])]
    assert _blinds(table)["bb"] == 3


@pytest.mark.parametrize("game", ["F7S", "PP", "BB"])
def test_stud_baseball_and_patch_patch_deal_a_newcomer_in_at_once(game: str) -> None:
    table, users = seated_table(n=2, game=game, max_seats=3 if game == "PP" else 4, buy_in=1000)
    newcomer = make_user(f"now{table.id}")
    services.table_take_seat(table_id=table.id, user=newcomer, buy_in=0 if game == "BB" else 1000)
    seat = Seat.objects.get(table=table, user=newcomer)
    assert not seat.wait_bb
    play_passively(table)
    nxt = _next_deal(table)
    if game == "BB":  # a session's pot may end it; what matters is the seat does not wait
        return
    assert nxt is not None and seat.seat_no in _dealt(table)


def test_nobody_waits_where_the_game_would_not_run_without_them() -> None:
    # A table that has not dealt yet: everyone sitting down is dealt the first hand.
    table = services.table_create(creator=None, name="Fresh", small_blind=5, big_blind=10, max_seats=6, game="NT")
    services.table_pause(table_id=table.id, now=True)
    users = [make_user(f"f{table.id}_{i}") for i in range(3)]
    for u in users:
        services.table_take_seat(table_id=table.id, user=u, buy_in=1000)
    assert not Seat.objects.filter(table=table, wait_bb=True).exists()
    # Heads-up where one player is on a break: the newcomer makes the game, so it plays at once.
    table2, (a, b) = seated_table(n=2, game="NT", max_seats=6)
    services.table_act(table_id=table2.id, user=b, message={"action": "sit_out", "version": table2.version})
    table2.refresh_from_db()
    play_passively(table2)
    c = _join(table2, f"c{table2.id}", 3)
    assert not Seat.objects.get(table=table2, user=c).wait_bb
    # A waiting player whose others leave is dealt in rather than left waiting for a game.
    table3, (x, y) = seated_table(n=2, game="NT", max_seats=6)
    z = _join(table3, f"z{table3.id}", 2)
    assert Seat.objects.get(table=table3, user=z).wait_bb
    services.table_leave_seat(table_id=table3.id, user=y)
    play_passively(table3)
    assert _next_deal(table3) is not None
    assert sorted(_dealt(table3)) == sorted(Seat.objects.filter(table=table3).values_list("seat_no", flat=True))
    assert not Seat.objects.filter(table=table3, wait_bb=True).exists()


def _sit_out_now(table: Table, user: Any) -> None:
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user, message={"action": "sit_out", "version": table.version})


def _back(table: Table, user: Any) -> None:
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=user, message={"action": "im_back", "version": table.version})


def test_a_break_that_missed_the_big_blind_waits_for_it_and_one_that_did_not_comes_straight_back() -> None:
    table, users = seated_table(n=3, game="NT", max_seats=3)
    by_seat = {s.seat_no: s.user for s in Seat.objects.filter(table=table)}
    assert _blinds(table) == {"button": 0, "sb": 1, "bb": 2}
    play_passively(table)
    # Between hands seat 0 takes a break: hand 2 is heads-up, button seat 1, big blind seat 2.
    # Had seat 0 been in, the big blind would have been seat 0's: it missed it.
    _sit_out_now(table, by_seat[0])
    _next_deal(table)
    assert _dealt(table) == [1, 2] and _blinds(table)["button"] == 1
    assert Seat.objects.get(table=table, seat_no=0).wait_bb
    _back(table, by_seat[0])
    html = str(render_table(selectors.table_context(table_id=table.id, user=None)))
    assert "waits for the big blind" in html
    play_passively(table)
    _next_deal(table)  # button seat 2: the big blind would be seat 1's, so seat 0 still waits
    assert _dealt(table) == [1, 2]
    play_passively(table)
    _next_deal(table)  # button seat 1: the big blind is seat 0's, and it comes in
    assert _dealt(table) == [0, 1, 2] and _blinds(table)["bb"] == 0
    assert not Seat.objects.get(table=table, seat_no=0).wait_bb


def test_a_break_between_ones_big_blinds_comes_straight_back() -> None:
    table, users = seated_table(n=3, game="NT", max_seats=3)
    by_seat = {s.seat_no: s.user for s in Seat.objects.filter(table=table)}
    play_passively(table)  # seat 2 was the big blind of hand 1
    _sit_out_now(table, by_seat[2])
    _next_deal(table)  # heads-up, button seat 1: with seat 2 in, the big blind would be seat 0's
    assert _dealt(table) == [0, 1]
    assert not Seat.objects.get(table=table, seat_no=2).wait_bb
    _back(table, by_seat[2])
    play_passively(table)
    _next_deal(table)
    assert _dealt(table) == [0, 1, 2]
