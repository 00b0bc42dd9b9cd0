"""Faults on the deployed shape (issue #9): two Daphne processes, one Celery worker with its beat,
PostgreSQL and a Redis of the test's own (a redis-server on a free port, so restarting it never
disturbs anybody else's run on the shared 6379).

One test a fault, each on its own table of three players (plus spectators), all on one cluster:

* the worker is killed while a decision clock runs: nobody applies the clock while it is down;
  the new worker's sweep applies it exactly once and the hand goes on;
* Daphne A is killed mid-hand: its clients reconnect to B, get a snapshot at the same version,
  and the hand is played out through B;
* Redis is restarted mid-hand: every client recovers, the worker survives, the hand goes on, an
  action retried after the reconnect is not applied twice;
* a socket is dropped at every phase (deal, arrangement, flop, turn, river, showdown) and the
  player reconnects to the other Daphne and opens a second tab: both tabs show the same view, and
  the same action sent from both is applied once;
* timers arriving twice, early, late or for an old version change nothing beyond one timeout.

Every test ends with the chips check: bankrolls + stacks + the house's rake equal what was ever
issued, read from PostgreSQL in one statement.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.integration.faults import (
    Client,
    FaultCluster,
    RedisServer,
    chips,
    converge,
    hand_logs,
    play,
    redis_server_binary,
    send_expire,
    table_versions,
)
from tests.services import fresh_postgres_database, required

pytestmark = [pytest.mark.services]

DECISION, ARRANGE, SHOWDOWN, DEAL = 8.0, 8.0, 1.5, 1.0  # room for a slow recovery: a played hand must not time out
STEP = 15.0  # one change reaching every client; generous for a busy 2-core machine


@dataclass
class Rig:
    cluster: FaultCluster
    redis: RedisServer
    ports: list[int]
    recoveries: dict[str, float] = field(default_factory=dict)

    @property
    def database_url(self) -> str:
        return self.cluster.database_url

    def heal(self) -> None:
        if not self.redis.running:
            self.redis.start()
        self.cluster.heal(self.ports)

    def seed(self, prefix: str) -> dict[str, Any]:
        return dict(self.cluster.control("seed", tables=1, players=3, prefix=prefix, small_blind=10, big_blind=20))

    def assert_chips_conserved(self) -> None:
        figures = chips(self.database_url)
        assert figures["created"] == 0, f"chips created (+) or lost (-): {figures}"


@pytest.fixture(scope="module")
def rig() -> Iterator[Rig]:
    if redis_server_binary() is None:
        message = "redis-server is not installed (apt-get install redis-server)"
        if required():
            pytest.fail(f"{message}, and REQUIRE_SERVICES=1 makes that a failure")
        pytest.skip(message)
    with fresh_postgres_database() as database_url:
        workdir = Path(tempfile.mkdtemp(prefix="pp-faults-"))
        redis = RedisServer(workdir)
        cluster = FaultCluster(
            database_url=database_url, redis_url="", decision=DECISION, arrange=ARRANGE,
            showdown=SHOWDOWN, deal=DEAL, workdir=workdir,
        )
        try:
            # -l info: the worker logs each task's return value (who applied a clock).
            ports = cluster.boot(redis, loglevel="info")
            rig = Rig(cluster=cluster, redis=redis, ports=ports)
            yield rig
            print("recovery times: " + ", ".join(f"{k} {v:.2f} s" for k, v in rig.recoveries.items()))
        except BaseException:
            print(cluster.all_logs())
            raise
        finally:
            cluster.close()
            redis.stop()
            if not os.environ.get("KEEP_CLUSTER_LOGS"):
                shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def healthy(rig: Rig) -> Rig:
    """Every test starts with Redis, both Daphne processes and the worker running."""
    rig.heal()
    return rig


def _run(rig: Rig, coro: Any) -> None:
    try:
        asyncio.run(coro)
    except BaseException:
        print(rig.cluster.all_logs())
        raise


def _clients(rig: Rig, seed: dict[str, Any], placement: tuple[int, ...] = (0, 1, 0),
             spectators: tuple[int, ...] = (0, 1), rotate: bool = False) -> tuple[list[Client], list[Client]]:
    """Players on Daphne ``placement[i]`` (0 = A, 1 = B) and spectators likewise."""
    table = seed["tables"][0]
    players = [
        Client(ports=rig.ports, table_id=table["id"], cookie=p["cookie"], cookie_name=seed["cookie_name"],
               label=p["username"], port_index=placement[i], rotate=rotate)
        for i, p in enumerate(table["players"])
    ]
    watchers = [
        Client(ports=rig.ports, table_id=table["id"], label=f"spectator{i}", port_index=where)
        for i, where in enumerate(spectators)
    ]
    return players, watchers


async def _start(rig: Rig, clients: list[Client]) -> int:
    await asyncio.gather(*(c.start() for c in clients))
    table_id = clients[0].table_id
    resumed = (await asyncio.to_thread(rig.cluster.control, "resume", tables=[table_id]))[str(table_id)]
    await asyncio.gather(*(c.wait_version(resumed, STEP) for c in clients))
    return int(resumed)


async def _to_the_flop(rig: Rig, players: list[Client], everyone: list[Client],
                       watcher: Client) -> tuple[list[tuple[str, int, str]], int]:
    """Everyone connects, the hand is dealt and played passively until ``watcher`` sees the flop;
    every send so far, and the version all clients then hold."""
    await _start(rig, everyone)
    sent: list[tuple[str, int, str]] = []
    await play(players, until=lambda: watcher.phase == "flop", timeout=60, sent=sent)
    return sent, await converge(everyone, rig.database_url, STEP)


async def _close(clients: list[Client]) -> None:
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


def _seat_of(hand: dict[str, Any], seed: dict[str, Any], label: str) -> int:
    """The engine seat index of the player called ``label`` in ``hand``."""
    user_id = next(p["user_id"] for p in seed["tables"][0]["players"] if p["username"] == label)
    return next(i for i, (_seat_no, uid, _start) in enumerate(hand["players"]) if uid == user_id)


def _log_is_subsequence_of_sends(hand: dict[str, Any], seed: dict[str, Any], sent: list[tuple[str, int, str]]) -> None:
    """Every action in the hand's log (timeouts aside) matches one send, in order: nothing was
    applied that nobody sent, and nothing twice."""
    labels = {_seat_of(hand, seed, p["username"]): p["username"] for p in seed["tables"][0]["players"]
              if any(p["user_id"] == uid for _s, uid, _st in hand["players"])}
    sends = iter(sent)
    for entry in hand["log"]:
        if entry.get("timeout"):
            continue
        who = labels[entry["seat"]]
        for label, _version, kind in sends:
            if label == who and kind == entry["kind"]:
                break
        else:
            raise AssertionError(f"log entry {entry} matches no send left: log {hand['log']}, sends {sent}")


async def _versions_log(rig: Rig, table_id: int) -> str:
    hands = await asyncio.to_thread(hand_logs, rig.database_url, table_id)
    version = (await asyncio.to_thread(table_versions, rig.database_url, [table_id]))[table_id]
    return f"table version {version}, hands {[(h['number'], h['clock'], h['log']) for h in hands]}"


# ---------------------------------------------------------------------------------------------
# 1. The worker dies while a clock runs


def test_worker_killed_while_a_decision_clock_runs(healthy: Rig) -> None:
    rig = healthy
    seed = rig.seed("wk")
    _run(rig, _worker_killed(rig, seed))
    rig.assert_chips_conserved()


async def _worker_killed(rig: Rig, seed: dict[str, Any]) -> None:
    players, watchers = _clients(rig, seed)
    everyone = players + watchers
    table_id = players[0].table_id
    try:
        version = await _start(rig, everyone)
        sleeper = next(p for p in players if p.my_turn)
        deadline = float(watchers[0].state["deadline"])  # type: ignore[index]

        killed_at = await asyncio.to_thread(rig.cluster.kill_worker)
        assert killed_at < deadline, "the clock ran out before the worker was killed"
        # The deadline passes with no worker: nobody applies it (the timer died with the worker).
        await asyncio.sleep(max(0.0, deadline - time.time()) + 1.0)
        assert table_versions(rig.database_url, [table_id])[table_id] == version

        restarted_at = time.time()
        await asyncio.to_thread(rig.cluster.start_worker, loglevel="info")
        await asyncio.gather(*(c.wait_version(version + 1, 30) for c in everyone))
        applied_at = min(c.arrivals[version + 1] for c in everyone)
        rig.recoveries["worker: deadline to timeout"] = applied_at - deadline
        rig.recoveries["worker: new worker started to timeout"] = applied_at - restarted_at

        hand = hand_logs(rig.database_url, table_id)[-1]
        timeouts = [a for a in hand["log"] if a.get("timeout")]
        assert len(timeouts) == 1, hand["log"]
        assert timeouts[0]["seat"] == _seat_of(hand, seed, sleeper.label)
        assert timeouts[0]["kind"] == "fold"  # preflop, facing the big blind
        assert "im_back" in sleeper.actions  # the timeout's break shows on the player's own page

        # The hand goes on: the other two play it out and the next hand is dealt (the showdown
        # pause is a clock too, applied by the new worker).
        dealt = watchers[0].next_hand_dealt()
        await play(players, until=dealt, timeout=60, skip=frozenset({sleeper.label}))
        hands = hand_logs(rig.database_url, table_id)
        assert hands[0]["ended"] and len(hands) == 2
        assert sum(1 for a in hands[0]["log"] if a.get("timeout")) == 1, hands[0]["log"]
        # The killed worker's timer stays unacknowledged in Redis until its visibility timeout
        # (an hour): were it delivered now, its version is long gone. Nothing else timed out.
        assert not [a for a in hands[1]["log"] if a.get("timeout")], hands[1]["log"]
        print(f"worker killed: timeout applied {applied_at - deadline:.2f} s after its deadline, "
              f"{applied_at - restarted_at:.2f} s after the new worker was started")
    finally:
        await _close(everyone)


# ---------------------------------------------------------------------------------------------
# 2. One Daphne process of two dies mid-hand


def test_daphne_killed_mid_hand_clients_move_to_the_other(healthy: Rig) -> None:
    rig = healthy
    seed = rig.seed("dk")
    _run(rig, _daphne_killed(rig, seed))
    rig.assert_chips_conserved()


async def _daphne_killed(rig: Rig, seed: dict[str, Any]) -> None:
    port_a, port_b = rig.ports
    players, watchers = _clients(rig, seed, placement=(0, 1, 0), spectators=(0, 1))
    everyone = players + watchers
    table_id = players[0].table_id
    try:
        sent, version = await _to_the_flop(rig, players, everyone, watchers[1])
        on_a = [c for c in everyone if c.port == port_a]
        assert len(on_a) == 3
        seen = {c.label: (c.version, c.html) for c in on_a}
        sockets = {c.label: len(c.snapshots) for c in on_a}

        killed_at = await asyncio.to_thread(rig.cluster.kill_daphne, port_a)
        for c in on_a:
            await c.wait_for(lambda c=c: len(c.snapshots) > sockets[c.label], STEP, "a snapshot from B")
        back_at = max(c.snapshots[-1][1] for c in on_a)
        rig.recoveries["daphne: kill to snapshot from B"] = back_at - killed_at
        now = table_versions(rig.database_url, [table_id])[table_id]
        for c in on_a:
            port, _at, snap_version = c.snapshots[-1]
            assert port == port_b, f"{c.label} reconnected to {port}"
            assert snap_version >= seen[c.label][0]
            if now == version:  # nothing happened meanwhile: the very same view, from B
                assert snap_version == version and c.html == seen[c.label][1], c.label

        # Play on through B to the end of the hand and into the next.
        dealt = watchers[1].next_hand_dealt()
        await play(players, until=dealt, timeout=60, sent=sent)
        await converge(everyone, rig.database_url, STEP)
        assert all(c.port == port_b for c in everyone)
        hands = hand_logs(rig.database_url, table_id)
        assert hands[0]["ended"] and len(hands) == 2
        assert not [a for a in hands[0]["log"] if a.get("timeout")], hands[0]["log"]
        _log_is_subsequence_of_sends(hands[0], seed, sent)
        print(f"daphne killed: every client of A had a snapshot from B {back_at - killed_at:.2f} s later")
    finally:
        await _close(everyone)


# ---------------------------------------------------------------------------------------------
# 3. Redis restarts mid-hand


def test_redis_restarted_mid_hand(healthy: Rig) -> None:
    rig = healthy
    seed = rig.seed("rr")
    _run(rig, _redis_restarted(rig, seed))
    rig.assert_chips_conserved()


async def _redis_restarted(rig: Rig, seed: dict[str, Any]) -> None:
    players, watchers = _clients(rig, seed, placement=(0, 1, 0), spectators=(0, 1))
    everyone = players + watchers
    table_id = players[0].table_id
    worker_pid = rig.cluster.pids()["worker"]
    try:
        sent, version = await _to_the_flop(rig, players, everyone, watchers[0])
        actor = next(p for p in players if p.my_turn)
        choice = actor.passive_choice()
        assert choice is not None
        logged = len(hand_logs(rig.database_url, table_id)[-1]["log"])

        # The actor acts and Redis goes down at once: the action may or may not get through.
        await actor.send(choice, version=version)
        sent.append((actor.label, version, choice))
        stopped_at, started_at = await asyncio.to_thread(rig.redis.restart, 1.0)

        # The channel layer's connection fails under the consumers, which close their sockets;
        # every client reconnects (or keeps its socket) and catches up with the database.
        await asyncio.sleep(0.5)
        await converge(everyone, rig.database_url, 30)
        reconnected = sum(len(c.connects) >= 2 for c in everyone)
        caught_up = max(c.snapshots[-1][1] for c in everyone)
        rig.recoveries["redis: restart to every client caught up"] = caught_up - stopped_at

        # The same action, retried with the same version after the reconnect: applied once at most.
        errors = len(actor.errors)
        await actor.send(choice, version=version)
        await converge(everyone, rig.database_url, STEP)
        hand = hand_logs(rig.database_url, table_id)[-1]
        decided = hand["log"][logged:logged + 1]
        seat = _seat_of(hand, seed, actor.label)
        if actor.version > version + 1 or len(actor.errors) > errors:
            # The first send (or the clock) had already answered this decision: exactly once.
            assert len(decided) == 1 and decided[0]["seat"] == seat, hand["log"]
            assert decided[0].get("timeout") or decided[0]["kind"] == choice
        mine = [a for a in hand["log"][logged:] if a["seat"] == seat and not a.get("timeout")]
        assert len(mine) <= 1, hand["log"]

        # The hand goes on, and the clocks too: the next hand is dealt by the same worker.
        dealt = watchers[0].next_hand_dealt()
        await play(players, until=dealt, timeout=60, sent=sent)
        first_after = min(
            (t for c in everyone for v, t in c.arrivals.items() if v > version and t > started_at),
            default=float("nan"),
        )
        rig.recoveries["redis: restart to next change seen"] = first_after - stopped_at
        assert rig.cluster.has("worker") and rig.cluster.pids()["worker"] == worker_pid, (
            "the worker did not survive the Redis restart"
        )
        hands = hand_logs(rig.database_url, table_id)
        assert hands[0]["ended"] and len(hands) == 2
        _log_is_subsequence_of_sends(hands[0], seed, sent)
        print(f"redis restarted (down {started_at - stopped_at:.2f} s): {reconnected} of {len(everyone)} "
              f"clients reconnected, all caught up {caught_up - stopped_at:.2f} s after it went down")
    finally:
        await _close(everyone)


# ---------------------------------------------------------------------------------------------
# 3b. PostgreSQL cuts every connection mid-hand (a restart, a failover)


def _cut_connections(database_url: str) -> int:
    """End every other session on the test's database, as a PostgreSQL restart would."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
    return sum(1 for (ok,) in rows if ok)


def test_postgresql_connections_cut_mid_hand(healthy: Rig) -> None:
    """Every process keeps its database connections between actions; when PostgreSQL cuts them
    all, the next action is still applied (its writer runs again on a new connection), the player
    gets no error, and the worker's clocks go on."""
    rig = healthy
    seed = rig.seed("pg")
    _run(rig, _connections_cut(rig, seed))
    rig.assert_chips_conserved()


def _page_status(port: int, path: str, cookie_name: str, cookie: str) -> int:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Cookie": f"{cookie_name}={cookie}"})
    try:
        with urllib.request.urlopen(request, timeout=STEP) as res:  # noqa: S310 - our own test server
            return int(res.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


async def _connections_cut(rig: Rig, seed: dict[str, Any]) -> None:
    players, watchers = _clients(rig, seed, placement=(0, 1, 0), spectators=(0, 1))
    everyone = players + watchers
    table_id = players[0].table_id
    try:
        sent, version = await _to_the_flop(rig, players, everyone, watchers[0])
        actor = next(p for p in players if p.my_turn)
        choice = actor.passive_choice()
        assert choice is not None
        player = seed["tables"][0]["players"][0]
        page = f"/tables/{table_id}/"

        async def pages() -> list[int]:
            return [await asyncio.to_thread(_page_status, port, page, seed["cookie_name"], player["cookie"])
                    for port in rig.ports]

        assert await pages() == [200, 200]
        cut = await asyncio.to_thread(_cut_connections, rig.database_url)
        assert cut >= 3  # both Daphne processes and the worker held connections
        # Pages open on a connection of their own: no error page after the cut either.
        assert await pages() == [200, 200]
        before = [len(p.errors) for p in players]
        await actor.send(choice, version=version)
        sent.append((actor.label, version, choice))
        await asyncio.gather(*(c.wait_version(version + 1, STEP) for c in everyone))
        # The others act through their own processes' cut connections, and the worker deals
        # the next hand on its own.
        dealt = watchers[0].next_hand_dealt()
        await play(players, until=dealt, timeout=60, sent=sent)
        assert [p.errors[n:] for p, n in zip(players, before, strict=True)] == [[], [], []]
        hands = hand_logs(rig.database_url, table_id)
        assert hands[0]["ended"] and len(hands) == 2
        _log_is_subsequence_of_sends(hands[0], seed, sent)
    finally:
        await _close(everyone)


# ---------------------------------------------------------------------------------------------
# 4. A socket dropped at every phase; a second tab


PHASES = ("deal", "arrange", "flop", "turn", "river", "showdown")


def test_socket_dropped_at_every_phase_and_a_second_tab(healthy: Rig) -> None:
    rig = healthy
    seed = rig.seed("sd")
    _run(rig, _sockets_dropped(rig, seed))
    rig.assert_chips_conserved()


async def _sockets_dropped(rig: Rig, seed: dict[str, Any]) -> None:
    players, watchers = _clients(rig, seed, placement=(0, 1, 0), spectators=(1,), rotate=True)
    everyone = players + watchers
    table_id = players[0].table_id
    cookies = {p["username"]: p["cookie"] for p in seed["tables"][0]["players"]}
    checked: list[str] = []
    trace: list[tuple[str, str, float]] = []  # (phase, step, seconds since the deal): for failures
    try:
        await _start(rig, everyone)
        began = time.time()

        def mark(name: str, step: str) -> None:
            trace.append((name, step, round(time.time() - began, 2)))

        for name in PHASES:
            phase = {"deal": "preflop", "showdown": "over"}.get(name, name)
            await play(players, until=lambda ph=phase: watchers[0].phase == ph, timeout=60)
            if phase == "over":
                target = players[0]
            else:
                await watchers[0].wait_for(lambda: any(p.my_turn for p in players), STEP, "someone to act")
                target = next(p for p in players if p.my_turn)
            mark(name, f"{target.label} at v{target.version}")
            before = target.version
            sockets = len(target.snapshots)
            old_port = target.port

            dropped_at = time.time()
            await target.drop()
            await target.wait_for(lambda t=target, n=sockets: len(t.snapshots) > n, STEP, "a new socket")
            mark(name, f"reconnected v{target.version}")
            rig.recoveries[f"drop at {name}: to snapshot"] = target.snapshots[-1][1] - dropped_at
            assert target.port != old_port  # rotate: the load balancer sent it to the other Daphne
            assert target.snapshots[-1][2] >= before

            # A second tab for the same player, on the other process.
            tab = Client(ports=rig.ports, table_id=table_id, cookie=cookies[target.label],
                         cookie_name=seed["cookie_name"], label=f"{target.label}-tab2",
                         port_index=rig.ports.index(old_port))
            await tab.start()
            mark(name, f"second tab v{tab.version}")
            try:
                version = await converge(everyone + [tab], rig.database_url, STEP)
                mark(name, f"converged v{version}")
                assert tab.html_at[version] == target.html_at[version], f"{name}: two tabs of one player differ"
                if phase != "over":
                    assert target.my_turn and tab.my_turn, (name, trace, await _versions_log(rig, table_id))
                    choice = tab.passive_choice()
                    assert choice is not None
                    logged = len(hand_logs(rig.database_url, table_id)[-1]["log"])
                    errors = len(target.errors) + len(tab.errors)
                    # The same action from both tabs at once: one is applied, the other refused.
                    await asyncio.gather(tab.send(choice, version=version), target.send(choice, version=version))
                    await tab.wait_for(lambda e=errors, a=target, b=tab: len(a.errors) + len(b.errors) > e, STEP, "a refusal")
                    mark(name, "refused once")
                    await converge(everyone + [tab], rig.database_url, STEP)
                    hand = hand_logs(rig.database_url, table_id)[-1]
                    new = hand["log"][logged:]
                    assert new[:1] == [{"kind": choice, "seat": _seat_of(hand, seed, target.label)}], (name, new)
                    assert len(target.errors) + len(tab.errors) == errors + 1
                    same = min(tab.version, target.version)
                    assert tab.html_at.get(same) == target.html_at.get(same), (
                        f"{name}: two tabs of one player differ at version {same} after acting: "
                        f"{tab.version}/{target.version} {hand['log']} {await _versions_log(rig, table_id)}"
                    )
                print(f"{name}: dropped, back on the other Daphne, second tab and a double send checked in "
                      f"{time.time() - dropped_at:.2f} s")
                checked.append(name)
            finally:
                await tab.close()
        assert checked == list(PHASES)
        hands = hand_logs(rig.database_url, table_id)
        assert hands[0]["ended"]
        assert not [a for a in hands[0]["log"] if a.get("timeout")], (hands[0]["log"], trace)
    finally:
        await _close(everyone)


# ---------------------------------------------------------------------------------------------
# 5. Timers that fire twice, early, late, or for a version long gone


def test_duplicate_late_and_stale_timers_change_nothing_beyond_one_timeout(healthy: Rig) -> None:
    rig = healthy
    seed = rig.seed("tm")
    _run(rig, _timers(rig, seed))
    rig.assert_chips_conserved()


async def _timers(rig: Rig, seed: dict[str, Any]) -> None:
    players, watchers = _clients(rig, seed)
    everyone = players + watchers
    table_id = players[0].table_id
    url = rig.redis.url(0)

    async def expire(version: int | None, countdown: float = 0.0) -> None:
        await asyncio.to_thread(send_expire, url, table_id, version, countdown)

    async def unchanged_for(seconds: float, version: int) -> None:
        await asyncio.sleep(seconds)
        assert table_versions(rig.database_url, [table_id])[table_id] == version
        assert all(c.version == version for c in everyone)

    try:
        version = await _start(rig, everyone)
        sleeper = next(p for p in players if p.my_turn)
        deadline = float(watchers[0].state["deadline"])  # type: ignore[index]
        due = deadline - time.time()
        assert due > 2.0, "too little of the clock left to test early timers"

        # Early (the deadline has not passed) and stale (an older version): nothing happens.
        await expire(version)
        await expire(version - 1)
        await expire(None)
        # Twice more at the deadline, next to the real timer and the beat's sweep.
        await expire(version, countdown=due + 0.05)
        await expire(version, countdown=due + 0.05)
        await expire(None, countdown=due + 0.1)
        await unchanged_for(max(0.0, deadline - time.time() - 0.5), version)

        await asyncio.gather(*(c.wait_version(version + 1, STEP) for c in everyone))
        # Five deliveries could have applied it; one did. Give the rest time to arrive.
        await asyncio.sleep(1.5)
        hand = hand_logs(rig.database_url, table_id)[-1]
        timeouts = [a for a in hand["log"] if a.get("timeout")]
        assert len(timeouts) == 1 and timeouts[0]["seat"] == _seat_of(hand, seed, sleeper.label), hand["log"]
        after = version + 1
        assert table_versions(rig.database_url, [table_id])[table_id] == after

        # Late: the table has moved on; timers for its old versions, twice, change nothing.
        for v in (version, version, version - 1):
            await expire(v)
        await unchanged_for(1.5, after)

        # The hand goes on; once it has ended, the old timers once more, and the hand's own
        # last version (its showdown pause is not over yet), change nothing either.
        dealt = watchers[0].next_hand_dealt()
        await play(players, until=lambda: watchers[0].phase == "over", timeout=60, skip=frozenset({sleeper.label}))
        ended = await converge(everyone, rig.database_url, STEP)
        for v in (version, after, ended):
            await expire(v)
        await play(players, until=dealt, timeout=60, skip=frozenset({sleeper.label}))
        hands = hand_logs(rig.database_url, table_id)
        assert len(hands) == 2 and hands[0]["ended"]
        assert sum(1 for a in hands[0]["log"] if a.get("timeout")) == 1, hands[0]["log"]
        assert not [a for a in hands[1]["log"] if a.get("timeout")], hands[1]["log"]
    finally:
        await _close(everyone)


# ---------------------------------------------------------------------------------------------
# 6. The first broadcast after a Redis restart


def test_the_first_broadcast_after_a_redis_restart_is_not_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pooled connection to a restarted Redis fails its next command once. A process that
    broadcast through such a connection (a Daphne process, the worker, a script) used to lose that
    "table N is at version V": here a thread publishes (as a service's on_commit does, on the
    process's blocking client), Redis restarts, and the next broadcast still arrives at a subscriber (a Daphne process's fan-out) that subscribed again."""
    if redis_server_binary() is None:
        if required():
            pytest.fail("redis-server is not installed, and REQUIRE_SERVICES=1 makes that a failure")
        pytest.skip("redis-server is not installed")
    import json

    import redis.asyncio as aioredis
    from django.conf import settings

    import tables.live as live

    workdir = Path(tempfile.mkdtemp(prefix="pp-broadcast-"))
    redis = RedisServer(workdir)
    redis.start()
    try:
        monkeypatch.setattr(settings, "REDIS_URL", redis.url(0), raising=False)
        monkeypatch.setattr(live, "_PUBSUB_PREFIX", None)
        monkeypatch.setattr(live, "_publishers", {})
        monkeypatch.setattr(live, "_sync_publisher", None)
        monkeypatch.setattr(live, "_layer_is_shared", lambda: True)  # the worker's path
        monkeypatch.setattr(live, "_server_loop", None)
        loop = live._process_loop()

        def on_loop(coro: Any) -> Any:
            return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout=10)

        async def listen() -> Any:
            sub = aioredis.Redis.from_url(redis.url(0)).pubsub(ignore_subscribe_messages=True)
            await sub.subscribe(live.pubsub_channel(7))
            return sub

        async def next_message(sub: Any) -> dict[str, Any]:
            async def first() -> dict[str, Any]:
                while True:
                    got = await sub.get_message(timeout=None)
                    if got is not None and got["type"] == "message":
                        return dict(json.loads(got["data"]))
            return await asyncio.wait_for(first(), 5)

        sub = on_loop(listen())
        live.broadcast_table_changed(7, 1)
        assert on_loop(next_message(sub))["version"] == 1
        redis.restart()
        sub = on_loop(listen())  # a subscriber that connected again after the restart
        live.broadcast_table_changed(7, 2)  # through the publisher's connection to the old server
        assert on_loop(next_message(sub)) == {"type": "table.changed", "table_id": 7, "version": 2}
    finally:
        redis.stop()
        shutil.rmtree(workdir, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# 7. Redis loses its data under sockets that stay open


def test_open_sockets_keep_their_table_when_redis_loses_its_groups(healthy: Rig) -> None:
    """A consumer busy rendering while Redis restarts never sees the connection fail, so it keeps
    its socket, but the restarted Redis has no group memberships: that player, still connected,
    was sent nothing ever again. FLUSHALL makes exactly that state without cutting a connection;
    every open socket must get the next change without reconnecting."""
    rig = healthy
    seed = rig.seed("fl")
    _run(rig, _groups_lost(rig, seed))
    rig.assert_chips_conserved()


async def _groups_lost(rig: Rig, seed: dict[str, Any]) -> None:
    import redis as redis_client

    players, watchers = _clients(rig, seed, placement=(0, 1, 0), spectators=(0, 1))
    everyone = players + watchers
    try:
        version = await _start(rig, everyone)
        client = redis_client.Redis.from_url(rig.redis.url(0))
        try:
            client.flushall()
        finally:
            client.close()
        await asyncio.sleep(3.0)  # the Daphne processes notice (they look every second)
        actor = next(p for p in players if p.my_turn)
        choice = actor.passive_choice()
        assert choice is not None
        await actor.send(choice, version=version)
        await asyncio.gather(*(c.wait_version(version + 1, STEP) for c in everyone))
        assert all(len(c.connects) == 1 for c in everyone), [len(c.connects) for c in everyone]
    finally:
        await _close(everyone)


# ---------------------------------------------------------------------------------------------
# 8. A quiet process keeps its consumers


IDLE_RECEIVE = r"""
import asyncio, django, sys
django.setup()
from django.conf import settings
from channels_redis.core import RedisChannelLayer

async def main():
    layer = RedisChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])
    channel = await layer.new_channel()
    try:
        await asyncio.wait_for(layer.receive(channel), 7.0)
    except asyncio.TimeoutError:
        print("quiet for 7 s, still listening")
    finally:
        await layer.close_pools()

asyncio.run(main())
"""


def test_a_consumer_with_nothing_to_receive_is_not_cut_after_five_seconds(healthy: Rig) -> None:
    """channels_redis listens with a 5 s blocking pop; with redis-py 8's default 5 s read timeout
    that wait failed whenever a process had nothing to receive for 5 s, and the consumer holding
    it died with its socket. The settings' channel layer must wait out a quiet spell."""
    import subprocess
    import sys

    from tests.integration.cluster import ROOT

    result = subprocess.run(  # noqa: S603 - our interpreter and our own script
        [sys.executable, "-c", IDLE_RECEIVE], cwd=ROOT, env=healthy.cluster.env(),
        capture_output=True, text=True, timeout=60,
    )
    assert "still listening" in result.stdout, result.stdout + result.stderr[-3000:]
