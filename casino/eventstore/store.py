"""The append-only event store (ARCHITECTURE.md, "The event store").

Every function here runs on the default database connection. ``append`` must be called
inside ``transaction.atomic()``: the events, the projections they update (guarantee 4) and the
command's idempotency record commit together or not at all.

Guarantees and where they live:

1. append-only: database triggers (migration ``0001``), not Python;
2. optimistic concurrency: ``append(expected_version=...)`` + ``UNIQUE(stream, version)``;
3. idempotency: ``UNIQUE(command_id)`` + :mod:`casino.eventstore.commands`;
4. projections in the same transaction: :func:`append` calls :mod:`.projections`;
5. rebuild: ``manage.py rebuild_projections``;
6. gapless tailing: :func:`read_all` (PostgreSQL: ``transaction_id`` below the oldest running
   transaction; SQLite: writers are serialised by ``BEGIN IMMEDIATE``);
7. upcasting: :func:`casino.eventstore.codec.decode` on every read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import IntegrityError, connection
from django.utils.dateparse import parse_datetime

from casino import clock, logs
from casino.domain_events import DomainEvent
from casino.eventstore import codec, context, projections
from casino.eventstore.models import StoredEvent


class EventStoreError(Exception):
    """Base class of event store errors."""


class ConcurrencyConflict(EventStoreError):
    """Another writer appended to ``stream`` first (guarantee 2).

    Attributes: ``stream``, ``expected_version``, ``actual_version``.
    """

    def __init__(self, stream: str, expected_version: int, actual_version: int | None) -> None:
        super().__init__(
            f"stream {stream!r}: expected version {expected_version}, found {actual_version}"
        )
        self.stream = stream
        self.expected_version = expected_version
        self.actual_version = actual_version


class StaleVersion(ConcurrencyConflict):
    """The client's ``If-Match`` names an older version of ``stream``: answered 409 at once
    (running the command again cannot help, unlike a race between two writers)."""


class DuplicateCommand(EventStoreError):
    """A command with this ``command_id`` has already appended its events (guarantee 3)."""

    def __init__(self, command_id: str) -> None:
        super().__init__(f"command {command_id!r} was already recorded")
        self.command_id = command_id


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as read from the log: the decoded domain event plus its envelope."""

    position: int
    stream: str
    version: int
    type: str
    event: DomainEvent
    metadata: dict[str, Any]
    recorded_at: datetime
    transaction_id: int = 0

    @property
    def cursor(self) -> tuple[int, int]:
        """Where a tailing reader resumes after this event: ``(transaction_id, position)``."""
        return (self.transaction_id, self.position)


def _recorded(row: StoredEvent, transaction_id: int = 0) -> RecordedEvent:
    return RecordedEvent(
        position=row.position,
        stream=row.stream,
        version=row.version,
        type=row.type,
        event=codec.decode(row.type, row.schema_version, row.data),
        metadata=row.metadata,
        recorded_at=row.recorded_at,
        transaction_id=transaction_id,
    )


# The hot paths below use plain SQL on the (stream, version) index: the ORM's query
# building cost more than the queries themselves (see tests/bench/).
_VERSION_SQL = "SELECT MAX(version) FROM eventstore_event WHERE stream = %s"
_STREAM_SQL = (
    "SELECT position, stream, version, type, schema_version, data, metadata, command_id, "
    "recorded_at FROM eventstore_event WHERE stream = %s AND version > %s ORDER BY version"
)


def stream_version(stream: str) -> int:
    """Current version of ``stream`` (0 when it has no events)."""
    with connection.cursor() as cur:
        cur.execute(_VERSION_SQL, [stream])
        row = cur.fetchone()
    return int(row[0] or 0) if row else 0


def lock_stream(stream: str) -> None:
    """Hold ``stream``'s lock until the current transaction ends (PostgreSQL: a
    transaction-level advisory lock; SQLite serialises writers already).

    Commands that write several streams take the lock of the stream that orders them (a
    tournament's, before its tables') first, so two such commands never wait on each other
    in opposite orders (a deadlock).
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [stream])


appended_listeners: list[Callable[[list[RecordedEvent]], None]] = []
"""Called with the events of each append, inside its transaction (registered at start-up:
:mod:`casino.metrics` counts them after commit). The store imports none of them."""


def append(
    stream: str,
    events: Sequence[DomainEvent],
    *,
    expected_version: int,
) -> list[RecordedEvent]:
    """Append ``events`` to ``stream`` at ``expected_version + 1 ...`` and run projections.

    Metadata (actor, device, request, correlation) and the command id come from the active
    :func:`casino.eventstore.context.command_context`. Must run inside an atomic block.

    Raises:
        ConcurrencyConflict: the stream is not at ``expected_version`` (someone else wrote).
        DuplicateCommand: the command id was already used by an earlier append.
    """
    if not events:
        return []
    if not connection.in_atomic_block:
        raise RuntimeError("eventstore.append must run inside transaction.atomic()")
    actual = stream_version(stream)
    if actual != expected_version:
        raise ConcurrencyConflict(stream, expected_version, actual)
    ctx = context.current()
    logs.bind(stream=stream)
    metadata = ctx.metadata()
    command_id = ctx.take_command_id()
    now = clock.now()
    rows = [
        StoredEvent(
            stream=stream,
            version=expected_version + i,
            type=event.TYPE,
            schema_version=event.SCHEMA_VERSION,
            data=codec.encode(event),
            metadata=metadata,
            command_id=command_id if i == 1 else None,
            recorded_at=now,
        )
        for i, event in enumerate(events, start=1)
    ]
    try:
        # No savepoint: a conflict ends the whole command's transaction, which
        # casino.eventstore.commands.run_command retries against fresh state.
        StoredEvent.objects.bulk_create(rows)
    except IntegrityError as exc:
        if command_id and "command_id" in str(exc):
            raise DuplicateCommand(command_id) from exc
        raise ConcurrencyConflict(stream, expected_version, None) from exc
    recorded = [
        RecordedEvent(
            position=row.position,
            stream=stream,
            version=row.version,
            type=row.type,
            event=event,
            metadata=metadata,
            recorded_at=now,
        )
        for row, event in zip(rows, events, strict=True)
    ]
    projections.dispatch(recorded)
    for listener in appended_listeners:  # e.g. casino.metrics, counting after commit
        listener(recorded)
    return recorded


def read_stream(stream: str, *, after_version: int = 0) -> list[RecordedEvent]:
    """Events of ``stream`` with a version above ``after_version``, in version order."""
    with connection.cursor() as cur:
        cur.execute(_STREAM_SQL, [stream, after_version])
        return [_recorded(_row(values)) for values in cur.fetchall()]


def _row(values: Sequence[Any]) -> StoredEvent:
    """A ``StoredEvent`` from a raw row (JSON as text on SQLite and psycopg, as Django
    leaves it; times as text on SQLite)."""
    pos, stream, version, type_, schema_version, data, metadata, cmd, at = values[:9]
    if not isinstance(at, datetime):
        at = parse_datetime(at)
        if at is not None and at.tzinfo is None:
            at = at.replace(tzinfo=UTC)
    return StoredEvent(
        position=pos,
        stream=stream,
        version=version,
        type=type_,
        schema_version=schema_version,
        data=json.loads(data) if isinstance(data, str | bytes) else data,
        metadata=json.loads(metadata) if isinstance(metadata, str | bytes) else metadata,
        command_id=cmd,
        recorded_at=at,
    )


def read_log(*, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
    """Events of the whole log in ``position`` order, for a reader that holds the log still
    (a rebuild under lock). A live reader uses :func:`read_all` instead."""
    rows = StoredEvent.objects.filter(position__gt=after_position).order_by("position")[:limit]
    return [_recorded(row) for row in rows]


TAIL_START: tuple[int, int] = (0, 0)

_PG_TAIL_SQL = """
    SELECT position, stream, version, type, schema_version, data, metadata, command_id,
           recorded_at, transaction_id::text::bigint
      FROM eventstore_event
     WHERE (transaction_id, position) > (%s::text::xid8, %s)
       AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
     ORDER BY transaction_id, position
     LIMIT %s
"""


def read_all(after: tuple[int, int] = TAIL_START, *, limit: int = 1000) -> list[RecordedEvent]:
    """The next committed events of the whole log after cursor ``after`` (guarantee 6).

    A cursor is ``RecordedEvent.cursor`` of the last event a reader handled; start with
    :data:`TAIL_START`. The order is fixed once returned, and an event whose transaction is
    still running (even one holding a lower ``position``) is held back until every earlier
    transaction has ended, so a reader that resumes from its cursor never skips an event.

    On PostgreSQL the order is ``(transaction_id, position)`` and only transactions older
    than the oldest running one are read; on SQLite writers are serialised, so the order is
    ``position`` and the transaction part of the cursor is always 0.
    """
    if connection.vendor != "postgresql":
        rows = StoredEvent.objects.filter(position__gt=after[1]).order_by("position")[:limit]
        return [_recorded(row) for row in rows]
    with connection.cursor() as cur:
        cur.execute(_PG_TAIL_SQL, [str(after[0]), after[1], limit])
        fetched = cur.fetchall()
    return [_recorded(_row(values), transaction_id=values[9]) for values in fetched]


def tail_cursor() -> tuple[int, int]:
    """The cursor just after the last event a tailing reader may see now."""
    if connection.vendor != "postgresql":
        last = StoredEvent.objects.order_by("-position").values_list("position", flat=True).first()
        return (0, last or 0)
    with connection.cursor() as cur:
        cur.execute(
            "SELECT transaction_id::text::bigint, position FROM eventstore_event "
            "WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot()) "
            "ORDER BY transaction_id DESC, position DESC LIMIT 1"
        )
        row = cur.fetchone()
    return (int(row[0]), int(row[1])) if row else TAIL_START
