"""Suite-wide fixtures."""

from __future__ import annotations

import os

# The embedded worker thread is started by the server process, never inside the test process.
os.environ.setdefault("CELERY_EMBEDDED_WORKER", "0")
