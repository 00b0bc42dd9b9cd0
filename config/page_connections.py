"""A page's database connection is closed once the page has been sent.

Django's ASGI handler serves each page on a thread of its own (one per request), so a page's
connection is never used again once the page is out; the thread's end frees it only when the
garbage collector gets to it, and config/asgi.py makes full collections rare. Kept connections
(``PG_CONN_MAX_AGE``, for the table sockets' threads, which live on) then piled up: 400 lobby
pages, ten at a time, left 98 PostgreSQL connections open, and the last pages failed with "too
many clients", as would any table's new connection at that moment (found by a check in session
37). Django's own ``close_old_connections`` at the end of a request keeps a connection younger
than its age; this closes it.

Only for pages served by the ASGI handler: the test client's requests, the table sockets' calls
and the Celery tasks are not concerned, and a connection inside a transaction is left alone.
"""

from __future__ import annotations

from typing import Any

from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished
from django.db import connections


def close_after_page(sender: Any, **kwargs: Any) -> None:
    """``request_finished``: close this thread's connections if it served an ASGI page."""
    if not (isinstance(sender, type) and issubclass(sender, ASGIHandler)):
        return
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            conn.close()


def install() -> None:
    request_finished.connect(close_after_page, dispatch_uid="config.page_connections")
