"""Live tables under load: real websockets against Daphne, with Redis and PostgreSQL behind it.

``run()`` prints as it measures and returns a markdown section for ``bench/RESULTS.md``; the file
also runs on its own: ``python bench/bench_live.py [seconds-per-run]``.

Each run gets a fresh PostgreSQL database and an emptied Redis database (db 10 unless
``BENCH_REDIS_DB`` says otherwise), Daphne processes (two, or ``BENCH_LIVE_DAPHNES``) and one
Celery worker (threads, concurrency 2, with its beat), all started the way
``tests/integration/cluster.py`` starts them. N tables of three bots are seeded through the
services; every bot is a websocket client that logs in with its own session cookie and acts ONE
SECOND (plus up to 0.2 s) after its turn comes: check, else call; "done" to arrange; "I'm back"
after a timeout. On one table in ten one bot never acts, so its clocks run out (decision timeouts
next to the showdown pauses every hand ends with). The clocks are those of the site's fastest
tables (``CLOCKS``); one more run at 200 tables uses the short clocks the bench used before
(``SHORT_CLOCKS``: a timer every few seconds at every table, and a hand every 15 s or so). Tables
start (their first hand is dealt) at random moments over about one hand's length, as independent
tables would, rather than all in the same instant and then in step; the window opens once all
are under way.

Figures, for N = 10, 50, 200 and 500 (N is lowered, and the table says so, when seeding takes
over a minute):

* actions per second accepted by the server (every bot action that was not refused);
* latency: from a bot sending an action to EVERY viewer of that table (the table's three players)
  holding the version it produced, p50 and p99;
* timers: from the deadline a state message announced to every viewer holding the version the
  timer produced, and to the server applying it, p50 and p99;
* CPU used by each process, and Daphne's CPU per accepted action (the figure that moves least
  when other work shares the machine);
* the most actions per second one Daphne process sustains with no think time (bots act the moment
  their turn comes), over 40 tables.

Targets from issue #4: p99 latency at most 50 ms with 200 tables on this 2-core machine; timers
at most 1 s late at p99. Everything talks to 127.0.0.1 only; every loop and run is bounded (30 s
measured per run, a minute or two each with its set-up).
"""
# No "from __future__ import annotations": bench/run.py loads this file without registering it
# in sys.modules, and dataclasses then cannot resolve string annotations.
import asyncio
import concurrent.futures
import contextlib
import gc
import os
import random
import resource
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tables import actiontrace  # noqa: E402
from tests.integration.cluster import (  # noqa: E402
    Cluster,
    ClusterError,
    Viewer,
    answers,
    cpu_seconds,
    cpu_used,
    percentile,
    postgres_database,
    redis_database,
    service_cpu_seconds,
)

PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_BASE_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
REDIS_DB = int(os.environ.get("BENCH_REDIS_DB", "10"))

SIZES = tuple(int(n) for n in os.environ.get("BENCH_LIVE_SIZES", "10,50,200,500").split(","))
DAPHNES = int(os.environ.get("BENCH_LIVE_DAPHNES", "2"))  # Daphne processes for the N runs
THINK = 1.0  # seconds between a bot's turn coming and its action
JITTER = 0.2  # plus up to this much, so three players arranging at once don't always collide
WINDOW = 30.0  # seconds measured per run
SETUP_BUDGET = 150.0  # seconds allowed to seed one run's tables before N is lowered
SEED_BATCH = 25  # tables per seed command
SEED_LANES = 3  # control processes seeding at once
# The clocks of a "fast" table, the site's quickest (tables.services): what players at a brisk
# table live with. The bots act long before them, but the showdown pause and the pause before a
# deal set how many hands (and so hand starts and ends, the heaviest writes) a table plays.
CLOCKS = {"decision": 12.0, "arrange": 100.0, "showdown": 6.0, "deal": 4.0}
# The clocks the bench ran with until 2026-11-30, kept as a stress run: a timer every few seconds
# at every table, and a hand start every 15 s or so.
SHORT_CLOCKS = {"decision": 5.0, "arrange": 8.0, "showdown": 1.0, "deal": 1.0}


def clock_lengths(clocks: dict[str, float]) -> dict[str, float]:
    """A state's clock name -> its length: a new deadline minus its length is when the server set it."""
    return {"decision": clocks["decision"], "arrange": clocks["arrange"], "next": clocks["showdown"],
            "deal": clocks["deal"]}


def spread_seconds(clocks: dict[str, float]) -> float:
    """About one hand at a table of these bots: the two pauses and some fifteen actions of a
    second each. Tables start at random moments over this long, so that their hands' starts and
    ends are spread as independent tables' are; started together they stay in step for the whole
    run, and the p99 measures every table's showdown landing in the same few seconds."""
    return clocks["showdown"] + clocks["deal"] + 16.0


SLEEPY_EVERY = 10  # one table in ten has a bot that lets its clocks run out
SATURATION_TABLES = 40
SATURATION_WINDOW = 15.0
TARGET_TABLES = 200
KEEP_UP_SHARE = 0.8
TARGET_P99_MS = 50.0
TARGET_TIMER_P99_S = 1.0


_pct = percentile

# How the bots' sockets reach the Daphne processes. "spread": each table's three players on
# different processes, the worst case (every process holding a viewer reads and draws each version
# of the table). "table": every socket of a table on the same process, as a proxy that hashes the
# websocket's URL (which holds the table id) puts them (README, "Running on PostgreSQL and Redis");
# the bots connect to that process directly, so the proxy's own CPU is not in the figures.
ROUTINGS = ("spread", "table")


def port_for(ports: list[int], table_id: int, n: int, i: int, routing: str = "spread") -> int:
    """The Daphne port for player ``i`` of table ``n`` (id ``table_id``)."""
    if routing == "table":
        return ports[table_id % len(ports)]
    if routing != "spread":
        raise ValueError(f"unknown routing {routing!r}: one of {ROUTINGS}")
    return ports[(n + i) % len(ports)]


# ---------------------------------------------------------------------------------------------
# Bots


@dataclass
class Send:
    table_id: int
    version: int
    at: float
    action: str
    refused: bool = False


@dataclass
class Record:
    sends: list[Send] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    stopped: bool = False


class Bot(Viewer):
    """A player that acts ``think`` seconds after its turn comes, with the latest version."""

    def __init__(self, *, record: Record, think: float, sleepy: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.record = record
        self.think = think
        self.sleepy = sleepy
        self.pending: asyncio.TimerHandle | None = None
        self.start_at = 0.0  # loop time before which this bot does not act
        self.last_send: Send | None = None
        self.acted_at = -1  # the version this bot last acted on: never twice on the same picture
        self.sending: set[asyncio.Task[None]] = set()

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        if msg.get("type") == "error":
            if self.last_send is not None:
                self.last_send.refused = True
                self.last_send = None
            self.record.errors[str(msg.get("message"))] = self.record.errors.get(str(msg.get("message")), 0) + 1
            self.acted_at = -1  # refused: it may try again on the picture that comes with the error
            return
        if msg.get("type") != "state" or self.record.stopped or self.pending is not None:
            return
        if self._choice() is not None:
            loop = asyncio.get_running_loop()
            wait = self.start_at - loop.time()
            if self.think > 0:
                self.pending = loop.call_later(max(wait, self.think + random.uniform(0, JITTER)), self._fire)
            elif wait > 0:
                self.pending = loop.call_later(wait, self._fire)
            else:
                self.pending = loop.call_soon(self._fire)  # type: ignore[assignment]

    def _choice(self) -> str | None:
        if self.version <= self.acted_at:
            return None  # waiting for its own action to come back
        actions = self.actions
        if "im_back" in actions and self.phase != "over":
            return "im_back"
        if not self.my_turn or self.sleepy:
            return None
        return self.passive_choice()

    def _fire(self) -> None:
        self.pending = None
        if self.record.stopped:
            return
        choice = self._choice()
        if choice is None:
            return
        send = Send(table_id=self.table_id, version=self.version, at=time.time(), action=choice)
        self.acted_at = send.version
        self.record.sends.append(send)
        self.last_send = send
        task = asyncio.ensure_future(self.send(choice, version=send.version))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)


# ---------------------------------------------------------------------------------------------
# One run


@dataclass
class RunResult:
    tables: int
    daphnes: int
    think: float
    window: float
    setup_s: float
    clocks: dict[str, float] = field(default_factory=lambda: dict(CLOCKS))
    routing: str = "spread"  # see ROUTINGS
    accepted: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    timer_late: list[float] = field(default_factory=list)
    timer_applied: list[float] = field(default_factory=list)  # deadline -> the server applied it
    timer_late_by_clock: dict[str, list[float]] = field(default_factory=dict)  # timer_late, by clock
    missed_versions: int = 0
    bot_timeouts: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    machine: float = 0.0  # cores busy on the whole machine, ours and everybody else's
    load: float = 0.0  # the machine's 1-minute load average when the run started
    errors: dict[str, int] = field(default_factory=dict)  # refusals the bots got, by message
    refused_by_action: dict[str, int] = field(default_factory=dict)
    rss_before: int = 0  # kB held by the Daphne processes and the worker before the bots came
    rss_after: int = 0  # ... and at the end of the measured window
    note: str = ""
    measured_from: float = 0.0  # the window, in time.time() seconds
    measured_to: float = 0.0
    traced: int = 0  # actions timed inside Daphne (tables.actiontrace), and their parts:
    trace: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    drawn_across: int = 0  # ... and the other process's drawings of the versions they made:
    trace_across: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    # The Daphne processes' garbage collections over 1 ms in the window, per generation: how
    # many, p50 and longest (ms), CPU together (ms) (tables.actiontrace.pauses).
    collections: dict[int, tuple[int, float, float, float]] = field(default_factory=dict)
    stalls: list[float] = field(default_factory=list)  # the probe's gaps, seconds (see PROBE)
    probe_nice: int | None = None  # the probe's priority (None: no probe ran)
    burst_share: float = float("nan")  # of the slowest 1% of actions, the share in the busiest 2 s

    def stalls_text(self) -> str:
        if self.probe_nice is None:
            return "-"
        per_min = len(self.stalls) / self.window * 60 if self.window else 0.0
        longest = max(self.stalls, default=0.0) * 1000
        return f"{per_min:.0f}/min, longest {longest:.0f} ms"

    @property
    def kb_per_table(self) -> float:
        return (self.rss_after - self.rss_before) / self.tables if self.tables and self.rss_after else float("nan")

    @property
    def actions_per_s(self) -> float:
        return self.accepted / self.window

    @property
    def daphne_ms_per_action(self) -> float:
        busy = sum(v for k, v in self.cpu.items() if k.startswith("daphne"))
        return busy / self.actions_per_s * 1000 if self.accepted else float("nan")

    def line(self) -> str:
        lat = [x * 1000 for x in self.latencies]
        late = self.timer_late
        applied = self.timer_applied
        return (
            f"N={self.tables:4d} think={self.think:.1f}s daphne={self.daphnes} {self.routing}: "
            f"{self.actions_per_s:6.1f} actions/s ({self.refused} refused), "
            f"latency p50 {_pct(lat, 50):6.1f} ms p99 {_pct(lat, 99):7.1f} ms "
            f"(n={len(lat)}), timers late p50 {_pct(late, 50) * 1000:5.0f} ms "
            f"p99 {_pct(late, 99) * 1000:6.0f} ms (n={len(late)}), applied p50 "
            f"{_pct(applied, 50) * 1000:.0f} ms p99 {_pct(applied, 99) * 1000:.0f} ms, "
            f"Daphne CPU {self.daphne_ms_per_action:.1f} ms/action, cpu {self.cpu_text()}, load {self.load:.1f}, "
            f"slowest 1% in the busiest 2 s: {self.burst_share:.0%}, probe stalls {self.stalls_text()}"
            + (f", refusals {self.errors} by action {self.refused_by_action}" if self.errors else "")
            + (f"; inside Daphne p50/p99 ({self.traced} actions): " + ", ".join(
                f"{part} {p50:.1f}/{p99:.1f} ms" for part, (p50, p99, _slow) in self.trace.items())
               if self.trace else "")
            + (f"; the other process ({self.drawn_across} drawings): " + ", ".join(
                f"{part} {p50:.1f}/{p99:.1f} ms" for part, (p50, p99, _slow) in self.trace_across.items())
               if self.trace_across else "")
            + (f"; {self.collections_text()}" if self.trace else "")
        )

    def collections_text(self) -> str:
        """The Daphne processes' collector pauses over 1 ms in the window, per generation."""
        if not self.collections:
            return "no collection over 1 ms"
        return "collections over 1 ms: " + ", ".join(
            f"gen{gen} {n} (p50 {p50:.1f}, longest {longest:.0f} ms, CPU {cpu:.0f} ms)"
            for gen, (n, p50, longest, cpu) in self.collections.items())

    def cpu_text(self) -> str:
        return ", ".join(f"{k} {v:.0%}" for k, v in self.cpu.items()) + (
            f"; machine {self.machine:.0%} of {os.cpu_count() or 0}00%"
        )


def rss_kb(pid: int) -> int:
    """Resident memory of a process, in kB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _first_at_or_after(viewer: Viewer, version: int) -> float | None:
    times = [t for v, t in viewer.arrivals.items() if v >= version]
    return min(times) if times else None


def burst_share(latencies: list[float], sent_at: list[float], span: float = 2.0) -> float:
    """Of the slowest 1% of actions, the share sent within the busiest ``span`` seconds: near 1
    when the p99 is one stall of everything at once, near ``span`` / window when the slow
    actions are spread over the run.

    >>> burst_share([0.01] * 99 + [0.5], [float(i) for i in range(100)])
    1.0
    >>> burst_share([0.5] + [0.01] * 198 + [0.4], [float(i) for i in range(200)])
    0.5
    """
    if not latencies:
        return float("nan")
    n = max(1, len(latencies) // 100)
    slow = sorted(t for _lat, t in sorted(zip(latencies, sent_at, strict=True), reverse=True)[:n])
    best = 0
    j = 0
    for i, t in enumerate(slow):
        while slow[j] < t - span:
            j += 1
        best = max(best, i - j + 1)
    return best / n


async def _probe(window: float) -> Any:
    """Start ``bench/stall_probe.py`` for ``window`` seconds (read with ``_probe_result``)."""
    probe = Path(__file__).resolve().parent / "stall_probe.py"
    return await asyncio.create_subprocess_exec(sys.executable, str(probe), str(window),
                                                stdout=asyncio.subprocess.PIPE)


async def _probe_result(proc: Any, result: RunResult) -> None:
    import json

    try:
        out, _ = await asyncio.wait_for(proc.communicate(), timeout=30)
        data = json.loads(out or b"{}")
        result.stalls = [float(x) for x in data.get("gaps", [])]
        result.probe_nice = int(data["nice"])
    except (TimeoutError, ValueError, KeyError, TypeError):
        with contextlib.suppress(ProcessLookupError):
            proc.kill()


def _analyse(result: RunResult, bots: list[Bot], record: Record, t0: float, t1: float) -> None:
    by_table: dict[int, list[Bot]] = {}
    for b in bots:
        by_table.setdefault(b.table_id, []).append(b)
    accepted_at: dict[tuple[int, int], Send] = {}
    for s in record.sends:
        if not t0 <= s.at < t1:
            continue
        if s.refused:
            result.refused += 1
            result.refused_by_action[s.action] = result.refused_by_action.get(s.action, 0) + 1
            continue
        result.accepted += 1
        accepted_at[(s.table_id, s.version)] = s
    sent_at: list[float] = []
    for (table_id, version), s in accepted_at.items():
        arrivals = [_first_at_or_after(v, version + 1) for v in by_table[table_id]]
        if any(a is None for a in arrivals):
            result.missed_versions += 1
            continue
        result.latencies.append(max(arrivals) - s.at)  # type: ignore[type-var,operator]
        sent_at.append(s.at)
    result.burst_share = burst_share(result.latencies, sent_at)
    # Timers: a state announcing a deadline, followed by a version nobody's action produced.
    accepted_any = {(s.table_id, s.version) for s in record.sends if not s.refused}
    for table_id, viewers in by_table.items():
        states: dict[int, dict[str, Any]] = {}
        for v in viewers:
            for version, deadline, clock in getattr(v, "deadlines", []):
                states.setdefault(version, {"deadline": deadline, "clock": clock})
        for version, info in states.items():
            if info["deadline"] is None or (table_id, version) in accepted_any:
                continue
            if not t0 <= info["deadline"] < t1:
                continue
            arrivals = [_first_at_or_after(v, version + 1) for v in viewers]
            if any(a is None for a in arrivals):
                continue
            # The state the timer made starts a new clock at the moment the server applied it;
            # one that started before the deadline came from something else (a seat taken...).
            made = states.get(version + 1)
            length = clock_lengths(result.clocks).get(made["clock"]) if made else None
            if made is not None and made["deadline"] is not None and length:
                applied = made["deadline"] - length - info["deadline"]
                if applied < -0.05:
                    continue
                result.timer_applied.append(applied)
            result.timer_late.append(max(arrivals) - info["deadline"])  # type: ignore[type-var,operator]
            result.timer_late_by_clock.setdefault(str(info["clock"]), []).append(result.timer_late[-1])
            if info["clock"] == "decision" and not any(
                b.sleepy for b in viewers
            ):
                result.bot_timeouts += 1


class DeadlineBot(Bot):
    """Remembers every (version, deadline, clock) it was shown, for the timer figures."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.deadlines: list[tuple[int, float | None, str]] = []

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        if msg.get("type") == "state":
            self.deadlines.append((msg["version"], msg.get("deadline"), msg.get("clock") or ""))
        super().on_message(msg, now)


async def _connect_all(bots: list[Bot], concurrency: int = 40) -> None:
    gate = asyncio.Semaphore(concurrency)

    async def one(b: Bot) -> None:
        async with gate:
            await b.connect()
            await b.wait_version(0, 60)

    await asyncio.gather(*(one(b) for b in bots))


async def _drive(cluster: Cluster, tables: list[dict[str, Any]], cookie_name: str, ports: list[int],
                 think: float, window: float, result: RunResult, setup_started: float) -> None:
    record = Record()
    bots: list[Bot] = []
    for n, t in enumerate(tables):
        for i, p in enumerate(t["players"]):
            bots.append(DeadlineBot(
                record=record, think=think, sleepy=(think > 0 and n % SLEEPY_EVERY == 0 and i == 0),
                port=port_for(ports, t["id"], n, i, result.routing), table_id=t["id"], cookie=p["cookie"],
                cookie_name=cookie_name, label=p["username"],
            ))
    pids = {name.split("-")[0] + (f"-{n}" if name.startswith("daphne") else ""): pid
            for n, (name, pid) in enumerate(cluster.pids().items())}

    cpu_now = cpu_reader(pids)

    def rss_now() -> int:
        return sum(rss_kb(pid) for name, pid in pids.items() if name.startswith(("daphne", "worker")))

    frozen_before = gc.get_freeze_count()
    try:
        result.rss_before = rss_now()
        await _connect_all(bots)
        result.setup_s = time.monotonic() - setup_started
        # This process stamps every arrival: a collection of its heap (every bot and every
        # message recorded) would stamp late whatever came meanwhile, so it does not collect
        # while it measures (it frees by reference counting; the cycles wait until the end).
        gc.collect()
        gc.freeze()
        gc.disable()
        # Every table starts (its first hand is dealt) at its own moment over about one hand's
        # length (spread_seconds), and the window opens once all are under way.
        loop = asyncio.get_running_loop()
        spread = spread_seconds(result.clocks)
        started = loop.time()
        waiting = sorted(((random.uniform(0, spread), t["id"]) for t in tables), reverse=True)
        while waiting:
            now = loop.time() - started
            due = []
            while waiting and waiting[-1][0] <= now:
                due.append(waiting.pop()[1])
            if due:
                await asyncio.to_thread(cluster.control, "resume", tables=due)
            await asyncio.sleep(0.25)
        await asyncio.sleep(min(3.0, window / 5))
        # Let the last actions and timers land before the bots stop listening.
        await _measure(result, bots, record, cpu_now, window, settle=min(3.0, result.clocks["decision"]),
                       rss_now=rss_now)
    finally:
        await _stop_all(bots, record, unfreeze=frozen_before == 0)


def cpu_reader(pids: dict[str, int]) -> Any:
    """A function giving the CPU seconds used so far by each of ``pids``, by this process (the
    bots), by PostgreSQL and Redis, and by the whole machine (shared with bench_floor)."""

    def cpu_now() -> dict[str, Any]:
        out: dict[str, Any] = {name: cpu_seconds(pid) for name, pid in pids.items()}
        me = resource.getrusage(resource.RUSAGE_SELF)
        out["bots"] = me.ru_utime + me.ru_stime
        out.update(service_cpu_seconds())
        return out

    return cpu_now


async def _measure(result: RunResult, bots: list[Bot], record: Record, cpu_now: Any, window: float, *,
                   settle: float, rss_now: Any = None) -> None:
    """Measure ``window`` seconds (CPU of every process, the machine, memory), stop the bots
    acting, wait ``settle`` seconds, and work out the run's figures (shared with bench_floor)."""
    probe = await _probe(window)
    cpu0 = cpu_now()
    t0 = time.time()
    await asyncio.sleep(window)
    t1 = time.time()
    cpu1 = cpu_now()
    result.measured_from, result.measured_to = t0, t1
    await _probe_result(probe, result)
    if rss_now is not None:
        result.rss_after = rss_now()
    record.stopped = True
    await asyncio.sleep(settle)
    result.window = t1 - t0
    used = {k: cpu_used(cpu0[k], cpu1[k]) / result.window for k in cpu1}
    result.machine = used.pop("machine")
    result.cpu = used
    _analyse(result, bots, record, t0, t1)
    result.errors = dict(record.errors)


async def _stop_all(bots: list[Bot], record: Record, *, unfreeze: bool = True) -> None:
    """The bots stop and close; the collector runs again. ``unfreeze``: give back to it what the
    run froze; not when the process had frozen objects of its own before (a Daphne test process
    imports config.asgi, which freezes Django's start-up objects for good)."""
    gc.enable()
    if unfreeze:
        gc.unfreeze()
    record.stopped = True
    for b in bots:
        if b.pending is not None:
            b.pending.cancel()
    gate = asyncio.Semaphore(100)

    async def close(b: Bot) -> None:
        async with gate:
            await b.close()

    await asyncio.gather(*(close(b) for b in bots), return_exceptions=True)


def _seed(cluster: Cluster, tables: int, started: float) -> tuple[list[dict[str, Any]], str]:
    """Seed ``tables`` tables in batches on a few control processes at once; stop early (fewer
    tables) once SETUP_BUDGET has gone by."""
    import threading

    seeded: list[dict[str, Any]] = []
    cookie_name = ["sessionid"]
    batches = [(n, min(SEED_BATCH, tables - n)) for n in range(0, tables, SEED_BATCH)]
    lock = threading.Lock()

    def lane(number: int) -> None:
        while True:
            with lock:
                if not batches or time.monotonic() - started > SETUP_BUDGET:
                    return
                first, size = batches.pop(0)
            out = cluster.control_on(number, "seed", tables=size, players=3, prefix=f"b{first}_")
            with lock:
                cookie_name[0] = out["cookie_name"]
                seeded.extend(out["tables"])

    with concurrent.futures.ThreadPoolExecutor(SEED_LANES) as pool:
        for f in [pool.submit(lane, n) for n in range(SEED_LANES)]:
            f.result()
    return seeded, cookie_name[0]


def _one_run(*, tables: int, daphnes: int, think: float, window: float,
             clocks: dict[str, float] | None = None, routing: str = "spread") -> RunResult:
    setup_started = time.monotonic()
    port_for([0], 0, 0, 0, routing)  # an unknown routing fails here, before anything starts
    result = RunResult(tables=tables, daphnes=daphnes, think=think, window=window, setup_s=0.0,
                       clocks=dict(clocks or CLOCKS), load=os.getloadavg()[0], routing=routing)
    with (postgres_database(PG_ADMIN_URL) as db_url, redis_database(REDIS_BASE_URL, REDIS_DB) as redis_url,
          tempfile.TemporaryDirectory(prefix="pp-trace-") as trace_dir):
        cluster = Cluster(database_url=db_url, redis_url=redis_url, **result.clocks,
                          extra_env={"PP_ACTION_TRACE": trace_dir})
        try:
            cluster.migrate()
            ports = [cluster.start_daphne() for _ in range(daphnes)]
            cluster.start_worker(wait=False)
            seeded, cookie_name = _seed(cluster, tables, setup_started)
            if len(seeded) < tables:
                result.note = f"lowered from {tables}: seeding took over {SETUP_BUDGET:.0f} s"
            result.tables = len(seeded)
            cluster.wait_for_worker()
            asyncio.run(_drive(cluster, seeded, cookie_name, ports, think, window, result, setup_started))
            cluster.assert_alive()
            # The settle after the window is longer than the processes' flushes are apart.
            timed = actiontrace.read(trace_dir, result.measured_from, result.measured_to)
            result.traced = sum(1 for r in timed if r["kind"] == "action")
            result.trace = actiontrace.summary(timed)
            joined = actiontrace.across(timed)
            result.drawn_across, result.trace_across = len(joined), actiontrace.summary(joined, actiontrace.ACROSS)
            result.collections = actiontrace.pauses(timed)
        except BaseException:
            print(cluster.logs(), file=sys.stderr)
            raise
        finally:
            cluster.close()
    return result


# ---------------------------------------------------------------------------------------------


def run(window: float = WINDOW) -> str:
    title = "## Live tables: websockets, Daphne, Redis, PostgreSQL, Celery timers (issue #4)\n\n"
    missing = [what for what, url, port in (("PostgreSQL", PG_ADMIN_URL, 5432), ("Redis", REDIS_BASE_URL, 6379))
               if not answers(url, port)]
    if missing:
        msg = f"Skipped: {' and '.join(missing)} did not answer (see README, 'Running on PostgreSQL and Redis')."
        print(msg)
        return title + msg + "\n"
    with contextlib.suppress(ImportError):
        import websockets  # noqa: F401
    if "websockets" not in sys.modules:
        msg = "Skipped: the websockets package is missing (pip install -e '.[bench]')."
        print(msg)
        return title + msg + "\n"

    # (role, tables, Daphne processes, think, seconds, clocks, routing). The routed 200-table run
    # comes right after the spread one, before a saturating run leaves the machine loaded.
    plan = [("size", n, DAPHNES, THINK, window, CLOCKS, "spread") for n in SIZES if n <= TARGET_TABLES]
    plan.append(("affine", TARGET_TABLES, DAPHNES, THINK, window, CLOCKS, "table"))
    plan += [("size", n, DAPHNES, THINK, window, CLOCKS, "spread") for n in SIZES if n > TARGET_TABLES]
    plan.append(("stress", TARGET_TABLES, DAPHNES, THINK, window, SHORT_CLOCKS, "spread"))
    # With no think time a hand's actions take a fraction of a second and the fast clocks'
    # pauses (10 s a hand) would be most of the run: the short pauses keep the process busy.
    plan.append(("saturation", SATURATION_TABLES, 1, 0.0, min(window, SATURATION_WINDOW), SHORT_CLOCKS, "spread"))
    runs: dict[str, list[RunResult]] = {}
    for role, n, daphnes, think, seconds, clocks, routing in plan:
        short = " (short clocks)" if clocks is SHORT_CLOCKS else ""
        print(f"live: {n} tables x 3 bots{short}, {daphnes} Daphne, routing {routing}, think {think:.0f} s, "
              f"{seconds:.0f} s ...", flush=True)
        try:
            r = _one_run(tables=n, daphnes=daphnes, think=think, window=seconds, clocks=clocks, routing=routing)
        except (ClusterError, OSError, TimeoutError) as exc:
            print(f"  failed: {exc}", flush=True)
            r = RunResult(tables=n, daphnes=daphnes, think=think, window=seconds, setup_s=0.0, clocks=dict(clocks),
                          routing=routing, note=f"failed: {str(exc).splitlines()[0][:200]}")
        runs.setdefault(role, []).append(r)
        print("  " + r.line(), flush=True)
    return title + _markdown(runs["size"], runs["saturation"][0], stress=runs["stress"][0], affine=runs["affine"][0])


def _ms(values: list[float], q: float, scale: float = 1000.0) -> str:
    return f"{_pct(values, q) * scale:.0f} ms" if values else "-"


def _run_tag(r: RunResult) -> str:
    tag = f"{r.tables}" + (" (no think time)" if r.think == 0 else "")
    if r.routing == "table":
        tag += " (one process per table)"
    if r.clocks == SHORT_CLOCKS:
        tag += " (short clocks)"
    if r.note:
        tag += f" ({r.note})"
    return tag


def _cells(trace: dict[str, tuple[float, float, float]], parts: tuple[str, ...]) -> str:
    """Each part's p50 / p99 (and the slowest 1%'s mean), as table cells."""
    return " | ".join(f"{trace[p][0]:.1f} / {trace[p][1]:.1f} ({trace[p][2]:.1f})" for p in parts)


def _trace_table(runs: list[RunResult]) -> list[str]:
    """Where the actions' time went inside the Daphne process that took them (``tables.actiontrace``)."""
    traced = [r for r in runs if r.trace]
    if not traced:
        return []
    parts = ("wait", "writer", "db", "cpu", "draw", "send", "total")
    out = [
        "Inside the Daphne process that took each action in the window (`tables.actiontrace`, on for "
        "these runs: `PP_ACTION_TRACE`), p50 / p99 of each part, and in brackets its mean over the "
        "slowest 1% of actions (by total): wait, from the message read to its hop starting on a thread; "
        "writer, the action's transaction with what runs on its commit (the table's message to Redis "
        "among it), of which SQL is its statements' wall time (BEGIN and COMMIT not counted) and CPU the "
        "thread's own CPU time; draw, the pictures drawn in the same hop (the player's and the other "
        "players' on that process); send, back on the event loop until the last of them is handed to "
        "its socket; total, from the message read to then. A player on the other process (spread rows) "
        "is drawn by that process after the table's message reaches it, which is not in these parts.",
        "",
        "| tables | actions timed | " + " | ".join(("SQL" if p == "db" else "writer CPU" if p == "cpu" else p)
                                                  for p in parts) + " |",
        "|---|---:|" + "---:|" * len(parts),
    ]
    for r in traced:
        out.append(f"| {_run_tag(r)} | {r.traced} | {_cells(r.trace, parts)} |")
    out.append("")
    across = [r for r in traced if r.trace_across]
    if across:
        out += [
            "A player on the other process (spread rows): the version's drawing there, joined to the action that "
            "made it, p50 / p99 (mean over the slowest 1% by total): heard, from the action's message read by the "
            "process that took it to the table's message heard by the other one (the writer's transaction and "
            "Redis); queued, from then to its drawing starting (a drawing of that table already under way there, "
            "or an action of its own, goes first); draw and send as above; total, from the action's message read "
            "to the last picture handed to its socket there.",
            "",
            "| tables | drawings | " + " | ".join(actiontrace.ACROSS) + " |",
            "|---|---:|" + "---:|" * len(actiontrace.ACROSS),
        ]
        for r in across:
            out.append(f"| {_run_tag(r)} | {r.drawn_across} | {_cells(r.trace_across, actiontrace.ACROSS)} |")
        out.append("")
    return out


def _markdown(runs: list[RunResult], sat: RunResult, stress: RunResult | None = None,
              affine: RunResult | None = None) -> str:
    out = [
        "Bots on real websockets (the `websockets` library, asking for compressed messages as browsers "
        "do: permessage-deflate, `config/wsdeflate.py`) against Daphne, one Celery worker (threads, "
        "concurrency 2, with its beat), Redis (pub/sub for the table messages, the broker for the "
        "timers) and PostgreSQL, all on this machine; a fresh "
        "database and Redis db per run. Three bots a table, each logged in with its own session, "
        f"acting {THINK:.0f} s (plus 0-{JITTER * 1000:.0f} ms) after its turn comes: check, else call, "
        f"done to arrange. On one table in {SLEEPY_EVERY} one bot never acts, so its decision clocks "
        f"run out. Clocks of the site's fastest tables: decision {CLOCKS['decision']:.0f} s, arrangement "
        f"{CLOCKS['arrange']:.0f} s, showdown pause {CLOCKS['showdown']:.0f} s, pause before a deal "
        f"{CLOCKS['deal']:.0f} s; the row marked 'short clocks' uses {SHORT_CLOCKS['decision']:.0f} s, "
        f"{SHORT_CLOCKS['arrange']:.0f} s, {SHORT_CLOCKS['showdown']:.0f} s and {SHORT_CLOCKS['deal']:.0f} s "
        "(what this bench used before: timers five times as often, a hand every 15 s or so). Each table's "
        "three players are spread over the Daphne processes (the worst case: every process holding "
        "one of a table's players reads and draws each of its versions), except in the row marked "
        "'one process per table', where all three are on the process a proxy hashing the socket's URL "
        "would send them to (README, 'Running on PostgreSQL and Redis'; the bots connect to it "
        "directly, so a proxy's own CPU is not counted). Tables start (their first hand is dealt) at "
        f"random moments over about one hand's length ({spread_seconds(CLOCKS):.0f} s), as independent "
        "tables would: started in the same instant they stay in step, and every table's showdown lands "
        "in the same few seconds. The window opens once all are under way.",
        "",
        "* latency: an action sent until every player at that table holds the version it made;",
        "* timers, seen: the deadline a state announced until every player holds the version the timer "
        "made (decision clocks and showdown pauses), broadcast and renders included; applied: the "
        "deadline until the server applied it (read from the new clock the timer's state starts);",
        "* refused: actions that lost a race (two players arranging at once, a clock running out) and "
        "got 'the table has moved on' with a fresh picture;",
        "* CPU: cores used per process in the measured window (bots: this benchmark's own process; "
        "postgres and redis: the whole servers), `machine`: everything on the machine, other "
        "people's work included, and `load`: the load average when the run started;",
        "* memory per table: what the Daphne processes and the worker grew by (resident memory) from "
        "before the bots connected to the end of the window, divided by the tables;",
        f"* keeps up: p99 latency under the bots' think time ({THINK * 1000:.0f} ms) and each table "
        f"making at least {KEEP_UP_SHARE:.0%} of the actions per second a table makes in the smallest "
        "run; where it does not, players wait on the server rather than on each other;",
        "* bursts: of the slowest 1% of actions, the share sent within the busiest 2 s of the window "
        "(near 100%: the p99 is one stall of every table at once; with few actions, as at 10 tables, "
        "the slowest 1% is two or three actions and the share says little); stalls: how often a probe process at "
        "the highest priority it could take (`bench/stall_probe.py`) waited over 10 ms for a CPU with "
        "half a millisecond of work to do, a minute, and the longest wait.",
        "",
        "| tables | Daphne | actions/s | keeps up | refused | latency p50 | latency p99 | bursts | stalls | "
        "timers seen p50 / p99 | "
        "timers applied p50 / p99 | Daphne CPU per action | memory per table | setup | CPU |",
        "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    base = min((r for r in runs if r.accepted), key=lambda r: r.tables, default=None)
    per_table = base.actions_per_s / base.tables if base else 0.0

    def keeps_up(r: RunResult) -> bool:
        return bool(r.latencies) and _pct(r.latencies, 99) < THINK and r.actions_per_s / r.tables >= KEEP_UP_SHARE * per_table

    every = runs + [x for x in (affine, stress) if x is not None] + [sat]
    for r in every:
        lat = r.latencies
        tag = _run_tag(r)
        up = "-" if r.think == 0 else ("yes" if keeps_up(r) else "**no**")
        memory = f"{r.kb_per_table:.0f} kB" if r.rss_after else "-"
        out.append(
            f"| {tag} | {r.daphnes} | {r.actions_per_s:.1f} | {up} | {r.refused} | {_ms(lat, 50)} | "
            f"{_ms(lat, 99)} | {r.burst_share:.0%} | {r.stalls_text()} | "
            f"{_ms(r.timer_late, 50)} / {_ms(r.timer_late, 99)} | "
            f"{_ms(r.timer_applied, 50)} / {_ms(r.timer_applied, 99)} | {r.daphne_ms_per_action:.1f} ms | "
            f"{memory} | {r.setup_s:.0f} s | {r.cpu_text()}, load {r.load:.1f} |"
        )
    out.append("")
    out.extend(_trace_table(every))
    kept = [r.tables for r in runs if keeps_up(r)]
    lost = [r.tables for r in runs if r.accepted and not keeps_up(r)]
    if lost:
        first_lost = min((t for t in lost if t > max(kept, default=0)), default=min(lost))
        out.append(f"Where it stops keeping up: it keeps up with {max(kept) if kept else 'none of the'} "
                   f"tables measured and not with {first_lost}.\n")
    elif kept:
        out.append(f"It keeps up at every size measured, up to {max(kept)} tables.\n")
    largest = next((r for r in runs if r.tables == TARGET_TABLES), None) or max(runs, key=lambda r: r.tables, default=None)
    # Timers are judged where the server keeps up: past that point every clock waits in the same
    # queue as the actions, and the table above shows by how much.
    judged = [r for r in runs if keeps_up(r)] or runs
    seen = [x for r in judged for x in r.timer_late]
    applied = [x for r in judged for x in r.timer_applied]
    judged_text = ", ".join(str(r.tables) for r in judged)
    if largest is not None and largest.latencies:
        p99 = _pct(largest.latencies, 99) * 1000
        met = p99 <= TARGET_P99_MS and largest.tables >= TARGET_TABLES
        verdict = f"**{'met' if met else 'not met'}** (p99 {p99:.0f} ms with {largest.tables} tables)"
    else:
        verdict = "not measured"
    if affine is not None and affine.latencies:
        verdict += f"; with one process per table p99 {_pct(affine.latencies, 99) * 1000:.0f} ms"
    tverdict = (
        f"seen by every player **{'met' if _pct(seen, 99) <= TARGET_TIMER_P99_S else 'not met'}** "
        f"(p99 {_ms(seen, 99)} over {len(seen)} timers), applied by the server "
        f"**{'met' if _pct(applied, 99) <= TARGET_TIMER_P99_S else 'not met'}** (p99 {_ms(applied, 99)})"
        if seen and applied else "not measured"
    )
    out.append(
        f"Target p99 <= {TARGET_P99_MS:.0f} ms with {TARGET_TABLES} tables: {verdict}. Target timers <= "
        f"{TARGET_TIMER_P99_S:.0f} s late at p99 (the runs that keep up: {judged_text} tables): {tverdict}. One Daphne process "
        f"with no think time: {sat.actions_per_s:.0f} actions/s over {sat.tables} tables with "
        f"{sat.cpu.get('daphne-0', 0.0):.0%} of a core (load {sat.load:.1f}), "
        f"{sat.daphne_ms_per_action:.0f} ms of its CPU per action: about "
        f"{1000 / sat.daphne_ms_per_action:.0f} actions/s with a core to itself.\n"
    )
    return "\n".join(out)


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else WINDOW
    print(run(seconds))
