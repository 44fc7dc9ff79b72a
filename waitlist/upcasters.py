"""Upcasters of the waiting-list events: old payloads read as the current schema version
(stored rows are never rewritten; :mod:`casino.eventstore.upcasting`)."""

from typing import Any

from casino.eventstore.upcasting import upcaster


@upcaster("waitlist.PlayerListed", from_version=1)
def player_listed_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 carried the callback number itself (``phone``); v2 carries a key of the contact
    store (``phone_ref``). A v1 number stays where it is: the log is never rewritten."""
    return {**data, "phone_ref": ""}
