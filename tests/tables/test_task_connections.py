"""Timer tasks keep their database connection between tasks (Celery's Django fix-up closed it
before and after every task: a new PostgreSQL connection per timer), and still drop one that an
error made unusable or that outlived CONN_MAX_AGE."""

from __future__ import annotations

from typing import Any

import pytest
from celery.fixups.django import DjangoWorkerFixup
from django.db import connection

from config.celery import app
from tables import tasks

pytestmark = pytest.mark.django_db(transaction=True)


def test_celery_leaves_the_connection_open_between_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    fixup = DjangoWorkerFixup(app)
    closed: list[Any] = []
    connection.ensure_connection()
    monkeypatch.setattr(connection, "close", lambda: closed.append(1))
    for _ in range(3):
        fixup.on_task_prerun(sender=tasks.sweep)
        fixup.on_task_postrun(sender=tasks.sweep)
    assert closed == []


def test_the_task_closes_an_unusable_or_old_connection(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    closed: list[Any] = []
    monkeypatch.setattr("tables.services.table_sweep", lambda: calls.append(1) or 0)
    connection.ensure_connection()
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    monkeypatch.setattr(connection, "close", lambda: closed.append(1))
    connection.close_at = None
    assert tasks.sweep() == 0 and calls
    assert closed == []  # kept: young and healthy
    connection.errors_occurred = True
    monkeypatch.setattr(connection, "is_usable", lambda: False)
    tasks.sweep()
    assert closed  # an error made it unusable: closed, and the next query opens a new one
    closed.clear()
    connection.errors_occurred = False
    connection.close_at = 0.0  # CONN_MAX_AGE ran out
    tasks.sweep()
    assert closed
