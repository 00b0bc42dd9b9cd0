"""The Celery app. Tasks take ids and a version and call one service."""

import functools
import logging
import os
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger("config.celery")


def _guard_unacked_restore() -> None:
    """Keep the worker alive when its Redis broker goes away (a restart, a failover).

    On a lost broker connection Celery 5.7 first ``collect()``s the broken connection (which
    drops the transport's link to its ``Connection``) and then closes it; closing the channel
    hands the worker's unacknowledged messages back to Redis, and kombu's Redis transport then
    builds a connection pool from that missing link: ``AttributeError: 'NoneType' object has no
    attribute 'hostname'``. ``ignore_errors`` lets only connection errors through, so the worker
    stops with "Unrecoverable error". Our worker nearly always holds unacknowledged messages (the
    table clocks are countdown tasks it keeps until they are due), so any Redis restart used to
    kill it, and with it every clock and the sweep.

    Giving the messages back is a courtesy, not a need: with a restarted Redis they are gone
    anyway, with a surviving one they come back after the visibility timeout, every timer is
    idempotent (it carries the table version) and the beat's sweep applies any clock that passed
    meanwhile. So a failure there is logged and the worker goes on to reconnect.
    """
    try:
        from kombu.transport import redis as kombu_redis
    except ImportError:  # no redis-py: the Redis transport is not in use
        return
    qos = kombu_redis.QoS
    if getattr(qos.restore_unacked, "_guarded", False):
        return
    original = qos.restore_unacked

    @functools.wraps(original)
    def restore_unacked(self: Any, client: Any = None) -> None:
        try:
            original(self, client)
        except Exception as exc:
            log.warning(
                "could not hand %d unacknowledged message(s) back to the broker (%r); the sweep "
                "applies any clock they carried", len(self._delivered), exc,
            )
            # Forget them here as a successful restore would: they are the broker's business now.
            self._delivered.clear()

    restore_unacked._guarded = True  # type: ignore[attr-defined]
    qos.restore_unacked = restore_unacked


_guard_unacked_restore()

app = Celery("patchpatch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
