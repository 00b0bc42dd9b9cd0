"""Static files as a phone wants them: compressed, and cached until they change.

Daphne serves ``/static/`` itself (there is no web server in front of ``make run``). Django's
``ASGIStaticFilesHandler`` sent every file plain and with no caching headers, so a phone opening
a table fetched some 160 KB of CSS and scripts (htmx, the table's script) and asked for each of
them again on every page it opened. Here:

- ``VersionedStaticFilesStorage`` writes each file's URL with its content's fingerprint
  (``/static/js/table.js?v=3f2a…``): a new version of a file is a new URL, so a page never pairs
  a new script with an old stylesheet, and no ``collectstatic`` step is needed to get there.
- ``StaticFiles`` answers those URLs with ``Cache-Control: immutable`` for a year (the browser
  asks nothing more until the file changes), anything else under ``/static/`` (a bare URL, an
  older fingerprint, the manifest's icons) with ``no-cache`` and an ``ETag`` (a 304 when
  unchanged), and text files gzipped for a browser that accepts it. Files are read once and kept
  in memory with their gzip, read again when their modification time changes (a developer
  editing CSS under ``make run`` sees it on the next load).

A path that is not a static file, or tries to leave the static directories, is a 404 from the
site itself (its own error page).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import StaticFilesStorage
from django.core.exceptions import SuspiciousFileOperation

COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/manifest+json",
                "image/svg+xml")
YEAR = 365 * 24 * 3600

mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("text/javascript", ".js")


@dataclass(frozen=True)
class _File:
    mtime: float
    body: bytes
    gzipped: bytes | None
    version: str
    content_type: str

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


_FILES: dict[str, _File] = {}
_PATHS: dict[str, str] = {}  # name -> file, for the names found (at most the static files there are)


def _find(name: str) -> str | None:
    try:
        found = finders.find(name)
    except SuspiciousFileOperation:  # "../" out of the static directories
        return None
    if isinstance(found, list):
        found = found[0] if found else None
    return str(found) if found and os.path.isfile(found) else None


def load(name: str) -> _File | None:
    """The static file ``name`` (relative to the static directories), from memory while it has
    not changed on disk; None when there is no such file."""
    path = _PATHS.get(name) or _find(name)
    if path is None:
        return None
    try:
        mtime = os.stat(path).st_mtime
    except FileNotFoundError:  # removed since it was found
        _PATHS.pop(name, None)
        return None
    _PATHS[name] = path
    cached = _FILES.get(path)
    if cached is not None and cached.mtime == mtime:
        return cached
    with open(path, "rb") as fh:
        body = fh.read()
    content_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    gzipped = None
    if content_type.startswith(COMPRESSIBLE):
        squeezed = gzip.compress(body, compresslevel=9, mtime=0)
        if len(squeezed) < len(body) * 0.9:
            gzipped = squeezed
    if content_type.startswith("text/") or content_type in ("application/javascript", "application/json"):
        content_type += "; charset=utf-8"
    entry = _File(mtime, body, gzipped, hashlib.sha256(body).hexdigest()[:12], content_type)
    _FILES[path] = entry
    return entry


class VersionedStaticFilesStorage(StaticFilesStorage):
    """``{% static %}`` URLs that carry their file's fingerprint (``?v=``)."""

    def url(self, name: str | None) -> str:
        url = super().url(name)
        entry = load(name) if name else None
        return f"{url}?v={entry.version}" if entry is not None else url


Send = Callable[[dict[str, Any]], Awaitable[None]]


class StaticFiles:
    """An ASGI application: ``/static/`` from memory (see the module's text), everything else to
    ``application``."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.prefix = settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/" + settings.STATIC_URL

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix) or scope["method"] not in ("GET", "HEAD"):
            await self.application(scope, receive, send)
            return
        entry = load(scope["path"][len(self.prefix):])
        if entry is None:
            await self.application(scope, receive, send)  # the site's own 404 page
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        current = query.get("v", [""])[0] == entry.version
        out = [
            (b"content-type", entry.content_type.encode()),
            (b"etag", entry.etag.encode()),
            (b"cache-control", f"public, max-age={YEAR}, immutable".encode() if current else b"no-cache"),
            (b"x-content-type-options", b"nosniff"),
        ]
        if entry.gzipped is not None:
            out.append((b"vary", b"Accept-Encoding"))
        if entry.etag in [t.strip() for t in headers.get("if-none-match", "").split(",")]:
            await send({"type": "http.response.start", "status": 304, "headers": out})
            await send({"type": "http.response.body", "body": b""})
            return
        body = entry.body
        accepts = [part.split(";")[0].strip() for part in headers.get("accept-encoding", "").split(",")]
        if entry.gzipped is not None and "gzip" in accepts:
            body = entry.gzipped
            out.append((b"content-encoding", b"gzip"))
        out.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": out})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})
