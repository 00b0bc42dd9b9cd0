"""The floor under the live-table figures: the same load against the least a table can cost.

``bench_live`` measures the site: N tables x 3 bots, each acting one second after its turn comes,
over websockets to two Daphne processes, with PostgreSQL, Redis and a Celery worker. This runs the
same bots, the same way and on the same machine, against ``bench/floor_app.py``: Daphne and
Channels, one short PostgreSQL transaction per action (the row locked, the version checked, a
hand-sized state written), one ``PUBLISH``, and a picture of the site's size to every viewer, with
no rules, no rendering, no timers. What it costs and how late it answers is what this stack and
this machine take before the site does anything of its own: if the floor's p99 is near the
target, no work on the site's code can meet it here.

``run()`` prints as it measures and returns a markdown section for ``bench/RESULTS.md``
(``python bench/run.py floor``); ``python bench/bench_floor.py [tables] [seconds]`` runs one size.
"""
# No "from __future__ import annotations": bench/run.py loads this file without registering it
# in sys.modules (see bench_live.py).
import asyncio
import gc
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import bench_live as live  # noqa: E402

from tests.integration.cluster import (  # noqa: E402
    answers,
    free_port,
    postgres_database,
    redis_database,
)

SIZES = (10, 200)
ROUTING = "table"  # every socket of a table on one process, the deployment the README recommends
STATE_BYTES = 950  # a Patch-Patch hand's saved state is about this long


def _start_daphne(db_url: str, redis_url: str, logdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = dict(os.environ, DATABASE_URL=db_url, REDIS_URL=redis_url, PYTHONPATH=str(HERE), PYTHONUNBUFFERED="1")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    log = (logdir / f"floor-daphne-{port}.log").open("wb")
    proc = subprocess.Popen(  # noqa: S603 - our own interpreter
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "floor_app:application"],
        cwd=HERE, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"floor Daphne exited:\n{(logdir / f'floor-daphne-{port}.log').read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise TimeoutError("floor Daphne did not start listening within 60 s")


def _seed(db_url: str, tables: int) -> list[int]:
    import psycopg

    with psycopg.connect(db_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE floor_table (id integer PRIMARY KEY, version integer NOT NULL, state text NOT NULL)")
        with conn.cursor() as cur:
            cur.executemany("INSERT INTO floor_table VALUES (%s, 0, %s)",
                            [(i, "s" * STATE_BYTES) for i in range(1, tables + 1)])
    return list(range(1, tables + 1))


async def _drive(ports: list[int], table_ids: list[int], pids: dict[str, int], think: float, window: float,
                 result: "live.RunResult") -> None:
    record = live.Record()
    bots = [live.DeadlineBot(record=record, think=think, port=live.port_for(ports, t, n, i, result.routing),
                             table_id=t, cookie=str(i), cookie_name="sessionid", label=f"t{t}s{i}")
            for n, t in enumerate(table_ids) for i in range(3)]

    cpu_now = live.cpu_reader(pids)

    loop = asyncio.get_running_loop()
    # Each table starts at its own moment over a few seconds, then goes on at the bots' pace.
    for n in range(len(table_ids)):
        start = loop.time() + random.uniform(0, 3 * (think or 0.1))
        for b in bots[3 * n:3 * n + 3]:
            b.start_at = start
    frozen_before = gc.get_freeze_count()
    try:
        await live._connect_all(bots)
        gc.collect()
        gc.freeze()
        gc.disable()
        await asyncio.sleep(3 * (think or 0.1) + 3.0)
        await live._measure(result, bots, record, cpu_now, window, settle=2.0)
    finally:
        await live._stop_all(bots, record, unfreeze=frozen_before == 0)


def one_run(tables: int, window: float = live.WINDOW, think: float = live.THINK, daphnes: int = 2,
            routing: str = ROUTING) -> "live.RunResult":
    import tempfile

    result = live.RunResult(tables=tables, daphnes=daphnes, think=think, window=window, setup_s=0.0,
                            load=os.getloadavg()[0], routing=routing)
    logdir = Path(tempfile.mkdtemp(prefix="floor-"))
    with postgres_database(live.PG_ADMIN_URL) as db_url, \
            redis_database(live.REDIS_BASE_URL, live.REDIS_DB) as redis_url:
        table_ids = _seed(db_url, tables)
        procs: list[subprocess.Popen[bytes]] = []
        try:
            ports = []
            for _ in range(daphnes):
                proc, port = _start_daphne(db_url, redis_url, logdir)
                procs.append(proc)
                ports.append(port)
            pids = {f"daphne-{n}": p.pid for n, p in enumerate(procs)}
            asyncio.run(_drive(ports, table_ids, pids, think, window, result))
            dead = [p.pid for p in procs if p.poll() is not None]
            if dead:
                raise RuntimeError(f"floor Daphne {dead} died; logs in {logdir}")
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
    return result


def run(window: float = live.WINDOW) -> str:
    title = "## The floor: the same load with the site's own work taken out (issues #4, #9)\n\n"
    missing = [what for what, url, port in (("PostgreSQL", live.PG_ADMIN_URL, 5432), ("Redis", live.REDIS_BASE_URL, 6379))
               if not answers(url, port)]
    if missing:
        msg = f"Skipped: {' and '.join(missing)} did not answer."
        print(msg)
        return title + msg + "\n"
    rows = []
    speed = calibration_s()
    print(f"floor: this machine adds 10,000,000 integers in a Python loop in {speed:.2f} s", flush=True)
    for n in SIZES:
        print(f"floor: {n} tables x 3 bots, 2 Daphne, routing {ROUTING}, {window:.0f} s ...", flush=True)
        r = one_run(n, window)
        print("  " + r.line(), flush=True)
        rows.append(r)
    return title + _markdown(rows, speed)


def calibration_s() -> float:
    """Seconds this machine takes to add 10,000,000 integers in a Python loop (best of three): how
    fast it is today, next to the figures (the same code ran 2.7 times slower on one day than on
    another on the "same" 2-core machine)."""
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        total = 0
        for i in range(10_000_000):
            total += i
        best = min(best, time.perf_counter() - t)
    return best


def _markdown(rows: list["live.RunResult"], speed: float | None = None) -> str:
    out = [
        "`bench/bench_floor.py` against `bench/floor_app.py`: the bots, pace and routing of `bench_live` (every "
        "socket of a table on one of two Daphne processes), and per action one hop to a thread, one PostgreSQL "
        "transaction (row locked, version checked, a hand-sized state written), one Redis `PUBLISH` and a "
        "9.5 kB picture to each of the table's three players. No rules, rendering, timers or Celery.\n",
        "| tables | actions/s | p50 ms | p99 ms | Daphne ms CPU per action | PostgreSQL | bots | machine |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lat = [x * 1000 for x in r.latencies]
        out.append(
            f"| {r.tables} | {r.actions_per_s:.0f} | {live._pct(lat, 50):.1f} | {live._pct(lat, 99):.1f} | "
            f"{r.daphne_ms_per_action:.2f} | {r.cpu.get('postgres', 0):.0%} | {r.cpu.get('bots', 0):.0%} | "
            f"{r.machine:.0%} |")
    if speed is not None:
        out.append(f"\nThis machine's speed for these runs: 10,000,000 additions in a Python loop took {speed:.2f} s.")
    at_target = [r for r in rows if r.tables == live.TARGET_TABLES and r.latencies]
    if at_target:
        p99 = live._pct([x * 1000 for x in at_target[0].latencies], 99)
        verdict = "under" if p99 <= 50 else "over"
        out.append(f"\nAt {live.TARGET_TABLES} tables the floor's p99 is {p99:.0f} ms, {verdict} the 50 ms target: "
                   + ("what the site adds on top of the floor is what misses it (compare `bench_live`'s Daphne CPU per "
                      "action with the floor's)." if verdict == "under" else
                      "on this machine this stack alone cannot meet the target."))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else live.WINDOW
    r = one_run(n, seconds)
    print(r.line())
    print(_markdown([r]))
