"""Checks of the deployment's settings (found by an audit: a PostgreSQL and Redis site that did
not set DJANGO_SECRET_KEY ran on the development key printed in this repository, with no word,
and ``manage.py check --deploy`` passed it)."""

from __future__ import annotations

import logging
import os
from typing import Any

from django.conf import settings
from django.core import checks

log = logging.getLogger("config")


@checks.register(checks.Tags.security, deploy=True)
def secret_key_is_set(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    if settings.SECRET_KEY == settings.DEV_SECRET_KEY:
        return [checks.Error(
            "SECRET_KEY is the development key written in this repository: anyone could sign "
            "sessions for this site.",
            hint="Export DJANGO_SECRET_KEY (a long random string, the same for every process).",
            id="patchpatch.E001")]
    return []


def warn_at_start() -> None:
    """Said once by each server process: which database and broker it uses, and what a real
    site must not run without."""
    database = settings.DATABASES["default"]
    where = (f"PostgreSQL {database.get('NAME')} on {database.get('HOST') or 'the local socket'}"
             if "postgresql" in database.get("ENGINE", "") else f"SQLite {database.get('NAME')}")
    live = "Redis (separate Celery workers run the clocks)" if settings.LIVE_MODE != "embedded" else (
        "in this process (embedded)")
    log.warning("Patch-Patch Club: database %s; table messages and clocks %s.", where, live)
    if os.environ.get("DATABASE_URL") and settings.SECRET_KEY == settings.DEV_SECRET_KEY:
        log.warning("DJANGO_SECRET_KEY is not set: this site runs on the development key written in "
                    "its repository, so anyone could forge a session. Export DJANGO_SECRET_KEY for "
                    "every process (README, 'Running on PostgreSQL and Redis').")
