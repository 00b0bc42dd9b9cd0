"""The time bank: "More time" adds up to 20 s from a seat's bank of 60 s to the clock it is on.

Asked for by the player whose clock runs (their decision, or an arrangement not yet sent), never
spent for them; the bank fills up again by 5 s a hand the table plays. A refused request changes
nothing; the clock's timer follows the later deadline (tables.services.table_timer).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from tables import selectors, services
from tables.models import TIME_BANK_SECONDS, TIME_BANK_STEP, Seat, Table
from tests.tables.helpers import (
    current_state,
    make_user,
    play_passively,
    seated_table,
    user_for_index,
)
from tests.tables.test_consumers import _connect, _next_state

pytestmark = [pytest.mark.django_db(transaction=True)]


def _more_time(table: Table, user: Any, version: int | None = None) -> int:
    table.refresh_from_db()
    return services.table_act(table_id=table.id, user=user,
                              message={"action": "time", "version": table.version if version is None else version}).version


def _actor(table: Table) -> tuple[Any, Any, int]:
    hand, state = current_state(table)
    idx = state.actors()[0]
    return hand, user_for_index(hand, idx), idx


def _seat(table: Table, user: Any) -> Seat:
    return Seat.objects.get(table=table, user=user)


def _html(table: Table, user: Any) -> str:
    snap = selectors.table_snapshot(table_id=table.id, user=user)
    assert snap is not None
    return str(snap["html"])


def test_more_time_moves_the_deadline_and_takes_it_from_the_bank(scheduled: list[Any]) -> None:
    table, _users = seated_table(n=3, game="NT")
    hand, actor, _idx = _actor(table)
    before, version = hand.deadline, table.version
    scheduled.clear()
    new_version = _more_time(table, actor)
    hand.refresh_from_db()
    assert new_version == version + 1
    assert hand.deadline == before + dt.timedelta(seconds=TIME_BANK_STEP)
    seat = _seat(table, actor)
    assert seat.time_bank == TIME_BANK_SECONDS - TIME_BANK_STEP
    # The pending timer (for the old deadline) still comes first: none is sent now ...
    assert scheduled == []
    # ... and when it fires, the clock has not run out: it changes nothing and sends the next.
    table.refresh_from_db()
    assert table.timer_at == before
    assert services.table_timer(table_id=table.id, version=version, due=before.isoformat(),
                                now=before + dt.timedelta(seconds=1)) is False
    assert [c for c in scheduled if c[0] == table.id][-1][2] == hand.deadline.isoformat()
    assert services.table_expire(table_id=table.id, now=before + dt.timedelta(seconds=1)) is False
    assert current_state(table)[1].actors()[0] == _idx
    # At the new deadline the clock runs out as any other.
    assert services.table_expire(table_id=table.id, now=hand.deadline + dt.timedelta(seconds=1)) is True
    assert _idx not in current_state(table)[1].actors()


def test_the_bank_runs_dry_and_then_refuses_changing_nothing() -> None:
    table, _users = seated_table(n=3, game="NT")
    hand, actor, _idx = _actor(table)
    start = hand.deadline
    for _ in range(TIME_BANK_SECONDS // TIME_BANK_STEP):
        _more_time(table, actor)
    hand.refresh_from_db()
    assert hand.deadline == start + dt.timedelta(seconds=TIME_BANK_SECONDS)
    assert _seat(table, actor).time_bank == 0
    assert "data-action=\"time\"" not in _html(table, actor)  # no button with an empty bank
    table.refresh_from_db()
    version = table.version
    with pytest.raises(services.TableError, match="time bank is empty"):
        _more_time(table, actor)
    table.refresh_from_db()
    hand.refresh_from_db()
    assert table.version == version
    assert hand.deadline == start + dt.timedelta(seconds=TIME_BANK_SECONDS)


def test_only_the_player_whose_clock_runs_may_ask_and_a_refusal_changes_nothing() -> None:
    table, users = seated_table(n=3, game="NT")
    hand, actor, idx = _actor(table)
    other = user_for_index(hand, next(i for i in range(3) if i != idx))
    watcher = make_user("watcher_tb")
    table.refresh_from_db()
    version, deadline = table.version, hand.deadline
    with pytest.raises(services.TableError, match="No clock is running for you"):
        _more_time(table, other)
    with pytest.raises(services.TableError, match="not seated"):
        _more_time(table, watcher)
    with pytest.raises(services.StaleVersion):
        _more_time(table, actor, version=version - 1)
    table.refresh_from_db()
    hand.refresh_from_db()
    assert (table.version, hand.deadline) == (version, deadline)
    assert {s.time_bank for s in Seat.objects.filter(table=table)} == {TIME_BANK_SECONDS}
    # The button: the player to act sees it, the others and watchers do not.
    assert 'data-action="time"' in _html(table, actor)
    assert f"More time +{TIME_BANK_STEP} s" in _html(table, actor)
    assert 'data-action="time"' not in _html(table, other)
    assert 'data-action="time"' not in _html(table, watcher)
    assert 'data-action="time"' not in _html(table, None)


def test_no_more_time_between_hands() -> None:
    table, _users = seated_table(n=3, game="NT")
    hand = play_passively(table)
    table.refresh_from_db()
    player = user_for_index(hand, 0)
    with pytest.raises(services.TableError, match="No clock is running for you"):
        _more_time(table, player)
    assert 'data-action="time"' not in _html(table, player)


def test_the_bank_fills_up_again_by_five_seconds_a_hand() -> None:
    table, _users = seated_table(n=3, game="NT")
    hand, actor, _idx = _actor(table)
    for _ in range(3):
        _more_time(table, actor)
    assert _seat(table, actor).time_bank == 0
    play_passively(table)
    table.refresh_from_db()
    services.table_expire(table_id=table.id, now=timezone.now() + dt.timedelta(minutes=1))  # deal the next
    # One hand played since: 5 s back. Whoever is to act next may use what they have.
    table.refresh_from_db()
    seat = _seat(table, actor)
    from tables.models import time_bank_left

    assert time_bank_left(seat, table.hands_played) == 5
    assert time_bank_left(seat, table.hands_played + 11) == TIME_BANK_SECONDS  # never more than a full bank
    # A bank of 5 s gives 5 s, and the button says so.
    hand, now_acting, _idx = _actor(table)
    seat = _seat(table, now_acting)
    seat.time_bank, seat.time_bank_at = 5, table.hands_played
    seat.save()
    assert "More time +5 s" in _html(table, now_acting)
    before = hand.deadline
    _more_time(table, now_acting)
    hand.refresh_from_db()
    assert hand.deadline == before + dt.timedelta(seconds=5)
    assert _seat(table, now_acting).time_bank == 0


def _to_arrangement(table: Table) -> None:
    for _ in range(50):
        table.refresh_from_db()
        hand, state = current_state(table)
        if state.phase == "arrange":
            return
        idx = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(idx)]
        services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                           message={"action": "check" if "check" in kinds else "call", "version": table.version})
    raise AssertionError("no arrangement")


def test_a_player_still_arranging_may_add_time_to_the_arrangement_clock() -> None:
    table, _users = seated_table(n=3, game="PP")
    _to_arrangement(table)
    hand, state = current_state(table)
    assert hand.clock == "arrange"
    first, second = (user_for_index(hand, i) for i in state.actors()[:2])
    table.refresh_from_db()
    services.table_act(table_id=table.id, user=first, message={"action": "done", "version": table.version})
    assert 'data-action="time"' not in _html(table, first)  # sent: no clock of theirs runs
    with pytest.raises(services.TableError, match="No clock is running for you"):
        _more_time(table, first)
    hand.refresh_from_db()
    before = hand.deadline
    assert 'data-action="time"' in _html(table, second)
    _more_time(table, second)
    hand.refresh_from_db()
    assert hand.deadline == before + dt.timedelta(seconds=TIME_BANK_STEP)
    assert current_state(table)[1].phase == "arrange"


def test_more_time_from_an_older_picture_of_the_same_clock_counts_once() -> None:
    """A seat taken or a break asked for moves the version on while the player reaches for the
    button: their "More time" still counts, and the same click sent again does not count twice."""
    table, users = seated_table(n=3, game="NT", max_seats=4)
    hand, actor, idx = _actor(table)
    other = user_for_index(hand, next(i for i in range(3) if i != idx))
    table.refresh_from_db()
    seen, before = table.version, hand.deadline
    services.table_act(table_id=table.id, user=other, message={"action": "sit_out", "version": seen})
    _more_time(table, actor, version=seen)
    hand.refresh_from_db()
    assert hand.deadline == before + dt.timedelta(seconds=TIME_BANK_STEP)
    table.refresh_from_db()
    after_first = table.version
    # The same click again (from the same picture): refused, nothing changes.
    with pytest.raises(services.StaleVersion):
        _more_time(table, actor, version=seen)
    # So is a picture from before this clock started, and one from the future.
    with pytest.raises(services.StaleVersion):
        _more_time(table, actor, version=seen - 1)
    with pytest.raises(services.StaleVersion):
        _more_time(table, actor, version=after_first + 5)
    table.refresh_from_db()
    hand.refresh_from_db()
    assert table.version == after_first
    assert hand.deadline == before + dt.timedelta(seconds=TIME_BANK_STEP)
    assert _seat(table, actor).time_bank == TIME_BANK_SECONDS - TIME_BANK_STEP
    # A newcomer sits down; a click from the picture that showed the first one's seconds counts.
    services.table_take_seat(table_id=table.id, user=make_user("late_tb"), buy_in=1000)
    _more_time(table, actor, version=after_first)
    hand.refresh_from_db()
    assert hand.deadline == before + dt.timedelta(seconds=2 * TIME_BANK_STEP)
    assert _seat(table, actor).time_bank == TIME_BANK_SECONDS - 2 * TIME_BANK_STEP
    # The next decision is a new clock: a picture of the last one is refused.
    table.refresh_from_db()
    last_picture = table.version
    state = current_state(table)[1]
    kinds = [a.kind for a in state.legal_actions(idx)]
    services.table_act(table_id=table.id, user=actor,
                       message={"action": "check" if "check" in kinds else "call", "version": last_picture})
    _hand, next_actor, _ = _actor(table)
    with pytest.raises(services.StaleVersion):
        _more_time(table, next_actor, version=last_picture)


def test_everyone_sees_whose_clock_runs_on_their_time_bank() -> None:
    table, users = seated_table(n=3, game="NT")
    hand, actor, idx = _actor(table)
    watcher = make_user("watcher_mark")
    assert 'class="seat__bank"' not in _html(table, actor)
    _more_time(table, actor)
    seat_no = _seat(table, actor).seat_no
    for viewer in [*users, watcher, None]:
        html = _html(table, viewer)
        assert html.count('class="seat__bank"') == 1
        # on the acting seat, the one whose clock runs
        mine = html.split(f'data-user="{actor.pk}"', 1)[1].split("</li>", 1)[0]
        assert 'class="seat__bank"' in mine and "on their time bank" in mine
    assert seat_no is not None
    # Once they act the clock moves on, and the mark with it.
    table.refresh_from_db()
    state = current_state(table)[1]
    kinds = [a.kind for a in state.legal_actions(idx)]
    services.table_act(table_id=table.id, user=actor,
                       message={"action": "check" if "check" in kinds else "call", "version": table.version})
    assert 'class="seat__bank"' not in _html(table, watcher)


def test_more_time_while_arranging_survives_the_others_swaps() -> None:
    table, _users = seated_table(n=3, game="PP")
    _to_arrangement(table)
    hand, state = current_state(table)
    first, second = state.actors()[:2]
    table.refresh_from_db()
    seen, before = table.version, hand.deadline
    for _ in range(2):  # the other player swaps twice while the first reaches for the button
        table.refresh_from_db()
        a, b = (str(c) for c in current_state(table)[1].hand_of(second)[:2])
        services.table_act(table_id=table.id, user=user_for_index(hand, second),
                           message={"action": "swap", "cards": [a, b], "version": table.version})
    _more_time(table, user_for_index(hand, first), version=seen)
    hand.refresh_from_db()
    assert hand.deadline == before + dt.timedelta(seconds=TIME_BANK_STEP)
    assert current_state(table)[1].phase == "arrange"
    html = _html(table, user_for_index(hand, second))
    assert html.count('class="seat__bank"') == 1


async def test_more_time_over_the_socket_sends_the_later_deadline() -> None:
    table, _users = await database_sync_to_async(seated_table)(n=3, game="NT")
    hand, actor, _idx = await database_sync_to_async(_actor)(table)
    comm = await _connect(table.id, actor)
    first = await _next_state(comm)
    assert 'data-action="time"' in first["html"]
    await comm.send_to(text_data=json.dumps({"action": "time", "version": first["version"]}))
    got = await _next_state(comm)
    assert got["version"] == first["version"] + 1
    assert got["deadline"] == pytest.approx(first["deadline"] + TIME_BANK_STEP)
    assert f"More time +{TIME_BANK_STEP} s" in got["html"]  # 40 s left: another 20 s
    await comm.disconnect()
