"""Channels and Celery: in-memory and in-process by default, Redis when REDIS_URL is set."""

import sys

from config.settings.env import env_bool, env_str

REDIS_URL = env_str("REDIS_URL")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # channels_redis waits for messages with a blocking BZPOPMIN of 5 s, and redis-py 8
            # reads with a 5 s socket timeout unless told otherwise: a process with nothing to
            # receive for 5 s then got a TimeoutError, which killed the consumer holding the
            # receive (its socket closed, its group membership left behind). The read timeout
            # must stay well above that wait (channels_redis issue 422).
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 15}], "capacity": 1500, "expiry": 30},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = None
    # The longest timer is the 180 s arrangement clock: a task held by a worker that dies is
    # redelivered after this timeout, so it must be comfortably above any countdown.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
    LIVE_MODE = "redis"
    CELERY_EMBEDDED_WORKER = False
    # One cache for every process, so login throttling counts failures across all of them
    # (club.throttle fails open, and says so in the log, while Redis does not answer).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "ppc",
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
        }
    }
else:
    # One fan-out channel per process carries every table's messages (tables/consumers.py):
    # room for bursts, as the Redis layer has (a full channel drops what is sent to it).
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"capacity": 1500}}}
    # A host name, though the in-memory broker has no use for one: without it kombu logs "No
    # hostname was supplied. Reverting to default 'localhost'" at every start, which a host
    # puzzling over why phones cannot connect reads as the server falling back to localhost.
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = None
    CELERY_BROKER_TRANSPORT_OPTIONS = {}
    LIVE_MODE = "embedded"
    # The Daphne process runs a Celery worker thread on the in-memory broker (see tables.apps).
    # Not inside a test process: tests drive timers themselves (or start a real server).
    CELERY_EMBEDDED_WORKER = env_bool("CELERY_EMBEDDED_WORKER", "pytest" not in sys.modules)

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 4
# Celery's Django fix-up closes every database connection before and after every task unless
# this is set: each table timer then opened a new PostgreSQL connection (a new server process,
# its statements prepared again), about a third of the worker's time and much of PostgreSQL's
# under load. The tasks close their connections the way a request does instead (when
# CONN_MAX_AGE runs out, or after an error; tables/tasks.py).
CELERY_DB_REUSE_MAX = 10**9
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

# In the Redis mode the worker's beat runs the sweep; the embedded mode has its own sweeper thread.
CELERY_BEAT_SCHEDULE = {
    "sweep-missed-timers": {"task": "tables.sweep", "schedule": 2.0},
    "close-idle-public-tables": {"task": "tables.close_idle", "schedule": 600.0},
    "stand-up-at-stalled-tables": {"task": "tables.stand_up_stalled", "schedule": 60.0},
}

# Clock overrides for tests and demos (seconds); unset means the speeds of GAMES.md.
_dec = env_str("TABLE_DECISION_SECONDS")
_arr = env_str("TABLE_ARRANGE_SECONDS")
_show = env_str("TABLE_SHOWDOWN_SECONDS")
TABLE_DECISION_SECONDS = float(_dec) if _dec else None
TABLE_ARRANGE_SECONDS = float(_arr) if _arr else None
TABLE_SHOWDOWN_SECONDS = float(_show) if _show else None
_deal = env_str("TABLE_DEAL_SECONDS")
TABLE_DEAL_SECONDS = float(_deal) if _deal else None
