"""The bench's timing of an action inside a Daphne process (``tables.actiontrace``)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from tables import actiontrace
from tests.tables.helpers import current_state, seated_table, user_for_index
from tests.tables.test_consumers import _connect, _next_state


def _row(received: float, total: float, **parts: float) -> dict[str, Any]:
    row = {"table": 1, "version": 2, "received": received, "others": 0, "statements": 5, "total": total}
    row.update({p: parts.get(p, 0.0) for p in ("wait", "writer", "db", "cpu", "draw", "send")})
    return row


def test_rows_written_by_a_process_are_read_back_within_the_window(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(actiontrace, "_rows", [])
    monkeypatch.setattr(actiontrace, "_flusher", object())  # no thread: flushed by hand below
    for received in (10.0, 11.0, 12.0):
        hop = actiontrace.Hop(received=received, started=received + 0.001, acted=received + 0.004,
                              drawn=received + 0.005, cpu=0.002, db=0.0015, statements=5)
        actiontrace.record(7, 3, hop, received + 0.006, 2)
    actiontrace.record(7, 4, actiontrace.Hop(received=11.5), 11.6, 0)  # the writer never finished
    assert actiontrace.flush(tmp_path) == 3
    assert actiontrace.flush(tmp_path) == 0
    rows = actiontrace.read(tmp_path, 10.5, 12.0)
    assert [r["received"] for r in rows] == [11.0]
    row = rows[0]
    assert row["table"] == 7 and row["version"] == 3 and row["others"] == 2 and row["statements"] == 5
    assert row["wait"] == pytest.approx(0.001) and row["writer"] == pytest.approx(0.003)
    assert row["draw"] == pytest.approx(0.001) and row["send"] == pytest.approx(0.001)
    assert row["total"] == pytest.approx(0.006) and row["db"] == 0.0015 and row["cpu"] == 0.002
    lines = (tmp_path / next(p.name for p in tmp_path.iterdir())).read_text().splitlines()
    assert len(lines) == 3 and all(json.loads(line)["table"] == 7 for line in lines)


def test_summary_gives_each_parts_p50_p99_and_the_slowest_actions_mean() -> None:
    rows = [_row(float(i), total=i / 1000, writer=i / 2000) for i in range(1, 201)]
    summary = actiontrace.summary(rows)
    assert summary["total"][0] == pytest.approx(101.0)  # ms: the 101st of 200 sorted
    assert summary["total"][1] == pytest.approx(199.0)
    assert summary["writer"][1] == pytest.approx(99.5)
    # The slowest 1% by total: the last two rows (199 and 200 ms), their writer 99.5 and 100 ms.
    assert summary["total"][2] == pytest.approx(199.5)
    assert summary["writer"][2] == pytest.approx(99.75)
    assert actiontrace.summary([]) == {}


@pytest.mark.django_db
def test_the_writer_times_its_statements_and_its_own_cpu() -> None:
    hop = actiontrace.Hop(received=0.0)
    with actiontrace.writer(hop):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.execute("SELECT 2")
        sum(range(200_000))
    assert hop.statements == 2
    assert 0 < hop.db <= hop.acted - hop.started
    assert hop.cpu > 0
    assert hop.started > 0 and hop.acted >= hop.started


@pytest.mark.django_db(transaction=True)
async def test_an_action_on_a_socket_is_timed_and_a_refused_one_is_not(monkeypatch: Any) -> None:
    kept: list[tuple[Any, ...]] = []
    monkeypatch.setattr(actiontrace, "ENABLED", True)
    monkeypatch.setattr(actiontrace, "record", lambda *args: kept.append(args))
    table, _users = await database_sync_to_async(seated_table)(n=3)
    hand, state = await database_sync_to_async(current_state)(table)
    actor = await database_sync_to_async(user_for_index)(hand, state.actors()[0])
    comm = await _connect(table.id, actor)
    version = (await _next_state(comm))["version"]
    await comm.send_to(text_data=json.dumps({"action": "call", "version": version - 1}))  # stale: refused
    await comm.send_to(text_data=json.dumps({"action": "call", "version": version}))
    got = version
    while got < version + 1:
        got = (await _next_state(comm))["version"]
    await comm.disconnect()
    assert len(kept) == 1
    table_id, new_version, hop, sent, others = kept[0]
    assert (table_id, new_version, others) == (table.id, version + 1, 0)
    assert hop.received <= hop.started <= hop.acted <= hop.drawn <= sent
    assert hop.statements >= 3 and hop.db > 0 and hop.cpu > 0


def test_a_drawing_by_the_fanout_is_joined_to_the_action_that_made_its_version(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(actiontrace, "_rows", [])
    monkeypatch.setattr(actiontrace, "_heard", {})
    monkeypatch.setattr(actiontrace, "_flusher", object())
    monkeypatch.setattr(actiontrace.time, "time", lambda: 100.010)
    actiontrace.heard(7, 3)
    actiontrace.heard(7, 3)  # heard again (a resync): the first time counts
    actiontrace.drawn(7, 3, started=100.012, finished=100.015, sent=100.016, viewers=2)
    actiontrace.drawn(7, 4, started=100.012, finished=100.015, sent=100.016, viewers=2)  # never heard
    actiontrace.drawn(8, 9, started=100.012, finished=100.015, sent=100.016, viewers=1)
    hop = actiontrace.Hop(received=100.0, started=100.001, acted=100.006, drawn=100.007)
    actiontrace.record(7, 3, hop, 100.008, 1)
    actiontrace.flush(tmp_path)
    rows = actiontrace.read(tmp_path, 99.0, 101.0)
    # The drawing of version 3 comes with its action; version 4 was never announced, and table
    # 8's version 9 was made by no action in the window.
    assert sorted(r["kind"] for r in rows) == ["action", "fanout"]
    [joined] = actiontrace.across(rows)
    assert joined["heard"] == pytest.approx(0.010) and joined["queued"] == pytest.approx(0.002)
    assert joined["draw"] == pytest.approx(0.003) and joined["send"] == pytest.approx(0.001)
    assert joined["total"] == pytest.approx(0.016)
    assert actiontrace.summary(rows)["total"][0] == pytest.approx(8.0)  # the action's own, in ms
    assert actiontrace.summary([joined], actiontrace.ACROSS)["total"][1] == pytest.approx(16.0)
    assert actiontrace.read(tmp_path, 100.5, 101.0) == []


@pytest.mark.django_db(transaction=True)
async def test_a_version_made_elsewhere_is_timed_when_the_fanout_draws_it(monkeypatch: Any) -> None:
    from tables import services

    kept: list[dict[str, Any]] = []
    monkeypatch.setattr(actiontrace, "ENABLED", True)
    monkeypatch.setattr(actiontrace, "_heard", {})
    monkeypatch.setattr(actiontrace, "_keep", kept.append)
    table, _users = await database_sync_to_async(seated_table)(n=3)
    hand, state = await database_sync_to_async(current_state)(table)
    actor = await database_sync_to_async(user_for_index)(hand, state.actors()[0])
    spectator = await _connect(table.id, None)
    version = (await _next_state(spectator))["version"]
    # Taken by another process (here: straight through the service), so this process's socket
    # gets its picture from the fan-out.
    await database_sync_to_async(services.table_act)(
        table_id=table.id, user=actor, message={"action": "call", "version": version})
    assert (await _next_state(spectator))["version"] == version + 1
    await spectator.disconnect()
    [row] = [r for r in kept if r["version"] == version + 1]
    assert row["kind"] == "fanout" and row["table"] == table.id and row["viewers"] == 1
    assert row["heard"] <= row["started"] <= row["drawn"] <= row["sent"]


def test_a_collection_is_kept_with_its_generation_and_read_back_within_the_window(tmp_path: Path, monkeypatch: Any) -> None:
    import gc

    monkeypatch.setattr(actiontrace, "_rows", [])
    monkeypatch.setattr(actiontrace, "_flusher", object())  # no thread: flushed by hand below
    monkeypatch.setattr(actiontrace, "GC_MIN_SECONDS", 0.0)  # keep even a quick one
    watching = actiontrace._on_collection in gc.callbacks  # the interpreter's own list
    try:
        actiontrace.watch_collections()
        actiontrace.watch_collections()  # once only
        assert gc.callbacks.count(actiontrace._on_collection) == 1
        before = time.time()
        gc.collect(1)
        after = time.time()
    finally:
        if not watching:
            gc.callbacks.remove(actiontrace._on_collection)
    kept = [r for r in actiontrace._rows if r["kind"] == "gc"]
    assert [r["gen"] for r in kept] == [1]
    assert before <= kept[0]["at"] <= after and 0 <= kept[0]["took"] <= after - before and kept[0]["cpu"] >= 0
    # An action and a fan-out drawing beside it: each read as its kind, the collection in the
    # window, not taken for an action (nor joined to one).
    hop = actiontrace.Hop(received=before, started=before, acted=before + 0.001)
    actiontrace.record(7, 3, hop, before + 0.002, 0)
    assert actiontrace.flush(tmp_path) == 2
    rows = actiontrace.read(tmp_path, before - 1, after + 1)
    assert sorted(r["kind"] for r in rows) == ["action", "gc"]
    assert actiontrace.summary(rows)["total"][0] == pytest.approx(2.0, abs=0.01)
    assert actiontrace.across(rows) == []
    assert [r["kind"] for r in actiontrace.read(tmp_path, after + 1, after + 2)] == []
    # A quick collection is not kept.
    monkeypatch.setattr(actiontrace, "GC_MIN_SECONDS", 60.0)
    actiontrace._on_collection("start", {"generation": 0})
    actiontrace._on_collection("stop", {"generation": 0})
    assert actiontrace.flush(tmp_path) == 0


def test_pauses_are_summed_per_generation() -> None:
    rows = [{"kind": "gc", "at": float(i), "took": t, "cpu": t / 2, "gen": gen}
            for i, (t, gen) in enumerate([(0.010, 0), (0.012, 0), (0.030, 0), (0.050, 1)])]
    rows.append(_row(1.0, 0.5) | {"kind": "action"})
    got = actiontrace.pauses(rows)
    assert list(got) == [0, 1]
    n, p50, longest, cpu = got[0]
    assert n == 3 and p50 == pytest.approx(12.0) and longest == pytest.approx(30.0) and cpu == pytest.approx(26.0)
    assert got[1] == (1, pytest.approx(50.0), pytest.approx(50.0), pytest.approx(25.0))
    assert actiontrace.pauses([]) == {}


def test_a_collection_at_the_interpreters_end_is_dropped_quietly(tmp_path: Path) -> None:
    """The interpreter's last collection can take over a millisecond, when no thread may start:
    the row is dropped without "Exception ignored" on the way out."""
    import subprocess
    import sys

    code = ("from tables import actiontrace\n"
            "actiontrace.GC_MIN_SECONDS = 60.0\n"  # nothing kept (no thread started) until the end
            "keep = [[i] for i in range(300000)]\n"
            "actiontrace.GC_MIN_SECONDS = 0.0\n")
    env = dict(os.environ, PP_ACTION_TRACE=str(tmp_path))
    res = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], env=env,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and "Exception ignored" not in res.stderr and "Traceback" not in res.stderr, res.stderr
