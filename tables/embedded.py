"""The embedded mode's Celery worker: a thread in the server process on the in-memory broker.

`make run` needs nothing but Python, yet timers must fire: the same Celery tasks that a worker
process runs in the Redis mode run here in a worker thread (celery's own test worker controller,
solo pool). A small thread also runs the sweep every few seconds and once at start-up, so a
deadline that passed while the server was down is applied as soon as it is back; every ten
minutes it also closes the public tables players opened and left empty for a day, and every
minute it frees the seats of idle players at public tables that cannot deal.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("tables.embedded")

SWEEP_EVERY = 2.0
TIDY_EVERY = 600.0  # the idle public tables' closing (tables.services.close_idle_public_tables)
STALLED_EVERY = 60.0  # idle players at public tables that cannot deal (stand_up_at_stalled_tables)
_started = False
_lock = threading.Lock()


def start() -> None:
    """Start the worker and sweeper threads once per process."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
    threading.Thread(target=_worker, name="celery-embedded", daemon=True).start()
    threading.Thread(target=_sweeper, name="timer-sweep", daemon=True).start()


def _worker() -> None:
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    try:
        with start_worker(
            app, pool="solo", concurrency=1, perform_ping_check=False, loglevel="WARNING",
            shutdown_timeout=5.0,
        ):
            while True:
                time.sleep(3600)
    except Exception:
        log.exception("the embedded Celery worker stopped; the sweep keeps timers going")


def _sweeper() -> None:
    from django.db import close_old_connections

    from tables.services import close_idle_public_tables, stand_up_at_stalled_tables, table_sweep

    tidied = stalled = 0.0
    while True:
        try:
            close_old_connections()
            table_sweep()
            if time.monotonic() - tidied >= TIDY_EVERY:  # as the beat's "close-idle-public-tables"
                tidied = time.monotonic()
                close_idle_public_tables()
            if time.monotonic() - stalled >= STALLED_EVERY:  # as the beat's "stand-up-at-stalled-tables"
                stalled = time.monotonic()
                stand_up_at_stalled_tables()
        except Exception:
            log.exception("sweep failed")
        time.sleep(SWEEP_EVERY)
