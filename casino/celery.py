"""Celery application: timers (blind levels, breaks, call-up deadlines) run as tasks that
call services. Broker from ``CELERY_BROKER_URL`` (Redis in production, in-memory by default).

Production runs ``celery -A casino worker`` and ``celery -A casino beat`` (the sweeps in
``CELERY_BEAT_SCHEDULE``). The embedded ``manage.py up`` has no worker: it runs the beat
schedule's sweeps in a thread (:func:`run_beat_in_thread`), which does the timers' work
within a sweep interval (ETA tasks queued in the in-memory broker are never consumed).
"""

import logging
import os
import threading
import time

import structlog
from celery import Celery, Task
from celery.signals import task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger("casino.timers")


@task_prerun.connect
def _observe_timer_lateness(task: Task | None = None, **_: object) -> None:
    """A timer (an ETA task) starts: record how late against its due time (metrics)."""
    from casino import logs, metrics

    logs.clear()  # a task's log lines carry its own command context, not the last task's
    if task is not None and task.request.eta:
        metrics.observe_timer_lateness(task.name, task.request.eta)


def run_beat_in_thread() -> threading.Event:
    """Run every task of ``CELERY_BEAT_SCHEDULE`` in this process at its interval (seconds),
    in a daemon thread; set the returned event to stop it."""
    from django.conf import settings
    from django.db import close_old_connections

    stop = threading.Event()
    schedule = {
        entry["task"]: float(entry["schedule"]) for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    due = dict.fromkeys(schedule, 0.0)

    def loop() -> None:
        while not stop.is_set():
            now = time.monotonic()
            for name, every in schedule.items():
                if now >= due[name]:
                    structlog.contextvars.clear_contextvars()
                    due[name] = now + every
                    try:
                        app.tasks[name]()  # run here, synchronously
                    except Exception:
                        logger.exception("timer sweep %s failed", name)
                    finally:
                        close_old_connections()
            stop.wait(1.0)

    threading.Thread(target=loop, name="casino-beat", daemon=True).start()
    return stop
