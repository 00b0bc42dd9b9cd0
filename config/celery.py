"""The Celery app. Tasks take ids and a version and call one service."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("patchpatch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
