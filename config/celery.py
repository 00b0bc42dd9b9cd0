"""The Celery app. Tasks take ids and a version and call one service."""

import functools
import logging
import os
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger("config.celery")


def _connection_gone(channel: Any) -> bool:
    """Whether a kombu channel's broker connection has been collected (after a lost broker)."""
    transport = getattr(channel, "connection", None)
    return transport is None or getattr(transport, "client", None) is None


def _guard_lost_connection() -> None:
    """Keep the worker alive when its Redis broker goes away (a restart, a failover).

    On a lost broker connection Celery 5.7 first ``collect()``s the broken connection (which
    drops the transport's link to its ``Connection``) and then closes it. kombu's Redis transport
    then builds a connection pool from that missing link in two places, and the AttributeError
    that follows is not one of the connection errors Celery ignores there, so the worker stops
    with "Unrecoverable error":

    * closing the channel hands the worker's unacknowledged messages back to Redis
      (``'NoneType' object has no attribute 'hostname'``);
    * a task that was running when the connection went finishes and acknowledges its message
      (``acks_late``) on that old channel (``'NoneType' object has no attribute 'client'``).

    Our worker nearly always holds unacknowledged messages (the table clocks are countdown tasks
    it keeps until they are due) and often runs one, so any Redis restart used to kill it, and with
    it every clock and the sweep. Neither step is needed: a restarted Redis has lost those messages
    anyway; a surviving one hands them out again after the visibility timeout, and every timer is
    idempotent (it carries the table version) while the beat's sweep applies any clock that passed
    meanwhile. So these steps are skipped, with a log line, and the worker goes on to reconnect.
    """
    try:
        from kombu.transport import redis as kombu_redis
    except ImportError:  # no redis-py: the Redis transport is not in use
        return
    qos = kombu_redis.QoS
    if getattr(qos, "_guarded", False):
        return
    restore_unacked, ack, reject = qos.restore_unacked, qos.ack, qos.reject

    @functools.wraps(restore_unacked)
    def guarded_restore_unacked(self: Any, client: Any = None) -> None:
        try:
            restore_unacked(self, client)
        except Exception as exc:
            log.warning(
                "could not hand %d unacknowledged message(s) back to the broker (%r); the sweep "
                "applies any clock they carried", len(self._delivered), exc,
            )
            # Forget them here as a successful restore would: they are the broker's business now.
            self._delivered.clear()

    @functools.wraps(ack)
    def guarded_ack(self: Any, delivery_tag: Any) -> None:
        if _connection_gone(self.channel):
            log.warning("message %s came on a broker connection that is gone; not acknowledged", delivery_tag)
            super(qos, self).ack(delivery_tag)  # the in-memory bookkeeping only
            return
        ack(self, delivery_tag)

    @functools.wraps(reject)
    def guarded_reject(self: Any, delivery_tag: Any, requeue: bool = False) -> None:
        if _connection_gone(self.channel):
            log.warning("message %s came on a broker connection that is gone; not rejected", delivery_tag)
            super(qos, self).ack(delivery_tag)
            return
        reject(self, delivery_tag, requeue=requeue)

    qos.restore_unacked = guarded_restore_unacked
    qos.ack = guarded_ack
    qos.reject = guarded_reject
    qos._guarded = True


_guard_lost_connection()

app = Celery("patchpatch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
