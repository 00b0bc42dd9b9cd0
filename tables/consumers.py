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
import weakref
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop

from tables import selectors, services
from tables.live import LOBBY_GROUP, remember_server_loop, start_redis_watch, table_group

log = logging.getLogger("tables.consumers")

MAX_MESSAGE_BYTES = 2048
RATE_CAPACITY = 20  # messages allowed in a burst
RATE_REFILL_PER_S = 8.0  # sustained messages per second


def _db(func: Any) -> Any:
    """``func`` run on the event loop's thread pool, with Django's connection clean-up around it.

    Not ``thread_sensitive`` (channels' default), which runs every call of the whole process on
    one shared thread: there one query waiting on PostgreSQL (an action waiting for its table's
    row lock, a slow commit) held up every socket of the process, players at other tables
    included. Each call here is self-contained (its own thread's connection, its own
    transaction) and a consumer still awaits its calls one at a time, so its messages keep
    their order.
    """
    return database_sync_to_async(func, thread_sensitive=False)


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    group: str
    last_version: int
    language: str

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
        invited = list(session.get("invited_tables", [])) if session is not None else []
        self._access = {"invite_code": invite, "invited_tables": invited}
        allowed = await _db(selectors.can_watch)(table_id=self.table_id, user=user, **self._access)
        if not allowed:
            await self.close(code=4404)
            return
        self.group = table_group(self.table_id)
        self.last_version = -1
        self.language = _language(self.scope)
        self._tokens = float(RATE_CAPACITY)
        self._last_refill = time.monotonic()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        _open.add(self)
        start_redis_watch(_after_redis_trouble)
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        _open.discard(self)
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def rejoin(self, lost: bool, version: int | None) -> None:
        """After Redis trouble (see ``tables.live``): join the group again if Redis lost it, and
        send the viewer the table if it moved on meanwhile."""
        try:
            if lost:
                await self.channel_layer.group_add(self.group, self.channel_name)
            if version is not None and version > self.last_version:
                await self.send_snapshot()
        except Exception:
            log.exception("table %s: could not rejoin after Redis trouble", self.table_id)

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
        if action == "snapshot":
            await self.send_snapshot(force=True)
            return
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.send_error(gettext_noop("Log in to play."), translate=True)
            return
        try:
            new_version = await _db(_act)(self.table_id, user, message, self.language)
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
            # message, which a Redis restart can lose; the group message for this version is then
            # skipped (see table_changed), so nothing is rendered twice.
            await self.send_snapshot(hint=new_version)

    async def access_changed(self, event: dict[str, Any]) -> None:
        """A member left or was removed from the table's club: if that is this viewer, the
        private table is no longer theirs to watch."""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated or event.get("user_id") != user.pk:
            return
        allowed = await _db(selectors.can_watch)(table_id=self.table_id, user=user, **self._access)
        if not allowed:
            await self.send_error(gettext_noop("You are no longer a member of this club."), translate=True)
            await self.close(code=4403)

    async def table_changed(self, event: dict[str, Any]) -> None:
        version = event.get("version")
        if isinstance(version, int) and version <= self.last_version:
            return
        if not isinstance(version, int):
            await self.send_snapshot()
            return
        await self.send_snapshot(hint=version, hand_only=event.get("hand_only") is True)

    async def send_snapshot(self, force: bool = False, hint: int | None = None, hand_only: bool = False) -> None:
        user = self.scope.get("user")
        snap = await _db(_render)(self.table_id, user, self.language, hint, hand_only)
        if snap is None:
            await self.send_error(gettext_noop("This table no longer exists."), translate=True)
            await self.close(code=4404)
            return
        if not force and snap["version"] <= self.last_version:
            return
        self.last_version = snap["version"]
        await self.send(text_data=json.dumps(snap))

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


# The table consumers open in this process, for the Redis watch (tables.live.start_redis_watch).
_open: weakref.WeakSet[TableConsumer] = weakref.WeakSet()


async def _after_redis_trouble(lost: bool) -> None:
    consumers = list(_open)
    if not consumers:
        return
    versions = await _db(_versions)(sorted({c.table_id for c in consumers}))
    await asyncio.gather(*(c.rejoin(lost, versions.get(c.table_id)) for c in consumers))


def _versions(table_ids: list[int]) -> dict[int, int]:
    from tables.models import Table

    return dict(Table.objects.filter(id__in=table_ids).values_list("id", "version"))


def _act(table_id: int, user: Any, message: dict[str, Any], language: str) -> int:
    # Refusals are written for the player, in the player's language.
    with translation.override(language):
        return services.table_act(table_id=table_id, user=user, message=message).version


def _render(table_id: int, user: Any, language: str, hint: int | None = None,
            hand_only: bool = False) -> dict[str, Any] | None:
    with translation.override(language):
        return selectors.table_snapshot(table_id=table_id, user=user, version_hint=hint, hand_only=hand_only)


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
