"""The live table's websocket: authenticate, parse, call one service, render this viewer's view.

Every message to the client carries the table version. A (re)connect gets a full snapshot first;
a client that sees a gap asks for one (``{"action": "snapshot"}``). Nothing a client sends can
crash the consumer: bad input gets an error message and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
import weakref
from collections.abc import Callable
from typing import Any

try:
    import orjson
except ImportError:  # a dependency (pyproject.toml); json does the same, slower
    orjson = None

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop

from tables import actiontrace, live, presence, selectors, services
from tables.live import LOBBY_GROUP, remember_server_loop, start_redis_watch, table_group

log = logging.getLogger("tables.consumers")

MAX_MESSAGE_BYTES = 2048
RATE_CAPACITY = 20  # messages allowed in a burst
RATE_REFILL_PER_S = 8.0  # sustained messages per second
CHAT_CAPACITY = 5  # chat lines allowed in a burst
CHAT_REFILL_PER_S = 0.5  # sustained: a line every two seconds
# At most this many other sockets of the process get their picture drawn with an action (the
# actor's answer waits for them); a crowd of spectators beyond it is drawn by the fan-out.
DRAWN_WITH_ACTION = 8


def _db(func: Any) -> Any:
    """``func`` run on the event loop's thread pool, with Django's connection clean-up around it.

    Not ``thread_sensitive`` (channels' default), which runs every call of the whole process on
    one shared thread: there one query waiting on PostgreSQL (an action waiting for its table's
    row lock, a slow commit) held up every socket of the process, players at other tables
    included. Each call here is self-contained (its own thread's connection, its own
    transaction) and a consumer still awaits its calls one at a time, so its messages keep
    their order.
    """
    # A connection PostgreSQL cut is found by the call's own first query, and the call runs
    # again on a new one (the threads keep their connections between calls).
    return database_sync_to_async(services.on_a_live_connection(func), thread_sensitive=False)


class TableConsumer(AsyncWebsocketConsumer):
    # A table socket has no channel of its own: the table's group messages reach this process
    # once, through its fan-out (``_Fanout`` below), which draws every local viewer of the table
    # in one go. Naming a layer that is not configured is how Channels makes a consumer without
    # a channel.
    channel_layer_alias = "none: table sockets listen through the process's fan-out"

    table_id: int
    last_version: int
    language: str

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await super().__call__(scope, receive, _send_past_the_session(send))

    async def dispatch(self, message: dict[str, Any]) -> None:
        await _dispatch_without_hop(self, message)

    async def connect(self) -> None:
        remember_server_loop(asyncio.get_running_loop())
        try:
            self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        except (KeyError, ValueError):
            await self.close(code=4404)
            return
        user = self.scope.get("user")
        invite = _query_param(self.scope, "invite")
        session = self.scope.get("session")
        self._access = {"invite_code": invite, "invited": selectors.invited_tables(session)}
        allowed = await _db(selectors.can_watch)(table_id=self.table_id, user=user, **self._access)
        if not allowed:
            await self.close(code=4404)
            return
        self.last_version = -1
        self.language = _language(self.scope)
        self._tokens = float(RATE_CAPACITY)
        self._last_refill = time.monotonic()
        self._chat_tokens = float(CHAT_CAPACITY)
        self._chat_refill = time.monotonic()
        self._acting = False
        self._held: dict[str, Any] | None = None
        # The table page asks to be told who is away (``?presence=1``); other clients (bots,
        # scripts) are not sent those messages, though their sockets count as being here.
        self.wants_presence = _query_param(self.scope, "presence") == "1"
        self._fanout = await _fanout()
        await self._fanout.join(self)
        await self.accept()
        self._accepted = True
        _open.add(self)
        start_redis_watch(_after_redis_trouble)
        await self.send_snapshot(chat=True)
        await self._presence(arrived=True)

    async def disconnect(self, code: int) -> None:
        _open.discard(self)
        fanout = getattr(self, "_fanout", None)
        if fanout is not None:
            await fanout.leave(self)
        if getattr(self, "_accepted", False):
            await self._presence(arrived=False)

    async def _presence(self, *, arrived: bool) -> None:
        """Note this socket open (or closed) and tell the table who of its players is away."""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return
        try:
            await _db(_note_presence)(self.table_id, user.pk, f"{_PROCESS}-{id(self)}", arrived)
        except Exception:  # a seat marked wrongly until the next change; never a broken socket
            log.warning("table %s: could not note who is here", self.table_id, exc_info=True)
        _start_presence_renewal()

    async def resync(self, version: int | None) -> None:
        """After Redis trouble (see ``tables.live``): send the viewer the table if it moved on
        meanwhile (the fan-out has joined its groups again)."""
        try:
            if version is not None and version > self.last_version:
                await self.send_snapshot()
        except Exception:
            log.exception("table %s: could not resync after Redis trouble", self.table_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._take_token():
            await self.send_error(gettext_noop("Too many messages: slow down."), translate=True)
            return
        if text_data is None or len(text_data.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
            await self.send_error(gettext_noop("That message could not be read."), translate=True)
            return
        try:
            message = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.send_error(gettext_noop("That message could not be read."), translate=True)
            return
        if not isinstance(message, dict):
            await self.send_error(gettext_noop("That message could not be read."), translate=True)
            return
        action = message.get("action")
        if action == "ping":  # the page checking that a quiet socket still carries messages
            await self.send(text_data='{"type":"pong"}')
            return
        if action == "snapshot":
            await self.send_snapshot(force=True)
            return
        user = self.scope.get("user")
        if action == "chat":
            await self.chat(user, message.get("text"))
            return
        if action == "chat_delete":
            await self._chat_call("delete", user=user, line_id=message.get("id"))
            return
        if action == "chat_mute":
            await self._chat_call("mute", user=user, target=message.get("user_id"), muted=message.get("muted"))
            return
        if user is None or not user.is_authenticated:
            await self.send_error(gettext_noop("Log in to play."), translate=True)
            return
        # While the player's own action is on its way, the fan-out holds back other changes'
        # pictures: the next picture they see shows what their action did (or they are told why
        # it was refused), never a table that moved on without it, on which they would act again.
        self._acting = True
        # The other sockets of this process watching the table get their pictures of the new
        # version drawn in the same hop to a thread, right after the actor's (from the rows the
        # writer primed), and the fan-out's drawing of that version waits for this hop instead of
        # drawing them again in a hop of its own (``_Fanout.acting``).
        watched = self._fanout.tables.get(self.table_id)
        others = ([c for c in list(watched.consumers) if c is not self and getattr(c, "_accepted", False)]
                  [:DRAWN_WITH_ACTION] if watched is not None else [])
        if watched is not None:
            watched.acting += 1
        hop = actiontrace.Hop(received=time.time()) if actiontrace.ENABLED else None
        try:
            new_version, snap, snaps = await _db(_act_and_draw)(
                self.table_id, user, message, self.language,
                [(c.scope.get("user"), c.language) for c in others], hop)
        except services.StaleVersion as exc:
            await self.send_error(str(exc))
            await self.send_snapshot(force=True)
        except ValueError as exc:  # TableError and RulesError are both ValueErrors
            await self.send_error(str(exc))
        except Exception:
            log.exception("table %s: unexpected error on %r", self.table_id, message.get("action"))
            await self.send_error(gettext_noop("The table could not take that action. Try again."), translate=True)
        else:
            # The player sees what their own action did from this answer, not only from the group
            # message, which a Redis restart can lose; the fan-out's picture of this version is
            # then skipped, so nothing is sent twice. It was drawn in the same hop to a thread as
            # the action was taken.
            if snap is _FAILED:
                await self.send_snapshot(hint=new_version)
            else:
                await self.deliver(snap)
            for other, picture in zip(others, snaps, strict=True):
                if picture is _FAILED:
                    continue  # logged; the fan-out draws it again (its version is still wanted)
                try:
                    await other.deliver(picture, held=True)
                except Exception:
                    log.warning("table %s: could not send a picture", self.table_id, exc_info=True)
            if hop is not None:
                actiontrace.record(self.table_id, new_version, hop, time.time(), len(others))
        finally:
            if watched is not None:
                self._fanout.done_acting(self.table_id, watched)
            self._acting = False
            held, self._held = self._held, None
            if held is not None:
                await self.deliver(held)  # a later change than the answer, if there was one

    async def chat(self, user: Any, text: Any) -> None:
        """A chat line from this socket (``tables.chat``): refused with a reason, or kept and sent
        to every socket watching the table (this one too, through the fan-out)."""
        if user is None or not user.is_authenticated:
            await self.send_error(gettext_noop("Log in to write in the chat."), translate=True)
            return
        now = time.monotonic()
        self._chat_tokens = min(CHAT_CAPACITY, self._chat_tokens + (now - self._chat_refill) * CHAT_REFILL_PER_S)
        self._chat_refill = now
        if self._chat_tokens < 1:
            await self.send_error(gettext_noop("One chat line every two seconds, please."), translate=True)
            return
        if await self._chat_call("post", user=user, text=text):
            self._chat_tokens -= 1

    async def _chat_call(self, name: str, **kwargs: Any) -> bool:
        """``tables.chat.<name>`` for this table, in one hop to a thread; a refusal is told to
        this socket in its language. True when it was done."""
        try:
            await _db(_chat)(name, self.table_id, self.language, kwargs)
        except ValueError as exc:  # chat.ChatError
            await self.send_error(str(exc))
            return False
        except Exception:
            log.exception("table %s: chat %s failed", self.table_id, name)
            if name == "post":
                await self.send_error(gettext_noop("The chat line could not be sent. Try again."), translate=True)
            else:
                await self.send_error(gettext_noop("The chat could not do that just now. Try again."), translate=True)
            return False
        return True

    async def notify(self, message: dict[str, Any]) -> None:
        """A chat line (``{"type": "chat", "lines": [line]}``), one taken out (``{"type":
        "chat_deleted", "id": N}``), someone muted or unmuted (``{"type": "chat_muted",
        "user_id", "muted"}``) or who is away (``{"type": "presence", "away": [user ids]}``) for
        this socket's page."""
        # Before the socket is accepted nothing is sent: the history its first picture carries
        # is read after the accept.
        if not getattr(self, "_accepted", False):
            return
        try:
            await self.send(text_data=json.dumps(message))
        except Exception:  # the socket is closing: its page gets the chat with its next history
            log.debug("table %s: a message could not be sent", self.table_id, exc_info=True)

    async def access_changed(self, event: dict[str, Any]) -> None:
        """A member left or was removed from the table's club: if that is this viewer, the
        private table is no longer theirs to watch. Or the player logged out of the session this
        socket opened with (``ended_session``): it closes, so a tab left open after logging out
        shows no more of their cards and can no longer act for them."""
        user = self.scope.get("user")
        if event.get("everyone") is True:  # a new invite link: the old one opens nothing
            if not await _db(selectors.can_watch)(table_id=self.table_id, user=user, **self._access):
                await self.send_error(gettext_noop("The host made a new invite link for this table: ask them for it "
                                                   "to watch again."), translate=True)
                await self.close(code=4403)
            return
        if user is None or not user.is_authenticated or event.get("user_id") != user.pk:
            return
        place = event.get("out_place")
        if type(place) is int and place > 0:
            with translation.override(getattr(self, "language", None) or settings.LANGUAGE_CODE):
                said = translation.gettext("Your chips ran out: you finished the freeze-out in place %(place)s.")
            await self.send_error(said % {"place": place})
            return
        if event.get("stood_up") == "stalled":
            await self.send_error(gettext_noop(
                "The table dealt no hand for five minutes, so it stood you up. Your chips are back "
                "in your bankroll; sit down again whenever you like."), translate=True)
            return
        if event.get("stood_up") in (True, "absent"):
            await self.send_error(gettext_noop(
                "You were not dealt in for ten hands, so the table stood you up. Your chips are back "
                "in your bankroll; sit down again whenever you like."), translate=True)
            return
        keep = event.get("keep_session")
        if isinstance(keep, str) and keep:
            session = self.scope.get("session")
            if getattr(session, "session_key", None) != keep:
                await self.send_error(gettext_noop("Your password was changed. Log in again to play on."), translate=True)
                await self.close(code=4401)
            return
        ended = event.get("ended_session")
        if ended is not None:
            session = self.scope.get("session")
            if session is not None and getattr(session, "session_key", None) == ended:
                await self.send_error(gettext_noop("You logged out. Log in again to play on."), translate=True)
                await self.close(code=4401)
            return
        allowed = await _db(selectors.can_watch)(table_id=self.table_id, user=user, **self._access)
        if not allowed:
            await self.send_error(gettext_noop("You are no longer a member of this club."), translate=True)
            await self.close(code=4403)

    async def send_snapshot(self, force: bool = False, hint: int | None = None, chat: bool = False) -> None:
        """``chat``: the first picture after connecting carries the chat's last lines too."""
        user = self.scope.get("user")
        if chat:
            snap = await _db(_render_with_chat)(self.table_id, user, self.language)
            if snap is not None and snap["version"] <= self.last_version:
                # The fan-out sent a later picture meanwhile: the history comes on its own.
                await self.send(text_data=json.dumps(dict(snap["chat"], type="chat")))
                return
        else:
            snap = await _db(_render)(self.table_id, user, self.language, hint)
        await self.deliver(snap, force=force)

    async def deliver(self, snap: dict[str, Any] | None, force: bool = False, held: bool = False) -> None:
        """Send a picture drawn for this viewer, unless it already holds that version or a later
        one (``force``: send it anyway, as an answer to its request). ``held``: a picture from the
        fan-out, kept back while the player's own action is on its way (see ``receive``)."""
        if held and self._acting and snap is not None:
            if self._held is None or snap["version"] > self._held["version"]:
                self._held = snap
            return
        if snap is None:
            await self.send_error(gettext_noop("This table no longer exists."), translate=True)
            await self.close(code=4404)
            return
        if not force and snap["version"] <= self.last_version:
            return
        self.last_version = snap["version"]
        await self.send(text_data=message_text(snap))

    async def send_error(self, message: str, translate: bool = False) -> None:
        """Tell this viewer something went wrong; ``translate``: ``message`` is a msgid, said in
        the viewer's language (refusals from the services come translated already)."""
        if translate:
            with translation.override(getattr(self, "language", None) or settings.LANGUAGE_CODE):
                message = translation.gettext(message)
        await self.send(text_data=json.dumps({"type": "error", "message": message, "version": getattr(self, "last_version", -1)}))

    def _take_token(self) -> bool:
        now = time.monotonic()
        self._tokens = min(RATE_CAPACITY, self._tokens + (now - self._last_refill) * RATE_REFILL_PER_S)
        self._last_refill = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class LobbyConsumer(AsyncWebsocketConsumer):
    """Tells lobby pages to refresh their table list (they fetch it with htmx)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        await _dispatch_without_hop(self, message)

    async def connect(self) -> None:
        remember_server_loop(asyncio.get_running_loop())
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return  # the lobby socket only listens

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps({"type": "lobby"}))


class _Utf8Text(str):
    """A message's text that holds its UTF-8 bytes already: Daphne encodes each text it sends
    (``text.encode("utf8")``), a pass over every character that a text beyond ASCII makes slow
    (a picture in any language has "·", "…" or "★"); here that gives back the bytes orjson made.
    Any other encoding, and anything else done with the text, is a str's own."""

    _utf8: bytes

    def encode(self, encoding: str = "utf-8", errors: str = "strict") -> bytes:
        if errors == "strict" and encoding.lower().replace("-", "").replace("_", "") == "utf8":
            return self._utf8
        return str.encode(self, encoding, errors)


def message_text(message: dict[str, Any]) -> str:
    """A message's JSON text for a socket. A table's picture (10-15 KB of HTML in a JSON string)
    was made by ``json.dumps`` on the event loop, 5-7% of a Daphne process's samples at 200
    tables (docs/RELIABILITY.md, thirty-second look); orjson makes the same JSON value in a
    fraction of the time, written compactly and with characters beyond ASCII as UTF-8 rather than
    ``\\u`` escapes (the browser's ``JSON.parse`` reads both), and its bytes are what Daphne sends
    (``_Utf8Text``). A value orjson refuses (an integer beyond 64 bits, say) is written by
    ``json`` as before."""
    if orjson is not None:
        try:
            data = orjson.dumps(message)
        except TypeError:  # orjson.JSONEncodeError is one
            return json.dumps(message)
        text = _Utf8Text(data.decode())
        text._utf8 = data
        return text
    return json.dumps(message)


def _send_past_the_session(send: Any) -> Any:
    """The send under Channels' session middleware, for a websocket consumer. That middleware's
    send saves the session and sets its cookie on ``http.response.start`` only; on a websocket it
    only passes each message on, after reading the lazy session's state (2% of a Daphne
    process's samples at 200 tables, one look per picture sent: docs/RELIABILITY.md, thirty-second
    look). The session itself (``scope["session"]``) is the same either way."""
    from channels.sessions import InstanceSessionWrapper

    while (isinstance(wrapper := getattr(send, "__self__", None), InstanceSessionWrapper)
           and getattr(send, "__func__", None) is InstanceSessionWrapper.send
           and not set(wrapper.save_message_types) & {"websocket.accept", "websocket.send", "websocket.close"}):
        send = wrapper.real_send
    return send


async def _dispatch_without_hop(consumer: AsyncWebsocketConsumer, message: dict[str, Any]) -> None:
    """Channels' ``dispatch`` without its ``aclose_old_connections()`` before every message: that
    is a hop to the process's ONE thread-sensitive thread, shared by every socket, for each
    action a player sends; at 200 tables the queue for that thread was part of the slowest
    actions' wait. These consumers touch the database only through ``_db``, whose thread closes
    old connections before and after each call, as a request does."""
    handler = getattr(consumer, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


# The table consumers open in this process, for the Redis watch (tables.live.start_redis_watch).
_open: weakref.WeakSet[TableConsumer] = weakref.WeakSet()


async def _after_redis_trouble(lost: bool) -> None:
    fanout = _FANOUT
    if lost and fanout is not None and fanout.loop is asyncio.get_running_loop():
        await fanout.rejoin()
    consumers = list(_open)
    if not consumers:
        return
    versions = await _db(_versions)(sorted({c.table_id for c in consumers}))
    await asyncio.gather(*(c.resync(versions.get(c.table_id)) for c in consumers))


# -- The fan-out: one channel per process for all its table sockets ---------------------------
#
# With a channel per socket, a table's three players cost every action three group messages,
# three reads from Redis and three hops to a thread to draw. The fan-out joins each table's group
# once per process (while any socket of the process watches that table), and on "table N is at
# version V" draws every local viewer of N in one hop and sends each its own picture. A table
# whose pictures are still being drawn when its next message comes draws only the latest version
# after them (a viewer that skips a version gets the later, complete picture). If its receive
# fails (Redis restarting), it waits a moment, joins its groups again and resyncs its sockets,
# rather than closing them.


class _Watched:
    """One table as the fan-out watches it."""

    __slots__ = ("acting", "busy", "consumers", "joined", "lock", "want")

    def __init__(self) -> None:
        self.consumers: weakref.WeakSet[TableConsumer] = weakref.WeakSet()
        self.lock = asyncio.Lock()  # joins and leaves of the group, one at a time
        self.joined = False
        self.busy = False  # pictures being drawn
        self.acting = 0  # actions on their way in this process, each drawing the others' pictures
        self.want: tuple[int, bool] | None = None  # the latest version that came meanwhile


class _LayerTransport:
    """The fan-out's messages through a channel layer's groups (the embedded mode's in-memory
    layer): one channel for the process, in each watched table's group."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel = ""

    async def start(self) -> None:
        self.channel = await self.layer.new_channel()

    async def join(self, table_id: int) -> None:
        await self.layer.group_add(table_group(table_id), self.channel)

    async def leave(self, table_id: int) -> None:
        await self.layer.group_discard(table_group(table_id), self.channel)

    async def receive(self) -> dict[str, Any]:
        return dict(await self.layer.receive(self.channel))

    async def recover(self) -> None:
        """After a failed receive: nothing to mend here."""


class _PubSubTransport:
    """The fan-out's messages through Redis pub/sub (the Redis mode, see ``tables.live``): one
    connection for the process, subscribed to each watched table's channel. A join returns once
    Redis has confirmed the subscription, so a socket's first picture is read after it (nothing
    published from then on is missed). After every reconnection (redis-py subscribes again by
    itself) the sockets are resynced: what was published meanwhile is lost."""

    CONFIRM_SECONDS = 5.0

    def __init__(self, loop: asyncio.AbstractEventLoop, on_reconnect: Callable[[], None]) -> None:
        import redis.asyncio as aioredis

        self.loop = loop
        self.client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=5)
        self.pubsub = self.client.pubsub()
        self.on_reconnect = on_reconnect
        self.ready = asyncio.Event()  # the connection exists: there is something to listen on
        self.confirming: dict[bytes, list[asyncio.Future[None]]] = {}
        self.hooked = False
        # One command at a time: the first two joins at once would each open a connection (the
        # pub/sub object has none yet), and the subscription on the one it then forgets would
        # never be heard.
        self.sending = asyncio.Lock()

    async def start(self) -> None:
        """Nothing to do before the first join."""

    async def join(self, table_id: int) -> None:
        channel = live.pubsub_channel(table_id).encode()
        confirmed: asyncio.Future[None] = self.loop.create_future()
        self.confirming.setdefault(channel, []).append(confirmed)
        try:
            async with self.sending:
                await self.pubsub.subscribe(channel)
                if not self.hooked and self.pubsub.connection is not None:
                    self.pubsub.connection.register_connect_callback(self._connected)
                    self.hooked = True
            self.ready.set()
            await asyncio.wait_for(asyncio.shield(confirmed), self.CONFIRM_SECONDS)
        finally:
            waiting = self.confirming.get(channel, [])
            if confirmed in waiting:
                waiting.remove(confirmed)
            if not waiting:
                self.confirming.pop(channel, None)

    async def leave(self, table_id: int) -> None:
        async with self.sending:
            await self.pubsub.unsubscribe(live.pubsub_channel(table_id))

    async def _connected(self, connection: Any) -> None:
        # Called by redis-py after each reconnection, once it has subscribed again.
        self.on_reconnect()

    async def receive(self) -> dict[str, Any]:
        import json

        while True:
            if not self.ready.is_set():
                await self.ready.wait()
            message = await self.pubsub.get_message(timeout=None)
            if message is None:
                continue
            kind = message.get("type")
            if kind == "subscribe":
                for waiter in self.confirming.get(message.get("channel"), []):
                    if not waiter.done():
                        waiter.set_result(None)
                continue
            if kind != "message":
                continue
            try:
                data = json.loads(message.get("data") or b"")
            except ValueError:
                log.warning("the table fan-out got an unreadable message")
                continue
            if isinstance(data, dict):
                return data

    async def recover(self) -> None:
        """After a failed receive: connect again (redis-py then subscribes again)."""
        async with self.sending:
            await self.pubsub.ping()


class _Fanout:
    def __init__(self, layer: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.layer = layer
        self.loop = loop
        self.transport: _LayerTransport | _PubSubTransport = (
            _PubSubTransport(loop, self._resync_soon) if live.uses_pubsub() else _LayerTransport(layer))
        self.tables: dict[int, _Watched] = {}
        self.task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def channel(self) -> str:
        return getattr(self.transport, "channel", "")

    async def start(self) -> None:
        await self.transport.start()
        self.task = self.loop.create_task(self._listen(), name="table-fanout")

    def _resync_soon(self) -> None:
        async def later() -> None:
            await asyncio.sleep(0.05)  # let Redis take the subscriptions sent with the reconnection
            await _after_redis_trouble(False)

        self._spawn(later())

    def alive(self) -> bool:
        return self.task is not None and not self.task.done() and not self.loop.is_closed()

    async def join(self, consumer: TableConsumer) -> None:
        watched = self.tables.get(consumer.table_id)
        if watched is None:
            watched = self.tables[consumer.table_id] = _Watched()
        watched.consumers.add(consumer)
        try:
            async with watched.lock:
                if not watched.joined:
                    await self.transport.join(consumer.table_id)
                    watched.joined = True
        except BaseException:
            watched.consumers.discard(consumer)
            raise

    async def leave(self, consumer: TableConsumer) -> None:
        watched = self.tables.get(consumer.table_id)
        if watched is None:
            return
        watched.consumers.discard(consumer)
        if len(watched.consumers):
            return
        async with watched.lock:
            if len(watched.consumers) or not watched.joined:
                return
            try:
                await self.transport.leave(consumer.table_id)
            except Exception:  # a group membership expires by itself; a stray message is ignored
                log.warning("table %s: could not leave its group", consumer.table_id, exc_info=True)
            watched.joined = False
            if not len(watched.consumers) and self.tables.get(consumer.table_id) is watched:
                del self.tables[consumer.table_id]

    async def rejoin(self) -> None:
        """Join every watched table's group again (Redis lost them)."""
        for table_id, watched in list(self.tables.items()):
            if not len(watched.consumers):
                continue
            try:
                await self.transport.join(table_id)
            except Exception:
                log.exception("table %s: could not join its group again", table_id)

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.transport.receive()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the table fan-out could not receive; trying again", exc_info=True)
                await asyncio.sleep(0.2)
                try:
                    await self.transport.recover()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    continue  # still down: the next receive fails again, and this comes back
                self._spawn(_after_redis_trouble(True))
                continue
            try:
                self._dispatch(message)
            except Exception:
                log.exception("the table fan-out could not take %r", message)

    def _spawn(self, coro: Any) -> None:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _dispatch(self, message: dict[str, Any]) -> None:
        table_id = message.get("table_id")
        watched = self.tables.get(table_id) if isinstance(table_id, int) else None
        if watched is None:
            return
        kind = message.get("type")
        if kind == "access.changed":
            for consumer in list(watched.consumers):
                self._spawn(consumer.access_changed(message))
            return
        if kind in ("table.chat", "table.chat_deleted", "table.chat_muted"):
            line, line_id, change = message.get("line"), message.get("id"), message.get("change")
            if kind == "table.chat" and isinstance(line, dict):
                out: dict[str, Any] = {"type": "chat", "lines": [line]}
            elif kind == "table.chat_deleted" and isinstance(line_id, int):
                out = {"type": "chat_deleted", "id": line_id}
            elif kind == "table.chat_muted" and isinstance(change, dict):
                out = {"type": "chat_muted", "user_id": change.get("user_id"), "muted": change.get("muted") is True}
            else:
                return
            for consumer in list(watched.consumers):
                self._spawn(consumer.notify(out))
            return
        if kind == "table.presence":
            away = message.get("away")
            if not isinstance(away, list) or not all(isinstance(a, int) and not isinstance(a, bool) for a in away):
                return
            out = {"type": "presence", "away": away}
            for consumer in list(watched.consumers):
                if getattr(consumer, "wants_presence", False):
                    self._spawn(consumer.notify(out))
            return
        version = message.get("version")
        if kind != "table.changed" or not isinstance(version, int) or isinstance(version, bool):
            return
        hand_only = message.get("hand_only") is True
        if actiontrace.ENABLED:
            actiontrace.heard(table_id, version)  # type: ignore[arg-type]
        if watched.busy or watched.acting:
            if watched.want is None or version > watched.want[0]:
                watched.want = (version, hand_only)
            return
        self._draw_soon(table_id, watched, version, hand_only)  # type: ignore[arg-type]

    def _draw_soon(self, table_id: int, watched: _Watched, version: int, hand_only: bool) -> None:
        if not any(c.last_version < version for c in list(watched.consumers)):
            return  # every socket has it already (drawn with the action that made it)
        watched.busy = True
        self._spawn(self._draw(table_id, watched, version, hand_only))

    def done_acting(self, table_id: int, watched: _Watched) -> None:
        """An action of one of this process's sockets came back (taken or refused): a version
        announced meanwhile is drawn now for whoever does not have it yet."""
        watched.acting -= 1
        if watched.acting or watched.busy or watched.want is None:
            return
        (version, hand_only), watched.want = watched.want, None
        self._draw_soon(table_id, watched, version, hand_only)

    async def _draw(self, table_id: int, watched: _Watched, version: int, hand_only: bool) -> None:
        try:
            while True:
                viewers = [c for c in list(watched.consumers) if c.last_version < version]
                if viewers:
                    jobs = [(c.scope.get("user"), c.language) for c in viewers]
                    started = time.time() if actiontrace.ENABLED else 0.0
                    try:
                        snaps = await _db(_render_many)(table_id, jobs, version, hand_only)
                    except Exception:
                        log.exception("table %s: could not draw version %s", table_id, version)
                        snaps = [_FAILED] * len(viewers)
                    finished = time.time() if actiontrace.ENABLED else 0.0
                    for consumer, snap in zip(viewers, snaps, strict=True):
                        if snap is _FAILED:
                            continue  # logged; that viewer resyncs with its next message
                        try:
                            await consumer.deliver(snap, held=True)
                        except Exception:
                            log.warning("table %s: could not send a picture", table_id, exc_info=True)
                    if actiontrace.ENABLED:
                        actiontrace.drawn(table_id, version, started, finished, time.time(), len(viewers))
                if watched.want is None:
                    return
                version, hand_only = watched.want
                watched.want = None
        finally:
            watched.busy = False


_FANOUT: _Fanout | None = None
_FAILED: Any = object()


async def _fanout() -> _Fanout:
    """This process's fan-out, on the running loop and the current channel layer (a test's new
    loop or layer gets a new one)."""
    global _FANOUT
    from channels.layers import get_channel_layer

    loop = asyncio.get_running_loop()
    layer = get_channel_layer()
    fanout = _FANOUT
    if fanout is None or fanout.loop is not loop or fanout.layer is not layer or not fanout.alive():
        fanout = _FANOUT = _Fanout(layer, loop)
        await fanout.start()
    return fanout


def _render_many(table_id: int, jobs: list[tuple[Any, str]], hint: int, hand_only: bool) -> list[Any]:
    """Every local viewer's picture of one table version, in one hop to a thread."""
    out: list[Any] = []
    for user, language in jobs:
        try:
            out.append(_render(table_id, user, language, hint, hand_only))
        except Exception:
            log.exception("table %s: could not draw a viewer's picture", table_id)
            out.append(_FAILED)
    return out


_PROCESS = uuid.uuid4().hex[:12]
_renewal: asyncio.Task[None] | None = None


def _note_presence(table_id: int, user_id: int, key: str, arrived: bool) -> None:
    away = presence.arrive(table_id, user_id, key) if arrived else presence.depart(table_id, user_id, key)
    live.broadcast_table_presence(table_id, away)


def _announce_presence(table_id: int) -> None:
    live.broadcast_table_presence(table_id, presence.away(table_id))


def _start_presence_renewal() -> None:
    """With Redis, renew this process's sockets there every ``presence.RENEW_S`` seconds."""
    global _renewal
    loop = asyncio.get_running_loop()
    if not live.uses_pubsub() or (_renewal is not None and not _renewal.done() and _renewal.get_loop() is loop):
        return

    async def renew() -> None:
        while True:
            await asyncio.sleep(presence.RENEW_S)
            try:
                for table_id in await _db(presence.renew)():
                    # Another process's sockets ran out there: announce who is away now.
                    await _db(_announce_presence)(table_id)
            except Exception:
                log.warning("could not renew this process's table sockets in Redis", exc_info=True)

    _renewal = loop.create_task(renew(), name="table-presence")


def _versions(table_ids: list[int]) -> dict[int, int]:
    from tables.models import Table

    return dict(Table.objects.filter(id__in=table_ids).values_list("id", "version"))


def _act(table_id: int, user: Any, message: dict[str, Any], language: str) -> int:
    # Refusals are written for the player, in the player's language.
    with translation.override(language):
        return services.table_act(table_id=table_id, user=user, message=message).version


def _act_and_draw(table_id: int, user: Any, message: dict[str, Any], language: str,
                  others: list[tuple[Any, str]] | None = None,
                  hop: actiontrace.Hop | None = None) -> tuple[int, Any, list[Any]]:
    """The action, then the player's picture of the version it made, then the pictures of the
    process's other viewers of the table (``others``: their users and languages), in one hop to
    a thread. The action is taken whatever happens to the drawing (``_FAILED``: draw it again).
    ``hop``: where the times go, for ``make bench`` (``tables.actiontrace``)."""
    if hop is None:
        version = _act(table_id, user, message, language)
    else:
        with actiontrace.writer(hop):
            version = _act(table_id, user, message, language)
    try:
        mine = _render(table_id, user, language, version)
    except Exception:
        log.exception("table %s: could not draw the actor's picture", table_id)
        mine = _FAILED
    drawn = _render_many(table_id, others, version, False) if others else []
    if hop is not None:
        hop.drawn = time.time()
    return version, mine, drawn


@services.on_a_live_connection
def _render(table_id: int, user: Any, language: str, hint: int | None = None,
            hand_only: bool = False) -> dict[str, Any] | None:
    with translation.override(language):
        return selectors.table_snapshot(table_id=table_id, user=user, version_hint=hint, hand_only=hand_only)


def _render_with_chat(table_id: int, user: Any, language: str) -> dict[str, Any] | None:
    """A viewer's first picture, with the chat's last lines (who may write is on the page)."""
    from tables import chat

    snap = _render(table_id, user, language)
    if snap is None:
        return None
    return dict(snap, chat={"lines": chat.recent(table_id=table_id), "muted": chat.muted_ids(table_id=table_id)})


def _chat(name: str, table_id: int, language: str, kwargs: dict[str, Any]) -> Any:
    """``tables.chat.post``, ``.delete`` or ``.mute``, its refusals in the socket's language."""
    from tables import chat

    with translation.override(language):
        return getattr(chat, name)(table_id=table_id, **kwargs)


def _query_param(scope: dict[str, Any], name: str) -> str:
    from urllib.parse import parse_qs

    raw = scope.get("query_string", b"")
    try:
        values = parse_qs(raw.decode("utf-8", "replace")).get(name, [])
    except ValueError:
        return ""
    return values[0][:64] if values else ""


def _language(scope: dict[str, Any]) -> str:
    from django.conf import settings

    codes = {code for code, _ in settings.LANGUAGES}
    cookies = scope.get("cookies") or {}
    lang = cookies.get(settings.LANGUAGE_COOKIE_NAME, "")
    if lang in codes:
        return lang
    for header, value in scope.get("headers", []):
        if header == b"accept-language":
            for part in value.decode("latin-1").split(","):
                code = part.split(";")[0].strip().lower()[:2]
                if code in codes:
                    return code
    return settings.LANGUAGE_CODE
