"""The beat schedule ``manage.py up`` runs (``casino.celery.embedded_schedule``)."""

from __future__ import annotations

from django.conf import settings

from casino.celery import EMBEDDED_SWEEP_SECONDS, embedded_schedule


def test_up_runs_the_sweeps_every_second_and_the_purge_hourly() -> None:
    """Every entry was capped at the sweep interval, so the hourly purge of idempotency
    records wrote to SQLite every second beside the dealers' writes (found by QA)."""
    schedule = embedded_schedule(settings.CELERY_BEAT_SCHEDULE, EMBEDDED_SWEEP_SECONDS)
    by_task = {e["task"]: float(e["schedule"]) for e in schedule.values()}
    assert by_task["eventstore.purge_command_records"] == 3600.0
    assert by_task["tournaments.sweep_clocks"] == EMBEDDED_SWEEP_SECONDS
    assert by_task["waitlist.sweep_overdue_calls"] <= EMBEDDED_SWEEP_SECONDS
    assert settings.CELERY_BEAT_SCHEDULE["tournaments-sweep-clocks"]["schedule"] > 1  # untouched
