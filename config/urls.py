"""URL routes. Each app owns its own; language switching uses Django's set_language view."""

from django.contrib import admin
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
