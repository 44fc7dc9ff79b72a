"""The WebSocket message formats, version 1 (``"v": 1``) and 2. One shape per message ``type``:

* ``snapshot``: ``{"type", "v", "versions": {stream: version}, "state": {...}}`` sent on
  connect, and again whenever the feed starts afresh (a resume or a lost push too far
  behind, or a socket that has followed ``SENT_STREAMS_MAX`` streams): the client replaces
  what it holds;
* ``event``: ``{"type", "v", "stream", "version", "position", "event_type",
  "schema_version", "data", "recorded_at"}``: one committed event, in stream order;
* ``error``: ``{"type", "v", "code", "detail"}`` before the server closes the socket.

A client keeps the last ``version`` it saw per stream and sends them when it reconnects
(``?resume=table-7:12,hand-<uuid>:5``) to get exactly what it missed. Documented for
clients in ``docs/realtime.md``.

Version 2 (a client connects with ``?v=2``) adds a resume token: every ``event`` and
``snapshot`` carries ``"cursor"`` (an opaque string, the log's tail cursor), and a client
that reconnects with ``?v=2&cursor=<last cursor seen>`` receives every event of its feed
committed since, hand streams it never heard of included. A snapshot other than the one
a plain connect gets carries ``"reason"`` (``docs/realtime.md`` lists them).
"""

from types import SimpleNamespace
from typing import Any

from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.functional import Promise

from casino.eventstore import codec
from casino.eventstore.store import LogEntry, RecordedEvent, format_cursor

FORMAT_VERSION = 1
FORMAT_V2 = 2


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


def entry_message(entry: LogEntry) -> dict[str, Any]:
    """The ``event`` message (v1 shape plus ``cursor``) for a log entry read by a tail
    reader; :func:`for_client` strips ``cursor`` for a v1 client."""
    return {
        "type": "event",
        "v": FORMAT_VERSION,
        "stream": entry.stream,
        "version": entry.version,
        "position": entry.position,
        "event_type": entry.type,
        "schema_version": entry.schema_version,
        "data": entry.data,
        "recorded_at": entry.recorded_at.isoformat().replace("+00:00", "Z"),
        "cursor": format_cursor(entry.cursor),
    }


def for_client(event: dict[str, Any], version: int) -> dict[str, Any]:
    """An ``event`` message in the client's format version (v1: no ``cursor``)."""
    if version >= FORMAT_V2:
        return {**event, "v": FORMAT_V2}
    if "cursor" not in event:
        return event
    return {key: value for key, value in event.items() if key != "cursor"}


def snapshot_message(
    versions: dict[str, int],
    state: dict[str, Any],
    *,
    format_version: int = FORMAT_VERSION,
    cursor: str | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """The ``snapshot`` message; v2 adds the resume ``cursor``. ``reason`` (any version) says
    why a feed starts afresh: a resume it could not honour, a push lost too far behind, or
    the limit of streams a socket remembers."""
    message: dict[str, Any] = {
        "type": "snapshot",
        "v": format_version,
        "versions": versions,
        "state": state,
    }
    if format_version >= FORMAT_V2:
        message["cursor"] = cursor
    if reason is not None:
        message["reason"] = reason
    return message


def error_message(
    code: str, detail: str | Promise, scope: dict[str, Any] | None = None
) -> dict[str, Any]:
    """An ``error`` message. A lazy ``detail`` (``gettext_lazy``) is said in the language
    the socket's page is in (:func:`scope_language`), as the REST refusals are."""
    if isinstance(detail, Promise):
        with translation.override(scope_language(scope or {})):
            detail = str(detail)
    return {"type": "error", "v": FORMAT_VERSION, "code": code, "detail": detail}


def scope_language(scope: dict[str, Any]) -> str:
    """The language of a WebSocket handshake, chosen as Django's ``LocaleMiddleware``
    chooses it for a request: the language cookie the consoles set, then
    ``Accept-Language``, then ``LANGUAGE_CODE``."""
    headers = {name.lower(): value for name, value in scope.get("headers") or ()}
    request = SimpleNamespace(
        COOKIES=parse_cookie(headers.get(b"cookie", b"").decode("latin-1")),
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(request)  # type: ignore[arg-type]
