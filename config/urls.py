"""URL routes. Each app owns its own; language switching uses Django's set_language view."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("club.urls")),
    path("rules/", include("rulesdocs.urls")),
    path("", include("tables.urls")),
]
