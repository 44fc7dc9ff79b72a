"""Clock timers (Celery): thin tasks that call :mod:`tournaments.services`.

``clock_timer`` is scheduled with an ETA at the next clock moment (level end, break end,
synchronized break, late registration closing) and carries the level and clock version it
expects: if either changed (a pause, a resume, a break, the director) it does nothing. The
beat sweep (``CELERY_BEAT_SCHEDULE``) runs every running tournament's due clock commands so
a timer lost with its worker is caught; each command carries the state it expects, so a
timer and the sweep racing apply it once.
"""

from __future__ import annotations

import logging
from functools import partial

from celery import shared_task

from casino.eventstore import commands, context
from tournaments import services
from tournaments.models import TournamentView

logger = logging.getLogger("casino.timers")


def _system() -> context.CommandContext:
    return context.CommandContext(actor="system:clock")


@shared_task(name="tournaments.clock_timer")
def clock_timer(tournament_id: int, level: int, clock_version: int) -> int:
    """Run the clock commands due now, if the clock is still at ``level`` and
    ``clock_version``; returns the number of events appended."""
    outcome = commands.run_command(
        lambda: services.run_clock(
            tournament_id=tournament_id, level=level, clock_version=clock_version
        ),
        ctx=_system(),
    )
    return int(outcome.result)


@shared_task(name="tournaments.sweep_clocks")
def sweep_clocks() -> int:
    """Every running or registering tournament: apply what is due (a lost timer's work,
    the start at the lobby time)."""
    appended = 0
    # registering ones too: the start at the lobby time (TREG-5)
    for tournament_id in TournamentView.objects.filter(
        status__in=("running", "registering")
    ).values_list("tournament_id", flat=True):
        try:  # one tournament's failure must not stop the others' clocks
            outcome = commands.run_command(
                partial(services.run_clock, tournament_id=tournament_id), ctx=_system()
            )
        except Exception:
            logger.exception("clock sweep failed for tournament %s", tournament_id)
            continue
        appended += int(outcome.result)
    return appended
