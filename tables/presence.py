"""Who has a table open: a seated player with no table socket open is shown "away" to everyone
at the table, as PokerNow does, so the others know why a clock is running down.

Each table socket of a logged-in user is noted when it opens and forgotten when it closes; after
either, the table's seated players with no socket open anywhere are announced to the table's
sockets (``{"type": "presence", "away": [user ids]}``), which mark those seats. Only seated
players are named, never who is watching.

Where the sockets live:

- One process (``make run``, the tests): a dict in the process.
- With Redis (several Daphne processes): a sorted set per table, ``<socket> -> expiry``, each
  process writing its own sockets and renewing them every ``RENEW_S`` seconds, so that a process
  that dies without closing its sockets stops counting after ``TTL_S`` (its players reconnect to
  another process, which announces them; a process renewing its own sockets at that table clears
  the dead ones and announces the players who did not come back). The set's key expires with its
  last socket.

Failures (Redis not answering) are raised to the consumer, which logs them and carries on: the
worst one does is a seat marked wrongly until the next announcement.
"""

from __future__ import annotations

import threading
import time
from typing import Any

TTL_S = 60.0
RENEW_S = 20.0

_lock = threading.Lock()
# table id -> {socket key: user id}: this process's sockets (in every mode).
_local: dict[int, dict[str, int]] = {}


def _shared() -> bool:
    from tables import live

    return live.uses_pubsub()


def _key(table_id: int) -> str:
    from tables import live

    return live.pubsub_channel(table_id) + ":presence"


def _client() -> Any:
    from tables import live

    return live._blocking_publisher()


def arrive(table_id: int, user_id: int, socket_key: str) -> list[int]:
    """Note a socket of ``user_id`` open at the table; returns the table's away players."""
    with _lock:
        _local.setdefault(table_id, {})[socket_key] = user_id
    if _shared():
        now = time.time()
        pipe = _client().pipeline(transaction=False)
        pipe.zadd(_key(table_id), {f"{user_id}:{socket_key}": now + TTL_S})
        pipe.zremrangebyscore(_key(table_id), "-inf", now)
        pipe.expire(_key(table_id), int(TTL_S) + 5)
        pipe.execute()
    return away(table_id)


def depart(table_id: int, user_id: int, socket_key: str) -> list[int]:
    """Forget a socket that closed; returns the table's away players."""
    with _lock:
        sockets = _local.get(table_id)
        if sockets is not None:
            sockets.pop(socket_key, None)
            if not sockets:
                del _local[table_id]
    if _shared():
        _client().zrem(_key(table_id), f"{user_id}:{socket_key}")
    return away(table_id)


def present(table_id: int) -> set[int]:
    """The users with a socket open at the table, in any process."""
    if not _shared():
        with _lock:
            return set((_local.get(table_id) or {}).values())
    members = _client().zrangebyscore(_key(table_id), time.time(), "+inf")
    out = set()
    for member in members:
        text = member.decode() if isinstance(member, bytes) else str(member)
        head = text.split(":", 1)[0]
        if head.isascii() and head.isdigit():
            out.add(int(head))
    return out


def away(table_id: int) -> list[int]:
    """The seated players of the table with no socket open at it, by user id."""
    from tables.models import Seat

    seated = set(Seat.objects.filter(table_id=table_id).values_list("user_id", flat=True))
    return sorted(seated - present(table_id))


def renew() -> list[int]:
    """Push back the expiry of every socket this process holds (Redis only). Returns the tables
    where sockets of another process ran out meanwhile (it died without closing them): their
    players may be away now, which the caller announces (nobody else would)."""
    if not _shared():
        return []
    with _lock:
        held = {table_id: dict(sockets) for table_id, sockets in _local.items()}
    if not held:
        return []
    now = time.time()
    pipe = _client().pipeline(transaction=False)
    for table_id, sockets in held.items():
        pipe.zremrangebyscore(_key(table_id), "-inf", now)
        pipe.zadd(_key(table_id), {f"{user_id}:{key}": now + TTL_S for key, user_id in sockets.items()})
        pipe.expire(_key(table_id), int(TTL_S) + 5)
    removed = pipe.execute()[0::3]
    return [table_id for table_id, count in zip(held, removed, strict=True) if count]
