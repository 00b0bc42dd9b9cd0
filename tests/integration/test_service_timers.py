"""Timer details the cluster test relies on, checked fast on the test database.

* Every accepted change schedules the running clock for the new version, even a change that sets
  no clock (a break asked for): otherwise the pending timer is stale and the clock waits for the
  sweep.
* A decision timeout puts the player on a break at once (their page offers "I'm back"), and
  "I'm back" pressed during the same hand cancels that break.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone

from tables import selectors, services
from tables.models import Seat, Table
from tests.tables.helpers import current_state, play_passively, seated_table, user_for_index

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def scheduled(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int | None, float]]:
    """Timers the services ask for: (table id, version, countdown)."""
    calls: list[tuple[int, int | None, float]] = []

    def fake_apply_async(args: tuple[int, int | None], countdown: float = 0.0, **_kw: Any) -> None:
        calls.append((args[0], args[1], countdown))

    from tables.tasks import expire_clock

    monkeypatch.setattr(expire_clock, "apply_async", fake_apply_async)
    return calls


def test_a_change_without_a_clock_reschedules_the_running_one(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    bystander = next(i for i in range(3) if i not in state.actors())
    scheduled.clear()
    services.table_act(
        table_id=table.id, user=user_for_index(hand, bystander),
        message={"action": "sit_out", "version": table.version},
    )
    table.refresh_from_db()
    assert [(t, v) for t, v, _c in scheduled] == [(table.id, table.version)]
    # Same deadline as before: asking for a break does not restart anybody's clock.
    assert abs(scheduled[0][2] - (hand.deadline - timezone.now()).total_seconds()) < 1.0


def test_an_action_schedules_one_timer_with_the_committed_version(scheduled: list[Any]) -> None:
    table, users = seated_table(n=3)
    hand, state = current_state(table)
    actor = state.actors()[0]
    scheduled.clear()
    with transaction.atomic():
        result = services.table_act(
            table_id=table.id, user=user_for_index(hand, actor),
            message={"action": "call", "version": table.version},
        )
    assert [(t, v) for t, v, _c in scheduled] == [(table.id, result.version)]


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
