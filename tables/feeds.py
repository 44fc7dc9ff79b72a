"""Which live feeds see a table's events (registered with :mod:`casino.realtime.groups`).

* ``table-<id>`` (the table's stream) goes to the group ``table-<id>`` (its dealer tablet)
  and to ``floor`` (the floor console, the waiting-list floor feed);
* ``hand-<uuid>`` (and Show poker's ``show-hand-<uuid>``) goes to ``table-<id>`` of the
  table it is dealt at: the hand's first event names the table; for a later event the table
  is remembered, or read from that first event in the log.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection

from casino import table_lookup

TABLE_STREAM = re.compile(r"^table-(\d+)$")
HAND_STREAM = re.compile(r"^(?:show-)?hand-([0-9a-f-]{36})$")  # Show poker hands too
FLOOR_GROUP = "floor"


def table_group(table_id: int) -> str:
    """The group of one table's feed."""
    return f"table-{table_id}"


def table_of_hand(stream: str, data: Mapping[str, Any] | None = None) -> int | None:
    """The table a hand stream is dealt at (``None``: unknown), remembered per process: from
    the event's own ``table_id`` (the hand's first event names it), else from the hand's
    first event in the log."""
    known = table_lookup.hand_tables.get(stream)
    if known is not None:
        return known
    table_id = (data or {}).get("table_id")
    if table_id is None:
        with connection.cursor() as cur:
            cur.execute(
                "SELECT data FROM eventstore_event WHERE stream = %s AND version = 1", [stream]
            )
            row = cur.fetchone()
        first = (json.loads(row[0]) if isinstance(row[0], str | bytes) else row[0]) if row else {}
        table_id = first.get("table_id")
    if table_id is None:
        return None
    table_lookup.hand_tables.remember(stream, int(table_id))
    return int(table_id)


def route(stream: str, event_type: str, data: Mapping[str, Any]) -> Sequence[str] | None:
    """Groups of a table or hand event; ``None`` for any other stream."""
    if match := TABLE_STREAM.match(stream):
        return [table_group(int(match.group(1))), FLOOR_GROUP]
    if HAND_STREAM.match(stream):
        table_id = table_of_hand(stream, data)
        return [] if table_id is None else [table_group(table_id)]
    return None
