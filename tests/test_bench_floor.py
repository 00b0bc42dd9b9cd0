"""The floor bench (bench/bench_floor.py): the live bench's bots against the least a table can
cost on this stack. Here a few tables for a few seconds, to show it runs and measures what the
live bench measures (its figures are in bench/RESULTS.md, from `make bench`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.services import need_postgres, need_redis

_path = Path(__file__).parent.parent / "bench" / "bench_floor.py"
_spec = importlib.util.spec_from_file_location("bench_floor_under_test", _path)
assert _spec and _spec.loader
bench_floor = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench_floor
_spec.loader.exec_module(bench_floor)


@pytest.mark.services
def test_a_short_floor_run_plays_and_measures() -> None:
    need_postgres()
    need_redis()
    r = bench_floor.one_run(4, window=4.0, think=0.2)
    # Every table moved, every action was accepted and reached all three players.
    assert r.accepted >= 4 * 4 and r.refused == 0 and r.missed_versions == 0, r.line()
    assert len(r.latencies) == r.accepted and all(0 < x < 5 for x in r.latencies)
    assert set(r.cpu) >= {"daphne-0", "daphne-1", "bots"} and r.daphne_ms_per_action > 0
    text = bench_floor._markdown([r])
    assert text.count("\n| 4 |") == 1 and "No rules, rendering, timers or Celery" in text


def test_the_report_says_whether_the_floor_leaves_room_for_the_target() -> None:
    def row(tables: int, latency_s: float) -> object:
        r = bench_floor.live.RunResult(tables=tables, daphnes=2, think=1.0, window=10.0, setup_s=1.0, routing="table")
        r.accepted, r.latencies, r.cpu = tables * 10, [latency_s] * 100, {"daphne-0": 0.2, "daphne-1": 0.2}
        return r

    under = bench_floor._markdown([row(10, 0.01), row(200, 0.03)], speed=1.0)
    assert "floor's p99 is 30 ms, under the 50 ms target" in under and "took 1.00 s" in under
    over = bench_floor._markdown([row(200, 0.08)])
    assert "floor's p99 is 80 ms, over the 50 ms target" in over and "this stack alone cannot" in over
