"""A table or lobby socket is opened only by a page of this very site: its ``Origin`` must name the
scheme, host *and port* the browser reached (its ``Host`` header), or be one of
``CSRF_TRUSTED_ORIGINS``.

Channels' ``AllowedHostsOriginValidator`` (still in front of this) compares host names only, so a
page served by another program on another port of the same host (a home server running other web
apps) could open a socket with the player's cookie, which browsers send whatever the port, and read
their cards (found by an audit). A handshake with no ``Host`` header (no browser sends one without)
is left to the allowed-hosts check.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings

_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def _netloc(scheme: str, netloc: str) -> str:
    """``host[:port]`` in lower case, without the scheme's default port."""
    netloc = netloc.strip().lower()
    default = _DEFAULT_PORTS.get(scheme)
    if default and netloc.endswith(":" + default):
        return netloc[: -len(default) - 1]
    return netloc


def same_origin(origin: str, host: str) -> bool:
    """True when ``origin`` ("https://poker.example.org") is the site the browser reached at
    ``host`` (the Host header: "poker.example.org"), default ports aside, or a trusted origin."""
    if origin in getattr(settings, "CSRF_TRUSTED_ORIGINS", ()):
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return _netloc(parts.scheme, parts.netloc) == _netloc(parts.scheme, host)


class SameOriginValidator:
    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket":
            headers = dict(scope.get("headers") or ())
            host, origin = headers.get(b"host"), headers.get(b"origin")
            if host is not None and (origin is None or not same_origin(origin.decode("latin-1"), host.decode("latin-1"))):
                return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
