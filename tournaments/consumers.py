"""WebSocket feeds of a tournament (issue #6): level, blinds, time left, next break, players
left, average stack and prize pool, live.

* ``/ws/tournaments/<id>/clock/`` -- the public clock board (TV screens, dealer tablets):
  no login (``tournament_clock`` is in :data:`casino.permissions.PUBLIC_OPERATIONS`). It
  never receives raw events (they carry player ids), only whole clock snapshots: one on
  connect, and a fresh one after each new event of the ``tournament-<id>`` stream (a level
  or break by the timer, the director's pause, a hand dealt or finished, an elimination,
  an entry). State: ``{"tournament_id", "name", "status", "clock": ClockSerializer}``.
* ``/ws/tournaments/<id>/`` -- the director's console and the staff tablets: whoever may
  ``get_tournament`` (director, floor, cashier, manager, admin; a device token or a
  console session). A snapshot (``{"tournament": TournamentSerializer}``, as
  ``GET /api/v1/tournaments/<id>/``, with the stream version), then every event of
  ``tournament-<id>`` in order with the resume, dedupe and gap filling of
  :class:`tables.consumers.LogFeedConsumer`, each delivery followed by a ``clock`` message
  (:func:`clock_message`) so the console needn't compute time left.

Both listen to the relay's group ``stream-tournament-<id>`` (:mod:`casino.realtime.relay`).
Unknown tournament: an ``error`` (``not_found``) then close 4404; a principal that may not
read the console feed: ``error`` (``not_allowed``) then close 4403. Message shapes are
documented for clients in ``docs/realtime.md``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext_lazy as _

from casino.realtime.consumers import LogEventsMixin, LogFeedConsumer
from casino.realtime.messages import FORMAT_VERSION, error_message, snapshot_message


def tournament_stream(tournament_id: int) -> str:
    """The event stream of a tournament (as :func:`tournaments.services.tournament_stream`)."""
    return f"tournament-{tournament_id}"


def tournament_group(tournament_id: int) -> str:
    """The relay's channel-layer group of a tournament's stream."""
    return f"stream-{tournament_stream(tournament_id)}"


def clock_message(tournament_id: int, state_version: int, clock: dict[str, Any]) -> dict[str, Any]:
    """The ``clock`` message of the console feed (format v1)::

        {"type": "clock", "v": 1, "stream": "tournament-7", "state_version": 42,
         "clock": {...ClockSerializer...}}

    ``state_version`` is the stream version the clock was computed from; it may be ahead of
    the last ``event`` received (events still on their way), so a client resumes with the
    versions of the events it received, never with this one.
    """
    return {
        "type": "clock",
        "v": FORMAT_VERSION,
        "stream": tournament_stream(tournament_id),
        "state_version": state_version,
        "clock": clock,
    }


def _clock_now(tournament_id: int) -> tuple[int, dict[str, Any]] | None:
    """The tournament's stream version and its clock (as ``selectors.clock_payload``) from
    one load of the aggregate, or ``None`` for an unknown tournament. Sync (database)."""
    from casino import clock
    from casino.errors import NotFound
    from tournaments.domain import tournament as domain
    from tournaments.services import load_tournament

    try:
        loaded = load_tournament(tournament_id)
    except NotFound:
        return None
    return loaded.version, dataclasses.asdict(domain.clock_view(loaded.state, clock.now()))


def _exists(tournament_id: int) -> bool:
    from casino.eventstore import store

    return store.stream_version(tournament_stream(tournament_id)) > 0


class TournamentClockConsumer(LogEventsMixin, AsyncJsonWebsocketConsumer):
    """``/ws/tournaments/<id>/clock/``: the public clock board, read-only snapshots only.

    Every message is ``{"type": "snapshot", "v": 1, "versions": {"tournament-<id>": n},
    "state": {"tournament_id", "name", "status", "clock": {...ClockSerializer...}}}``:
    no names, no player ids. A new snapshot is sent once per new stream version seen from
    the relay (several events of one command usually give one snapshot).
    """

    read_operation = "tournament_clock"

    @property
    def tournament_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["tournament_id"])

    async def connect(self) -> None:
        self.seen = 0
        self.joined = False
        if not await self._may_read():
            await self.accept()
            await self.send_json(
                error_message("not_allowed", _("Not authenticated or allowed."), self.scope)
            )
            await self.close(code=4403)
            return
        if not await database_sync_to_async(_exists)(self.tournament_id):
            await self.accept()
            await self.send_json(error_message("not_found", _("No such tournament."), self.scope))
            await self.close(code=4404)
            return
        # join before reading the board, so no event between the two is missed
        await self.channel_layer.group_add(tournament_group(self.tournament_id), self.channel_name)
        self.joined = True
        await self.accept()
        await self._send_board()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(
                tournament_group(self.tournament_id), self.channel_name
            )

    async def log_event(self, message: dict[str, Any]) -> None:
        """A committed tournament event from the relay: send the board again, once per new
        version (the event itself is never forwarded)."""
        event = message["message"]
        if event["stream"] != tournament_stream(self.tournament_id):
            return
        if event["version"] <= self.seen:
            return
        await self._send_board()

    async def recover(self, since: str | None) -> None:
        """A relay batch was lost: send the board as it is now."""
        await self._send_board()

    async def _send_board(self) -> None:
        board = await self._board()
        if board is None:
            return
        version, state = board
        self.seen = max(self.seen, version)
        await self.send_json(
            snapshot_message({tournament_stream(self.tournament_id): version}, state)
        )

    @database_sync_to_async
    def _may_read(self) -> bool:
        """The permission matrix decides (anonymous: ``tournament_clock`` is public)."""
        from casino.permissions import allowed

        return allowed(None, self.read_operation)

    @database_sync_to_async
    def _board(self) -> tuple[int, dict[str, Any]] | None:
        from tournaments.models import TournamentView

        now = _clock_now(self.tournament_id)
        if now is None:
            return None
        version, clock = now
        view = (
            TournamentView.objects.filter(tournament_id=self.tournament_id)
            .values("name", "status")
            .first()
        ) or {"name": "", "status": ""}
        state = {
            "tournament_id": self.tournament_id,
            "name": view["name"],
            "status": view["status"],
            "clock": clock,
        }
        return version, state


class TournamentConsumer(LogFeedConsumer):
    """``/ws/tournaments/<id>/``: the director's console and staff tablets.

    On connect: ``snapshot`` with ``versions: {"tournament-<id>": n}`` and ``state:
    {"tournament": {...TournamentSerializer...}}``; then each ``event`` of the stream once,
    in version order (``?resume=tournament-<id>:<n>`` to catch up instead), each delivery
    followed by one ``clock`` message (:func:`clock_message`). Who may read it: whoever may
    ``get_tournament``; a resume naming other streams is confined to this tournament's.
    """

    read_operation = "get_tournament"

    @property
    def tournament_id(self) -> int:
        return int(self.scope["url_route"]["kwargs"]["tournament_id"])

    @property
    def stream(self) -> str:
        return tournament_stream(self.tournament_id)

    @database_sync_to_async
    def _groups(self) -> list[str]:
        return [tournament_group(self.tournament_id)] if _exists(self.tournament_id) else []

    def _wants(self, stream: str) -> bool:
        return stream == self.stream

    def _snapshot(self) -> tuple[dict[str, int], dict[str, Any]]:
        from tournaments.selectors import tournament_payload

        payload = tournament_payload(self.tournament_id)
        return {self.stream: int(payload["version"])}, {"tournament": payload}

    async def log_event(self, message: dict[str, Any]) -> None:
        """Forward the event (and any gap before it), then the clock as of now."""
        before = self.sent.get(self.stream, 0)
        await super().log_event(message)
        if self.sent.get(self.stream, 0) > before:
            await self._send_clock()

    async def _send_clock(self) -> None:
        now = await database_sync_to_async(_clock_now)(self.tournament_id)
        if now is not None:
            version, clock = now
            await self.send_json(clock_message(self.tournament_id, version, clock))
