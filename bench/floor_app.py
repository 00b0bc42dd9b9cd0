"""The floor: the least a live table can cost on this stack, served by Daphne for bench_floor.py.

Same protocol as ``/ws/tables/<id>/`` as the bench's bots speak it, and the same shape of work
per action as the site, with everything of the site's own taken out:

* a websocket per player (Channels' ``AsyncWebsocketConsumer`` on Daphne), the seat named by the
  ``sessionid`` cookie (no session, no auth, no origin check);
* an action: one hop to a thread, one short transaction on PostgreSQL (the table's row locked,
  the version checked, the row written with a state of the size a Patch-Patch hand's is), and on
  commit one ``PUBLISH`` on Redis;
* every viewer of the table gets a JSON state message as large as the site's (a Patch-Patch
  picture is about 9.7 kB): this process's viewers straight after the commit, the other
  process's on the ``PUBLISH`` (one pub/sub subscription per process, as the site's fan-out).

No rules engine, no rendering, no timers, no Celery, no ORM queryset: what is left is Daphne,
Channels, psycopg, redis-py and the interpreter. Not part of the site; never imported by it.
"""

import asyncio
import gc
import json
import os
import threading
from typing import Any
from urllib.parse import urlparse

import django
from django.conf import settings

_url = urlparse(os.environ["DATABASE_URL"])
settings.configure(
    DEBUG=False,
    SECRET_KEY="floor",  # noqa: S106 - a bench's own process, nothing is signed
    ALLOWED_HOSTS=["*"],
    USE_TZ=True,
    INSTALLED_APPS=["channels"],
    DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql", "NAME": _url.path.lstrip("/"), "USER": _url.username or "postgres",
        "PASSWORD": _url.password or "", "HOST": _url.hostname or "127.0.0.1", "PORT": _url.port or 5432,
        "CONN_MAX_AGE": None, "OPTIONS": {"server_side_binding": True, "prepare_threshold": 2},  # as the site
    }},
)
django.setup()

import redis  # noqa: E402
import redis.asyncio as aioredis  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.urls import path  # noqa: E402

SEATS = 3
PICTURE_BYTES = int(os.environ.get("FLOOR_PICTURE_BYTES", "9500"))
FILLER = '<span class="card">' + "x" * max(0, PICTURE_BYTES - 200) + "</span>"
CHANNEL = "floor:"
REDIS_URL = os.environ["REDIS_URL"]
_publisher = redis.Redis.from_url(REDIS_URL)
_lock = threading.Lock()


def picture(table_id: int, version: int, seat: int) -> str:
    mine = version % SEATS == seat
    html = (f'<section class="felt family-pp phase-flop" data-table="{table_id}">{FILLER}'
            + ('<button data-action="check">Check</button>' if mine else "") + "</section>")
    return json.dumps({"type": "state", "version": version, "html": html, "clock": "decision", "deadline": None,
                       "my_turn": mine})


def read_version(table_id: int) -> int:
    with connection.cursor() as cur:
        cur.execute("SELECT version FROM floor_table WHERE id = %s", [table_id])
        row = cur.fetchone()
    return int(row[0]) if row else -1


def act(table_id: int, seat: int, version: Any) -> int | None:
    """The writer: the new version, or None when refused (stale version, not this seat's turn)."""
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute("SELECT version, state FROM floor_table WHERE id = %s FOR UPDATE", [table_id])
        row = cur.fetchone()
        if row is None or row[0] != version or row[0] % SEATS != seat:
            return None
        new = row[0] + 1
        state = row[1][1:] + row[1][:1]  # a state as large as a hand's, changed
        cur.execute("UPDATE floor_table SET version = %s, state = %s WHERE id = %s", [new, state, table_id])
        transaction.on_commit(lambda: _publisher.publish(f"{CHANNEL}{table_id}", str(new)))
    return new


class Fanout:
    """One pub/sub subscription per process; each table's sockets here, and the version each
    last got."""

    def __init__(self) -> None:
        self.sockets: dict[int, set[Floor]] = {}
        self.sent: dict[int, int] = {}
        self.client: Any = None
        self.task: asyncio.Task[None] | None = None

    async def join(self, consumer: "Floor") -> None:
        if self.client is None:
            self.client = aioredis.Redis.from_url(REDIS_URL).pubsub()
            await self.client.psubscribe(f"{CHANNEL}*")
            self.task = asyncio.ensure_future(self._listen())
        self.sockets.setdefault(consumer.table_id, set()).add(consumer)

    def leave(self, consumer: "Floor") -> None:
        self.sockets.get(consumer.table_id, set()).discard(consumer)

    async def _listen(self) -> None:
        while True:
            msg = await self.client.get_message(ignore_subscribe_messages=True, timeout=None)
            if msg is None:
                continue
            table_id = int(msg["channel"].decode()[len(CHANNEL):])
            await self.draw(table_id, int(msg["data"]))

    async def draw(self, table_id: int, version: int) -> None:
        if self.sent.get(table_id, -1) >= version:
            return
        self.sent[table_id] = version
        for c in list(self.sockets.get(table_id, ())):
            await c.send(text_data=picture(table_id, version, c.seat))


FANOUT = Fanout()


def hop(fn: Any) -> Any:
    # As the site's consumers: a thread of the pool per call, not channels' one shared thread.
    return database_sync_to_async(fn, thread_sensitive=False)


class Floor(AsyncWebsocketConsumer):
    async def dispatch(self, message: dict[str, Any]) -> None:
        # As the site's consumers: no hop to close old connections before every message.
        from channels.consumer import get_handler_name

        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        cookies = dict(self.scope.get("headers") or []).get(b"cookie", b"").decode()
        self.seat = int(cookies.partition("sessionid=")[2].split(";")[0] or 0)
        await self.accept()
        await FANOUT.join(self)
        version = await hop(read_version)(self.table_id)
        await self.send(text_data=picture(self.table_id, version, self.seat))

    async def disconnect(self, code: int) -> None:
        FANOUT.leave(self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            msg = json.loads(text_data or "")
            version = msg["version"]
        except (ValueError, KeyError, TypeError):
            await self.send(text_data=json.dumps({"type": "error", "message": "bad message"}))
            return
        new = await hop(act)(self.table_id, self.seat, version)
        if new is None:
            await self.send(text_data=json.dumps({"type": "error", "message": "The table has moved on."}))
            return
        await FANOUT.draw(self.table_id, new)


application = ProtocolTypeRouter({
    "websocket": URLRouter([path("ws/tables/<int:table_id>/", Floor.as_asgi())]),
})

# As config/asgi.py does for the site.
gc.collect()
gc.freeze()
gc.set_threshold(5000, 20, 100)
