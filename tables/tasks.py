"""Celery timers of the hands: the clock called on a player (BET-28).

:func:`expire_clock_task` is queued for a clock's expiry (ETA) by
:func:`tables.rulings_services.rule` after commit. It carries the clock's number; the
service does nothing if the player acted, the clock was replaced or it is not due yet, so
a timer that fires twice or early changes nothing.
"""

from __future__ import annotations

from celery import shared_task

from casino.eventstore.commands import run_command
from casino.eventstore.context import CommandContext
from tables import rulings_services


@shared_task(name="tables.expire_clock", ignore_result=True)
def expire_clock_task(hand_id: str, clock_number: int) -> bool:
    """Kill the hand of the player on the clock if it is still running and due."""
    outcome = run_command(
        lambda: rulings_services.expire_clock(hand_id=hand_id, clock_number=clock_number),
        ctx=CommandContext(actor="system:hand-clock", causation_id=f"{hand_id}:{clock_number}"),
    )
    return bool(outcome.result)
