"""The WebSocket message format, version 1 (``"v": 1``). One shape per message ``type``:

* ``snapshot``: ``{"type", "v", "versions": {stream: version}, "state": {...}}`` sent on
  connect (and after a resume that is too far behind);
* ``event``: ``{"type", "v", "stream", "version", "position", "event_type",
  "schema_version", "data", "recorded_at"}``: one committed event, in stream order;
* ``error``: ``{"type", "v", "code", "detail"}`` before the server closes the socket.

A client keeps the last ``version`` it saw per stream and sends them when it reconnects
(``?resume=table-7:12,hand-<uuid>:5``) to get exactly what it missed. Documented for
clients in ``docs/realtime.md``.
"""

from typing import Any

from casino.eventstore import codec
from casino.eventstore.store import RecordedEvent

FORMAT_VERSION = 1


def event_message(recorded: RecordedEvent) -> dict[str, Any]:
    """The ``event`` message for a recorded event (JSON-ready)."""
    return {
        "type": "event",
        "v": FORMAT_VERSION,
        "stream": recorded.stream,
        "version": recorded.version,
        "position": recorded.position,
        "event_type": recorded.type,
        "schema_version": recorded.event.SCHEMA_VERSION,
        "data": codec.encode(recorded.event),
        "recorded_at": recorded.recorded_at.isoformat().replace("+00:00", "Z"),
    }


def snapshot_message(versions: dict[str, int], state: dict[str, Any]) -> dict[str, Any]:
    return {"type": "snapshot", "v": FORMAT_VERSION, "versions": versions, "state": state}


def error_message(code: str, detail: str) -> dict[str, Any]:
    return {"type": "error", "v": FORMAT_VERSION, "code": code, "detail": detail}
