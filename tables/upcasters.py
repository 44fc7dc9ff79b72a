"""Upcasters of the table and hand events: old payloads read as the current schema version
(stored rows are never rewritten; :mod:`casino.eventstore.upcasting`)."""

from typing import Any

from casino.eventstore.upcasting import upcaster


@upcaster("tables.HandEnded", from_version=1)
def hand_ended_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 did not say whether the hand was voided; v1 tables were never put back after a
    misdeal or void, so their stream reads as it was recorded: not voided."""
    return {**data, "voided": False}


@upcaster("cashgame.ChipsToppedUp", from_version=1)
def chips_topped_up_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 top-ups were all between hands (one during a hand was refused): on the stack at
    once, not ``after_hand``."""
    return {**data, "after_hand": False}
