"""A writer that found the database busy runs again; a socket's or timer's call that found its
connection lost (PostgreSQL restarted) runs once more on a new one; any other database error goes
up."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from tables.services import BUSY_ATTEMPTS, on_a_live_connection, retry_when_busy


def _flaky(errors: list[str | Exception], wrap=retry_when_busy):  # type: ignore[no-untyped-def]
    calls: list[int] = []

    @wrap
    def writer() -> int:
        calls.append(1)
        if errors:
            error = errors.pop(0)
            raise error if isinstance(error, Exception) else OperationalError(error)
        return len(calls)

    return writer, calls


def test_busy_database_is_tried_again_until_it_answers() -> None:
    writer, calls = _flaky(["database table is locked", "database is locked", "deadlock detected"])
    assert writer() == 4
    assert len(calls) == 4


def test_other_database_errors_are_not_retried() -> None:
    writer, calls = _flaky(["no such table: tables_table"])
    with pytest.raises(OperationalError, match="no such table"):
        writer()
    assert len(calls) == 1


def test_a_database_that_stays_busy_gives_up() -> None:
    writer, calls = _flaky(["database is locked"] * (BUSY_ATTEMPTS + 2))
    with pytest.raises(OperationalError):
        writer()
    assert len(calls) == BUSY_ATTEMPTS


@pytest.mark.django_db
def test_inside_an_outer_transaction_nothing_is_retried() -> None:
    # pytest-django's db fixture wraps the test in a transaction, like any outer atomic block.
    writer, calls = _flaky(["database is locked"])
    with pytest.raises(OperationalError):
        writer()
    assert len(calls) == 1


def test_every_host_writer_runs_again_when_the_database_is_busy() -> None:
    """Each host control is one transaction: a busy database makes it run again, as a player's
    action does (the pause, resume, close and stand-up writers are the table's own, wrapped)."""
    import inspect

    from tables import hosting, services

    writers = [name for name, fn in vars(hosting).items()
               if name.startswith("table_") and inspect.isfunction(fn) and fn.__module__ == hosting.__name__]
    assert len(writers) >= 15
    for name in writers:
        fn = getattr(hosting, name)
        wrapped = getattr(fn, "__wrapped__", None)
        # Wrapped here, or a thin caller of a table writer that is wrapped in services.
        calls = [w for w in ("table_pause", "table_resume", "table_close", "table_leave_seat")
                 if f"services.{w}(" in inspect.getsource(fn)]
        assert wrapped is not None or (calls and all(hasattr(getattr(services, w), "__wrapped__") for w in calls)), name


LOST = "consuming input failed: server closed the connection unexpectedly"


def test_a_lost_connection_is_closed_and_the_call_runs_once_more(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import InterfaceError, connection

    closed: list[int] = []
    monkeypatch.setattr(connection, "close", lambda: closed.append(1))
    for error in (LOST, "terminating connection due to administrator command", InterfaceError("connection already closed")):
        closed.clear()
        writer, calls = _flaky([error], on_a_live_connection)
        assert writer() == 2
        assert closed == [1]  # the next query opens a new connection
    # Lost again on the new one: the error goes up (a database that is down stays an error).
    writer, calls = _flaky([LOST, LOST], on_a_live_connection)
    with pytest.raises(OperationalError, match="server closed"):
        writer()
    assert len(calls) == 2


def test_the_sqlstate_of_a_lost_connection_is_recognised() -> None:
    class Cut(Exception):
        sqlstate = "57P01"  # admin_shutdown: PostgreSQL was stopped or restarted

    error = OperationalError("an error in another language")
    error.__cause__ = Cut()
    writer, calls = _flaky([error], on_a_live_connection)
    assert writer() == 2
    other = OperationalError("un autre texte")
    other.__cause__ = type("Syntax", (Exception,), {"sqlstate": "42601"})()
    writer, calls = _flaky([other], on_a_live_connection)
    with pytest.raises(OperationalError):
        writer()
    assert len(calls) == 1


def test_a_writer_does_not_take_a_lost_connection_for_a_busy_database() -> None:
    writer, calls = _flaky([LOST])
    with pytest.raises(OperationalError, match="server closed"):
        writer()
    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)  # no outer transaction, as on a socket's thread
def test_a_picture_and_a_timer_run_again_when_their_connection_was_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The socket's own calls are covered end to end by the fault test (tests/integration)."""
    from django.db import connection

    from tables import consumers, selectors, services, tasks

    monkeypatch.setattr(connection, "close", lambda: None)
    lost: list[str] = [LOST]

    def snapshot(**_kw: object) -> dict[str, int]:
        if lost:
            raise OperationalError(lost.pop())
        return {"version": 7}

    monkeypatch.setattr(selectors, "table_snapshot", snapshot)
    assert consumers._render(1, None, "en") == {"version": 7}
    lost.append(LOST)

    def sweep() -> int:
        if lost:
            raise OperationalError(lost.pop())
        return 3

    monkeypatch.setattr(services, "table_sweep", sweep)
    assert tasks.sweep() == 3 and not lost
