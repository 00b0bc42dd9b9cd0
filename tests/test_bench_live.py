"""The live bench's routing of bots to Daphne processes, and its report of the routed run (the
bench itself, with Daphne, PostgreSQL and Redis, runs in ``make bench``, not here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_path = Path(__file__).parent.parent / "bench" / "bench_live.py"
_spec = importlib.util.spec_from_file_location("bench_live_under_test", _path)
assert _spec and _spec.loader
bench_live = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench_live  # dataclasses look their module up while the file runs
_spec.loader.exec_module(bench_live)


def test_spread_puts_a_tables_players_on_different_processes_and_table_routing_on_one() -> None:
    ports = [8000, 8001]
    for n, table_id in enumerate([7, 8, 31, 1000]):
        spread = {bench_live.port_for(ports, table_id, n, i, "spread") for i in range(3)}
        routed = {bench_live.port_for(ports, table_id, n, i, "table") for i in range(3)}
        assert spread == set(ports)
        assert len(routed) == 1
    # The same table goes to the same process however it was listed; tables use both processes.
    assert bench_live.port_for(ports, 7, 0, 0, "table") == bench_live.port_for(ports, 7, 5, 2, "table")
    assert {bench_live.port_for(ports, t, 0, 0, "table") for t in range(10)} == set(ports)


def test_an_unknown_routing_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown routing"):
        bench_live.port_for([8000], 1, 0, 0, "round-robin")


def _result(tables: int, latency_s: float, routing: str = "spread", think: float = 1.0, daphnes: int = 2):
    r = bench_live.RunResult(tables=tables, daphnes=daphnes, think=think, window=10.0, setup_s=1.0, routing=routing)
    r.accepted = tables * 10
    r.latencies = [latency_s] * 100
    r.timer_late = [0.1] * 10
    r.timer_applied = [0.05] * 10
    r.cpu = {"daphne-0": 0.5, "daphne-1": 0.5}
    return r


def test_the_report_shows_the_routed_run_and_judges_the_target_on_both() -> None:
    runs = [_result(10, 0.02), _result(200, 0.3)]
    affine = _result(200, 0.04, routing="table")
    text = bench_live._markdown(runs, _result(40, 0.2, think=0.0, daphnes=1), affine=affine)
    rows = [line for line in text.splitlines() if line.startswith("| 200")]
    assert [("one process per table" in row) for row in rows] == [False, True]
    assert "**not met** (p99 300 ms with 200 tables); with one process per table p99 40 ms" in text


def test_burst_share_tells_one_stall_from_slow_actions_spread_over_the_run() -> None:
    # 300 actions, one a second: the three slowest sent in the same second, or far apart.
    sent = [float(i) for i in range(300)]
    together = [0.01] * 300
    apart = [0.01] * 300
    for i in (100, 101, 102):
        together[i] = 0.5
    for i in (0, 150, 299):
        apart[i] = 0.5
    assert bench_live.burst_share(together, sent) == 1.0
    assert bench_live.burst_share(apart, sent) == pytest.approx(1 / 3)
    assert bench_live.burst_share([], []) != bench_live.burst_share([], [])  # nan: nothing measured


def test_the_probe_reports_its_gaps_and_the_report_shows_them() -> None:
    import asyncio

    r = _result(200, 0.3)
    asyncio.run(_run_probe(r, 0.3))
    assert r.probe_nice is not None and all(g > 0.010 for g in r.stalls)
    r.stalls = [0.012, 0.250]
    r.burst_share = 0.9
    assert r.stalls_text() == "12/min, longest 250 ms"
    text = bench_live._markdown([_result(10, 0.02), r], _result(40, 0.2, think=0.0, daphnes=1))
    row = next(line for line in text.splitlines() if line.startswith("| 200"))
    assert "| 90% | 12/min, longest 250 ms |" in row


async def _run_probe(r, window):  # type: ignore[no-untyped-def]
    proc = await bench_live._probe(window)
    await bench_live._probe_result(proc, r)


def test_the_report_shows_where_the_actions_time_went_inside_daphne_when_timed() -> None:
    timed = _result(200, 0.05, routing="table")
    timed.traced = 4000
    timed.trace = {p: (1.0 + i, 10.0 + i, 20.0 + i)
                   for i, p in enumerate(("wait", "writer", "db", "cpu", "draw", "send", "total"))}
    untimed = _result(200, 0.3)
    text = bench_live._markdown([_result(10, 0.02), untimed], _result(40, 0.2, think=0.0, daphnes=1), affine=timed)
    rows = [line for line in text.splitlines() if line.startswith("| 200 (one process per table) | 4000 |")]
    assert rows == ["| 200 (one process per table) | 4000 | 1.0 / 10.0 (20.0) | 2.0 / 11.0 (21.0) | 3.0 / 12.0 (22.0) | "
                    "4.0 / 13.0 (23.0) | 5.0 / 14.0 (24.0) | 6.0 / 15.0 (25.0) | 7.0 / 16.0 (26.0) |"]
    assert "| tables | actions timed | wait | writer | SQL | writer CPU | draw | send | total |" in text
    assert "writer 2.0/11.0 ms" in timed.line() and "inside Daphne" not in untimed.line()
    assert "no collection over 1 ms" in timed.line() and "collection" not in untimed.line()
    timed.collections = {0: (41, 12.5, 30.2, 336.0), 1: (2, 45.0, 62.4, 88.0)}
    assert timed.line().endswith("; collections over 1 ms: gen0 41 (p50 12.5, longest 30 ms, CPU 336 ms), "
                                 "gen1 2 (p50 45.0, longest 62 ms, CPU 88 ms)")
    assert "actions timed" not in bench_live._markdown([untimed], _result(40, 0.2, think=0.0, daphnes=1))


def test_the_report_shows_the_other_processs_drawings_for_spread_runs() -> None:
    spread = _result(200, 0.1)
    spread.traced, spread.drawn_across = 4000, 3900
    spread.trace = {p: (1.0, 2.0, 3.0) for p in ("wait", "writer", "db", "cpu", "draw", "send", "total")}
    spread.trace_across = {p: (4.0 + i, 40.0 + i, 80.0 + i)
                           for i, p in enumerate(("heard", "queued", "draw", "send", "total"))}
    text = bench_live._markdown([_result(10, 0.02), spread], _result(40, 0.2, think=0.0, daphnes=1))
    assert "| tables | drawings | heard | queued | draw | send | total |" in text
    assert ("| 200 | 3900 | 4.0 / 40.0 (80.0) | 5.0 / 41.0 (81.0) | 6.0 / 42.0 (82.0) | 7.0 / 43.0 (83.0) "
            "| 8.0 / 44.0 (84.0) |") in text
    assert "the other process (3900 drawings): heard 4.0/40.0 ms" in spread.line()
