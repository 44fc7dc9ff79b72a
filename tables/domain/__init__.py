"""The hand engine: pure rules of one poker hand (no Django).

Commands in, events out::

    events = decide(state, TakeAction(seat=3, action="raise", amount_to=300))
    for event in events:
        state = evolve(state, event)

See :mod:`tables.domain.hand` for the aggregate, :mod:`tables.domain.pots` for pots, rake
and odd chips, :mod:`tables.events` for the events.
"""

from tables.domain.commands import (
    AwardPots,
    DealBoard,
    DeclareMisdeal,
    HandCommand,
    MuckCards,
    RecordRabbitHunt,
    RunItTimes,
    ShowCards,
    StartHand,
    TakeAction,
    VoidHand,
)
from tables.domain.errors import HandRuleViolation
from tables.domain.hand import HandState, LegalActions, SeatState, decide, evolve, load
from tables.domain.seating import next_button

__all__ = [
    "AwardPots",
    "DealBoard",
    "DeclareMisdeal",
    "HandCommand",
    "HandRuleViolation",
    "HandState",
    "LegalActions",
    "MuckCards",
    "RecordRabbitHunt",
    "RunItTimes",
    "SeatState",
    "ShowCards",
    "StartHand",
    "TakeAction",
    "VoidHand",
    "decide",
    "evolve",
    "load",
    "next_button",
]
