"""The fan-out's Redis pub/sub transport against a real Redis: a join returns once Redis
confirmed it, messages arrive as published, other Redis databases' tables are not heard, and a
connection that Redis cuts is made again, subscribed again and reported (so the sockets resync)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tables import consumers, live
from tests.services import fresh_redis_db, need_redis

pytestmark = [pytest.mark.services]


@pytest.fixture
def redis_url(monkeypatch: pytest.MonkeyPatch) -> Any:
    from django.conf import settings

    need_redis()
    with fresh_redis_db() as url:
        monkeypatch.setattr(settings, "REDIS_URL", url, raising=False)
        monkeypatch.setattr(live, "_PUBSUB_PREFIX", None)
        yield url


async def _publish(url: str, table_id: int, message: dict[str, Any]) -> int:
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(url)
    try:
        return int(await client.publish(live.pubsub_channel(table_id), json.dumps(message)))
    finally:
        await client.aclose()


def test_join_receive_reconnect(redis_url: str) -> None:
    import redis.asyncio as aioredis

    async def scenario() -> None:
        reconnected: list[int] = []
        transport = consumers._PubSubTransport(asyncio.get_running_loop(), lambda: reconnected.append(1))
        await transport.start()
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def pump() -> None:  # what the fan-out's listening loop does with the transport
            while True:
                try:
                    await inbox.put(await transport.receive())
                except Exception:
                    await asyncio.sleep(0.1)
                    try:
                        await transport.recover()
                    except Exception:
                        continue

        async def next_version(wanted: int) -> None:
            while (await asyncio.wait_for(inbox.get(), 5)).get("version") != wanted:
                pass

        pumping = asyncio.ensure_future(pump())
        await transport.join(5)
        await transport.join(6)
        assert await _publish(redis_url, 5, {"type": "table.changed", "table_id": 5, "version": 3}) == 1
        await next_version(3)
        # Another Redis database's table 5 is another site's: not heard.
        other = redis_url.rsplit("/", 1)[0] + "/15"
        client = aioredis.Redis.from_url(other)
        assert await client.publish(f"pp-live:15:{live.table_group(5)}", b"{}") == 0
        await client.aclose()
        # Redis cuts the subscriber's connection: it is made again and subscribed again, and the
        # fan-out hears of it (it then resyncs its sockets).
        admin = aioredis.Redis.from_url(redis_url)
        assert await admin.client_kill_filter(_type="pubsub") >= 1
        await admin.aclose()
        for _ in range(50):
            if reconnected and await _publish(redis_url, 6, {"type": "table.changed", "table_id": 6, "version": 9}):
                break
            await asyncio.sleep(0.1)
        assert reconnected
        await next_version(9)
        await transport.leave(5)
        # The unsubscribe is sent, not confirmed: Redis takes it a moment later (waited for, up to
        # 5 s, rather than a fixed 0.1 s a loaded machine may not keep to).
        for _ in range(50):
            if await _publish(redis_url, 5, {"type": "table.changed", "table_id": 5, "version": 4}) == 0:
                break
            await asyncio.sleep(0.1)
        assert await _publish(redis_url, 5, {"type": "table.changed", "table_id": 5, "version": 4}) == 0
        assert await _publish(redis_url, 6, {"type": "table.changed", "table_id": 6, "version": 10}) == 1
        await next_version(10)
        pumping.cancel()
        await transport.client.aclose()

    asyncio.run(scenario())


def test_many_joins_at_once_share_one_connection(redis_url: str) -> None:
    """Sockets of forty tables connecting at the same moment: every join is confirmed, on the one
    connection the fan-out listens on."""

    async def scenario() -> None:
        transport = consumers._PubSubTransport(asyncio.get_running_loop(), lambda: None)
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

        async def pump() -> None:
            while True:
                await inbox.put(await transport.receive())

        pumping = asyncio.ensure_future(pump())
        await asyncio.wait_for(asyncio.gather(*(transport.join(n) for n in range(40))), 10)
        for n in range(40):
            assert await _publish(redis_url, n, {"type": "table.changed", "table_id": n, "version": n}) == 1
        got = {(await asyncio.wait_for(inbox.get(), 5))["table_id"] for _ in range(40)}
        assert got == set(range(40))
        pumping.cancel()
        await transport.client.aclose()

    asyncio.run(scenario())


# ---------------------------------------------------------------------------------------------
# Publishing from a thread (a service's on_commit in a consumer's thread, the worker's task)


def test_a_thread_publishes_on_the_blocking_client(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No event loop in the thread: one PUBLISH on the process's blocking client, which a
    subscriber receives; the asyncio clients of the loops are not used."""
    import redis

    monkeypatch.setattr(live, "_layer_is_shared", lambda: True)
    monkeypatch.setattr(live, "_sync_publisher", None)
    monkeypatch.setattr(live, "_publishers", {})
    sub = redis.Redis.from_url(redis_url).pubsub(ignore_subscribe_messages=True)
    sub.subscribe(live.pubsub_channel(11))
    try:
        live.broadcast_table_changed(11, 4, hand_only=True)
        got = None
        for _ in range(50):
            got = sub.get_message(timeout=0.1)
            if got is not None:
                break
        assert got is not None and json.loads(got["data"]) == {
            "type": "table.changed", "table_id": 11, "version": 4, "hand_only": True}
        assert live._sync_publisher is not None and live._publishers == {}
    finally:
        sub.close()


class _FlakyClient:
    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.sent: list[tuple[str, str]] = []

    def publish(self, channel: str, payload: str) -> int:
        from redis.exceptions import ConnectionError as RedisConnectionError

        if self.failures:
            self.failures -= 1
            raise RedisConnectionError("Connection closed by server.")
        self.sent.append((channel, payload))
        return 1


@pytest.mark.parametrize("failures, delivered", [(0, 1), (1, 1), (2, 1), (3, 0)])
def test_a_failed_publish_is_tried_again_and_never_raised(
        monkeypatch: pytest.MonkeyPatch, failures: int, delivered: int) -> None:
    """A connection that failed is tried again (BROADCAST_ATTEMPTS in all); when every attempt
    fails the broadcast is logged, not raised: it runs after a commit, and the player's action
    was taken."""
    client = _FlakyClient(failures)
    monkeypatch.setattr(live, "_blocking_publisher", lambda: client)
    monkeypatch.setattr(live, "_PUBSUB_PREFIX", "pp-live:9:")
    monkeypatch.setattr("time.sleep", lambda seconds: None)
    live._publish(3, {"type": "table.changed", "table_id": 3, "version": 8})
    assert len(client.sent) == delivered
    if delivered:
        assert client.sent[0] == ("pp-live:9:table.3", '{"type":"table.changed","table_id":3,"version":8}')
