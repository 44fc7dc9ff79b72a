"""WebSocket feeds of the waiting lists.

* ``/ws/waitlists/`` -- the floor console's live feed: a snapshot (every list as
  ``GET /api/v1/waitlists/`` shows it, with the versions of every ``waitlist-*`` and
  ``table-*`` stream), then every event of those streams in order, with the resume and
  gap-filling of :class:`tables.consumers.LogFeedConsumer`. Who may read it: whoever may
  ``list_waitlists`` (floor, admin). Groups ``waitlist`` and ``floor`` of the relay.
* ``/ws/board/waitlists/`` -- the public TV board: no login; it never receives raw events
  (they carry player ids and phone numbers), only whole board snapshots (as
  ``GET /api/v1/board/waitlists/``: nicknames or initials), one on connect and a fresh one
  after each new list event from the relay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from casino.realtime.consumers import LogEventsMixin, LogFeedConsumer
from casino.realtime.messages import snapshot_message

LIST_GROUP = "waitlist"


def route(stream: str, event_type: str, data: Mapping[str, Any]) -> Sequence[str] | None:
    """Every waiting list's events go to the one group ``waitlist`` (casino.realtime.groups)."""
    return [LIST_GROUP] if stream.startswith("waitlist-") else None


class WaitlistFloorConsumer(LogFeedConsumer):
    """``/ws/waitlists/``: every list and every table stream, for the floor console."""

    read_operation = "list_waitlists"

    @database_sync_to_async
    def _groups(self) -> list[str]:
        return [LIST_GROUP, "floor"]

    def _wants(self, stream: str) -> bool:
        return stream.startswith(("waitlist-", "table-"))

    def _snapshot(self) -> tuple[dict[str, int], dict[str, Any]]:
        from tables.models import TableView
        from waitlist import selectors

        versions = selectors.stream_versions()
        versions |= {
            f"table-{table_id}": version
            for table_id, version in TableView.objects.values_list("table_id", "version")
        }
        return versions, selectors.floor_payload()


class WaitlistBoardConsumer(LogEventsMixin, AsyncJsonWebsocketConsumer):
    """``/ws/board/waitlists/``: public, read-only board snapshots."""

    async def connect(self) -> None:
        self.seen: dict[str, int] = {}
        await self.channel_layer.group_add(LIST_GROUP, self.channel_name)
        await self.accept()
        await self._send_board()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LIST_GROUP, self.channel_name)

    async def log_event(self, message: dict[str, Any]) -> None:
        """A committed list event: send the board again (once per new version)."""
        event = message["message"]
        stream, version = event["stream"], event["version"]
        if not stream.startswith("waitlist-") or version <= self.seen.get(stream, 0):
            return
        await self._send_board()

    async def recover(self, since: str | None) -> None:
        """A relay batch was lost: send the board as it is now."""
        await self._send_board()

    async def _send_board(self) -> None:
        versions, board = await self._board()
        self.seen = {**self.seen, **versions}
        await self.send_json(snapshot_message(versions, board))

    @database_sync_to_async
    def _board(self) -> tuple[dict[str, int], dict[str, Any]]:
        from waitlist import selectors

        return selectors.stream_versions(), selectors.board_payload()
