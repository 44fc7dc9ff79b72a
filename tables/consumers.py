"""WebSocket feeds of tables: a dealer tablet's table, and the floor's view of every table.

On connect a client gets a snapshot with its stream versions, then every event after them
in order. A reconnecting client sends the versions it last saw
(``?resume=table-7:12,hand-<uuid>:5``) and gets exactly what it missed. Events arrive
from the relay (``casino.realtime.relay``); the consumer keeps the last version it sent
per stream, drops repeats and fills any gap from the log, so the client sees each stream's
events once each, in order.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from casino.eventstore import store
from casino.realtime.messages import error_message, event_message, snapshot_message


def _query(scope: dict[str, Any]) -> dict[str, str]:
    raw = parse_qs(scope.get("query_string", b"").decode())
    return {key: values[-1] for key, values in raw.items()}


def _parse_resume(raw: str) -> dict[str, int]:
    versions: dict[str, int] = {}
    for part in filter(None, raw.split(",")):
        stream, _, version = part.rpartition(":")
        if stream and version.isdigit():
            versions[stream] = int(version)
    return versions


class LogFeedConsumer(AsyncJsonWebsocketConsumer):
    """Base: authenticate, join groups, snapshot or resume, then forward log events."""

    groups_to_join: list[str]

    async def connect(self) -> None:
        self.sent: dict[str, int] = {}
        principal = await self._authenticate()
        if principal is None or not await self._may_read(principal):
            await self.accept()
            await self.send_json(error_message("not_allowed", "Not authenticated or allowed."))
            await self.close(code=4403)
            return
        self.groups_to_join = await self._groups()
        if not self.groups_to_join:
            await self.accept()
            await self.send_json(error_message("not_found", "No such feed."))
            await self.close(code=4404)
            return
        for group in self.groups_to_join:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        resume = _parse_resume(_query(self.scope).get("resume", ""))
        # A client resumes only streams of this feed: a stream named in ?resume= that the
        # feed does not carry is ignored, so resuming never reads another feed's events.
        resume = {stream: v for stream, v in resume.items() if await self._may_resume(stream)}
        if resume:
            self.sent = dict(resume)
            await self._catch_up()
        else:
            versions, state = await self._snapshot()
            self.sent = dict(versions)
            await self.send_json(snapshot_message(versions, state))

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_to_join", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def log_event(self, message: dict[str, Any]) -> None:
        """A committed event from the relay: send it once, in order, filling any gap."""
        event = message["message"]
        stream, version = event["stream"], event["version"]
        if not self._wants(stream):
            return
        last = self.sent.get(stream, 0)
        if version <= last:
            return
        if version > last + 1:
            for missed in await self._read(stream, last):
                if missed["version"] < version:
                    await self._send_event(missed)
        await self._send_event(event)

    async def _send_event(self, event: dict[str, Any]) -> None:
        if event["version"] == self.sent.get(event["stream"], 0) + 1:
            self.sent[event["stream"]] = event["version"]
            await self.send_json(event)

    async def _catch_up(self) -> None:
        for stream, version in list(self.sent.items()):
            for missed in await self._read(stream, version):
                await self._send_event(missed)

    @database_sync_to_async
    def _read(self, stream: str, after: int) -> list[dict[str, Any]]:
        return [event_message(r) for r in store.read_stream(stream, after_version=after)]

    @database_sync_to_async
    def _authenticate(self) -> Any:
        from casino.auth import _device_for

        token = _query(self.scope).get("token")
        if token:
            return _device_for(token)
        user = self.scope.get("user")
        return user if user is not None and user.is_authenticated else None

    @database_sync_to_async
    def _may_read(self, principal: Any) -> bool:
        """The permission matrix of the REST API decides (casino.permissions)."""
        from casino.permissions import allowed

        return allowed(principal, self.read_operation, table_id=self.feed_table_id)

    read_operation = "list_tables"
    feed_table_id: int | None = None

    async def _groups(self) -> list[str]:
        raise NotImplementedError

    async def _snapshot(self) -> tuple[dict[str, int], dict[str, Any]]:
        raise NotImplementedError

    def _wants(self, stream: str) -> bool:
        return True

    async def _may_resume(self, stream: str) -> bool:
        """Whether ``?resume=`` may name ``stream`` (default: the streams the feed
        forwards, :meth:`_wants`)."""
        return self._wants(stream)


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

    @database_sync_to_async
    def _snapshot(self) -> tuple[dict[str, int], dict[str, Any]]:
        from tables import services
        from tables.api import hand_payload
        from tables.selectors import table_payload

        table = table_payload(self.table_id)
        versions = {f"table-{self.table_id}": store.stream_version(f"table-{self.table_id}")}
        hand = None
        if table["current_hand_id"]:
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

    @database_sync_to_async
    def _snapshot(self) -> tuple[dict[str, int], dict[str, Any]]:
        from tables.models import TableView
        from tables.selectors import table_payload

        ids = list(TableView.objects.values_list("table_id", flat=True))
        tables = [table_payload(table_id) for table_id in ids]
        versions = {f"table-{t['table_id']}": t["version"] for t in tables}
        return versions, {"tables": tables}
