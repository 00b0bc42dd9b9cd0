"""Settings, one module per concern, all read from the environment.

With nothing set the site runs embedded: SQLite, the in-memory channel layer and Celery on an
in-memory broker with a worker inside the server process. ``DATABASE_URL`` switches to
PostgreSQL and ``REDIS_URL`` to channels_redis plus Celery on Redis.
"""

from config.settings.base import *  # noqa: F401,F403
from config.settings.database import *  # noqa: F401,F403
from config.settings.live import *  # noqa: F401,F403
