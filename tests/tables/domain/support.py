"""Helpers for the hand-engine tests: build hands and play commands through decide/evolve.

A plain module (not a conftest) so the domain tests also run with ``-p no:django --noconftest``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import Any

import pytest

from casino.domain_events import DomainEvent
from tables.domain import HandCommand, HandRuleViolation, HandState, StartHand, decide, evolve
from tables.events import SeatInHand


def start_hand(
    stacks: Sequence[int] | dict[int, int] = (1000, 1000, 1000),
    *,
    button: int | None = None,
    sb: int = 5,
    bb: int = 10,
    **config: Any,
) -> StartHand:
    """A StartHand; a list of stacks sits at seats 1..n, the button on the last seat."""
    by_seat = stacks if isinstance(stacks, dict) else {i + 1: s for i, s in enumerate(stacks)}
    return StartHand(
        hand_id="00000000-0000-0000-0000-000000000001",
        table_id=1,
        hand_number=1,
        button_seat=button if button is not None else max(by_seat),
        seats=tuple(SeatInHand(seat, f"player-{seat}", stack) for seat, stack in by_seat.items()),
        small_blind=sb,
        big_blind=bb,
        **config,
    )


def play(state: HandState | None, *commands: HandCommand) -> HandState:
    """Run commands in order; each one's events are folded into the state."""
    for command in commands:
        state = reduce(evolve, decide(state, command), state)
    assert state is not None
    return state


def play_events(
    state: HandState | None, command: HandCommand
) -> tuple[HandState, list[DomainEvent]]:
    events = decide(state, command)
    new = reduce(evolve, events, state)
    assert new is not None
    return new, events


def refused(state: HandState | None, command: HandCommand, code: str) -> HandRuleViolation:
    """Assert the command is refused with ``code``; the refusal."""
    with pytest.raises(HandRuleViolation) as caught:
        decide(state, command)
    assert caught.value.code == code, (caught.value.code, caught.value.detail)
    return caught.value


def conserved(state: HandState) -> bool:
    """Chips conserved: final stacks plus rake equal the starting stacks."""
    assert state.result is not None
    start = sum(s.starting_stack for s in state.seats)
    return sum(state.stacks.values()) + state.result.rake == start
