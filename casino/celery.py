"""Celery application: timers (blind levels, breaks, call-up deadlines) run as tasks that
call services. Broker from ``CELERY_BROKER_URL`` (Redis in production, in-memory by default).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
