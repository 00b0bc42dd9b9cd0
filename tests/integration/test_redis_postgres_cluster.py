"""Two Daphne processes and one Celery worker on the same Redis and PostgreSQL, as deployed.

Player 1 (and a spectator) talk to Daphne A, players 2 and 3 (and another spectator) to Daphne B.
A full hand is played across them: every viewer, on either process, receives every version (the
group message travels through channels_redis). Then nobody acts: the Celery worker's timer (a
countdown task on the Redis broker, or its beat's sweep) applies the timeout, and every viewer
sees the player who timed out fold and go on a break.

Nothing here runs in the test process but websocket clients: the servers, the worker and the
database writes (a "control" process using the services) are subprocesses; see ``cluster.py``.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from tests.integration.cluster import Cluster, Viewer
from tests.services import fresh_postgres_database, fresh_redis_db
from tests.tables.test_hidden_cards import cards_in

pytestmark = [pytest.mark.services]

DECISION, ARRANGE, SHOWDOWN = 6.0, 6.0, 1.0  # room for a slow step on a loaded machine (no action may time out)
STEP_TIMEOUT = 30.0  # one version reaching every viewer; generous for a busy 2-core machine
EXPIRE_OK = re.compile(r"Task tables\.expire_clock\[[^\]]+\] succeeded in [\d.e-]+s: True")
SWEEP_OK = re.compile(r"Task tables\.sweep\[[^\]]+\] succeeded in [\d.e-]+s: [1-9]")


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Cluster, int, int]]:
    """Two Daphne processes (ports A and B) and one worker on a fresh database and Redis db."""
    with fresh_postgres_database() as database_url, fresh_redis_db() as redis_url:
        cluster = Cluster(
            database_url=database_url, redis_url=redis_url,
            decision=DECISION, arrange=ARRANGE, showdown=SHOWDOWN,
        )
        try:
            cluster.migrate()
            port_a = cluster.start_daphne()
            port_b = cluster.start_daphne()
            # -l info: the worker logs each task's return value, which says who applied a timer.
            cluster.start_worker(loglevel="info")
            yield cluster, port_a, port_b
            cluster.assert_alive()
        except BaseException:
            print(cluster.logs())  # shown by pytest on failure
            raise
        finally:
            cluster.close()


def test_two_daphnes_one_worker_share_redis_and_postgres(cluster: tuple[Cluster, int, int]) -> None:
    c, port_a, port_b = cluster
    seed = c.control("seed", tables=1, players=3, prefix="c")
    try:
        asyncio.run(_scenario(c, seed, port_a, port_b))
    except BaseException:
        print(c.logs())
        raise


def test_a_table_waiting_on_a_lock_holds_up_no_other_table(cluster: tuple[Cluster, int, int]) -> None:
    """An action that waits for its table's row lock (a long transaction elsewhere) must not
    stall the other tables served by the same Daphne process."""
    c, port_a, _port_b = cluster
    seed = c.control("seed", tables=2, players=3, prefix="lock")
    try:
        asyncio.run(_lock_scenario(c, seed, port_a))
    except BaseException:
        print(c.logs())
        raise


def test_a_chat_line_reaches_the_table_on_both_processes(cluster: tuple[Cluster, int, int]) -> None:
    """A chat line written through one Daphne process reaches the players and a spectator on the
    other (the line goes over Redis like the table's versions) and is kept in PostgreSQL."""
    c, port_a, port_b = cluster
    seed = c.control("seed", tables=1, players=3, prefix="chat")
    try:
        asyncio.run(_chat_scenario(seed, port_a, port_b))
    except BaseException:
        print(c.logs())
        raise


def test_pages_leave_no_database_connections_behind(cluster: tuple[Cluster, int, int]) -> None:
    """Each page is served on a thread of its own: its PostgreSQL connection must close when the
    page is sent. Found in session 37: 400 lobby pages, ten at a time, left 98 connections open
    until the garbage collector came by, and the last pages failed with "too many clients"."""
    import concurrent.futures
    import urllib.request
    from urllib.parse import urlparse

    import psycopg

    from tests.services import need_postgres

    c, port_a, _port_b = cluster
    name = urlparse(c.database_url).path.lstrip("/")

    def connections() -> int:
        with psycopg.connect(need_postgres(), autocommit=True) as conn:
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()
            return int(row[0]) if row else 0

    def page(_i: int) -> int:
        with urllib.request.urlopen(f"http://127.0.0.1:{port_a}/lobby/", timeout=STEP_TIMEOUT) as response:
            response.read()
            return int(response.status)

    before = connections()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(page, range(160)))
    assert statuses == [200] * 160
    time.sleep(0.5)
    after = connections()
    # The processes' own threads keep theirs (they were counted before); a page's is gone.
    assert after <= before + 2, f"{after - before} connections left open by 160 pages ({before} before)"


async def _chat_scenario(seed: dict[str, Any], port_a: int, port_b: int) -> None:
    table = seed["tables"][0]
    writer, reader = (
        Viewer(port=port, table_id=table["id"], cookie=p["cookie"], cookie_name=seed["cookie_name"],
               label=f"{p['username']}@{port}")
        for port, p in ((port_a, table["players"][0]), (port_b, table["players"][1]))
    )
    spectator = Viewer(port=port_b, table_id=table["id"], label="spectator@B")
    viewers = [writer, reader, spectator]
    try:
        for v in viewers:
            await v.connect()
        await asyncio.gather(*(v.wait_version(0, STEP_TIMEOUT) for v in viewers))
        await writer.send("chat", text="good luck, table")

        async def line_arrived(v: Viewer) -> None:
            deadline = time.monotonic() + STEP_TIMEOUT
            while not any(line["text"] == "good luck, table" for line in v.chat):
                assert time.monotonic() < deadline, f"{v.label}: the chat line did not arrive ({v.chat})"
                await asyncio.sleep(0.05)

        await asyncio.gather(*(line_arrived(v) for v in viewers))
        line = next(line for line in reader.chat if line["text"] == "good luck, table")
        assert line["name"] == table["players"][0]["username"]
        # Kept: a socket opened now is given it with its first picture.
        late = await Viewer(port=port_a, table_id=table["id"], label="late@A").connect()
        viewers.append(late)
        first = await late.wait_version(0, STEP_TIMEOUT)
        assert [x["text"] for x in first["chat"]["lines"]] == ["good luck, table"]
    finally:
        for v in viewers:
            await v.close()


async def _control(cluster: Cluster, cmd: str, **kwargs: Any) -> Any:
    # The control process answers on a pipe: don't block the loop the websocket readers run on.
    return await asyncio.to_thread(cluster.control, cmd, **kwargs)


async def _all_reach(viewers: list[Viewer], version: int) -> None:
    await asyncio.gather(*(v.wait_version(version, STEP_TIMEOUT) for v in viewers))


async def _scenario(cluster: Cluster, seed: dict[str, Any], port_a: int, port_b: int) -> None:
    table = seed["tables"][0]
    table_id = table["id"]
    cookie_name = seed["cookie_name"]
    players = [
        Viewer(port=port_a if i == 0 else port_b, table_id=table_id, cookie=p["cookie"],
               cookie_name=cookie_name, label=f"{p['username']}@{'A' if i == 0 else 'B'}")
        for i, p in enumerate(table["players"])
    ]
    spectators = [
        Viewer(port=port_a, table_id=table_id, label="spectator@A"),
        Viewer(port=port_b, table_id=table_id, label="spectator@B"),
    ]
    viewers = players + spectators
    for v in viewers:
        v.keep_pictures = True
    try:
        for v in viewers:
            await v.connect()
        # Every (re)connect gets a full snapshot first.
        start = max([(await v.wait_version(0, STEP_TIMEOUT))["version"] for v in viewers])
        await _all_reach(viewers, start)
        assert all(v.phase == "waiting" for v in viewers)

        # The host resumes the paused table: the first hand is dealt to all three.
        resumed = (await _control(cluster, "resume", tables=[table_id]))[str(table_id)]
        await _all_reach(viewers, resumed)
        first = resumed
        assert sum(p.my_turn for p in players) == 1
        assert not any(s.my_turn or s.actions for s in spectators)

        # -- a full hand, actions alternating between the two processes --------------------
        by_process = {port_a: 0, port_b: 0}
        version = resumed
        for _step in range(60):
            if spectators[0].phase == "over":
                break
            actors = [p for p in players if p.my_turn and p.version == version]
            assert actors, f"nobody may act at version {version}: {[p.actions for p in players]}"
            actor = actors[0]
            choice = actor.passive_choice()
            assert choice is not None, f"{actor.label} has no action to take: {actor.actions}"
            errors_before = len(actor.errors)
            await actor.send(choice, version=version)
            version += 1
            await _all_reach(viewers, version)
            assert len(actor.errors) == errors_before, actor.errors[errors_before:]
            by_process[actor.port] += 1
        else:
            raise AssertionError("the hand did not end in 60 actions")
        assert all(v.phase == "over" for v in viewers)
        assert by_process[port_a] and by_process[port_b], by_process  # both servers took actions
        hand = await _control(cluster, "hand", table=table_id)
        assert hand["number"] == 1 and hand["ended"] and hand["clock"] == "next"
        timed_out = [a for a in hand["log"] if a.get("timeout")]
        assert not timed_out, timed_out

        # Each viewer saw every version, whichever process the action went through.
        for v in viewers:
            seen = set(v.versions)
            missing = [n for n in range(first, version + 1) if n not in seen]
            assert not missing, f"{v.label} missed versions {missing}"

        # No picture showed a player's cards to anyone else before the showdown, whichever
        # process drew it (the one that took the action, or the other on hearing of it), and
        # each player's own cards reached them.
        cards = {int(user_id): set(dealt) for (_seat, user_id, _start), dealt in zip(hand["players"], hand["cards"],
                                                                                     strict=True)}
        assert len(cards) == 3 and all(len(c) == 12 for c in cards.values()), cards
        owners = [int(p["user_id"]) for p in table["players"]] + [None, None]
        for v, owner in zip(viewers, owners, strict=True):
            during = [(n, html) for n, phase, html in v.pictures if first <= n < version and phase != "over"]
            assert during, f"{v.label} kept no picture of the hand"
            others = set().union(*(c for user_id, c in cards.items() if user_id != owner))
            for n, html in during:
                leaked = cards_in(html, settings.LANGUAGE_CODE) & others
                assert not leaked, f"{v.label} was shown {sorted(leaked)} at version {n}"
            if owner is not None:
                assert all(cards[owner] <= cards_in(html, settings.LANGUAGE_CODE) for _n, html in during), v.label

        # -- the showdown pause runs out: the worker deals the next hand --------------------
        over = spectators[0].state
        assert over is not None and over["clock"] == "next" and over["deadline"]
        await asyncio.gather(*(v.wait_version(version + 1, SHOWDOWN + STEP_TIMEOUT) for v in viewers))
        version += 1
        dealt_late = spectators[0].arrivals[version] - over["deadline"]
        assert dealt_late >= -0.01, f"the next hand came {-dealt_late:.3f} s before the deadline"
        hand = await _control(cluster, "hand", table=table_id)
        assert hand["number"] == 2 and hand["phase"] == "preflop" and not hand["ended"]
        assert all(v.phase == "preflop" for v in viewers)

        # -- nobody acts: the decision clock runs out ---------------------------------------
        waiting = [p for p in players if p.my_turn]
        assert len(waiting) == 1
        sleeper = waiting[0]
        state = spectators[0].state
        assert state is not None and state["clock"] == "decision" and state["deadline"]
        deadline = state["deadline"]
        assert deadline - time.time() <= DECISION + 0.5
        await asyncio.gather(
            *(v.wait_version(version + 1, DECISION + STEP_TIMEOUT) for v in viewers)
        )
        version += 1
        arrived = max(v.arrivals[version] for v in viewers)
        late = arrived - deadline
        assert late >= -0.01, f"the timeout came {-late:.3f} s before the deadline"

        # Preflop the first player faces the big blind, so the timeout folds and sends them on a
        # break from the next hand: their own page offers "I'm back" and shows them folded.
        assert "im_back" in sleeper.actions, sleeper.actions
        assert not sleeper.my_turn
        assert "folded" in sleeper.state["html"]  # type: ignore[index]
        hand = await _control(cluster, "hand", table=table_id)
        last = hand["log"][-1]
        assert last["kind"] == "fold" and last.get("timeout"), hand["log"]
        seats = await _control(cluster, "seats", table=table_id)
        me = next(p for p in table["players"] if p["username"] in sleeper.label)
        mine = next(s for s in seats if s["user_id"] == me["user_id"])
        assert mine["break_next"] or mine["sitting_out"], seats
        for p in players:
            if p is not sleeper:
                assert "im_back" not in p.actions

        # The worker applied both clocks: its log names the task that changed the table.
        log = cluster.log_tail("worker", chars=200_000)
        applied = len(EXPIRE_OK.findall(log)) + len(SWEEP_OK.findall(log))
        assert applied >= 2, f"no timer task reported applying the clocks:\n{log[-3000:]}"
        print(f"next hand dealt {dealt_late * 1000:.0f} ms after its deadline; "
              f"timeout applied {late * 1000:.0f} ms after its deadline "
              f"({len(EXPIRE_OK.findall(log))} by expire_clock, {len(SWEEP_OK.findall(log))} by the sweep)")
    finally:
        for v in viewers:
            await v.close()


async def _lock_scenario(cluster: Cluster, seed: dict[str, Any], port: int) -> None:
    import psycopg

    cookie_name = seed["cookie_name"]
    tables = [t["id"] for t in seed["tables"]]
    viewers = {
        t["id"]: [Viewer(port=port, table_id=t["id"], cookie=p["cookie"], cookie_name=cookie_name,
                         label=p["username"]) for p in t["players"]]
        for t in seed["tables"]
    }
    everyone = [v for vs in viewers.values() for v in vs]
    try:
        for v in everyone:
            await v.connect()
        resumed = await _control(cluster, "resume", tables=tables)
        for t in tables:
            await _all_reach(viewers[t], resumed[str(t)])
        locked, free = tables
        actor_locked = next(p for p in viewers[locked] if p.my_turn)
        actor_free = next(p for p in viewers[free] if p.my_turn)
        with psycopg.connect(cluster.database_url) as conn:
            # Hold the first table's row the way a long transaction would.
            conn.execute("SELECT id FROM tables_table WHERE id = %s FOR UPDATE", (locked,))
            await actor_locked.send(actor_locked.passive_choice() or "fold")
            await asyncio.sleep(0.3)  # its table_act is now waiting for the lock
            # The other table plays on while the lock is held. (Before, the whole process
            # waited: nothing arrived until the lock was released.)
            await actor_free.send(actor_free.passive_choice() or "fold")
            await _all_reach(viewers[free], resumed[str(free)] + 1)
            assert all(v.version == resumed[str(locked)] for v in viewers[locked])
            conn.rollback()  # let the first table go: its action (or its timer) now goes through
        await _all_reach(viewers[locked], resumed[str(locked)] + 1)
    finally:
        for v in everyone:
            await v.close()
