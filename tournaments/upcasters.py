"""Upcasters of the tournament events: old payloads read as the current schema version
(stored rows are never rewritten; :mod:`casino.eventstore.upcasting`)."""

from typing import Any

from casino.eventstore.upcasting import upcaster


@upcaster("tournaments.HandResultRecorded", from_version=1)
def hand_result_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 did not say whether the hand was voided: a v1 voided hand counted as played, as
    it was recorded."""
    return {**data, "voided": False}


@upcaster("tournaments.WinningsPaid", from_version=1)
def winnings_paid_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 payments did not name the entries whose prizes they settled."""
    return {**data, "entries": []}
