"""Telling connected browsers that something changed.

A group message says only "table N is now at version V"; each consumer then renders its own
viewer's view, so no message ever carries another player's hidden cards.

In the embedded mode the in-memory channel layer's queues belong to the server's event loop. A
broadcast from a thread that is not running under that loop (the in-process Celery worker)
is handed to the loop with ``run_coroutine_threadsafe`` instead of opening a loop of its own.

In the Redis mode a process with no server loop (the Celery worker, a script) sends through one
event loop of its own on a daemon thread, started on first use: ``async_to_sync`` there would
open a new event loop, and with it new Redis connections, for every message.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("tables.live")

LOBBY_GROUP = "lobby"

_server_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()
_own_loop: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, loop) see _process_loop
_pending: set[asyncio.Task[Any]] = set()  # the loop keeps only weak references to tasks


def table_group(table_id: int) -> str:
    return f"table.{table_id}"


def remember_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Called by consumers on connect: the loop that owns the in-memory layer's queues."""
    global _server_loop
    with _lock:
        _server_loop = loop


def _run(coro_factory: Any) -> None:
    loop = _server_loop
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is not None:
        # Called from async code directly: schedule on this loop.
        task = running.create_task(coro_factory())
        _pending.add(task)
        task.add_done_callback(_pending.discard)
        return
    if loop is not None and loop.is_running() and not _inside_async_to_sync_thread():
        _wait(asyncio.run_coroutine_threadsafe(coro_factory(), loop))
        return
    if loop is None and _layer_is_shared():
        _wait(asyncio.run_coroutine_threadsafe(coro_factory(), _process_loop()))
        return
    try:
        async_to_sync(coro_factory)()
    except Exception:
        # Called after a commit (a service's on_commit): the change is made whatever happens to
        # its broadcast, so it must not come back to the caller as a failure (a player would be
        # told their action was refused when it was taken). Clients resync on their next message
        # or reconnect.
        log.exception("broadcast failed")


def _wait(fut: Any) -> None:
    try:
        fut.result(timeout=5)
    except Exception:  # a lost broadcast only delays a client until its next resync
        log.exception("broadcast failed")


def _layer_is_shared() -> bool:
    # channels_redis keeps its connections per event loop, so any loop will do; the in-memory
    # layer's queues belong to the loop that made them, so it keeps async_to_sync.
    from django.conf import settings

    return getattr(settings, "LIVE_MODE", "") == "redis"


def _process_loop() -> asyncio.AbstractEventLoop:
    """This process's broadcast loop, running on a daemon thread (a new one after a fork)."""
    global _own_loop
    with _lock:
        if _own_loop is not None and _own_loop[0] == os.getpid() and _own_loop[1].is_running():
            return _own_loop[1]
        loop = asyncio.new_event_loop()
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(loop)
            loop.call_soon(started.set)
            loop.run_forever()

        threading.Thread(target=run, name="broadcast-loop", daemon=True).start()
        started.wait(5)
        _own_loop = (os.getpid(), loop)
        return loop


def _inside_async_to_sync_thread() -> bool:
    # Threads started by sync_to_async (consumers calling services) can hop back to the
    # server loop through async_to_sync; other threads (the embedded worker) cannot.
    from asgiref.sync import SyncToAsync

    return getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None


# A pooled Redis connection whose server went away (a restart, a failover) fails the next command
# sent on it, once; redis-py then connects afresh. Without a second attempt that one failure lost a
# "table N is at version V": nobody saw the change until the next one, and when the change started
# a clock, the next player timed out without ever being shown their turn.
BROADCAST_ATTEMPTS = 3


def _connection_errors() -> tuple[type[BaseException], ...]:
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # the embedded mode needs no Redis
        return (OSError,)
    return (RedisConnectionError, RedisTimeoutError, OSError)


def _send_group(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    _send_with_retries(group, lambda: layer.group_send(group, message))


def _send_with_retries(what: str, send: Callable[[], Awaitable[Any]]) -> None:
    """Run ``send()`` on the right loop (see ``_run``), again after a failed connection."""

    async def factory() -> None:
        retry_on = _connection_errors()
        for attempt in range(1, BROADCAST_ATTEMPTS + 1):
            try:
                await send()
                return
            except retry_on as exc:
                # Sending twice is harmless: consumers skip a version they already hold.
                if attempt == BROADCAST_ATTEMPTS:
                    raise
                log.warning("broadcast to %s failed (%r); trying again", what, exc)
                await asyncio.sleep(0.05 * attempt)

    _run(factory)


# -- Redis losing what it knew ------------------------------------------------------------------
#
# Messages sent while Redis did not answer are lost, and channels_redis's group memberships (the
# lobby's; and the tables' before they moved to pub/sub) go with a Redis that loses its data. A
# consumer that was busy while that happened found a working connection afterwards and was sent
# nothing ever again. So each Daphne process keeps a key of its own in Redis and looks at it
# every second: when the key is gone (Redis lost its data) or Redis did not answer for a while,
# the process's table fan-out joins its tables again and every table socket is sent any version
# it missed (tables.consumers._after_redis_trouble).

WATCH_EVERY = 1.0
_watch: asyncio.Task[None] | None = None


def start_redis_watch(on_trouble: Callable[[bool], Awaitable[None]]) -> None:
    """Start, once per process and on the running loop, the watch described above;
    ``on_trouble(lost)`` is awaited after each trouble (``lost``: Redis lost its data)."""
    global _watch
    if not _layer_is_shared() or (_watch is not None and not _watch.done()):
        return
    _watch = asyncio.get_running_loop().create_task(_watch_redis(on_trouble), name="redis-watch")


async def _watch_redis(on_trouble: Callable[[bool], Awaitable[None]]) -> None:
    import uuid

    import redis.asyncio as aioredis
    from django.conf import settings

    client = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    key = f"tables:live:{uuid.uuid4().hex}"
    seen = False  # our key has been in Redis
    unreachable = False
    while True:
        try:
            before = await client.set(key, b"1", ex=120, get=True)
            lost = seen and before is None
            seen = True
            if lost or unreachable:
                unreachable = False
                log.warning("Redis %s: consumers join their groups again and resync",
                            "lost its data" if lost else "answers again")
                await on_trouble(lost)
        except asyncio.CancelledError:
            raise
        except Exception:
            unreachable = True
        await asyncio.sleep(WATCH_EVERY)


# -- Table messages over Redis pub/sub --------------------------------------------------------
#
# In the Redis mode "table N is at version V" is one PUBLISH, which every Daphne process that
# watches table N (its fan-out subscribed, see tables/consumers.py) gets pushed on the one
# connection it listens on: one command per change, where channels_redis's groups took three to
# send and four per process to receive. Pub/sub delivers at most once: what is published while a
# subscriber's connection is down is lost, so the fan-out, once it is connected and subscribed
# again, sends every socket whose table moved on a fresh picture (as the Redis watch does).
# Channel names carry the Redis database number: pub/sub is server-wide, and two sites (or a test
# and a bench) on one Redis server must not hear each other's tables.


def uses_pubsub() -> bool:
    return _layer_is_shared()


def pubsub_channel(table_id: int) -> str:
    from urllib.parse import urlparse

    from django.conf import settings

    global _PUBSUB_PREFIX
    if _PUBSUB_PREFIX is None:
        db = (urlparse(getattr(settings, "REDIS_URL", "") or "").path or "/0").strip("/") or "0"
        _PUBSUB_PREFIX = f"pp-live:{db}:"
    return f"{_PUBSUB_PREFIX}{table_group(table_id)}"


_PUBSUB_PREFIX: str | None = None
_publishers: dict[int, tuple[asyncio.AbstractEventLoop, Any]] = {}


def _publisher() -> Any:
    """A Redis client for the running loop (redis-py's asyncio clients belong to one loop)."""
    import redis.asyncio as aioredis
    from django.conf import settings

    loop = asyncio.get_running_loop()
    entry = _publishers.get(id(loop))
    if entry is None or entry[0] is not loop:
        for key, (old, _client) in list(_publishers.items()):
            if old.is_closed():
                del _publishers[key]
        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_timeout=5, socket_connect_timeout=2)
        entry = _publishers[id(loop)] = (loop, client)
    return entry[1]


def _publish(table_id: int, message: dict[str, Any]) -> None:
    import json

    payload = json.dumps(message, separators=(",", ":"))
    channel = pubsub_channel(table_id)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        # A thread (a service's on_commit in a consumer's thread, the worker's task): one PUBLISH
        # on this process's blocking client, where a hop to an event loop and back cost more
        # than the command (async_to_sync from a consumer's thread was a good part of an action).
        _publish_now(channel, payload)
        return
    # Async code: the client is looked up when the send runs, on the loop it runs on.
    _send_with_retries(channel, lambda: _publisher().publish(channel, payload))


_sync_publisher: tuple[int, str, Any] | None = None  # (pid, url, client)


def _blocking_publisher() -> Any:
    """This process's blocking Redis client (thread-safe: a pool of connections), a new one
    after a fork or when the URL changed."""
    import redis
    from django.conf import settings

    global _sync_publisher
    url = settings.REDIS_URL
    entry = _sync_publisher
    if entry is None or entry[0] != os.getpid() or entry[1] != url:
        with _lock:
            entry = _sync_publisher
            if entry is None or entry[0] != os.getpid() or entry[1] != url:
                from redis.backoff import NoBackoff
                from redis.retry import Retry

                # The retries are _publish_now's own (BROADCAST_ATTEMPTS), the same in every mode.
                client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=2,
                                              retry=Retry(NoBackoff(), 0))
                entry = _sync_publisher = (os.getpid(), url, client)
    return entry[2]


def _publish_now(channel: str, payload: str) -> None:
    """PUBLISH, again after a failed connection (see BROADCAST_ATTEMPTS); a broadcast that still
    fails is logged, never raised: it runs after a commit (see ``_run``)."""
    import time

    retry_on = _connection_errors()
    for attempt in range(1, BROADCAST_ATTEMPTS + 1):
        try:
            _blocking_publisher().publish(channel, payload)
            return
        except retry_on as exc:
            if attempt == BROADCAST_ATTEMPTS:
                log.exception("broadcast to %s failed", channel)
                return
            log.warning("broadcast to %s failed (%r); trying again", channel, exc)
            time.sleep(0.05 * attempt)
        except Exception:
            log.exception("broadcast to %s failed", channel)
            return


def _send_table(table_id: int, message: dict[str, Any]) -> None:
    if uses_pubsub():
        _publish(table_id, message)
    else:
        _send_group(table_group(table_id), message)


def broadcast_table_changed(table_id: int, version: int, *, hand_only: bool = False) -> None:
    """``hand_only``: the change was an action inside a hand, which changes only the hand and
    the table's version: a process that drew the version before reuses its seats."""
    message: dict[str, Any] = {"type": "table.changed", "table_id": table_id, "version": version}
    if hand_only:
        message["hand_only"] = True
    _send_table(table_id, message)


def broadcast_table_presence(table_id: int, away: list[int]) -> None:
    """Which of the table's seated players have no socket open at it (``tables.presence``)."""
    _send_table(table_id, {"type": "table.presence", "table_id": table_id, "away": away})


def broadcast_table_chat(table_id: int, line: dict[str, Any]) -> None:
    """A new chat line at the table (``tables.chat``): every socket watching it is sent it."""
    _send_table(table_id, {"type": "table.chat", "table_id": table_id, "line": line})


def broadcast_table_chat_muted(table_id: int, change: dict[str, Any]) -> None:
    """Someone was muted or unmuted in the table's chat (``tables.chat.mute``): every socket
    watching is told (``{"user_id", "muted"}``)."""
    _send_table(table_id, {"type": "table.chat_muted", "table_id": table_id, "change": change})


def broadcast_table_chat_deleted(table_id: int, line_id: int) -> None:
    """A chat line was taken out (``tables.chat.delete``): every socket watching takes it off."""
    _send_table(table_id, {"type": "table.chat_deleted", "table_id": table_id, "id": line_id})


def broadcast_link_changed(table_id: int) -> None:
    """A private table's host made a new invite link: every open socket checks again whether its
    viewer may still watch (not one who watched by the old link), and closes if not."""
    _send_table(table_id, {"type": "access.changed", "table_id": table_id, "user_id": None, "everyone": True})


def broadcast_access_changed(table_id: int, user_id: int, ended_session: str | None = None,
                             stood_up: str = "", out_place: int | None = None, keep_session: str = "") -> None:
    """Someone may no longer watch this table (they left or were removed from its club): their
    open sockets check again, and close if so. ``ended_session``: they logged out of that
    session, and its sockets close (their other sessions' stay open). ``stood_up``: the table
    stood them up, "absent" after hands without them (``tables.services._stand_up_the_long_absent``)
    or "stalled" when it dealt nothing for minutes (``stand_up_at_stalled_tables``): their pages
    say so. ``out_place``: their chips ran out in a freeze-out and they finished in
    that place (``tables.freezeout``): their pages say so. ``keep_session``: they changed
    their password in that session, and every other session's sockets close (found by an
    audit: a socket opened before the change went on acting and chatting for them)."""
    message: dict[str, Any] = {"type": "access.changed", "table_id": table_id, "user_id": user_id}
    if out_place:
        message["out_place"] = out_place
    if ended_session:
        message["ended_session"] = ended_session
    if stood_up:
        message["stood_up"] = stood_up
    if keep_session:
        message["keep_session"] = keep_session
    _send_table(table_id, message)


def close_sockets_on_logout(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """``user_logged_out``: the table sockets this browser session opened at the tables where
    the user has a seat close (they alone carry the user's cards). Sent before Django empties
    the session, so its key is still known. A socket watching some other table shows nothing
    a logged-out visitor could not see there, and closes when its page is left."""
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if user is None or not key:
        return
    from tables.models import Seat

    for table_id in sorted(set(Seat.objects.filter(user_id=user.pk).values_list("table_id", flat=True))):
        broadcast_access_changed(table_id, user.pk, ended_session=key)


def broadcast_lobby_changed() -> None:
    _send_group(LOBBY_GROUP, {"type": "lobby.changed"})
