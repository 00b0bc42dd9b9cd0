"""The process's table fan-out: one group membership per table per process however many sockets
watch it, every socket still gets its own picture, versions only go forward, and a failing
receive neither kills it nor closes the sockets."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from tables import consumers, live, services
from tests.tables.helpers import current_state, seated_table, user_for_index
from tests.tables.test_consumers import _connect, _drain, _next_state

pytestmark = [pytest.mark.django_db(transaction=True)]


def _members(table_id: int) -> set[str]:
    layer = get_channel_layer()
    return set(layer.groups.get(live.table_group(table_id), {}))  # the in-memory layer's groups


async def _act(table: Any) -> int:
    def act() -> int:
        hand, state = current_state(table)
        idx = state.actors()[0]
        kinds = [a.kind for a in state.legal_actions(idx)]
        choice = next(k for k in ("done", "check", "call") if k in kinds)
        table.refresh_from_db()
        return services.table_act(table_id=table.id, user=user_for_index(hand, idx),
                                  message={"action": choice, "version": table.version}).version
    return await database_sync_to_async(act)()


async def _two_players_arranging() -> tuple[Any, Any, Any]:
    """A three-handed Patch-Patch table played to the arrangement, where everyone arranges at
    once (two players can act together); the table and the first two players dealt in."""
    table, _users = await database_sync_to_async(seated_table)(n=3)
    hand, state = await database_sync_to_async(current_state)(table)
    while state.phase != "arrange":
        await _act(table)
        hand, state = await database_sync_to_async(current_state)(table)
    a = await database_sync_to_async(user_for_index)(hand, 0)
    b = await database_sync_to_async(user_for_index)(hand, 1)
    return table, a, b


def _hold_actions_until_go(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """Every socket's action waits in its thread until ``go`` is set; ``on_its_way`` is set when
    one has arrived there (waited for, not guessed with a pause)."""
    go, on_its_way = threading.Event(), threading.Event()
    real_act = consumers._act

    def slow_act(*args: Any) -> int:
        on_its_way.set()
        assert go.wait(10)
        return real_act(*args)

    monkeypatch.setattr(consumers, "_act", slow_act)
    return go, on_its_way


async def test_one_membership_per_table_and_every_socket_gets_its_own_picture() -> None:
    table, users = await database_sync_to_async(seated_table)(n=3)
    other, _ = await database_sync_to_async(seated_table)(n=2)
    comms = [await _connect(table.id, u) for u in users] + [await _connect(table.id)]
    watcher = await _connect(other.id)
    for c in comms + [watcher]:
        await _next_state(c)
    fanout = consumers._FANOUT
    assert fanout is not None
    assert _members(table.id) == {fanout.channel} and _members(other.id) == {fanout.channel}
    new = await _act(table)
    pictures = [await _next_state(c) for c in comms]
    assert {p["version"] for p in pictures} == {new}
    assert len({p["html"] for p in pictures}) == 4  # three players' own cards, and a spectator's
    assert await watcher.receive_nothing(timeout=0.2)  # the other table did not move
    for c in comms:
        await c.disconnect()
    await asyncio.sleep(0.05)
    assert _members(table.id) == set() and table.id not in fanout.tables
    assert _members(other.id) == {fanout.channel}
    await watcher.disconnect()


async def test_versions_only_go_forward_when_changes_come_faster_than_pictures() -> None:
    table, users = await database_sync_to_async(seated_table)(n=3)
    comms = [await _connect(table.id, u) for u in users]
    for c in comms:
        await _next_state(c)
    last = 0
    for _ in range(5):  # five changes, with no wait for the pictures in between
        last = await _act(table)
    for c in comms:
        # Up to the last version's picture however long the drawing takes (the pictures may
        # still be on their way: a 0.15 s quiet spell is no proof that all of them came), then
        # whatever else comes: nothing older, nothing twice.
        seen: list[int] = []
        while not seen or seen[-1] < last:
            msg = json.loads(await c.receive_from(timeout=10))
            if msg["type"] == "state":
                seen.append(msg["version"])
        seen += [m["version"] for m in await _drain(c) if m["type"] == "state"]
        assert seen and seen == sorted(set(seen)) and seen[-1] == last
    for c in comms:
        await c.disconnect()


async def test_a_receive_that_fails_is_tried_again_and_the_sockets_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    table, users = await database_sync_to_async(seated_table)(n=2)
    comms = [await _connect(table.id, u) for u in users]
    for c in comms:
        await _next_state(c)
    fanout = consumers._FANOUT
    assert fanout is not None
    layer = fanout.layer
    real = layer.receive
    failures = []

    async def flaky(channel: str) -> Any:
        if not failures:
            failures.append(channel)
            raise ConnectionError("Redis went away")
        return await real(channel)

    monkeypatch.setattr(layer, "receive", flaky)
    layer.groups.clear()  # as if Redis lost its groups too
    fanout.task.cancel()  # restart the listening loop so it picks up the failing receive
    await asyncio.sleep(0)
    fanout.task = asyncio.get_running_loop().create_task(fanout._listen())
    # The failure, the fan-out's 0.2 s pause, joining the groups again: waited for (a fixed
    # 0.4 s left a loaded machine 0.2 s for it), up to 10 s.
    for _ in range(200):
        if failures and _members(table.id) == {fanout.channel}:
            break
        await asyncio.sleep(0.05)
    assert failures and fanout.alive()
    assert _members(table.id) == {fanout.channel}
    new = await _act(table)
    for c in comms:
        assert (await _next_state(c))["version"] == new
    for c in comms:
        await c.disconnect()


async def test_a_player_whose_action_is_on_its_way_sees_its_result_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Other players' changes that land while a player's own action is being applied are held
    back: that player's next picture shows their action, never a table that moved on without it
    (on which they would act again)."""
    table, a, b = await _two_players_arranging()
    comm = await _connect(table.id, a)
    first = await _next_state(comm)
    go, on_its_way = _hold_actions_until_go(monkeypatch)
    await comm.send_to(text_data=json.dumps({"action": "done", "version": first["version"]}))
    # A's "done" is on its way: waited for, not guessed with a 0.1 s pause.
    assert await asyncio.to_thread(on_its_way.wait, 10)
    other = await database_sync_to_async(services.table_act)(
        table_id=table.id, user=b, message={"action": "done", "version": first["version"]})
    assert await comm.receive_nothing(timeout=0.3)  # B's change is held back from A
    go.set()
    answer = await _next_state(comm)
    assert answer["version"] == other.version + 1  # A's own action, after B's
    assert [m for m in await _drain(comm) if m["type"] == "state"] == []
    await comm.disconnect()


async def test_an_action_taken_is_answered_even_when_its_picture_fails_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The actor's picture is drawn in the same hop as the action; if that drawing fails, the
    action still stands and the player is sent the picture drawn again, never "could not take
    that action"."""

    table, users = await database_sync_to_async(seated_table)(n=2)
    comms = [await _connect(table.id, u) for u in users]
    for c in comms:
        await _next_state(c)
    hand, state = await database_sync_to_async(current_state)(table)
    idx = state.actors()[0]
    actor = await database_sync_to_async(user_for_index)(hand, idx)
    comm = comms[[u.pk for u in users].index(actor.pk)]
    await database_sync_to_async(table.refresh_from_db)()
    real = consumers._render
    calls: list[int] = []

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("drawing failed")
        return real(*args, **kwargs)

    monkeypatch.setattr(consumers, "_render", flaky)
    kinds = [a.kind for a in state.legal_actions(idx)]
    choice = next(k for k in ("check", "call") if k in kinds)
    await comm.send_to(text_data=json.dumps({"action": choice, "version": table.version}))
    got = await _drain(comm, first=5)
    assert not [m for m in got if m["type"] == "error"], got
    assert [m["version"] for m in got if m["type"] == "state"] == [table.version + 1]
    assert len(calls) >= 2
    for c in comms:
        await c.disconnect()


async def test_the_other_local_viewers_get_an_actions_picture_from_its_own_hop(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's action is drawn for this process's other sockets watching the table in the
    hop that took it: every one of them gets that version, the fan-out draws nothing more for
    it, and each picture is that viewer's own (a spectator's shows no player's cards)."""
    table, users = await database_sync_to_async(seated_table)(n=3)
    comms = {u.pk: await _connect(table.id, u) for u in users}
    spectator = await _connect(table.id)
    for c in [*comms.values(), spectator]:
        await _next_state(c)
    hand, state = await database_sync_to_async(current_state)(table)
    idx = state.actors()[0]
    actor = await database_sync_to_async(user_for_index)(hand, idx)
    fanned: list[int] = []
    real_draw = consumers._Fanout._draw

    async def counting(self: Any, table_id: int, watched: Any, version: int, hand_only: bool) -> None:
        fanned.append(version)
        await real_draw(self, table_id, watched, version, hand_only)

    monkeypatch.setattr(consumers._Fanout, "_draw", counting)
    await database_sync_to_async(table.refresh_from_db)()
    kinds = [a.kind for a in state.legal_actions(idx)]
    choice = next(k for k in ("check", "call") if k in kinds)
    await comms[actor.pk].send_to(text_data=json.dumps({"action": choice, "version": table.version}))
    pictures = {pk: await _next_state(c) for pk, c in comms.items()}
    seen = await _next_state(spectator)
    assert {p["version"] for p in [*pictures.values(), seen]} == {table.version + 1}
    assert len({p["html"] for p in [*pictures.values(), seen]}) == 4  # each viewer's own
    for c in [*comms.values(), spectator]:
        assert [m for m in await _drain(c) if m["type"] == "state"] == []  # nothing twice
    assert fanned == []  # the fan-out drew nobody for that version: the action's hop did
    for c in [*comms.values(), spectator]:
        await c.disconnect()


async def test_a_change_announced_while_an_action_is_on_its_way_is_drawn_after_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fan-out waits for an action of this process on the same table, then draws what was
    announced meanwhile for whoever does not have it: a spectator sees both changes, in order."""
    table, a, b = await _two_players_arranging()
    comm = await _connect(table.id, a)
    spectator = await _connect(table.id)
    first = await _next_state(comm)
    await _next_state(spectator)
    go, on_its_way = _hold_actions_until_go(monkeypatch)
    await comm.send_to(text_data=json.dumps({"action": "done", "version": first["version"]}))
    assert await asyncio.to_thread(on_its_way.wait, 10)
    other = await database_sync_to_async(services.table_act)(
        table_id=table.id, user=b, message={"action": "done", "version": first["version"]})
    # B's change (from another process, say) waits for A's action to come back.
    assert await spectator.receive_nothing(timeout=0.3)
    go.set()
    answer = await _next_state(comm)
    assert answer["version"] == other.version + 1
    got = [await _next_state(spectator)]
    got += [m for m in await _drain(spectator) if m["type"] == "state"]
    assert [m["version"] for m in got] == [other.version + 1]  # the latest, once; never older after it
    await comm.disconnect()
    await spectator.disconnect()
