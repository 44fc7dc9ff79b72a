"""Celery tasks of the event store: the hourly purge of idempotent commands' stored
results (``CELERY_BEAT_SCHEDULE``). Tasks only translate: the work is in
:mod:`casino.eventstore.commands`."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.conf import settings

from casino import clock
from casino.eventstore import commands


@shared_task(name="eventstore.purge_command_records")
def purge_command_records() -> int:
    """Delete the command results older than ``IDEMPOTENCY_RETENTION_HOURS``; how many."""
    before = clock.now() - timedelta(hours=settings.IDEMPOTENCY_RETENTION_HOURS)
    return commands.purge_command_records(before=before)
