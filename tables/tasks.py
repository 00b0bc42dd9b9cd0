"""Celery tasks: they take ids and a version and call one service."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from celery import shared_task
from django.db import connections

from tables import services

F = TypeVar("F", bound=Callable[..., Any])


def _connections_as_a_request(fn: F) -> F:
    """Close this thread's database connections before and after the task the way Django does
    around a request: when CONN_MAX_AGE has run out, or after an error made one unusable (Celery
    no longer closes them after every task, see CELERY_DB_REUSE_MAX); a task that found its
    connection cut runs once more on a new one."""

    live_fn = services.on_a_live_connection(fn)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _close_old_connections()
        try:
            return live_fn(*args, **kwargs)
        finally:
            _close_old_connections()

    return wrapper  # type: ignore[return-value]


def _close_old_connections() -> None:
    # django.db.close_old_connections, except for a connection inside a transaction (a task run
    # eagerly by code that holds one, as tests do), which it would close under that code.
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close_if_unusable_or_obsolete()


@shared_task(name="tables.expire_clock", ignore_result=True, acks_late=True)
@_connections_as_a_request
def expire_clock(table_id: int, version: int | None, due: str | None = None) -> bool:
    """A table's clock ran out. Idempotent: a stale version or an early call applies nothing;
    the table's pending timer (``due``) then schedules the next one (``services.table_timer``)."""
    return services.table_timer(table_id=table_id, version=version, due=due)


@shared_task(name="tables.sweep", ignore_result=True)
@_connections_as_a_request
def sweep() -> int:
    """Expire deadlines that passed while no timer fired."""
    return services.table_sweep()


@shared_task(name="tables.close_idle", ignore_result=True)
@_connections_as_a_request
def close_idle() -> int:
    """Close the public tables players opened and left empty for a day."""
    return services.close_idle_public_tables()


@shared_task(name="tables.stand_up_stalled", ignore_result=True)
@_connections_as_a_request
def stand_up_stalled() -> int:
    """Free the seats of idle players at public tables that cannot deal."""
    return services.stand_up_at_stalled_tables()
