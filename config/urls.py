"""URL routes. Each app owns its own; language switching uses Django's set_language view."""

from typing import Any

from django.contrib import admin
from django.http import HttpResponseBadRequest
from django.urls import include, path

from club.forms import ThrottledAdminAuthenticationForm
from tables import views_replay

# The admin's login counts failures with the site's (club.throttle).
admin.site.login_form = ThrottledAdminAuthenticationForm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("club.urls")),
    path("rules/", include("rulesdocs.urls")),
    path("hands/check/", views_replay.check_page, name="check_history"),
    path("", include("tables.urls")),
]


def bad_request(request: Any, exception: Exception | None = None) -> HttpResponseBadRequest:
    """Django's 400 page, and for a request to a name this site does not answer at (Django's
    DisallowedHost) which name, and what lets it in (found by an audit: friends' phones at a
    laptop's network address got "The site could not read that request", and its "Home" link led
    back to the same page)."""
    from django.core.exceptions import DisallowedHost
    from django.template.loader import render_to_string

    refused = request.META.get("HTTP_HOST", "")[:100] if isinstance(exception, DisallowedHost) else ""
    return HttpResponseBadRequest(render_to_string("400.html", {"refused_host": refused}))


handler400 = bad_request
