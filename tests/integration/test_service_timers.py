"""Timer details the cluster test relies on, checked fast on the test database.

* A table keeps ONE clock timer pending (``Table.timer_at``), not one per action: a change whose
  clock ends after the pending timer sends none; the pending timer, when it fires on a table that
  moved on, sends the next one for the running clock with the current version, or applies that
  clock if it has run out already; a timer that is not the pending one changes nothing.
* A decision timeout puts the player on a break at once (their page offers "I'm back"), and
  "I'm back" pressed during the same hand cancels that break.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from tables import selectors, services
from tables.models import Hand, Seat, Table
from tests.tables.helpers import current_state, play_passively, seated_table, user_for_index

pytestmark = [pytest.mark.django_db(transaction=True)]


def _fresh(table: Table) -> Table:
    return Table.objects.get(id=table.id)


def _first_call(table: Table, hand: Hand, state: Any) -> int:
    """The first player to act calls; returns the version it made."""
    return services.table_act(
        table_id=table.id, user=user_for_index(hand, state.actors()[0]),
        message={"action": "call", "version": table.version},
    ).version


def test_a_new_hand_sends_its_clock_timer_and_remembers_it(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, _state = current_state(table)
    table = _fresh(table)
    assert table.timer_at == hand.deadline
    mine = [c for c in scheduled if c[0] == table.id and c[2] is not None]
    assert mine and dt.datetime.fromisoformat(mine[-1][2]) == hand.deadline


def test_a_change_without_a_clock_sends_nothing_while_a_timer_is_pending(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    bystander = next(i for i in range(3) if i not in state.actors())
    scheduled.clear()
    services.table_act(
        table_id=table.id, user=user_for_index(hand, bystander),
        message={"action": "sit_out", "version": table.version},
    )
    assert scheduled == []
    assert _fresh(table).timer_at == hand.deadline  # the pending timer still covers the clock


def test_an_action_whose_clock_ends_later_sends_no_timer(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    scheduled.clear()
    _first_call(table, hand, state)
    assert scheduled == []
    new_deadline = Hand.objects.get(id=hand.id).deadline
    assert new_deadline > hand.deadline and _fresh(table).timer_at == hand.deadline


def test_an_action_with_no_pending_timer_sends_one_with_the_committed_version(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    Table.objects.filter(id=table.id).update(timer_at=None)  # say the pending timer was lost
    scheduled.clear()
    before = timezone.now()
    with transaction.atomic():
        version = _first_call(table, hand, state)
    after = timezone.now()
    deadline = Hand.objects.get(id=hand.id).deadline
    assert [(t, v, d) for t, v, d, _c in scheduled] == [(table.id, version, deadline.isoformat())]
    assert _fresh(table).timer_at == deadline
    # The countdown runs to the deadline from the moment the timer was sent, inside the action:
    # bounded by the clock read before and after it (not by the clock read now, within 1 s:
    # a pause of a second between the lines on a loaded machine would fail that).
    assert (deadline - after).total_seconds() <= scheduled[0][3] <= (deadline - before).total_seconds() + 0.1


def test_a_clock_that_ends_before_the_pending_timer_gets_its_own(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    later = timezone.now() + dt.timedelta(hours=1)
    Table.objects.filter(id=table.id).update(timer_at=later)
    scheduled.clear()
    version = _first_call(table, hand, state)
    deadline = Hand.objects.get(id=hand.id).deadline
    assert [(t, v, d) for t, v, d, _c in scheduled] == [(table.id, version, deadline.isoformat())]
    # The timer due in an hour is no longer the pending one: when it fires it changes nothing.
    assert _fresh(table).timer_at == deadline
    before = _fresh(table).version
    scheduled.clear()
    assert not services.table_timer(table_id=table.id, version=table.version, due=later.isoformat(),
                                    now=deadline + dt.timedelta(seconds=1))
    assert _fresh(table).version == before and scheduled == []


def test_the_pending_timer_hands_the_clock_on_to_the_current_version(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    first_due = _fresh(table).timer_at
    _first_call(table, hand, state)
    current = _fresh(table)
    deadline = Hand.objects.get(id=hand.id).deadline
    scheduled.clear()
    # The first timer fires at its own time, before the new deadline: stale, so it applies
    # nothing and sends the next timer, for the new deadline and the current version.
    assert not services.table_timer(table_id=table.id, version=table.version, due=first_due.isoformat(),
                                    now=first_due)
    assert [(t, v, d) for t, v, d, _c in scheduled] == [(table.id, current.version, deadline.isoformat())]
    after = _fresh(table)
    assert after.version == current.version and after.timer_at == deadline
    # Fired twice: the second time it is no longer the pending timer and does nothing.
    scheduled.clear()
    assert not services.table_timer(table_id=table.id, version=table.version, due=first_due.isoformat(),
                                    now=first_due)
    assert scheduled == [] and _fresh(table).version == current.version


def test_the_pending_timer_applies_a_clock_that_ran_out_after_a_change(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    actor = state.actors()[0]
    bystander = next(i for i in range(3) if i not in state.actors())
    services.table_act(
        table_id=table.id, user=user_for_index(hand, bystander),
        message={"action": "sit_out", "version": table.version},
    )
    before = _fresh(table)
    # The timer carries the version before the break was asked for; the clock has run out.
    assert services.table_timer(table_id=table.id, version=table.version, due=before.timer_at.isoformat(),
                                now=hand.deadline + dt.timedelta(seconds=1))
    after = _fresh(table)
    assert after.version == before.version + 1
    seat = Seat.objects.get(table=table, user=user_for_index(hand, actor))
    assert seat.break_next  # the player whose clock ran out goes on a break
    # The clock that follows has a timer of its own.
    new_deadline = Hand.objects.filter(table=table).order_by("-number").first().deadline
    assert after.timer_at == new_deadline and scheduled[-1][1] == after.version


def test_a_timer_with_an_unreadable_due_time_changes_nothing(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, _state = current_state(table)
    before = _fresh(table).version
    assert not services.table_timer(table_id=table.id, version=before - 1, due="not a time",
                                    now=hand.deadline + dt.timedelta(seconds=1))
    assert _fresh(table).version == before


def test_timeout_break_shows_at_once_and_im_back_cancels_it(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    actor = state.actors()[0]
    user = user_for_index(hand, actor)
    assert services.table_expire(
        table_id=table.id, version=table.version, now=hand.deadline + dt.timedelta(seconds=1)
    )
    seat = Seat.objects.get(table=table, user=user)
    assert seat.break_next and not seat.sitting_out
    context = selectors.table_context(table_id=table.id, user=user)
    assert context is not None and context["on_break"]
    # Back before the hand is over: dealt into the next one after all.
    services.table_act(
        table_id=table.id, user=user,
        message={"action": "im_back", "version": Table.objects.get(id=table.id).version},
    )
    play_passively(table)
    seat.refresh_from_db()
    assert not seat.sitting_out and not seat.break_next


def test_timeout_without_im_back_sits_out_the_next_hand(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    user = user_for_index(hand, state.actors()[0])
    services.table_expire(table_id=table.id, version=table.version, now=hand.deadline + dt.timedelta(seconds=1))
    play_passively(table)
    seat = Seat.objects.get(table=table, user=user)
    assert seat.sitting_out and not seat.break_next


def test_an_action_landing_while_the_pending_timer_fires_keeps_a_timer(scheduled: list[Any],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by an audit. The pending timer reads the table (the clock has run out), then, before
    # it applies that clock, a player's action commits: it sets a new clock and sends no timer
    # (one is pending). The timer must not leave that new clock to the sweep.
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    due = _fresh(table).timer_at
    actor = user_for_index(hand, state.actors()[0])
    real_expire = services.table_expire
    acted: list[int] = []

    def action_lands_first(**kwargs: Any) -> bool:
        if not acted:
            time.sleep(0.01)  # so its clock ends after the timer's moment
            acted.append(services.table_act(table_id=table.id, user=actor,
                                            message={"action": "call", "version": table.version}).version)
        return real_expire(**kwargs)

    monkeypatch.setattr(services, "table_expire", action_lands_first)
    scheduled.clear()
    fired_at = due + dt.timedelta(milliseconds=1)  # the timer's moment; the action's is earlier
    assert not services.table_timer(table_id=table.id, version=table.version, due=due.isoformat(), now=fired_at)
    assert acted, "the action did not land"
    deadline = Hand.objects.get(id=hand.id).deadline
    after = _fresh(table)
    assert deadline > fired_at and after.version == acted[0]
    assert after.timer_at == deadline
    assert [(t, v, d) for t, v, d, _c in scheduled] == [(table.id, acted[0], deadline.isoformat())]
