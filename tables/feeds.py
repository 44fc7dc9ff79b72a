"""Which live feeds see a table's events (registered with :mod:`casino.realtime.groups`).

* ``table-<id>`` (the table's stream) goes to the group ``table-<id>`` (its dealer tablet)
  and to ``floor`` (the floor console, the waiting-list floor feed);
* ``hand-<uuid>`` goes to ``table-<id>`` of the table it is dealt at: ``HandStarted`` names
  the table; for a later event the table is remembered, or read from the hand's read model.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

TABLE_STREAM = re.compile(r"^table-(\d+)$")
HAND_STREAM = re.compile(r"^hand-([0-9a-f-]{36})$")
FLOOR_GROUP = "floor"

_hand_tables: OrderedDict[str, int] = OrderedDict()
_lock = threading.Lock()
_REMEMBER = 20_000


def table_group(table_id: int) -> str:
    """The group of one table's feed."""
    return f"table-{table_id}"


def table_of_hand(hand_id: str, data: Mapping[str, Any] | None = None) -> int | None:
    """The table a hand is dealt at (``None``: unknown hand), remembered per process."""
    with _lock:
        known = _hand_tables.get(hand_id)
    if known is not None:
        return known
    table_id = (data or {}).get("table_id")
    if table_id is None:
        from tables.models import HandView

        table_id = (
            HandView.objects.filter(hand_id=hand_id).values_list("table_id", flat=True).first()
        )
    if table_id is None:
        return None
    with _lock:
        _hand_tables[hand_id] = int(table_id)
        while len(_hand_tables) > _REMEMBER:
            _hand_tables.popitem(last=False)
    return int(table_id)


def route(stream: str, event_type: str, data: Mapping[str, Any]) -> Sequence[str] | None:
    """Groups of a table or hand event; ``None`` for any other stream."""
    if match := TABLE_STREAM.match(stream):
        return [table_group(int(match.group(1))), FLOOR_GROUP]
    if match := HAND_STREAM.match(stream):
        table_id = table_of_hand(match.group(1), data)
        return [] if table_id is None else [table_group(table_id)]
    return None
