"""WebSocket feeds of tables: a dealer tablet's table, and the floor's view of every table.

On connect a client gets a snapshot with its stream versions, then every event after them
in order; a reconnecting client resumes (v1: the versions it last saw; v2: also the cursor
of the last message) and gets every event it missed, hands it never heard of included.
Delivery, resume and revocation are :class:`casino.realtime.consumers.LogFeedConsumer`'s;
which events reach ``table-<id>`` and ``floor`` is :mod:`tables.feeds`.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from casino.eventstore import store
from casino.realtime.consumers import LogFeedConsumer

__all__ = ["FloorConsumer", "LogFeedConsumer", "TableConsumer"]


class TableConsumer(LogFeedConsumer):
    """``/ws/tables/<table_id>/``: the table stream and the streams of its hands. Who may
    read it: whoever may ``get_table`` (a dealer tablet only its own table)."""

    read_operation = "get_table"

    @property
    def feed_table_id(self) -> int:  # type: ignore[override]
        return self.table_id

    @property
    def table_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["table_id"])

    async def _may_resume(self, stream: str) -> bool:
        """This table's stream and the streams of its hands, nothing else."""
        if stream == f"table-{self.table_id}":
            return True
        if not stream.startswith("hand-"):
            return False
        from casino.permissions import table_of_hand

        table = await database_sync_to_async(table_of_hand)(stream.removeprefix("hand-"))
        return table == self.table_id

    @database_sync_to_async
    def _groups(self) -> list[str]:
        from tables.models import TableView

        exists = TableView.objects.filter(table_id=self.table_id).exists()
        return [f"table-{self.table_id}"] if exists else []

    def _snapshot(self) -> tuple[dict[str, int], dict[str, Any]]:
        from tables import services
        from tables.api import hand_payload
        from tables.selectors import table_payload

        table = table_payload(self.table_id)
        versions = {f"table-{self.table_id}": store.stream_version(f"table-{self.table_id}")}
        hand = None
        if table["current_hand_id"] and table["game"] != "SHOW":  # Show poker: its own API
            loaded = services.load_hand(table["current_hand_id"])
            hand = hand_payload(loaded.state, loaded.version)
            versions[f"hand-{loaded.state.hand_id}"] = loaded.version
        return versions, {"table": table, "hand": hand}


class FloorConsumer(LogFeedConsumer):
    """``/ws/floor/``: every table stream (seats, stacks, hands begun and ended). Who may
    read it: whoever may ``list_tables`` (floor, director, admin)."""

    @database_sync_to_async
    def _groups(self) -> list[str]:
        return ["floor"]

    def _wants(self, stream: str) -> bool:
        return stream.startswith("table-")

    def _snapshot(self) -> tuple[dict[str, int], dict[str, Any]]:
        from tables.models import TableView
        from tables.selectors import table_payload

        ids = list(TableView.objects.values_list("table_id", flat=True))
        tables = [table_payload(table_id) for table_id in ids]
        versions = {f"table-{t['table_id']}": t["version"] for t in tables}
        return versions, {"tables": tables}
