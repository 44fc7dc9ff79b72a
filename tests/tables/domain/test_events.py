"""Hand events: registered types, frozen, JSON round trip as the event store does it."""

from __future__ import annotations

import dataclasses
import json

import dacite
import pytest

from casino.domain_events import EVENT_TYPES, DomainEvent
from tables.domain import DealBoard, MuckCards, ShowCards, TakeAction
from tables.events import (
    HAND_EVENT_TYPES,
    ActionTaken,
    HandVoided,
    RabbitHunted,
    RunItTimesAgreed,
)

from .support import play, start_hand

NEW_HAND_EVENTS: tuple[type[DomainEvent], ...] = (RunItTimesAgreed, HandVoided, RabbitHunted)

# the event store's codec: dataclasses.asdict to JSON, dacite back with lists cast to tuples
DACITE = dacite.Config(cast=[tuple], strict=True)


def test_every_hand_event_is_registered_with_a_stable_type() -> None:
    for cls in (*HAND_EVENT_TYPES, *NEW_HAND_EVENTS):
        assert f"tables.{cls.__name__}" == cls.TYPE
        assert cls.SCHEMA_VERSION == 1
        assert EVENT_TYPES[cls.TYPE] is cls


def test_events_are_frozen() -> None:
    event = ActionTaken(seat=1, action="call", amount_to=10, added=5, all_in=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.seat = 2  # type: ignore[misc]


def test_a_whole_hand_round_trips_through_json() -> None:
    state = play(
        None,
        start_hand([100, 300, 600, 1000], ante=5, ante_type="big_blind", rake_percent_bp=500),
    )
    state = play(
        state,
        TakeAction(3, "all_in"),
        TakeAction(4, "call"),
        TakeAction(1, "all_in"),
        TakeAction(2, "all_in"),
        DealBoard("flop", "2c7d9h"),
        DealBoard("turn", "Js"),
        DealBoard("river", "Kd"),
        ShowCards(4, "AcAh"),
        MuckCards(3, deliberate=True),
        ShowCards(2, "JcJh"),
        ShowCards(1, "KcKh"),
    )
    assert state.is_complete
    for event in state.history:
        payload = json.loads(json.dumps(dataclasses.asdict(event)))  # type: ignore[call-overload]
        decoded = dacite.from_dict(type(event), payload, config=DACITE)
        assert decoded == event
