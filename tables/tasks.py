"""Celery tasks: they take ids and a version and call one service."""

from __future__ import annotations

from celery import shared_task

from tables import services


@shared_task(name="tables.expire_clock", ignore_result=True, acks_late=True)
def expire_clock(table_id: int, version: int | None, due: str | None = None) -> bool:
    """A table's clock ran out. Idempotent: a stale version or an early call applies nothing;
    the table's pending timer (``due``) then schedules the next one (``services.table_timer``)."""
    return services.table_timer(table_id=table_id, version=version, due=due)


@shared_task(name="tables.sweep", ignore_result=True)
def sweep() -> int:
    """Expire deadlines that passed while no timer fired."""
    return services.table_sweep()
