"""Celery timers of the waiting lists: thin tasks that call services.

* :func:`expire_call_task` is queued for a call's deadline (ETA) by
  :func:`waitlist.services.call_player` after commit. It carries the call id; the service
  does nothing if that call was answered, cancelled or already missed, or is not due yet.
* :func:`sweep_overdue_calls` runs from beat every ``WAITLIST_SWEEP_SECONDS`` and expires
  every open call past its deadline, for timers a lost worker (or a broker outage) missed.

A timer that fires twice, or the timer and the sweep racing, move the player once: both
decide on the list's stream and append at the same version; the loser's transaction
conflicts, is retried by ``run_command`` on fresh state and finds the call closed.
"""

from __future__ import annotations

import logging

from celery import shared_task

from casino.errors import DomainError
from casino.eventstore.commands import run_command
from casino.eventstore.context import CommandContext
from waitlist import selectors, services

logger = logging.getLogger("waitlist")


@shared_task(name="waitlist.expire_call", ignore_result=True)
def expire_call_task(list_id: str, call_id: str) -> bool:
    """Expire the call if it is still open and due; returns whether anything changed."""
    outcome = run_command(
        lambda: services.expire_call(list_id=list_id, call_id=call_id),
        ctx=CommandContext(actor="system:waitlist-timer", causation_id=call_id),
    )
    return bool(outcome.result)


@shared_task(name="waitlist.sweep_overdue_calls", ignore_result=True)
def sweep_overdue_calls() -> int:
    """Expire every open call past its deadline, one transaction each; returns how many
    moved a player."""
    moved = 0
    for list_id, call_id in selectors.overdue_calls():
        try:
            outcome = run_command(
                lambda list_id=list_id, call_id=call_id: services.expire_call(  # type: ignore[misc]
                    list_id=list_id, call_id=call_id
                ),
                ctx=CommandContext(actor="system:waitlist-sweep", causation_id=call_id),
            )
        except DomainError:
            logger.exception("sweep could not expire call %s of %s", call_id, list_id)
            continue
        moved += bool(outcome.result)
    return moved
