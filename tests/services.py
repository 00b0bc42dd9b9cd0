"""Finding the real PostgreSQL and Redis for integration tests.

A test that needs one calls :func:`need_postgres` / :func:`need_redis`. When the service does not
answer, the test is skipped with a line saying why, except with ``REQUIRE_SERVICES=1`` (CI),
where a missing service is a failure.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlparse

import pytest

PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_TEST_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def required() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "") in {"1", "true", "yes"}


def _answers(url: str, default_port: int) -> bool:
    parts = urlparse(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or default_port), 1.0):
            return True
    except OSError:
        return False


def _missing(what: str) -> None:
    msg = f"{what} does not answer"
    if required():
        pytest.fail(f"{msg}, and REQUIRE_SERVICES=1 makes that a failure")
    pytest.skip(f"{msg}; set it up (see README) to run this test")


def need_postgres() -> str:
    if not _answers(PG_ADMIN_URL, 5432):
        _missing(f"PostgreSQL at {PG_ADMIN_URL}")
    return PG_ADMIN_URL


def need_redis() -> str:
    if not _answers(REDIS_TEST_URL, 6379):
        _missing(f"Redis at {REDIS_TEST_URL}")
    return REDIS_TEST_URL


@contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """Create an empty database on the test server, yield its URL, drop it afterwards."""
    import psycopg

    admin = need_postgres()
    name = "pp_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlparse(admin)
    url = parts._replace(path="/" + name).geturl()
    try:
        yield url
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def fresh_redis_db() -> Iterator[str]:
    """A Redis logical database, emptied before and after use."""
    import redis

    base = need_redis()
    db = int(os.environ.get("TEST_REDIS_DB", "9"))
    url = urlparse(base)._replace(path=f"/{db}").geturl()
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


def run_reporting(fn: object, results: dict[str, object], key: str) -> None:
    """For the race scripts that run in a subprocess on PostgreSQL: run ``fn`` (in a thread of
    the script) and keep its result, or its error as text (reported, never swallowed); close the
    thread's database connection either way."""
    from django.db import connection

    try:
        results[key] = fn()  # type: ignore[operator]
    except Exception as exc:
        results[key] = f"error: {exc!r}"
    finally:
        connection.close()
