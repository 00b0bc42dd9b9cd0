"""A small cluster on this machine: Daphne processes and a Celery worker sharing PostgreSQL and Redis.

Used by ``tests/integration`` and ``bench/bench_live.py``; nothing here imports pytest or Django,
so a benchmark can use it outside a test run.

* :class:`Cluster` starts ``manage.py migrate``, a *control* process, Daphne processes and one
  Celery worker (with its beat) with the same environment: ``DATABASE_URL``, ``REDIS_URL`` and
  short clocks. Every process it starts is stopped by :meth:`Cluster.close` (also on ``with``
  exit), whatever happened.
* The control process is ``python -c CONTROL`` with Django set up against the cluster's database.
  It reads one JSON command a line on stdin and answers one JSON line on stdout: it creates users,
  tables and seats through the services (``tables.services``, ``club.services``), writes session
  rows for those users (so a websocket client can log in with a cookie), resumes tables and reads
  seats and hands back for assertions.
* :class:`Viewer` is one websocket client (the ``websockets`` library) that keeps the latest state
  the server sent and the time each version arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable

ACTION_RE = re.compile(r'data-action="(\w+)"')
PHASE_RE = re.compile(r'class="felt\b[^"]*\bphase-(\w+)')

# Engine actions a bot may answer with, most passive first: hands reach the arrangement and the
# showdown instead of ending at the first bet, and stacks last.
PASSIVE_ORDER = ("done", "check", "call", "fold")

CONTROL = r'''
import json, sys, time
import django
django.setup()

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import close_old_connections, connection

from club.services import profile_ensure
from tables import services
from tables.models import Hand, Seat, Table

User = get_user_model()
BACKEND = settings.AUTHENTICATION_BACKENDS[0]


def session_cookie(user):
    # What django.contrib.auth.login() stores, without a request.
    store = SessionStore()
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = BACKEND
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return store.session_key


def seed(tables, players, prefix, buy_in=1000, small_blind=5, big_blind=10, speed="fast", quiet=True):
    # Nobody watches tables that are being set up: with quiet, skip telling the channel layer
    # (one event loop and Redis connection per message from a plain script) about each step.
    import tables.live as live

    saved = live._send_group
    if quiet:
        live._send_group = lambda group, message: None
    try:
        return _seed(tables, players, prefix, buy_in, small_blind, big_blind, speed)
    finally:
        live._send_group = saved


def _seed(tables, players, prefix, buy_in, small_blind, big_blind, speed):
    out = []
    for t in range(tables):
        table = services.table_create(
            creator=None, name=f"{prefix} {t}", small_blind=small_blind, big_blind=big_blind,
            speed=speed, max_seats=3, is_public=True,
        )
        # Paused while everyone sits down, so the first hand is dealt to all of them at resume.
        services.table_pause(table_id=table.id, now=True)
        seated = []
        for p in range(players):
            # No password: hashing one costs a third of a second and nobody logs in by form.
            user = User.objects.create_user(username=f"{prefix}{table.id}_{p}", password=None)
            profile_ensure(user=user)
            seat = services.table_take_seat(table_id=table.id, user=user, buy_in=buy_in)
            seated.append({"user_id": user.pk, "username": user.username, "seat_no": seat.seat_no,
                           "cookie": session_cookie(user)})
        out.append({"id": table.id, "players": seated})
    return {"cookie_name": settings.SESSION_COOKIE_NAME, "tables": out}


def resume(tables):
    return {t: services.table_resume(table_id=t) for t in tables}


def seats(table):
    return [
        {"seat_no": s.seat_no, "user_id": s.user_id, "stack": int(s.stack),
         "sitting_out": s.sitting_out, "break_next": s.break_next}
        for s in Seat.objects.filter(table_id=table).order_by("seat_no")
    ]


def hand(table):
    from rules_engine.games import get_variant

    t = Table.objects.get(id=table)
    h = Hand.objects.filter(table_id=table).order_by("-number").first()
    if h is None:
        return {"version": t.version, "number": None}
    state = get_variant(t.game).from_json(h.state)
    return {
        "version": t.version, "number": h.number, "clock": h.clock,
        "deadline": h.deadline.timestamp() if h.deadline else None,
        "ended": h.ended is not None, "phase": state.phase, "actors": list(state.actors()),
        "players": h.players, "log": [a.to_json() for a in state.log],
        "breaks": sorted(getattr(state, "breaks", ())),
        # Each player's cards (engine index order, as "players"), for the hidden-card checks.
        "cards": [[str(c) for c in state.hand_of(i)] for i in range(len(h.players))],
    }


def ping_worker(timeout=1.0):
    from config.celery import app

    return [name for reply in app.control.ping(timeout=timeout) for name in reply]


COMMANDS = {"seed": seed, "resume": resume, "seats": seats, "hand": hand, "ping_worker": ping_worker}

print("@@ " + json.dumps({"ok": True, "ready": True}), flush=True)
for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    cmd = request.pop("cmd")
    if cmd == "quit":
        break
    try:
        close_old_connections()
        # Connections are kept for good (CONN_MAX_AGE None): one a test cut is replaced here.
        if connection.connection is not None and not connection.is_usable():
            connection.close()
        answer = {"ok": True, "result": COMMANDS[cmd](**request)}
    except Exception as exc:
        import traceback
        answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
    print("@@ " + json.dumps(answer), flush=True)
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``; NaN for none. Used by the benchmarks."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def answers(url: str, default_port: int, timeout: float = 1.0) -> bool:
    """Whether something listens where ``url`` points (PostgreSQL, Redis)."""
    parts = urlparse(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or default_port), timeout):
            return True
    except OSError:
        return False


class ClusterError(RuntimeError):
    pass


class Cluster:
    """Processes sharing one PostgreSQL database and one Redis database; see the module doc."""

    def __init__(
        self, *, database_url: str, redis_url: str, decision: float = 3.0, arrange: float = 4.0,
        showdown: float = 1.0, deal: float = 1.0, workdir: Path | None = None, extra_env: dict[str, str] | None = None,
    ) -> None:
        self.database_url = database_url
        self.redis_url = redis_url
        self._own_workdir = workdir is None
        self.workdir = workdir or Path(tempfile.mkdtemp(prefix="pp-cluster-"))
        self.clocks = {"decision": decision, "arrange": arrange, "showdown": showdown, "deal": deal}
        self.extra_env = extra_env or {}
        self.procs: list[tuple[str, subprocess.Popen[bytes], Path]] = []
        self.daphne_ports: list[int] = []
        self._controls: dict[int, subprocess.Popen[str]] = {}

    # -- environment and one-shot commands -------------------------------------------------

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TABLE_", "SQLITE_"))}
        env.update({
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "TABLE_DECISION_SECONDS": str(self.clocks["decision"]),
            "TABLE_ARRANGE_SECONDS": str(self.clocks["arrange"]),
            "TABLE_SHOWDOWN_SECONDS": str(self.clocks["showdown"]),
            "TABLE_DEAL_SECONDS": str(self.clocks["deal"]),
            "CELERY_EMBEDDED_WORKER": "0",
            "DJANGO_DEBUG": "0",
            "PYTHONUNBUFFERED": "1",
            "LOG_LEVEL": "WARNING",
        })
        env.update(self.extra_env)
        return env

    def migrate(self) -> None:
        res = subprocess.run(
            [PYTHON, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT, env=self.env(), capture_output=True, text=True, timeout=180,
        )
        if res.returncode != 0:
            raise ClusterError(f"migrate failed:\n{res.stdout}\n{res.stderr}")

    # -- the control process -----------------------------------------------------------------

    def control(self, cmd: str, timeout: float = 300.0, **kwargs: Any) -> Any:
        """Run one command in the control process (started on first use) and return its result."""
        return self.control_on(0, cmd, timeout=timeout, **kwargs)

    def control_on(self, lane: int, cmd: str, timeout: float = 300.0, **kwargs: Any) -> Any:
        """:meth:`control` on control process number ``lane``: slow set-up (seeding hundreds of
        tables) can run in several processes at once, one thread per lane."""
        name = "control" if lane == 0 else f"control-{lane}"
        proc = self._controls.get(lane)
        if proc is None:
            with (self.workdir / f"{name}.log").open("w") as log:
                proc = subprocess.Popen(  # noqa: S603 - our own interpreter and script
                    [PYTHON, "-c", CONTROL], cwd=ROOT, env=self.env(), text=True, bufsize=1,
                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                )
            self._controls[lane] = proc
            self._read_control(proc, name, timeout=60.0)
        assert proc.stdin is not None
        proc.stdin.write(json.dumps({"cmd": cmd, **kwargs}) + "\n")
        proc.stdin.flush()
        answer = self._read_control(proc, name, timeout=timeout)
        if not answer["ok"]:
            raise ClusterError(f"control {cmd} failed: {answer['error']}\n{answer.get('traceback', '')}")
        return answer["result"]

    def _read_control(self, proc: subprocess.Popen[str], name: str, timeout: float) -> dict[str, Any]:
        import selectors

        assert proc.stdout is not None
        deadline = time.monotonic() + timeout
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ClusterError(f"the {name} process did not answer within {timeout:.0f} s")
                if not sel.select(timeout=min(left, 1.0)):
                    if proc.poll() is not None:
                        raise ClusterError(f"the {name} process exited:\n{self.log_tail(name)}")
                    continue
                line = proc.stdout.readline()
                if not line:
                    raise ClusterError(f"the {name} process exited:\n{self.log_tail(name)}")
                if line.startswith("@@ "):
                    return dict(json.loads(line[3:]))
        finally:
            sel.close()

    # -- long-running processes ----------------------------------------------------------------

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        log = self.workdir / f"{name}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(  # noqa: S603
                args, cwd=ROOT, env=self.env(), stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: close() stops its children too
            )
        self.procs.append((name, proc, log))
        return proc

    def start_daphne(self, port: int | None = None) -> int:
        port = port or free_port()
        name = f"daphne-{port}"
        proc = self._spawn(name, [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise ClusterError(f"{name} exited with {proc.returncode}:\n{self.log_tail(name)}")
            try:
                with socket.create_connection(("127.0.0.1", port), 0.25):
                    self.daphne_ports.append(port)
                    return port
            except OSError:
                time.sleep(0.1)
        raise ClusterError(f"{name} did not answer within 60 s:\n{self.log_tail(name)}")

    def start_worker(
        self, concurrency: int = 2, pool: str = "threads", loglevel: str = "warning", wait: bool = True
    ) -> None:
        name = "worker"
        self._spawn(name, [
            PYTHON, "-m", "celery", "-A", "config", "worker", "-B", "-l", loglevel,
            "-P", pool, "--concurrency", str(concurrency),
            "-n", f"cluster-{uuid.uuid4().hex[:8]}@%h",
            "-s", str(self.workdir / "celerybeat-schedule"),
            "--without-gossip", "--without-mingle",
        ])
        if wait:
            self.wait_for_worker()

    def wait_for_worker(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, proc, _log in self.procs:
                if name == "worker" and proc.poll() is not None:
                    raise ClusterError(f"the Celery worker exited:\n{self.log_tail('worker')}")
            if self.control("ping_worker", timeout=30):
                return
        raise ClusterError(f"the Celery worker did not answer a ping:\n{self.log_tail('worker')}")

    def log_tail(self, name: str, chars: int = 4000) -> str:
        path = self.workdir / f"{name}.log"
        try:
            return path.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def logs(self) -> str:
        return "\n".join(f"--- {name} ---\n{self.log_tail(name)}" for name, _p, _l in self.procs)

    def pids(self) -> dict[str, int]:
        return {name: proc.pid for name, proc, _log in self.procs}

    def assert_alive(self) -> None:
        for name, proc, _log in self.procs:
            if proc.poll() is not None:
                raise ClusterError(f"{name} exited with {proc.returncode}:\n{self.log_tail(name)}")

    def close(self) -> None:
        """Stop the control process and every process started, gently first."""
        for control in self._controls.values():
            with contextlib.suppress(Exception):
                assert control.stdin is not None
                control.stdin.write('{"cmd": "quit"}\n')
                control.stdin.close()
        for control in self._controls.values():
            _stop(control)
        self._controls.clear()
        for _name, proc, _log in reversed(self.procs):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGTERM)
        for _name, proc, _log in reversed(self.procs):
            _stop(proc, already_signalled=True)
        self.procs.clear()
        if self._own_workdir and not os.environ.get("KEEP_CLUSTER_LOGS"):
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _stop(proc: subprocess.Popen[Any], already_signalled: bool = False) -> None:
    if proc.poll() is None and not already_signalled:
        proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.kill()
        proc.wait(timeout=5)


@contextlib.contextmanager
def postgres_database(admin_url: str) -> Iterator[str]:
    """A new, empty PostgreSQL database on ``admin_url``'s server; dropped afterwards."""
    import psycopg

    name = "pp_cluster_" + uuid.uuid4().hex[:12]
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlparse(admin_url)._replace(path="/" + name).geturl()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process (and its waited-for children) has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    # utime stime cutime cstime are fields 14-17 of stat; after the ")" they start at index 11.
    return sum(int(x) for x in fields[11:15]) / ticks


def service_cpu_seconds() -> dict[str, float | dict[int, float]]:
    """CPU seconds used so far by each PostgreSQL and Redis server process (``postgres`` and
    ``redis``: pid -> seconds), and by the whole machine (all processes, every core) as
    ``machine``. Compare two readings over the pids present in both."""
    out: dict[str, float | dict[int, float]] = {}
    by_pid: dict[str, dict[int, float]] = {"postgres": {}, "redis": {}}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if comm.startswith("postgres"):
            by_pid["postgres"][int(entry.name)] = cpu_seconds(int(entry.name))
        elif comm.startswith("redis-server"):
            by_pid["redis"][int(entry.name)] = cpu_seconds(int(entry.name))
    out.update(by_pid)
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
        ticks = [int(x) for x in fields]
        idle = ticks[3] + ticks[4]  # idle + iowait
        out["machine"] = (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        out["machine"] = 0.0
    return out


def cpu_used(before: float | dict[int, float], after: float | dict[int, float]) -> float:
    """CPU seconds between two readings of :func:`service_cpu_seconds` (per-pid ones: over the
    processes present in both)."""
    if isinstance(before, dict) and isinstance(after, dict):
        return sum(max(0.0, after[pid] - before[pid]) for pid in before.keys() & after.keys())
    assert isinstance(before, float) and isinstance(after, float)
    return max(0.0, after - before)


@contextlib.contextmanager
def redis_database(base_url: str, db: int) -> Iterator[str]:
    """Redis logical database ``db`` at ``base_url``'s server, emptied before and after use."""
    import redis

    url = urlparse(base_url)._replace(path=f"/{db}").geturl()
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


# ---------------------------------------------------------------------------------------------
# Websocket clients


class Viewer:
    """One websocket connection to a table: the latest state and when each version arrived."""

    def __init__(self, *, port: int, table_id: int, cookie: str | None = None, cookie_name: str = "sessionid",
                 label: str = "") -> None:
        self.port = port
        self.table_id = table_id
        self.cookie = cookie
        self.cookie_name = cookie_name
        self.label = label or f"viewer@{port}"
        self.state: dict[str, Any] | None = None
        self.arrivals: dict[int, float] = {}  # version -> time.time() it first arrived
        self.versions: list[int] = []  # every state version received, in order
        self.errors: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []  # the table chat's lines, as they came
        self.changed = asyncio.Event()
        self.ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        # Every picture received, as (version, phase, html), for tests that look at each one;
        # off by default (a bench's bots receive thousands).
        self.keep_pictures = False
        self.pictures: list[tuple[int, str, str]] = []

    async def connect(self) -> Viewer:
        from websockets.asyncio.client import connect

        headers = {"Cookie": f"{self.cookie_name}={self.cookie}"} if self.cookie else {}
        self.ws = await connect(
            f"ws://127.0.0.1:{self.port}/ws/tables/{self.table_id}/",
            origin=f"http://127.0.0.1:{self.port}",  # type: ignore[arg-type]
            # Compressed as a browser's are (permessage-deflate, config/wsdeflate.py).
            additional_headers=headers, compression="deflate", open_timeout=30, max_size=2**22,
        )
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.ws:
                now = time.time()
                msg = json.loads(raw)
                if msg.get("type") == "state":
                    v = msg["version"]
                    self.versions.append(v)
                    self.arrivals.setdefault(v, now)
                    if self.state is None or v >= self.state["version"]:
                        self.state = msg
                    if self.keep_pictures:
                        m = PHASE_RE.search(msg["html"])
                        self.pictures.append((v, m.group(1) if m else "", msg["html"]))
                elif msg.get("type") == "error":
                    msg["at"] = now
                    self.errors.append(msg)
                elif msg.get("type") == "chat":
                    self.chat.extend(msg.get("lines") or [])
                self.on_message(msg, now)
                self.changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.changed.set()

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        """Hook for subclasses (bots)."""

    @property
    def version(self) -> int:
        return int(self.state["version"]) if self.state else -1

    @property
    def actions(self) -> list[str]:
        return ACTION_RE.findall(self.state["html"]) if self.state else []

    @property
    def my_turn(self) -> bool:
        return bool(self.state and self.state.get("my_turn"))

    @property
    def phase(self) -> str:
        m = PHASE_RE.search(self.state["html"]) if self.state else None
        return m.group(1) if m else ""

    def passive_choice(self) -> str | None:
        kinds = self.actions
        return next((k for k in PASSIVE_ORDER if k in kinds), None)

    async def send(self, action: str, version: int | None = None, **extra: Any) -> float:
        sent = time.time()
        payload = {"action": action, "version": self.version if version is None else version, **extra}
        await self.ws.send(json.dumps(payload))
        return sent

    async def wait_version(self, version: int, timeout: float) -> dict[str, Any]:
        """Wait until a state with at least ``version`` arrived; returns it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.version < version:
            left = deadline - loop.time()
            if left <= 0 or self.ws is None or self._reader is None or self._reader.done():
                raise TimeoutError(f"{self.label}: version {version} did not arrive (have {self.version})")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        assert self.state is not None
        return self.state

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 5)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
