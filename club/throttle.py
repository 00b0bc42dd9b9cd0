"""Login throttling: after too many failed logins, wait a while.

Three counts, each over the last ``WINDOW`` seconds: a username tried from one address (``LIMIT``,
5: the owner mistyping, or one machine guessing at one account), one address whatever the
usernames (``IP_LIMIT``, 20: one machine trying many accounts), and a username from anywhere
(``USER_LIMIT``, 50: guessing spread over many addresses). Five failures used to lock a username
everywhere, so anyone could shut a named player out by typing wrong passwords for them (found by
probing); now that takes fifty, from three addresses or more, while the owner's own address still
counts only its own failures.

The failures live in Django's cache (LocMemCache per process by default; Redis, shared by every
process, when ``REDIS_URL`` is set). When the cache does not answer, logins are not throttled
(rather than refused) and the log says so. Each key keeps the times of its last failures, up to
its limit; once there are that many inside ``WINDOW`` seconds, logins for that key are refused
until the oldest one is ``WINDOW`` seconds old. Keys are hashed so any username is a valid cache
key.
"""

from __future__ import annotations

import hashlib
import logging
import time
from typing import Any

from django.core.cache import cache

log = logging.getLogger("club.throttle")

LIMIT = 5  # one username from one address
IP_LIMIT = 20  # one address, any usernames
USER_LIMIT = 50  # one username, any addresses
WINDOW = 15 * 60  # seconds


def _now() -> float:
    return time.time()


def _key(kind: str, value: str) -> str:
    digest = hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()[:40]
    return f"login-fail:{kind}:{digest}"


def _keys(username: str, ip: str) -> list[tuple[str, int]]:
    """The counts a login attempt belongs to, each with its limit."""
    keys = []
    if username:
        keys.append((_key("user", username.casefold()), USER_LIMIT))
        if ip:
            keys.append((_key("pair", f"{ip} {username.casefold()}"), LIMIT))
    if ip:
        keys.append((_key("ip", ip), IP_LIMIT))
    return keys


def _cache(method: str, *args: Any) -> Any:
    try:
        return getattr(cache, method)(*args)
    except Exception as exc:  # a cache server that is down must not stop anyone logging in
        log.warning("login throttling skipped: the cache did not answer (%s)", exc)
        return None


def _recent(key: str, now: float) -> list[float]:
    times = _cache("get", key, [])
    return [t for t in times or [] if isinstance(t, (int, float)) and t > now - WINDOW]


def retry_after(*, username: str, ip: str) -> int:
    """Seconds until a login for this username from this address may be tried; 0 means now."""
    now = _now()
    wait = 0.0
    for key, limit in _keys(username, ip):
        times = _recent(key, now)
        if len(times) >= limit:
            wait = max(wait, times[-limit] + WINDOW - now)
    return int(wait) + 1 if wait > 0 else 0


def record_failure(*, username: str, ip: str) -> None:
    now = _now()
    for key, limit in _keys(username, ip):
        times = (_recent(key, now) + [now])[-limit:]
        _cache("set", key, times, WINDOW)


def forget_failures(*, username: str, ip: str = "") -> None:
    """A successful login clears its username's counts (not the address's: one address may be
    trying many usernames)."""
    if username:
        _cache("delete", _key("user", username.casefold()))
        if ip:
            _cache("delete", _key("pair", f"{ip} {username.casefold()}"))
