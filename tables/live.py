"""Telling connected browsers that something changed.

A group message says only "table N is now at version V"; each consumer then renders its own
viewer's view, so no message ever carries another player's hidden cards.

In the embedded mode the in-memory channel layer's queues belong to the server's event loop. A
broadcast from a thread that is not running under that loop (the in-process Celery worker)
is handed to the loop with ``run_coroutine_threadsafe`` instead of opening a loop of its own.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger("tables.live")

LOBBY_GROUP = "lobby"

_server_loop: asyncio.AbstractEventLoop | None = None
_lock = threading.Lock()


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
        running.create_task(coro_factory())
        return
    if loop is not None and loop.is_running() and not _inside_async_to_sync_thread():
        fut = asyncio.run_coroutine_threadsafe(coro_factory(), loop)
        try:
            fut.result(timeout=5)
        except Exception:  # a lost broadcast only delays a client until its next resync
            log.exception("broadcast failed")
        return
    async_to_sync(coro_factory)()


def _inside_async_to_sync_thread() -> bool:
    # Threads started by sync_to_async (consumers calling services) can hop back to the
    # server loop through async_to_sync; other threads (the embedded worker) cannot.
    from asgiref.sync import SyncToAsync

    return getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None


def _send_group(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return

    async def factory() -> None:
        await layer.group_send(group, message)

    _run(factory)


def broadcast_table_changed(table_id: int, version: int) -> None:
    _send_group(table_group(table_id), {"type": "table.changed", "table_id": table_id, "version": version})


def broadcast_lobby_changed() -> None:
    _send_group(LOBBY_GROUP, {"type": "lobby.changed"})
