"""Settings configure themselves from the environment, in both modes, against real services."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.services import fresh_postgres_database, fresh_redis_db

ROOT = Path(__file__).resolve().parent.parent

PROBE = r"""
import json, django
django.setup()
from django.conf import settings
from django.db import connection
from config.celery import app
connection.ensure_connection()
out = {
    "vendor": connection.vendor,
    "layer": settings.CHANNEL_LAYERS["default"]["BACKEND"],
    "broker": app.conf.broker_url,
    "live_mode": settings.LIVE_MODE,
    "embedded_worker": settings.CELERY_EMBEDDED_WORKER,
    "visibility_timeout": settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout"),
    "cache": settings.CACHES["default"]["BACKEND"],
    "allowed_hosts": settings.ALLOWED_HOSTS,
    "conn": settings.DATABASES["default"]["CONN_MAX_AGE"],
    "db_options": {k: v for k, v in settings.DATABASES["default"].get("OPTIONS", {}).items() if k in ("server_side_binding", "prepare_threshold")},
}
if settings.LIVE_MODE == "redis":
    import redis
    out["ping"] = redis.Redis.from_url(settings.REDIS_URL).ping()
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    layer = get_channel_layer()
    name = async_to_sync(layer.new_channel)()
    async_to_sync(layer.send)(name, {"type": "probe", "n": 7})
    out["roundtrip"] = async_to_sync(layer.receive)(name)["n"]
    from django.core.cache import cache
    cache.set("probe", 41)
    out["cached"] = cache.get("probe")
print(json.dumps(out))
"""


def _probe(**env: str) -> dict[str, object]:
    full = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    full.update(env)
    full["DJANGO_SETTINGS_MODULE"] = "config.settings"
    res = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=full, capture_output=True, text=True, timeout=60
    )
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_embedded_default_uses_sqlite_and_memory(tmp_path: Path) -> None:
    out = _probe(SQLITE_PATH=str(tmp_path / "probe.sqlite3"))
    assert out["vendor"] == "sqlite"
    assert out["layer"] == "channels.layers.InMemoryChannelLayer"
    assert str(out["broker"]).startswith("memory://")
    assert out["live_mode"] == "embedded"
    assert out["cache"] == "django.core.cache.backends.locmem.LocMemCache"


def test_make_run_answers_at_this_computers_network_address_too(tmp_path: Path) -> None:
    """Found by an audit: with `make run HOST=0.0.0.0` every friend's phone got "Bad request"
    (their Host, the laptop's network address, was not allowed). A laptop site (no DATABASE_URL)
    answers there as well as at the loopback names; DJANGO_ALLOWED_HOSTS still says it all."""
    from config.lan import lan_address

    out = _probe(SQLITE_PATH=str(tmp_path / "lan.sqlite3"))
    hosts = list(out["allowed_hosts"])  # type: ignore[call-overload]
    assert {"127.0.0.1", "localhost"} <= set(hosts)
    if lan_address():
        assert lan_address() in hosts
    named = _probe(SQLITE_PATH=str(tmp_path / "lan.sqlite3"), DJANGO_ALLOWED_HOSTS="poker.example.org,127.0.0.1")
    assert named["allowed_hosts"] == ["poker.example.org", "127.0.0.1"]


def test_database_url_selects_postgresql() -> None:
    with fresh_postgres_database() as url:
        out = _probe(DATABASE_URL=url)
    assert out["vendor"] == "postgresql"
    # Prepared statements on the server: each statement is planned once per connection.
    assert out["db_options"] == {"server_side_binding": True, "prepare_threshold": 2}
    assert out["live_mode"] == "embedded"
    # Connections kept for good (renewed together, they made a slow second every minute).
    assert out["conn"] is None


def test_a_connection_lifetime_can_be_set_and_a_bad_one_is_refused_in_words() -> None:
    with fresh_postgres_database() as url:
        assert _probe(DATABASE_URL=url, PG_CONN_MAX_AGE="600")["conn"] == 600
        full = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL"}}
        full.update(DATABASE_URL=url, PG_CONN_MAX_AGE="ten minutes", DJANGO_SETTINGS_MODULE="config.settings")
        res = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=full,
                             capture_output=True, text=True, timeout=60)
    assert res.returncode != 0
    assert "PG_CONN_MAX_AGE is 'ten minutes': give a number of seconds, or none" in res.stderr


def test_redis_url_selects_channels_redis_and_celery_on_redis(tmp_path: Path) -> None:
    with fresh_redis_db() as url:
        out = _probe(REDIS_URL=url, SQLITE_PATH=str(tmp_path / "probe.sqlite3"))
    assert out["layer"] == "channels_redis.core.RedisChannelLayer"
    assert str(out["broker"]).startswith("redis://")
    assert out["ping"] is True
    assert out["roundtrip"] == 7
    assert out["embedded_worker"] is False
    # Login throttling counts across processes: the cache is Redis, and it answers.
    assert out["cache"] == "django.core.cache.backends.redis.RedisCache" and out["cached"] == 41
    # Above the longest timer (the 180 s arrangement clock).
    assert isinstance(out["visibility_timeout"], int) and out["visibility_timeout"] > 180


def test_sqlite_is_tuned_for_concurrent_tables() -> None:
    from django.conf import settings

    if settings.DATABASE_MODE != "sqlite":
        return
    opts = settings.DATABASES["default"]["OPTIONS"]
    assert opts["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in opts["init_command"]


def test_the_server_process_keeps_its_start_up_objects_out_of_the_collector() -> None:
    import gc

    import config.asgi

    assert gc.get_threshold() == config.asgi.GC_THRESHOLDS != (700, 10, 10)
    assert gc.get_freeze_count() > 10_000  # Django, the apps and their modules


HTTPS_PROBE = r"""
import json, django
django.setup()
from django.conf import settings
from django.core import checks
from django.test import Client
from django.contrib.auth import get_user_model
from django.core.management import call_command
call_command("migrate", verbosity=0)
get_user_model().objects.create_user("opal", password="a long enough pass 7")
client = Client(enforce_csrf_checks=True, HTTP_HOST="poker.example.org", HTTP_X_FORWARDED_PROTO="https")
page = client.get("/accounts/login/", secure=False)
token = page.cookies["csrftoken"].value
posted = client.post("/accounts/login/", {"username": "opal", "password": "a long enough pass 7", "csrfmiddlewaretoken": token},
                     HTTP_ORIGIN="https://poker.example.org")
ids = sorted(m.id for m in checks.run_checks(include_deployment_checks=True) if m.level >= checks.ERROR)
print(json.dumps({"status": posted.status_code, "secure_cookie": bool(posted.cookies["sessionid"]["secure"]) if "sessionid" in posted.cookies else None,
                  "errors": ids}))
"""


def _https_probe(tmp_path: Path, **env: str) -> dict[str, object]:
    full = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_HTTPS", "DJANGO_SECRET_KEY"}}
    full.update(env, DJANGO_SETTINGS_MODULE="config.settings", SQLITE_PATH=str(tmp_path / f"https-{len(env)}.sqlite3"),
                DJANGO_ALLOWED_HOSTS="poker.example.org")
    res = subprocess.run([sys.executable, "-c", HTTPS_PROBE], cwd=ROOT, env=full, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_behind_an_https_proxy_a_login_is_accepted_and_the_dev_key_fails_the_deploy_check(tmp_path: Path) -> None:
    """Found by an audit: behind TLS every login was refused as a cross-site form (the Origin
    https://... against a request Django took for http), and a site on the development key
    passed ``check --deploy``. DJANGO_HTTPS=1 makes the forwarded scheme count."""
    plain = _https_probe(tmp_path)
    assert plain["status"] == 403  # without DJANGO_HTTPS: the https Origin does not match
    assert "patchpatch.E001" in plain["errors"]  # type: ignore[operator]
    behind = _https_probe(tmp_path, DJANGO_HTTPS="1", DJANGO_SECRET_KEY="s" * 20 + "-a-real-secret-of-fifty-chars-0123456789")
    assert behind["status"] == 302 and behind["secure_cookie"] is True
    assert "patchpatch.E001" not in behind["errors"]  # type: ignore[operator]
