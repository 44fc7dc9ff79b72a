"""Celery application: timers (blind levels, breaks, call-up deadlines) run as tasks that
call services. Broker from ``CELERY_BROKER_URL`` (Redis in production, in-memory by default).

Production runs ``celery -A casino worker`` and ``celery -A casino beat`` (the sweeps in
``CELERY_BEAT_SCHEDULE``). The embedded ``manage.py up`` runs both in its own process
(:func:`start_embedded`): a real worker (solo pool, in a thread) that consumes the ETA
timers from the in-memory broker, and beat (in a thread) that sends the sweeps every
``EMBEDDED_SWEEP_SECONDS`` (1 s), so a timer whose ETA task was lost with a previous
process (the in-memory broker does not survive a restart) still fires about a second
after its due time (the interval plus the sweep's own run), from the first second, with no
request needed.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from typing import Any

from celery import Celery, Task
from celery.signals import task_prerun, worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")

app = Celery("casino")
app.config_from_object("django.conf:settings", namespace="CELERY")
# the tasks modules of every installed app (waitlist.tasks, tournaments.tasks), imported
# when a worker or beat starts (and by start_embedded): no NotRegistered for the sweeps
app.autodiscover_tasks()

logger = logging.getLogger("casino.timers")


def queue_timer(name: str, args: tuple[Any, ...], eta: Any) -> None:
    """Queue the registered task ``name`` (``"tournaments.clock_timer"``) to run at ``eta``
    (aware UTC). By name, so that a service need not import its app's tasks module: the
    tasks call the services, one way only (no import cycle). The app's first use imports
    every tasks module (autodiscovery), so the name is known.

    Raises:
        celery.exceptions.NotRegistered: no task of that name; broker errors as Celery's.
    """
    app.tasks[name].apply_async(args, eta=eta)


EMBEDDED_SWEEP_SECONDS = 1.0
"""Sweep interval of the embedded beat, seconds (0.5 s doubled ``up``'s idle CPU)."""


@task_prerun.connect
def _observe_timer_lateness(task: Task | None = None, **_: object) -> None:
    """A timer (an ETA task) starts: record how late against its due time (metrics)."""
    from casino import logs, metrics

    logs.clear()  # a task's log lines carry its own command context, not the last task's
    if task is not None and task.request.eta:
        metrics.observe_timer_lateness(task.name, task.request.eta)


@worker_init.connect
def _refuse_builtin_secret_key(**_: Any) -> None:
    """Stop a worker on the built-in key. Celery logs and swallows an ``Exception`` from a
    signal handler (the worker ran on), so this leaves with ``SystemExit``."""
    from django.core.exceptions import ImproperlyConfigured

    from casino.security import require_secret_key

    try:
        require_secret_key()
    except ImproperlyConfigured as error:
        raise SystemExit(f"celery worker: {error}") from None


@dataclass
class Embedded:
    """The worker and beat threads of :func:`start_embedded`; :meth:`stop` ends both."""

    worker: Any
    beat: Any
    worker_thread: threading.Thread

    def stop(self, timeout: float = 10.0) -> None:
        self.beat.stop()
        self.worker.stop(in_sighandler=False)
        self.worker_thread.join(timeout)


def embedded_schedule(
    schedule: dict[str, dict[str, Any]], sweep_seconds: float
) -> dict[str, dict[str, Any]]:
    """The beat schedule of ``manage.py up``: each sweep (a task named ``*.sweep_*``) at
    most ``sweep_seconds`` apart, so that timers are on time from the first second; any
    other entry at its own interval (the hourly purge of idempotency records ran every
    second: found by QA)."""
    return {
        name: {**entry, "schedule": min(float(entry["schedule"]), sweep_seconds)}
        if ".sweep_" in entry["task"]
        else entry
        for name, entry in schedule.items()
    }


def start_embedded(*, sweep_seconds: float = EMBEDDED_SWEEP_SECONDS) -> Embedded:
    """Run a Celery worker (solo pool) and beat in daemon threads of this process.

    The worker consumes every task sent to ``app`` (ETA timers included); beat sends each
    sweep of ``CELERY_BEAT_SCHEDULE`` (a task named ``*.sweep_*``) every ``min(its
    interval, sweep_seconds)`` seconds and any other entry at its own interval, with an
    in-memory schedule (no schedule file). Returns the handles to stop them.
    """
    from celery import beat

    app.loader.import_default_modules()  # the tasks modules: registered before any send
    # the broker is polled every 0.25 s: a task sent without an ETA starts at most that
    # much later (timers are sent ahead with their ETA and wait in the worker, on time)
    options = dict(app.conf.broker_transport_options or {})
    options.setdefault("polling_interval", 0.25)
    app.conf.broker_transport_options = options
    app.conf.beat_schedule = embedded_schedule(app.conf.beat_schedule, sweep_seconds)
    ready = threading.Event()
    worker = app.WorkController(
        ready_callback=lambda *_: ready.set(),
        pool_cls="solo",
        concurrency=1,
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
        loglevel=logging.WARNING,
        hostname=f"embedded@{os.getpid()}",
    )
    thread = threading.Thread(target=worker.start, name="casino-worker", daemon=True)
    thread.start()
    if not ready.wait(30):
        logger.warning("embedded Celery worker not ready after 30 s")
    clock = beat.EmbeddedService(app, thread=True, scheduler_cls="celery.beat.Scheduler")
    clock.start()
    return Embedded(worker=worker, beat=clock, worker_thread=thread)
