"""The database: SQLite by default, PostgreSQL when DATABASE_URL is set."""

import dj_database_url

from config.settings.base import BASE_DIR
from config.settings.env import env_str

DATABASE_URL = env_str("DATABASE_URL")

if DATABASE_URL:
    # Each thread keeps its connection for good (PG_CONN_MAX_AGE=seconds to renew them): with a
    # lifetime, the connections of every thread, opened together when play began, ran out
    # together, and every action of that second waited for a new PostgreSQL process and its
    # statements prepared again (a slow second a minute under load, docs/RELIABILITY.md). A call
    # that finds its connection cut (PostgreSQL restarted) runs again on a new one
    # (tables.services.on_a_live_connection). Page requests are not concerned:
    # Django's ASGI handler runs each on a thread of its own, with a connection of its own,
    # closed once the page is sent (config/page_connections.py).
    _age = env_str("PG_CONN_MAX_AGE", "none").lower()
    if not (_age == "none" or _age.isdigit()):
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured(f"PG_CONN_MAX_AGE is {_age!r}: give a number of seconds, or none (keep them).")
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=None if _age == "none" else int(_age))}
    # Server-side parameters and prepared statements: the table writers and readers send the same
    # few statements thousands of times, and PostgreSQL then parses and plans each one once per
    # connection. About 15% less PostgreSQL CPU per action in bench_live's saturation run (see
    # docs/RELIABILITY.md); PG_SERVER_BINDING=0 turns it off.
    if env_str("PG_SERVER_BINDING", "1") != "0":
        DATABASES["default"].setdefault("OPTIONS", {}).update({"server_side_binding": True, "prepare_threshold": 2})
    DATABASE_MODE = "postgresql"
else:
    # WAL lets pages read while a table writes; IMMEDIATE takes the write lock at BEGIN so two
    # actions on one table queue up instead of failing with "database is locked" mid-transaction.
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env_str("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
                ),
            },
            "TEST": {"NAME": env_str("SQLITE_TEST_PATH", "")} if env_str("SQLITE_TEST_PATH") else {},
        }
    }
    DATABASE_MODE = "sqlite"
