"""Times in the reader's own time zone.

The browser names its zone (``Intl.DateTimeFormat().resolvedOptions().timeZone``, written to the
``tz`` cookie by ``static/js/site.js``); every page is then rendered in it: a statement's times, a
session's day, the leaderboard's month. Without the cookie (a first visit, no JavaScript) or with
a name that is not a time zone, the site's own zone (UTC) is used. The cookie is only read,
never trusted beyond that: the name must be one of the zones Python knows.
"""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Callable
from urllib.parse import unquote

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "tz"


@functools.cache
def _known() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_named(name: str | None) -> zoneinfo.ZoneInfo | None:
    """The zone called ``name`` (e.g. ``Asia/Jerusalem``), or ``None`` for anything else."""
    if not name or len(name) > 64 or name not in _known():
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class TimezoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = zone_named(unquote(request.COOKIES.get(COOKIE, "")))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
