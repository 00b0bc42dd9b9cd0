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


class ButtonAddressMiddleware:
    """A visit to an address that only a form's button may use goes to the page it belongs to.

    Such addresses answer anything but a POST with 405 and an empty body: a blank page. A player
    reaches one by following a log-in: a phone's tab left open past its session's end, a button
    pressed, the log-in page, and then the button's address visited with GET. They are sent to
    the nearest page above it (``/clubs/3/nights/7/reply/`` to ``/clubs/3/``, ``/tables/5/sit/``
    to ``/tables/5/``), told to press the button again; nothing was done. Other methods keep
    their 405.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or request.method not in ("GET", "HEAD"):
            return response
        from django.contrib import messages
        from django.shortcuts import redirect
        from django.utils.translation import gettext as _

        text = _("That address is a button's: nothing was done. Here is its page; press the button again if you meant to.")
        storage = messages.get_messages(request)
        # The page above may be a button's too (a night's list above its reply): one note.
        if text not in (str(m.message) for m in storage):
            messages.info(request, text)
        storage.used = False  # read above, not shown yet
        # path_info is the address below the site's own prefix (SCRIPT_NAME), if it has one.
        return redirect(request.META.get("SCRIPT_NAME", "").rstrip("/") + page_above(request.path_info))


def page_above(path: str) -> str:
    """The nearest address above ``path`` that the site answers (at worst its front page)."""
    from django.urls import Resolver404, resolve

    parts = [p for p in path.split("/") if p]
    for n in range(len(parts) - 1, 0, -1):
        candidate = "/" + "/".join(parts[:n]) + "/"
        try:
            resolve(candidate)
        except Resolver404:
            continue
        return candidate
    return "/"


# The language a player chose goes with their account (found by an audit: a player who chose
# Russian found English on a new phone). The ``lang`` cookie is only ever set by a choice (the
# language switcher, or this middleware), so it is the latest choice made on this device: a
# logged-in player's cookie is kept on their profile, and a device with no cookie is given the
# profile's. A session remembers what it has matched, so this reads the profile once a session
# (and after each change), not on every page.
_SYNCED = "lang_synced"


class AccountLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from django.conf import settings

        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return self.get_response(request)
        name = settings.LANGUAGE_COOKIE_NAME
        cookie = request.COOKIES.get(name, "")
        known = {code for code, _label in settings.LANGUAGES}
        give = ""
        if cookie not in known or request.session.get(_SYNCED) != cookie:
            from django.utils import translation

            from club.models import Profile

            saved = Profile.objects.filter(user=user).values_list("language", flat=True).first()
            if cookie in known:
                if saved is not None and saved != cookie:
                    Profile.objects.filter(user=user).update(language=cookie)
                request.session[_SYNCED] = cookie
            elif saved in known:
                give = saved  # a new device: the account's language, from this page on
                translation.activate(saved)
                request.LANGUAGE_CODE = saved
        response = self.get_response(request)
        if give:
            response.set_cookie(name, give, max_age=settings.LANGUAGE_COOKIE_AGE, path=settings.LANGUAGE_COOKIE_PATH,
                                domain=settings.LANGUAGE_COOKIE_DOMAIN, secure=settings.LANGUAGE_COOKIE_SECURE,
                                httponly=settings.LANGUAGE_COOKIE_HTTPONLY, samesite=settings.LANGUAGE_COOKIE_SAMESITE)
            if hasattr(request, "session"):
                request.session[_SYNCED] = give
        return response
