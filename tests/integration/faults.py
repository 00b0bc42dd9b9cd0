"""Faults for the integration suite and ``bench/bench_reliability.py``: kill and restart the pieces
of a :class:`~tests.integration.cluster.Cluster`, restart its Redis, drop sockets, and read the
chips and hands straight from PostgreSQL.

Nothing here imports pytest or Django (a benchmark uses it as a plain script).

* :class:`RedisServer` is a redis-server of our own on a free port (never the shared 6379), so a
  test can stop and restart it without disturbing anybody else's run on the machine.
* :class:`FaultCluster` is a ``Cluster`` that can SIGKILL its worker or one of its Daphne
  processes and start them again (a killed process is dropped from ``procs``, so the cluster's
  own health checks keep working).
* :class:`Client` is a websocket client that behaves like a browser tab behind a load balancer:
  when its socket closes it reconnects (to the next Daphne when the last one refuses) and takes
  the snapshot every connect starts with. ``drop()`` cuts its TCP connection without a goodbye.
* :func:`chips` and :func:`hand_logs` read the database with psycopg in one statement each.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from tests.integration.cluster import (
    ACTION_RE,
    PASSIVE_ORDER,
    PHASE_RE,
    Cluster,
    ClusterError,
    free_port,
)

SHARED_REDIS_PORT = 6379  # other people's runs use it: this module never stops or flushes it


# ---------------------------------------------------------------------------------------------
# A Redis of our own


def redis_server_binary() -> str | None:
    return shutil.which("redis-server")


class RedisServer:
    """``redis-server`` on its own port with no persistence, started and stopped by us only.

    ``restart()`` is what a crash plus a restart looks like to its clients: every connection is
    cut, and the server comes back empty (no groups, no queued or unacknowledged tasks).
    """

    def __init__(self, workdir: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        if self.port == SHARED_REDIS_PORT:
            raise ValueError("the shared Redis on 6379 is not ours to stop")
        self.workdir = workdir
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 15.0) -> None:
        binary = redis_server_binary()
        if binary is None:
            raise ClusterError("redis-server is not installed")
        self.starts += 1
        log = self.workdir / f"redis-{self.port}.log"
        self.proc = subprocess.Popen(  # noqa: S603 - a fixed binary and our own arguments
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir), "--daemonize", "no", "--logfile", str(log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ClusterError(f"redis-server on {self.port} exited:\n{_tail(log)}")
            if self.ping():
                return
            time.sleep(0.05)
        raise ClusterError(f"redis-server on {self.port} did not answer within {timeout:.0f} s")

    def ping(self) -> bool:
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        """``SHUTDOWN NOSAVE``, then SIGKILL if it is still there."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            cli = shutil.which("redis-cli")
            if cli:
                subprocess.run(  # noqa: S603
                    [cli, "-p", str(self.port), "shutdown", "nosave"],
                    capture_output=True, timeout=10, check=False,
                )
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        self.proc = None

    def restart(self, down_for: float = 0.0) -> tuple[float, float]:
        """Stop, stay down ``down_for`` seconds, start again: (stopped at, answering at)."""
        self.stop()
        stopped = time.time()
        if down_for > 0:
            time.sleep(down_for)
        self.start()
        return stopped, time.time()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


@contextlib.contextmanager
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    server = RedisServer(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _tail(path: Path, chars: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-chars:]
    except OSError:
        return "(no log)"


# ---------------------------------------------------------------------------------------------
# A cluster whose processes can be killed


class FaultCluster(Cluster):
    """A :class:`Cluster` that can kill its worker or a Daphne process and start it again."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.generation: dict[str, int] = {}

    def boot(self, redis: RedisServer, loglevel: str = "info") -> list[int]:
        """Start ``redis`` (a server of its own), migrate, then two Daphne processes and the
        worker on it; returns the Daphne ports."""
        redis.start()
        self.redis_url = redis.url(0)
        self.migrate()
        ports = [self.start_daphne(), self.start_daphne()]
        self.start_worker(loglevel=loglevel)
        return ports

    def _proc(self, name: str) -> tuple[str, subprocess.Popen[bytes], Path] | None:
        return next((p for p in self.procs if p[0] == name), None)

    def kill(self, name: str, sig: int = signal.SIGKILL) -> float:
        """Send ``sig`` to the named process's group and wait for it; returns when it was sent.

        The process leaves ``procs`` (its log is kept under a numbered name), so ``assert_alive``
        and ``wait_for_worker`` look only at what runs now."""
        entry = self._proc(name)
        if entry is None:
            raise ClusterError(f"no process named {name}")
        _name, proc, log = entry
        at = time.time()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        self.procs.remove(entry)
        n = self.generation.get(name, 0) + 1
        self.generation[name] = n
        with contextlib.suppress(OSError):
            log.rename(log.with_name(f"{log.stem}.{n}{log.suffix}"))
        if name.startswith("daphne-"):
            port = int(name.split("-", 1)[1])
            if port in self.daphne_ports:
                self.daphne_ports.remove(port)
        return at

    def wait_for_worker(self, timeout: float = 60.0) -> None:
        """As ``Cluster.wait_for_worker``, but a ping that fails on a connection to a Redis that
        has restarted since (each pooled connection fails once, then reconnects) is tried again."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                super().wait_for_worker(timeout=max(1.0, deadline - time.monotonic()))
                return
            except ClusterError as exc:
                if "ConnectionError" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def kill_worker(self, sig: int = signal.SIGKILL) -> float:
        return self.kill("worker", sig)

    def kill_daphne(self, port: int, sig: int = signal.SIGKILL) -> float:
        return self.kill(f"daphne-{port}", sig)

    def has(self, name: str) -> bool:
        entry = self._proc(name)
        return entry is not None and entry[1].poll() is None

    def heal(self, ports: list[int], worker_loglevel: str = "info") -> None:
        """Start whatever is not running: the Daphne processes on ``ports`` and the worker."""
        for name, proc, _log in list(self.procs):
            if proc.poll() is not None:
                self.kill(name)
        for port in ports:
            if not self.has(f"daphne-{port}"):
                self.start_daphne(port)
        if not self.has("worker"):
            self.start_worker(loglevel=worker_loglevel)

    def all_logs(self) -> str:
        """Every log in the work directory, killed processes' included."""
        out = []
        for path in sorted(self.workdir.glob("*.log")):
            out.append(f"--- {path.name} ---\n{_tail(path, 4000)}")
        return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Sending a task straight to the worker


def send_expire(redis_url: str, table_id: int, version: int | None, countdown: float = 0.0) -> None:
    """Put ``tables.expire_clock(table_id, version)`` on the broker, as the services would."""
    from celery import Celery

    app = Celery("faults", broker=redis_url, set_as_current=False)
    try:
        app.send_task("tables.expire_clock", args=[table_id, version], countdown=countdown or None)
    finally:
        app.close()


# ---------------------------------------------------------------------------------------------
# The database, read directly


CHIPS_SQL = """
SELECT
  (SELECT COALESCE(SUM(bankroll), 0) FROM club_profile)
  + (SELECT COALESCE(SUM(stack), 0) FROM tables_seat)
  + (SELECT COALESCE(SUM(amount), 0) FROM club_ledgerentry WHERE kind = 'rake') AS held,
  (SELECT COALESCE(SUM(amount), 0) FROM club_ledgerentry
     WHERE account = 'bankroll' AND kind IN ('grant', 'top_up', 'adjust')) AS issued,
  (SELECT COALESCE(SUM(amount), 0) FROM club_ledgerentry WHERE kind = 'rake') AS rake
"""


def chips(database_url: str) -> dict[str, int]:
    """Bankrolls + stacks + the house's rake (``held``) and what was ever issued (``issued``).

    One statement, so PostgreSQL answers from one snapshot: a hand settling meanwhile is either
    wholly in it or not at all. ``held - issued`` is the chips created (+) or lost (-)."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        held, issued, rake = conn.execute(CHIPS_SQL).fetchone()  # type: ignore[misc]
    return {"held": int(held), "issued": int(issued), "rake": int(rake), "created": int(held) - int(issued)}


def hand_logs(database_url: str, table_id: int) -> list[dict[str, Any]]:
    """Every hand of a table, oldest first: number, ended, clock, deadline, players and the action
    log stored in ``tables_hand.state``."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT number, ended IS NOT NULL, clock, EXTRACT(EPOCH FROM deadline), players, state "
            "FROM tables_hand WHERE table_id = %s ORDER BY number", (table_id,),
        ).fetchall()
    out = []
    for number, ended, clock, deadline, players, state in rows:
        if isinstance(state, str):
            state = json.loads(state)
        out.append({
            "number": number, "ended": bool(ended), "clock": clock,
            "deadline": float(deadline) if deadline is not None else None,
            "players": players, "log": list(state.get("log", [])),
        })
    return out


def table_versions(database_url: str, table_ids: list[int]) -> dict[int, int]:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute("SELECT id, version FROM tables_table WHERE id = ANY(%s)", (table_ids,)).fetchall()
    return {int(i): int(v) for i, v in rows}


def overdue_tables(database_url: str, late_by: float = 10.0) -> dict[int, float]:
    """Tables whose clock (a hand's deadline or the wait before a deal) passed more than
    ``late_by`` seconds ago: table id -> seconds overdue. A healthy cluster has none."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            """
            SELECT t.id, EXTRACT(EPOCH FROM (now() - LEAST(h.deadline, t.next_hand_at)))
            FROM tables_table t
            LEFT JOIN LATERAL (SELECT deadline FROM tables_hand WHERE table_id = t.id
                               ORDER BY number DESC LIMIT 1) h ON true
            WHERE t.status <> 'closed' AND LEAST(h.deadline, t.next_hand_at) IS NOT NULL
            """
        ).fetchall()
    return {int(i): float(late) for i, late in rows if late is not None and float(late) > late_by}


# ---------------------------------------------------------------------------------------------
# A client that reconnects


class Client:
    """One browser tab on one table, behind a load balancer that spreads over ``ports``.

    It keeps the newest state it was sent. When its socket closes it reconnects at once (to the
    same Daphne, or, with ``rotate`` or when that one refuses, the next one). ``on_state`` (if
    given) is called with every state it keeps (a reconnect's snapshot too): bots act from it.
    """

    def __init__(
        self, *, ports: list[int], table_id: int, cookie: str | None = None, cookie_name: str = "sessionid",
        label: str = "", port_index: int = 0, rotate: bool = False,
        on_state: Callable[[Client, dict[str, Any]], None] | None = None,
    ) -> None:
        self.ports = list(ports)
        self.port_index = port_index % len(self.ports)
        self.table_id = table_id
        self.cookie = cookie
        self.cookie_name = cookie_name
        self.label = label or f"client@{table_id}"
        self.rotate = rotate
        self.on_state = on_state
        self.state: dict[str, Any] | None = None
        self.arrivals: dict[int, float] = {}
        self.versions: list[int] = []
        self.errors: list[dict[str, Any]] = []
        self.connects: list[tuple[int, float]] = []  # (port, opened at)
        self.snapshots: list[tuple[int, float, int]] = []  # (port, at, version): first state of each socket
        self.closes: list[float] = []
        self.phases: list[str] = []  # the phase of every newer state, in order
        self.failures: list[str] = []  # connects that failed and reads that ended other than closed
        self.html_at: dict[int, str] = {}  # the last html received for each version
        self.ws: Any = None
        self.changed = asyncio.Event()
        self.connected = asyncio.Event()
        self._stop = False
        self._task: asyncio.Task[None] | None = None
        self._first_on_socket = False

    # -- life ----------------------------------------------------------------------------------

    async def start(self, timeout: float = 30.0) -> Client:
        self._task = asyncio.create_task(self._run(), name=self.label)
        await self.wait_version(0, timeout)
        return self

    @property
    def port(self) -> int:
        return self.ports[self.port_index]

    async def _run(self) -> None:
        from websockets.asyncio.client import connect

        backoff = 0.05
        while not self._stop:
            port = self.port
            try:
                ws = await connect(
                    f"ws://127.0.0.1:{port}/ws/tables/{self.table_id}/",
                    origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                    additional_headers={"Cookie": f"{self.cookie_name}={self.cookie}"} if self.cookie else {},
                    compression=None, open_timeout=10, close_timeout=2, max_size=2**22,
                    ping_interval=None,
                )
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # refused, reset, cut mid-handshake: a tab tries again
                self.failures.append(f"connect {port}: {type(exc).__name__}")
                self.port_index = (self.port_index + 1) % len(self.ports)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, 1.0)
                continue
            self.ws = ws
            self.connects.append((port, time.time()))
            self._first_on_socket = True
            self.connected.set()
            try:
                async for raw in ws:
                    self._take(json.loads(raw), port)
                    backoff = 0.05
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # ConnectionClosed and whatever else ends a socket
                from websockets.exceptions import ConnectionClosed

                if not isinstance(exc, ConnectionClosed):
                    self.failures.append(f"read {port}: {type(exc).__name__}")
            finally:
                self.ws = None
                self.connected.clear()
                self.closes.append(time.time())
                self.changed.set()
            if self.rotate:
                self.port_index = (self.port_index + 1) % len(self.ports)
            if not self._stop:
                await asyncio.sleep(backoff)

    def _take(self, msg: dict[str, Any], port: int) -> None:
        now = time.time()
        if msg.get("type") == "state":
            v = int(msg["version"])
            self.versions.append(v)
            self.html_at[v] = str(msg.get("html", ""))
            self.arrivals.setdefault(v, now)
            if self._first_on_socket:
                self._first_on_socket = False
                self.snapshots.append((port, now, v))
            if self.state is None or v >= self.state["version"]:
                newer = self.state is None or v > self.state["version"]
                self.state = msg
                if newer:
                    self.phases.append(self.phase)
                if self.on_state is not None:
                    self.on_state(self, msg)
        elif msg.get("type") == "error":
            msg["at"] = now
            self.errors.append(msg)
        self.changed.set()

    async def drop(self) -> None:
        """Cut the TCP connection with no closing handshake (a phone losing its network)."""
        ws = self.ws
        if ws is not None:
            ws.transport.abort()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wait_closed(), 5)

    async def _wait_closed(self) -> None:
        while self.connected.is_set():
            self.changed.clear()
            await self.changed.wait()

    async def close(self) -> None:
        self._stop = True
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 3)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    # -- reading -------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return int(self.state["version"]) if self.state else -1

    @property
    def html(self) -> str:
        return str(self.state["html"]) if self.state else ""

    @property
    def actions(self) -> list[str]:
        return ACTION_RE.findall(self.html)

    @property
    def my_turn(self) -> bool:
        return bool(self.state and self.state.get("my_turn"))

    @property
    def phase(self) -> str:
        m = PHASE_RE.search(self.html)
        return m.group(1) if m else ""

    def passive_choice(self) -> str | None:
        kinds = self.actions
        return next((k for k in PASSIVE_ORDER if k in kinds), None)

    def next_hand_dealt(self) -> Callable[[], bool]:
        """A predicate: true once this client has seen a hand end and the next one dealt."""
        start = len(self.phases)

        def dealt() -> bool:
            seen = self.phases[start:]
            return "over" in seen and "preflop" in seen[seen.index("over") + 1:]

        return dealt

    async def send(self, action: str, version: int | None = None, **extra: Any) -> bool:
        """Send an action (with the version this tab holds); False when the socket is down."""
        ws = self.ws
        if ws is None:
            return False
        payload = {"action": action, "version": self.version if version is None else version, **extra}
        try:
            await ws.send(json.dumps(payload))
        except Exception:
            return False
        return True

    async def wait_for(self, predicate: Callable[[], bool], timeout: float, what: str = "") -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"{self.label}: {what or 'condition'} not met in {timeout:.0f} s "
                                   f"(version {self.version}, phase {self.phase!r})")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    async def wait_version(self, version: int, timeout: float) -> dict[str, Any]:
        await self.wait_for(lambda: self.version >= version, timeout, f"version {version}")
        assert self.state is not None
        return self.state

    async def wait_connected(self, timeout: float) -> None:
        await self.wait_for(lambda: self.connected.is_set(), timeout, "a connection")


# ---------------------------------------------------------------------------------------------
# Playing a hand in lockstep


async def play(
    players: list[Client], *, until: Callable[[], bool], timeout: float,
    sent: list[tuple[str, int, str]] | None = None, skip: frozenset[str] = frozenset(),
) -> None:
    """Let the players act passively (done, check, call, fold) one at a time until ``until()``.

    Whoever holds the newest version and may act sends the most passive choice with that version,
    then waits for the table to move on (or for an error). ``sent`` collects (label, version,
    action) of every send. Players whose label is in ``skip`` never act (their clocks run out).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not until():
        if loop.time() > deadline:
            raise TimeoutError(
                f"play: condition not met in {timeout:.0f} s: "
                + ", ".join(f"{p.label} v{p.version} {p.phase} {p.actions}" for p in players)
            )
        newest = max(p.version for p in players)
        actor = next(
            (p for p in players if p.label not in skip and p.connected.is_set() and p.version == newest
             and p.my_turn and p.passive_choice()),
            None,
        )
        if actor is None:
            await _any_change(players, 0.2)
            continue
        choice = actor.passive_choice()
        assert choice is not None
        errors = len(actor.errors)
        if await actor.send(choice, version=newest) and sent is not None:
            sent.append((actor.label, newest, choice))
        with contextlib.suppress(TimeoutError):
            await actor.wait_for(
                lambda a=actor, e=errors, v=newest: a.version > v or len(a.errors) > e or not a.connected.is_set(),
                timeout=min(10.0, max(0.1, deadline - loop.time())), what="an answer",
            )


async def _any_change(clients: list[Client], timeout: float) -> None:
    for c in clients:
        c.changed.clear()
    waits = [asyncio.ensure_future(c.changed.wait()) for c in clients]
    try:
        await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()


async def converge(clients: list[Client], database_url: str, timeout: float) -> int:
    """Wait until every client holds the table's version in the database (read again each
    round, so a clock running out meanwhile is fine); returns that version."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    table_id = clients[0].table_id
    while True:
        version = (await asyncio.to_thread(table_versions, database_url, [table_id]))[table_id]
        if all(c.version == version and c.connected.is_set() for c in clients):
            return version
        if loop.time() > deadline:
            raise TimeoutError(
                f"clients did not converge on version {version} in {timeout:.0f} s: "
                + ", ".join(f"{c.label} v{c.version} up={c.connected.is_set()}" for c in clients)
            )
        await _any_change(clients, 0.2)


def idle_tables(database_url: str, big_blind: int) -> dict[int, dict[str, int]]:
    """Open tables with no clock running (no hand being played, no deal coming), with why:
    how many seats are on a break and how many have fewer chips than the big blind."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            """
            SELECT t.id, t.status,
                   count(s.id) FILTER (WHERE s.sitting_out OR s.break_next),
                   count(s.id) FILTER (WHERE s.stack < %s),
                   count(s.id)
            FROM tables_table t
            LEFT JOIN tables_seat s ON s.table_id = t.id
            LEFT JOIN LATERAL (SELECT deadline FROM tables_hand WHERE table_id = t.id
                               ORDER BY number DESC LIMIT 1) h ON true
            WHERE t.status <> 'closed' AND h.deadline IS NULL AND t.next_hand_at IS NULL
            GROUP BY t.id, t.status
            """, (big_blind,),
        ).fetchall()
    return {int(i): {"paused": int(status == "paused"), "on_break": int(b), "short": int(sh), "seats": int(n)}
            for i, status, b, sh, n in rows}
