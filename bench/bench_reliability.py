"""Reliability soak (issue #9): live Patch-Patch hands over real processes while faults are injected.

``run()`` prints as it goes and returns a markdown section for ``bench/RESULTS.md``; the file also
runs on its own: ``python bench/bench_reliability.py [max-seconds]``.

What runs: a fresh PostgreSQL database, a redis-server of the benchmark's own on a free port (it
is restarted as one of the faults, so never the shared 6379), two Daphne processes and one Celery
worker with its beat, started as ``tests/integration/cluster.py`` starts them, with short clocks.
N tables of three bots; every bot is a websocket client with its own session that behaves like a
tab behind a load balancer (reconnects when its socket closes, to the other Daphne when one is
down). Bots fold before the flop often (many short hands), otherwise check or call to the river,
sometimes bet the pot; on one table in five one bot sometimes lets its clock run out and then
presses "I'm back".

Every ``FAULT_EVERY`` seconds one fault, in turn:

* ``worker``: SIGKILL the Celery worker, start a new one ``OUTAGE`` seconds later;
* ``daphne``: SIGKILL one Daphne process (A and B in turn), start it again after ``OUTAGE`` s;
* ``redis``: ``SHUTDOWN NOSAVE`` the Redis server, start it empty one second later;
* ``drop``: cut the TCP connection of a fifth of the bots (no closing handshake);
* ``timers``: for every table send ``tables.expire_clock`` for its current version (early, twice,
  and again at its deadline next to the real timer), for the version before, and with no version;
* ``baseline``: nothing; the same recovery figure measured at a moment with no fault.

Figures: hands completed; chips created or lost (bankrolls + stacks + the house's rake against
what was ever issued, sampled during the run and at the end); every finished hand replayed from
its stored log (over, and its chips: starting stacks = final stacks + rake); stuck tables (a
clock overdue by more than 10 s, polled every second); and per fault, the recovery time: from the
fault to the moment every player of an affected table holds a newer version than before (the next
applied action, delivered). It plays until ``TARGET_HANDS`` hands are done and every fault has
come ``ROUNDS`` times, and at most ``MAX_SECONDS``; 127.0.0.1 only.
"""
# No "from __future__ import annotations": bench/run.py loads this file without registering it
# in sys.modules, and dataclasses then cannot resolve string annotations.
import asyncio
import contextlib
import json
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.integration.cluster import ClusterError, answers, percentile, postgres_database  # noqa: E402
from tests.integration.faults import (  # noqa: E402
    CHIPS_SQL,
    Client,
    FaultCluster,
    RedisServer,
    idle_tables,
    overdue_tables,
    redis_server_binary,
    table_versions,
)

PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")

TABLES = int(os.environ.get("BENCH_RELIABILITY_TABLES", "24"))
TARGET_HANDS = int(os.environ.get("BENCH_RELIABILITY_HANDS", "1000"))
MAX_SECONDS = float(os.environ.get("BENCH_RELIABILITY_SECONDS", "320"))
CLOCKS = {"decision": 3.0, "arrange": 3.0, "showdown": 1.0, "deal": 1.0}
BUY_IN = 3000  # 150 big blinds at 10/20 (a public table that takes rake)
FAULT_EVERY = 12.0
ROUNDS = 3  # every fault at least this many times (and TARGET_HANDS hands) before stopping
KINDS = ("worker", "daphne", "redis", "drop", "timers", "baseline")
OUTAGE = 2.0  # seconds a killed worker or Daphne process stays down
REDIS_DOWN = 1.0
STUCK_AFTER = 10.0
THINK = (0.05, 0.15)  # a bot acts this long after its turn comes
FOLD_PREFLOP = 0.9  # facing a bet before the flop: many short hands, and some to the river
SLEEPY_EVERY = 5  # one table in five has a bot that sometimes lets its clock run out
SLEEPY_SKIP = 0.3


_pct = percentile


# ---------------------------------------------------------------------------------------------
# Bots


@dataclass
class Tally:
    sent: int = 0
    timeouts_invited: int = 0
    stopped: bool = False


class Bot:
    """A player: acts from every state it is sent (a reconnect's snapshot included)."""

    def __init__(self, client: Client, rng: random.Random, tally: Tally, sleepy: bool) -> None:
        self.client = client
        self.rng = rng
        self.tally = tally
        self.sleepy = sleepy
        self.pending: asyncio.TimerHandle | None = None
        self.pending_version = -1
        self.skipped_version = -1
        client.on_state = self.on_state

    def on_state(self, client: Client, msg: dict[str, Any]) -> None:
        if self.tally.stopped:
            return
        version = client.version
        if self.pending is not None and self.pending_version == version:
            return
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None
        if not self._wants_to_act():
            return
        loop = asyncio.get_running_loop()
        self.pending_version = version
        self.pending = loop.call_later(self.rng.uniform(*THINK), self._fire, version)

    def _wants_to_act(self) -> bool:
        c = self.client
        # "I'm back" whenever it is offered: a table whose last hand is over and that deals no
        # more (two players on a break) shows "over" until somebody comes back.
        return "im_back" in c.actions or (c.my_turn and bool(c.actions))

    def _choice(self) -> str | None:
        c = self.client
        kinds = c.actions
        if "im_back" in kinds:
            return "im_back"
        if not c.my_turn:
            return None
        if "done" in kinds:
            return "done"
        if "fold" in kinds:  # facing a bet
            if c.phase == "preflop":
                return "fold" if self.rng.random() < FOLD_PREFLOP else "call"
            return "call" if "call" in kinds and self.rng.random() < 0.85 else "fold"
        if "bet_pot" in kinds and self.rng.random() < 0.08:
            return "bet_pot"
        if "check" in kinds:
            return "check"
        return next((k for k in ("call", "all_in") if k in kinds), None)

    def _fire(self, version: int) -> None:
        self.pending = None
        c = self.client
        if self.tally.stopped or c.version != version:
            return
        choice = self._choice()
        if choice is None:
            return
        sleeps = self.sleepy and choice != "im_back" and c.phase != "arrange"
        if sleeps and self.skipped_version != version and self.rng.random() < SLEEPY_SKIP:
            self.skipped_version = version  # let this clock run out
            self.tally.timeouts_invited += 1
            return
        if self.skipped_version == version:
            return
        self.tally.sent += 1
        asyncio.ensure_future(c.send(choice, version=version))

    def stop(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None


# ---------------------------------------------------------------------------------------------
# The run


@dataclass
class Fault:
    kind: str
    at: float
    back: float
    tables: dict[int, int]  # affected table -> the newest version its players held at the fault
    detail: str = ""
    recoveries: list[float] = field(default_factory=list)
    unrecovered: int = 0
    unrecovered_tables: list[int] = field(default_factory=list)
    by_table: dict[int, float] = field(default_factory=dict)


@dataclass
class Soak:
    tables: int = 0
    seconds: float = 0.0
    hands: int = 0
    chips_samples: list[int] = field(default_factory=list)  # created (+) or lost (-) at each sample
    chips_end: dict[str, int] = field(default_factory=dict)
    replayed: int = 0
    replay_failures: list[str] = field(default_factory=list)
    stuck: dict[int, float] = field(default_factory=dict)  # table -> worst overdue seen (> STUCK_AFTER)
    stuck_log: list[tuple[float, int, float]] = field(default_factory=list)  # (at, table, overdue) polls > STUCK_AFTER
    worst_overdue: float = 0.0
    stuck_at_end: dict[int, float] = field(default_factory=dict)
    faults: list[Fault] = field(default_factory=list)
    sent: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    client_failures: dict[str, int] = field(default_factory=dict)  # failed connects, reads ended oddly
    timeouts: int = 0
    timeouts_invited: int = 0
    log_actions: int = 0
    arranged: int = 0  # hands that reached the arrangement
    shown: int = 0  # hands that ended in a showdown
    monitor_errors: int = 0
    idle_at_stop: dict[int, dict[str, int]] = field(default_factory=dict)  # tables dealing no hand when bots stopped
    behind_at_stop: list[tuple[Any, ...]] = field(default_factory=list)  # bots holding an older version than the table
    note: str = ""
    load: float = 0.0


class Injector:
    def __init__(self, cluster: FaultCluster, redis: RedisServer, ports: list[int], bots: list[Bot],
                 database_url: str, rng: random.Random) -> None:
        self.cluster = cluster
        self.redis = redis
        self.ports = ports
        self.bots = bots
        self.database_url = database_url
        self.rng = rng
        self.daphne_turn = 0

    def held(self, table_ids: set[int] | None = None) -> dict[int, int]:
        out: dict[int, int] = {}
        for b in self.bots:
            t = b.client.table_id
            if table_ids is None or t in table_ids:
                out[t] = max(out.get(t, -1), b.client.version)
        return out

    async def inject(self, kind: str) -> Fault:
        at = time.time()
        if kind == "worker":
            await asyncio.to_thread(self.cluster.kill_worker)
            await asyncio.sleep(OUTAGE)
            # Tables whose clock came due with no worker: they wait for the new one.
            due = await asyncio.to_thread(overdue_tables, self.database_url, 0.0)
            held = self.held(set(due))
            await asyncio.to_thread(self.cluster.start_worker, loglevel="warning")
            return Fault(kind, at, time.time(), held, f"{len(due)} clocks came due while no worker ran")
        if kind == "daphne":
            port = self.ports[self.daphne_turn % len(self.ports)]
            self.daphne_turn += 1
            held = self.held({b.client.table_id for b in self.bots if b.client.port == port})
            at = await asyncio.to_thread(self.cluster.kill_daphne, port)
            await asyncio.sleep(OUTAGE)
            await asyncio.to_thread(self.cluster.start_daphne, port)
            return Fault(kind, at, time.time(), held, f"port {port}")
        if kind == "redis":
            held = self.held()
            stopped, started = await asyncio.to_thread(self.redis.restart, REDIS_DOWN)
            return Fault(kind, stopped, started, held)
        if kind == "drop":
            chosen = self.rng.sample(self.bots, max(1, len(self.bots) // 5))
            held = self.held({b.client.table_id for b in chosen})
            await asyncio.gather(*(b.client.drop() for b in chosen))
            return Fault(kind, at, time.time(), held, f"{len(chosen)} sockets")
        if kind == "timers":
            held = self.held()
            sent = await asyncio.to_thread(_send_timers, self.redis.url(0), self.database_url)
            return Fault(kind, at, time.time(), held, f"{sent} extra timer deliveries")
        return Fault("baseline", at, at, self.held())

    async def heal(self) -> None:
        if not self.redis.running:
            await asyncio.to_thread(self.redis.start)
        await asyncio.to_thread(self.cluster.heal, self.ports, "warning")


def _send_timers(redis_url: str, database_url: str) -> int:
    """For every table: its current version now (early) twice, the version before, no version,
    and its current version again at its deadline (a duplicate of the real timer)."""
    import psycopg
    from celery import Celery

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            """
            SELECT t.id, t.version, EXTRACT(EPOCH FROM (h.deadline - now()))
            FROM tables_table t LEFT JOIN LATERAL (
                SELECT deadline FROM tables_hand WHERE table_id = t.id ORDER BY number DESC LIMIT 1) h ON true
            """
        ).fetchall()
    app = Celery("soak-timers", broker=redis_url, set_as_current=False)
    sent = 0
    try:
        for table_id, version, left in rows:
            for v, countdown in ((version, None), (version, None), (version - 1, None), (None, None)):
                app.send_task("tables.expire_clock", args=[table_id, v], countdown=countdown)
                sent += 1
            if left is not None and float(left) > 0:
                app.send_task("tables.expire_clock", args=[table_id, version], countdown=float(left) + 0.05)
                sent += 1
    finally:
        app.close()
    return sent


def _db_figures(database_url: str) -> dict[str, Any]:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        held, issued, rake = conn.execute(CHIPS_SQL).fetchone()  # type: ignore[misc]
        hands = conn.execute("SELECT count(*) FROM tables_hand WHERE ended IS NOT NULL").fetchone()[0]  # type: ignore[index]
    return {"created": int(held) - int(issued), "held": int(held), "issued": int(issued), "rake": int(rake),
            "hands": int(hands)}


def _replay_all(database_url: str, soak: Soak) -> None:
    """Every finished hand, rebuilt by the engine from its stored setup and log."""
    import psycopg

    from rules_engine.games import get_variant

    variant = get_variant("PP")
    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            """
            SELECT h.id, h.players, h.state, COALESCE(r.amount, 0)
            FROM tables_hand h LEFT JOIN (
                SELECT hand_id, SUM(amount) AS amount FROM club_ledgerentry WHERE kind = 'rake'
                GROUP BY hand_id) r ON r.hand_id = h.id
            WHERE h.ended IS NOT NULL ORDER BY h.id
            """
        ).fetchall()
    for hand_id, players, state, rake in rows:
        players = players if isinstance(players, list) else json.loads(players)
        data = state if isinstance(state, dict) else json.loads(state)
        soak.replayed += 1
        soak.log_actions += len(data.get("log", []))
        soak.timeouts += sum(1 for a in data.get("log", []) if a.get("timeout"))
        try:
            replayed = variant.from_json(data)
        except Exception as exc:  # a stored log the engine refuses is a failure to report
            soak.replay_failures.append(f"hand {hand_id}: {type(exc).__name__}: {exc}")
            continue
        starts = sum(int(p[2]) for p in players)
        soak.arranged += any(a.get("kind") == "done" for a in data.get("log", []))
        soak.shown += bool(getattr(replayed.result, "showdown", False))
        if not replayed.is_over:
            soak.replay_failures.append(f"hand {hand_id}: not over after its log")
        elif starts != sum(int(s) for s in replayed.stacks) + int(rake):
            soak.replay_failures.append(
                f"hand {hand_id}: starts {starts} != stacks {sum(replayed.stacks)} + rake {rake}")


async def _soak(cluster: FaultCluster, redis: RedisServer, ports: list[int], seed: dict[str, Any],
                soak: Soak, max_seconds: float) -> None:
    db = cluster.database_url
    rng = random.Random(9)
    tally = Tally()
    bots: list[Bot] = []
    for n, t in enumerate(seed["tables"]):
        for i, p in enumerate(t["players"]):
            client = Client(ports=ports, table_id=t["id"], cookie=p["cookie"], cookie_name=seed["cookie_name"],
                            label=p["username"], port_index=(n + i) % len(ports), rotate=False)
            bots.append(Bot(client, random.Random(rng.random()), tally, sleepy=(n % SLEEPY_EVERY == 0 and i == 0)))
    injector = Injector(cluster, redis, ports, bots, db, rng)
    gate = asyncio.Semaphore(24)

    async def start(b: Bot) -> None:
        async with gate:
            await b.client.start(timeout=60)

    monitor_stop = asyncio.Event()

    async def monitor() -> None:
        last_chips = 0.0
        while not monitor_stop.is_set():
            try:
                late = await asyncio.to_thread(overdue_tables, db, 0.0)
                for table_id, seconds in late.items():
                    soak.worst_overdue = max(soak.worst_overdue, seconds)
                    if seconds > STUCK_AFTER:
                        soak.stuck[table_id] = max(soak.stuck.get(table_id, 0.0), seconds)
                        soak.stuck_log.append((time.time(), table_id, seconds))
                if time.monotonic() - last_chips > 10:
                    last_chips = time.monotonic()
                    figures = await asyncio.to_thread(_db_figures, db)
                    soak.chips_samples.append(figures["created"])
                    soak.hands = figures["hands"]
            except Exception as exc:  # counted and reported: a blind monitor is no monitor
                soak.monitor_errors += 1
                print(f"  monitor: {type(exc).__name__}: {exc}", flush=True)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(monitor_stop.wait(), 1.0)

    try:
        await asyncio.gather(*(start(b) for b in bots))
        await asyncio.to_thread(cluster.control, "resume", tables=[t["id"] for t in seed["tables"]])
        watcher = asyncio.create_task(monitor())
        began = time.monotonic()
        next_fault = began + FAULT_EVERY
        turn = 0
        while time.monotonic() - began < max_seconds:
            await asyncio.sleep(1.0)
            figures = await asyncio.to_thread(_db_figures, db)
            soak.hands = figures["hands"]
            done = soak.hands >= TARGET_HANDS and turn >= ROUNDS * len(KINDS)
            if done and time.monotonic() >= next_fault:  # the last fault's tables had their interval
                break
            if time.monotonic() >= next_fault and time.monotonic() - began < max_seconds - FAULT_EVERY:
                kind = KINDS[turn % len(KINDS)]
                turn += 1
                print(f"  {time.monotonic() - began:5.0f} s, {soak.hands} hands: {kind}", flush=True)
                try:
                    soak.faults.append(await injector.inject(kind))
                except Exception as exc:  # a fault we could not inject or repair is reported
                    soak.note += f" {kind} fault failed: {type(exc).__name__}: {str(exc).splitlines()[0][:120]};"
                    await injector.heal()
                next_fault = time.monotonic() + FAULT_EVERY
        soak.seconds = time.monotonic() - began
        await injector.heal()
        # Let the hands in play go on for a few more clocks with the bots still playing, so the
        # last fault's tables can show their recovery, then stop the bots.
        await asyncio.sleep(2 * CLOCKS["decision"])
        soak.idle_at_stop = await asyncio.to_thread(idle_tables, db, 20)
        current = await asyncio.to_thread(table_versions, db, [t["id"] for t in seed["tables"]])
        soak.behind_at_stop = [
            (b.client.label, b.client.port, b.client.version, current[b.client.table_id], len(b.client.connects),
             b.client.connected.is_set(), b.client.failures[-3:],
             round(time.time() - max(b.client.arrivals.values(), default=0.0), 1))
            for b in bots if b.client.version < current[b.client.table_id]
        ]
        tally.stopped = True
        for b in bots:
            b.stop()
        monitor_stop.set()
        await watcher
        # With nobody acting the clocks run out and the tables go quiet: none may be left overdue.
        await asyncio.sleep(CLOCKS["decision"] + 3.0)
        soak.stuck_at_end = await asyncio.to_thread(overdue_tables, db, STUCK_AFTER)
    finally:
        tally.stopped = True
        for b in bots:
            b.stop()
        await asyncio.gather(*(b.client.close() for b in bots), return_exceptions=True)

    soak.sent = tally.sent
    soak.timeouts_invited = tally.timeouts_invited
    soak.reconnects = sum(max(0, len(b.client.connects) - 1) for b in bots)
    for b in bots:
        for failure in b.client.failures:
            kind = failure.split(" ", 1)[0] + " " + failure.rsplit(": ", 1)[-1]
            soak.client_failures[kind] = soak.client_failures.get(kind, 0) + 1
    for b in bots:
        for e in b.client.errors:
            key = str(e.get("message", ""))[:60]
            soak.errors[key] = soak.errors.get(key, 0) + 1
    by_table: dict[int, list[Client]] = {}
    for b in bots:
        by_table.setdefault(b.client.table_id, []).append(b.client)
    for fault in soak.faults:
        for table_id, held in fault.tables.items():
            firsts = []
            for c in by_table[table_id]:
                later = [t for v, t in c.arrivals.items() if v > held and t >= fault.at - 0.001]
                firsts.append(min(later) if later else None)
            if any(f is None for f in firsts):
                fault.unrecovered += 1
                fault.unrecovered_tables.append(table_id)
            else:
                fault.recoveries.append(max(firsts) - fault.at)  # type: ignore[type-var,operator]
                fault.by_table[table_id] = fault.recoveries[-1]


def soak_once(tables: int = TABLES, max_seconds: float = MAX_SECONDS) -> Soak:
    soak = Soak(tables=tables, load=os.getloadavg()[0])
    with postgres_database(PG_ADMIN_URL) as database_url:
        workdir = Path(tempfile.mkdtemp(prefix="pp-soak-"))
        redis = RedisServer(workdir)
        cluster = FaultCluster(database_url=database_url, redis_url="", workdir=workdir, **CLOCKS)
        try:
            ports = cluster.boot(redis, loglevel="warning")
            seeded: list[dict[str, Any]] = []
            cookie_name = "sessionid"
            while len(seeded) < tables:
                batch = min(12, tables - len(seeded))
                out = cluster.control("seed", tables=batch, players=3, prefix=f"s{len(seeded)}_",
                                      buy_in=BUY_IN, small_blind=10, big_blind=20)
                cookie_name = out["cookie_name"]
                seeded.extend(out["tables"])
            before = _db_figures(database_url)
            soak.chips_samples.append(before["created"])
            asyncio.run(_soak(cluster, redis, ports, {"cookie_name": cookie_name, "tables": seeded}, soak, max_seconds))
            soak.chips_end = _db_figures(database_url)
            soak.hands = soak.chips_end["hands"]
            soak.chips_samples.append(soak.chips_end["created"])
            _replay_all(database_url, soak)
            cluster.assert_alive()
        except BaseException:
            print(cluster.all_logs()[-20000:], file=sys.stderr)
            raise
        finally:
            cluster.close()
            redis.stop()
            if not os.environ.get("KEEP_CLUSTER_LOGS"):
                shutil.rmtree(workdir, ignore_errors=True)
    return soak


# ---------------------------------------------------------------------------------------------
# Report


def _s(values: list[float], q: float) -> str:
    return f"{_pct(values, q):.2f} s" if values else "-"


def _race(message: str) -> bool:
    """Refusals that are races by design: the table moved on, or an arrangement action (which may
    answer an older picture) came after the arrangement was over or already submitted."""
    return any(k in message for k in ("moved on", "arrangement is over", "already submitted"))


def markdown(soak: Soak) -> str:
    created = [c for c in soak.chips_samples]
    lost = sorted({c for c in created if c != 0})
    refusals = sum(soak.errors.values())
    other_errors = {k: v for k, v in soak.errors.items() if not _race(k)}
    out = [
        f"A soak of {soak.seconds:.0f} s over real processes: a fresh PostgreSQL database, a redis-server of "
        "its own, two Daphne processes and one Celery worker with its beat (threads, concurrency 2), "
        f"{soak.tables} Patch-Patch tables at 10/20 (public, raked) with three websocket bots each. Bots act "
        f"{THINK[0] * 1000:.0f}-{THINK[1] * 1000:.0f} ms after their turn: before the flop they fold to a bet "
        f"{FOLD_PREFLOP:.0%} of the time, otherwise check or call to the river and bet the pot now and then; "
        f"on one table in {SLEEPY_EVERY} a bot lets {SLEEPY_SKIP:.0%} of its decisions time out and then "
        f"presses \"I'm back\". Clocks: decision {CLOCKS['decision']:.0f} s, arrangement "
        f"{CLOCKS['arrange']:.0f} s, showdown pause {CLOCKS['showdown']:.0f} s. A fault every "
        f"{FAULT_EVERY:.0f} s, in turn: {', '.join(KINDS)} (see the module's docstring). "
        f"Load average at the start: {soak.load:.1f} (other work shares this machine).",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| hands completed (reached the arrangement / a showdown) | {soak.hands} ({soak.arranged} / {soak.shown}) |",
        f"| actions in their logs (timeouts among them) | {soak.log_actions} ({soak.timeouts}) |",
        f"| chips created or lost (bankrolls + stacks + rake vs issued; {len(created)} samples) | "
        f"{'0' if not lost else ', '.join(str(c) for c in lost)} |",
        f"| finished hands replayed from their logs, chips balanced | {soak.replayed - len(soak.replay_failures)} "
        f"of {soak.replayed} |",
        f"| stuck tables (a clock overdue > {STUCK_AFTER:.0f} s) during the run / at the end | "
        f"{len(soak.stuck)} / {len(soak.stuck_at_end)} |",
        f"| most overdue clock seen | {soak.worst_overdue:.1f} s |",
        f"| bot actions sent / refused as races (the table moved on; an arrangement already over or in) / other errors | {soak.sent} / "
        f"{refusals - sum(other_errors.values())} / {sum(other_errors.values())} |",
        f"| bot reconnects (failed attempts: {', '.join(f'{k} x{v}' for k, v in sorted(soak.client_failures.items())) or 'none'}) "
        f"| {soak.reconnects} |",
        f"| players with an old version and no news for 5 s when the bots stopped | "
        f"{sum(1 for row in soak.behind_at_stop if row[-1] > 5)} |",
        f"| tables dealing no hand when the bots stopped (two players on a break / short of chips) | "
        f"{len(soak.idle_at_stop)} ({sum(1 for v in soak.idle_at_stop.values() if v['on_break'] >= 2)} / "
        f"{sum(1 for v in soak.idle_at_stop.values() if v['short'])}) |",
        f"| monitor errors (stuck-table and chips polls that failed) | {soak.monitor_errors} |",
        "",
        "Recovery: from the fault until every player of an affected table holds a newer version than "
        "before it (the next applied action, delivered). Affected: worker, the tables whose clock came "
        "due while no worker ran; daphne, the tables with a player on the killed process; drop, the tables "
        "of the dropped bots; redis, timers and baseline, every table. Baseline is the same figure at a "
        "moment with no fault (bots think, clocks run): the difference is what the fault costs.",
        "",
        "| fault | times | outage | samples | recovery p50 | p99 | max | not recovered |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kind in KINDS:
        events = [f for f in soak.faults if f.kind == kind]
        if not events:
            continue
        samples = [r for f in events for r in f.recoveries]
        outage = sum(f.back - f.at for f in events) / len(events)
        out.append(
            f"| {kind} | {len(events)} | {outage:.1f} s | {len(samples)} | {_s(samples, 50)} | {_s(samples, 99)} | "
            f"{(max(samples) if samples else float('nan')):.2f} s | {sum(f.unrecovered for f in events)} |"
        )
    stale = [row for row in soak.behind_at_stop if row[-1] > 5]
    if stale:
        out += ["", "Players left behind when the bots stopped (label, port, version held, table version, "
                "sockets opened, connected, last client-side failures, seconds without news): "
                + "; ".join(str(row) for row in stale)]
    if other_errors:
        out += ["", "Errors other than 'moved on': " + "; ".join(f"{k!r} x{v}" for k, v in other_errors.items())]
    if soak.replay_failures:
        out += ["", "Replay failures: " + "; ".join(soak.replay_failures[:5])]
    if soak.note:
        out += ["", "Note:" + soak.note]
    return "\n".join(out) + "\n"


def run(max_seconds: float = MAX_SECONDS) -> str:
    title = "## Reliability: faults during live hands (issue #9)\n\n"
    if not answers(PG_ADMIN_URL, 5432):
        msg = "Skipped: PostgreSQL did not answer (see README, 'Running on PostgreSQL and Redis')."
        print(msg)
        return title + msg + "\n"
    if redis_server_binary() is None:
        msg = "Skipped: redis-server is not installed (the soak restarts a Redis of its own)."
        print(msg)
        return title + msg + "\n"
    print(f"reliability: {TABLES} tables x 3 bots, up to {max_seconds:.0f} s or {TARGET_HANDS} hands, "
          f"a fault every {FAULT_EVERY:.0f} s ...", flush=True)
    try:
        soak = soak_once(TABLES, max_seconds)
    except (ClusterError, OSError, TimeoutError) as exc:
        msg = f"Failed: {str(exc).splitlines()[0][:300]}"
        print(msg)
        return title + msg + "\n"
    text = markdown(soak)
    print(text, flush=True)
    return title + text


if __name__ == "__main__":
    run(float(sys.argv[1]) if len(sys.argv) > 1 else MAX_SECONDS)  # prints its section as it goes
