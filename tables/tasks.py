"""Celery tasks: they take ids and a version and call one service."""

from __future__ import annotations

from celery import shared_task

from tables import services


@shared_task(name="tables.expire_clock", ignore_result=True, acks_late=True)
def expire_clock(table_id: int, version: int | None) -> bool:
    """A table's clock ran out. Idempotent: stale versions and early calls change nothing."""
    return services.table_expire(table_id=table_id, version=version)


@shared_task(name="tables.sweep", ignore_result=True)
def sweep() -> int:
    """Expire deadlines that passed while no timer fired."""
    return services.table_sweep()
