"""A seated player with no table page open is marked "away" for everyone at the table: each
socket of a logged-in user is noted when it opens and forgotten when it closes, and after either
the table hears which of its seated players have no socket open (``{"type": "presence", "away":
[user ids]}``). Watchers are never named; a second tab keeps a player here; with Redis the
sockets of every process count, and a process's sockets stop counting when it stops renewing
them."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from tables import presence
from tests.services import need_redis
from tests.tables.helpers import make_user, seated_table
from tests.tables.test_consumers import _connect as _plain_connect
from tests.tables.test_consumers import _next_state


async def _connect(table_id: int, user: Any) -> WebsocketCommunicator:
    """A socket as the table page opens it: asking to be told who is away."""
    return await _plain_connect(table_id, user, query="presence=1")

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_sockets_left_over() -> None:
    """Sockets other tests left open are forgotten: their table and user ids come again."""
    with presence._lock:
        presence._local.clear()


async def _presence(comm: WebsocketCommunicator, timeout: float = 5) -> list[int]:
    """The next presence message's away list (other messages are skipped)."""
    while True:
        msg = json.loads(await comm.receive_from(timeout=timeout))
        if msg["type"] == "presence":
            return list(msg["away"])


async def test_a_player_without_the_table_open_is_away_and_a_second_tab_keeps_them_here() -> None:
    table, players = await database_sync_to_async(seated_table)(n=3)
    a, b, c = players
    watcher_user = await database_sync_to_async(make_user)("watcher")
    first = await _connect(table.id, a)
    await _next_state(first)
    assert await _presence(first) == sorted([b.pk, c.pk])  # only a has the table open
    second = await _connect(table.id, b)
    assert await _presence(first) == [c.pk]
    assert await _presence(second) == [c.pk]
    watcher = await _connect(table.id, watcher_user)  # a watcher is no seat: never named
    assert await _presence(first) == [c.pk]
    tab = await _connect(table.id, b)  # b's second tab
    assert await _presence(first) == [c.pk]
    await second.disconnect()
    assert await _presence(first) == [c.pk]  # b's other tab is still open
    await tab.disconnect()
    assert await _presence(first) == sorted([b.pk, c.pk])
    # A client that did not ask (a bot, a script) counts as here but is not told.
    quiet = await _plain_connect(table.id, c)
    assert await _presence(first) == [b.pk]
    await _next_state(quiet)
    assert await quiet.receive_nothing(timeout=0.3)
    for comm in (first, watcher, quiet):
        await comm.disconnect()
    assert presence.present(table.id) == set()


async def test_the_picture_marks_each_seat_with_its_player() -> None:
    table, players = await database_sync_to_async(seated_table)(n=2)
    comm = await _connect(table.id, players[0])
    html = (await _next_state(comm))["html"]
    for p in players:
        assert f'data-user="{p.pk}"' in html
    await comm.disconnect()


def test_with_redis_every_process_counts_and_a_silent_one_stops_counting(monkeypatch: Any) -> None:
    import redis
    from django.conf import settings

    url = need_redis()
    client = redis.Redis.from_url(url)
    monkeypatch.setattr(settings, "REDIS_URL", url, raising=False)
    monkeypatch.setattr(presence, "_shared", lambda: True)
    table, players = seated_table(n=2)
    a, b = players
    key = presence._key(table.id)  # this process's own client and key, as Daphne's use them
    client.delete(key)
    assert presence.arrive(table.id, a.pk, "p1-1") == [b.pk]
    # Another process's socket, written to Redis only: it counts here too.
    client.zadd(key, {f"{b.pk}:p2-7": time.time() + presence.TTL_S})
    assert presence.away(table.id) == []
    # That process died without closing its socket: once its entry is past, b is away again.
    client.zadd(key, {f"{b.pk}:p2-7": time.time() - 1})
    assert presence.away(table.id) == [b.pk]
    # This process renews its own: a's entry is pushed back, and the dead process's is cleared,
    # its table named so that the renewal announces b as away (nobody else would).
    before = client.zscore(key, f"{a.pk}:p1-1")
    time.sleep(0.01)
    assert presence.renew() == [table.id]
    assert client.zscore(key, f"{a.pk}:p1-1") > before
    assert client.zscore(key, f"{b.pk}:p2-7") is None
    assert presence.renew() == []  # nothing ran out since: nothing to announce
    assert presence.depart(table.id, a.pk, "p1-1") == sorted([a.pk, b.pk])
    assert client.zscore(key, f"{a.pk}:p1-1") is None
    client.delete(key)


async def test_the_renewal_loop_announces_tables_where_sockets_ran_out_and_survives_errors(monkeypatch: Any) -> None:
    """The loop each Daphne process runs with Redis (consumers._start_presence_renewal): every
    RENEW_S it renews its sockets, announces each table ``presence.renew`` names, carries on
    after a failure, and one process runs one loop."""
    import asyncio

    from tables import consumers, live

    calls: list[str] = []
    answers: list[Any] = [[7], RuntimeError("Redis went away"), [], [8, 9]]

    def renew() -> list[int]:
        calls.append("renew")
        answer = answers.pop(0) if answers else []
        if isinstance(answer, Exception):
            raise answer
        return answer

    announced: list[int] = []
    monkeypatch.setattr(live, "uses_pubsub", lambda: True)
    monkeypatch.setattr(presence, "RENEW_S", 0.01)
    monkeypatch.setattr(presence, "renew", renew)
    monkeypatch.setattr(consumers, "_announce_presence", announced.append)
    monkeypatch.setattr(consumers, "_renewal", None)
    consumers._start_presence_renewal()
    task = consumers._renewal
    assert task is not None
    consumers._start_presence_renewal()  # a second socket opening: the same loop
    assert consumers._renewal is task
    try:
        for _ in range(500):
            if len(calls) >= 5:
                break
            await asyncio.sleep(0.01)
        assert len(calls) >= 5  # it went on after the error
        assert announced == [7, 8, 9]
        assert not task.done()
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_without_redis_there_is_no_renewal_loop(monkeypatch: Any) -> None:
    from tables import consumers, live

    monkeypatch.setattr(live, "uses_pubsub", lambda: False)
    monkeypatch.setattr(consumers, "_renewal", None)
    consumers._start_presence_renewal()
    assert consumers._renewal is None
