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
6. gapless tailing: :func:`read_all` (PostgreSQL: ``transaction_id`` below the oldest
   transaction of this database that holds an id, :func:`pg_horizon`; SQLite: writers are
   serialised by ``BEGIN IMMEDIATE``);
7. upcasting: :func:`casino.eventstore.codec.decode` on every read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.utils.dateparse import parse_datetime

from casino import clock, logs
from casino.domain_events import DomainEvent
from casino.eventstore import codec, context, projections
from casino.eventstore import rows as rows_sql
from casino.eventstore.models import StoredEvent
from casino.eventstore.upcasting import upcast
from casino.numbers import whole_number


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


def _recorded(row: StoredEvent | RawEvent, transaction_id: int = 0) -> RecordedEvent:
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
_EVENT_COLUMNS = (
    "position, stream, version, type, schema_version, data, metadata, command_id, recorded_at"
)
_STREAM_FROM = "FROM eventstore_event WHERE stream = %s AND version > %s ORDER BY version"
_STREAM_SQL = f"SELECT {_EVENT_COLUMNS} {_STREAM_FROM}"
_STREAM_ENTRIES_SQL = f"SELECT {_EVENT_COLUMNS}, transaction_id::text::bigint {_STREAM_FROM}"
"""The stream's events with each one's transaction id (PostgreSQL), for its cursor."""


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
    if connection.vendor != "postgresql":
        # PostgreSQL needs no read first: UNIQUE(stream, version) refuses a stale version
        # and a trigger refuses a gap (migration 0004), in the INSERT's own round trip.
        actual = stream_version(stream)
        if actual != expected_version:
            raise ConcurrencyConflict(stream, expected_version, actual)
    ctx = context.current()
    logs.bind(stream=stream)
    metadata = ctx.metadata()
    command_id = ctx.take_command_id()
    now = clock.now()
    rows = [
        {
            "stream": stream,
            "version": expected_version + i,
            "type": event.TYPE,
            "schema_version": event.SCHEMA_VERSION,
            "data": codec.encode(event),
            "metadata": metadata,
            "command_id": command_id if i == 1 else None,
            "recorded_at": now,
        }
        for i, event in enumerate(events, start=1)
    ]
    try:
        # No savepoint: a conflict ends the whole command's transaction, which
        # casino.eventstore.commands.run_command retries against fresh state. One plain
        # INSERT ... RETURNING (the ORM's bulk_create costs more than the statement).
        positions = rows_sql.insert_returning(StoredEvent, rows, "position")
    except IntegrityError as exc:
        if command_id and "command_id" in str(exc):
            raise DuplicateCommand(command_id) from exc
        raise ConcurrencyConflict(stream, expected_version, None) from exc
    recorded = [
        RecordedEvent(
            position=position,
            stream=stream,
            version=expected_version + i,
            type=event.TYPE,
            event=event,
            metadata=metadata,
            recorded_at=now,
        )
        for i, (position, event) in enumerate(zip(positions, events, strict=True), start=1)
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


class RawEvent(NamedTuple):
    """A stored row as plain SQL reads it: ``StoredEvent``'s fields without a model
    instance (building one costs more than decoding the event)."""

    position: int
    stream: str
    version: int
    type: str
    schema_version: int
    data: dict[str, Any]
    metadata: dict[str, Any]
    command_id: Any
    recorded_at: datetime


def _row(values: Sequence[Any]) -> RawEvent:
    """A :class:`RawEvent` from a raw row (JSON as text on SQLite and psycopg, as Django
    leaves it; times as text, or as naive UTC datetimes when the SQLite driver parses the
    column's declared type: always aware UTC here, as the ORM gives them)."""
    pos, stream, version, type_, schema_version, data, metadata, cmd, at = values[:9]
    if not isinstance(at, datetime):
        at = parse_datetime(at)
    if at is not None and at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return RawEvent(
        pos,
        stream,
        version,
        type_,
        schema_version,
        json.loads(data) if isinstance(data, str | bytes) else data,
        json.loads(metadata) if isinstance(metadata, str | bytes) else metadata,
        cmd,
        at,
    )


def read_log(*, after_position: int = 0, limit: int = 1000) -> list[RecordedEvent]:
    """Events of the whole log in ``position`` order, for a reader that holds the log still
    (a rebuild under lock). A live reader uses :func:`read_all` instead."""
    rows = StoredEvent.objects.filter(position__gt=after_position).order_by("position")[:limit]
    return [_recorded(row) for row in rows]


TAIL_START: tuple[int, int] = (0, 0)

# The cast column is named ``txid``, and ORDER BY names the table's columns: an output
# column named ``transaction_id`` (the cast) would take precedence in ORDER BY, and sorting
# by the cast cannot use eventstore_event_tail_idx: every row after the cursor would be read
# and sorted, and tail_cursor() would scan the whole log (tests/casino/test_eventstore.py).
_PG_TAIL_SQL = """
    SELECT e.position, e.stream, e.version, e.type, e.schema_version, e.data, e.metadata,
           e.command_id, e.recorded_at, e.transaction_id::text::bigint AS txid
      FROM eventstore_event e
     WHERE (e.transaction_id, e.position) > (%s::text::xid8, %s)
       AND e.transaction_id < %s::text::xid8
     ORDER BY e.transaction_id, e.position
     LIMIT %s
"""

_PG_HORIZON_SQL = """
    SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint,
           array(SELECT backend_xid::text::bigint FROM pg_stat_activity
                  WHERE datname = current_database() AND backend_xid IS NOT NULL
                    AND backend_type = 'client backend')
"""


def _widen(xid: int, reference: int) -> int:
    """A 32-bit ``xid`` as the 64-bit ``xid8`` nearest ``reference`` (an id is never more
    than 2^31 from the current one, so the epoch follows from the difference)."""
    difference = (xid - reference) % (1 << 32)
    if difference >= 1 << 31:
        difference -= 1 << 32
    return reference + difference


def pg_horizon() -> int:
    """PostgreSQL: the ``xid8`` below which every transaction of THIS database that could
    append to the log has ended, so the events below it are final (guarantee 6).

    It is the least of the snapshot's ``xmax`` (every transaction id assigned later is
    larger) and the ids of the client transactions of this database that hold one now (a
    transaction gets an id at its first write). Read-only transactions, autovacuum's
    ANALYZE, and transactions of other databases on the same server hold nothing back:
    unlike the snapshot's ``xmin``, which covers the whole server. The caller reads the log
    in a LATER statement: a transaction that ended between this statement's snapshot and
    its ``pg_stat_activity`` read is committed (or gone) by then, so its events are read,
    not skipped.
    """
    with connection.cursor() as cur:
        cur.execute(_PG_HORIZON_SQL)
        row = cur.fetchone()
    assert row is not None
    xmax, running = int(row[0]), row[1] or []
    return min([xmax, *(_widen(int(xid), xmax) for xid in running)])


def read_all(after: tuple[int, int] = TAIL_START, *, limit: int = 1000) -> list[RecordedEvent]:
    """The next committed events of the whole log after cursor ``after`` (guarantee 6).

    A cursor is ``RecordedEvent.cursor`` of the last event a reader handled; start with
    :data:`TAIL_START`. The order is fixed once returned, and an event whose transaction is
    still running (even one holding a lower ``position``) is held back until every earlier
    transaction has ended, so a reader that resumes from its cursor never skips an event.

    On PostgreSQL the order is ``(transaction_id, position)`` and only transactions below
    :func:`pg_horizon` are read; on SQLite writers are serialised, so the order is
    ``position`` and the transaction part of the cursor is always 0.
    """
    if connection.vendor != "postgresql":
        rows = StoredEvent.objects.filter(position__gt=after[1]).order_by("position")[:limit]
        return [_recorded(row) for row in rows]
    with connection.cursor() as cur:
        horizon = pg_horizon()
        cur.execute(_PG_TAIL_SQL, [str(after[0]), after[1], str(horizon), limit])
        fetched = cur.fetchall()
    return [_recorded(_row(values), transaction_id=values[9]) for values in fetched]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """An event as a tailing reader forwards it: the upcast JSON payload, not decoded into
    its dataclass (the relay and the feeds' resume need only the JSON)."""

    position: int
    stream: str
    version: int
    type: str
    schema_version: int
    data: dict[str, Any]
    recorded_at: datetime
    transaction_id: int = 0

    @property
    def cursor(self) -> tuple[int, int]:
        """Where a tailing reader resumes after this entry: ``(transaction_id, position)``."""
        return (self.transaction_id, self.position)


def _entry(row: StoredEvent | RawEvent, transaction_id: int) -> LogEntry:
    cls = codec.event_class(row.type)
    return LogEntry(
        position=row.position,
        stream=row.stream,
        version=row.version,
        type=row.type,
        schema_version=cls.SCHEMA_VERSION,
        data=upcast(row.type, row.schema_version, cls.SCHEMA_VERSION, row.data),
        recorded_at=row.recorded_at,
        transaction_id=transaction_id,
    )


def read_entries(after: tuple[int, int] = TAIL_START, *, limit: int = 1000) -> list[LogEntry]:
    """Like :func:`read_all` (same order, same guarantee 6), as :class:`LogEntry` rows."""
    if connection.vendor != "postgresql":
        rows = StoredEvent.objects.filter(position__gt=after[1]).order_by("position")[:limit]
        return [_entry(row, 0) for row in rows]
    with connection.cursor() as cur:
        horizon = pg_horizon()
        cur.execute(_PG_TAIL_SQL, [str(after[0]), after[1], str(horizon), limit])
        fetched = cur.fetchall()
    return [_entry(_row(values), values[9]) for values in fetched]


def read_stream_entries(stream: str, *, after_version: int = 0) -> list[LogEntry]:
    """Like :func:`read_stream`, as :class:`LogEntry` rows with their cursors (the live
    feeds' gap fill: a client in message format v2 resumes from an event's cursor)."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute(_STREAM_ENTRIES_SQL, [stream, after_version])
            return [_entry(_row(values), values[9]) for values in cur.fetchall()]
        cur.execute(_STREAM_SQL, [stream, after_version])
        return [_entry(_row(values), 0) for values in cur.fetchall()]


@dataclass(frozen=True, slots=True)
class ReadPoint:
    """The moment one consistent read (:func:`consistent_read`) saw the log at: which events
    had committed by then, so that what the read returned already reflects them.

    PostgreSQL: the transaction's snapshot (``xmin``, ``xmax`` and the ids running at the
    time, ``running``), compared with an event's transaction id; SQLite (writers are
    serialised, positions are given in commit order): the last ``position`` then.
    """

    postgres: bool
    xmin: int = 0
    xmax: int = 0
    running: frozenset[int] = frozenset()
    position: int = 0

    def covers(self, cursor: tuple[int, int]) -> bool:
        """Whether the event at ``cursor`` (``(transaction_id, position)``, as
        :attr:`LogEntry.cursor`) had committed when the read was made."""
        txid, position = cursor
        if not self.postgres:
            return position <= self.position
        return txid < self.xmin or (txid < self.xmax and txid not in self.running)


_PG_READ_POINT_SQL = """
    SELECT pg_snapshot_xmin(s)::text::bigint, pg_snapshot_xmax(s)::text::bigint,
           array(SELECT x::text::bigint FROM pg_snapshot_xip(s) x)
      FROM pg_current_snapshot() s
"""


@contextmanager
def consistent_read() -> Iterator[ReadPoint]:
    """A read-only transaction in which every query sees the database at one moment, and
    that moment as a :class:`ReadPoint` (a live feed's snapshot: its read models and stream
    versions agree with each other, and the feed can tell which pushed events the snapshot
    already holds).

    PostgreSQL: ``REPEATABLE READ, READ ONLY`` (a write in it raises
    ``django.db.InternalError``). Inside an enclosing transaction the isolation cannot be
    changed: the point is then that of the first query, and later queries of a ``READ
    COMMITTED`` transaction may see more. SQLite: one read transaction (WAL).
    """
    with transaction.atomic():
        with connection.cursor() as cur:
            if connection.vendor == "postgresql":
                if not _in_outer_transaction():
                    cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                cur.execute(_PG_READ_POINT_SQL)
                xmin, xmax, running = cur.fetchone()
                point = ReadPoint(True, int(xmin), int(xmax), frozenset(map(int, running or [])))
            else:
                cur.execute("SELECT COALESCE(MAX(position), 0) FROM eventstore_event")
                point = ReadPoint(False, position=int(cur.fetchone()[0]))
        yield point


def _in_outer_transaction() -> bool:
    """Whether the current atomic block is nested in another (a savepoint in a transaction
    already begun, whose isolation can no longer be set)."""
    return len(connection.atomic_blocks) > 1


def format_cursor(cursor: tuple[int, int]) -> str:
    """A tail cursor as the opaque resume token of the feeds (``"<txid>.<position>"``)."""
    return f"{cursor[0]}.{cursor[1]}"


def parse_cursor(token: str) -> tuple[int, int] | None:
    """The cursor of a resume token, or ``None`` when it is not one."""
    txid, dot, position = token.partition(".")
    transaction_id, log_position = whole_number(txid), whole_number(position)
    if not dot or transaction_id is None or log_position is None:
        return None
    return (transaction_id, log_position)


def command_in_log(command_id: str) -> bool:
    """Whether an event of command ``command_id`` is in the log (its unique index)."""
    return StoredEvent.objects.filter(command_id=command_id).exists()


def event_cursor(stream: str, version: int) -> tuple[int, int] | None:
    """The tail cursor of one stored event (``None``: no such event)."""
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute(
                "SELECT transaction_id::text::bigint, position FROM eventstore_event "
                "WHERE stream = %s AND version = %s",
                [stream, version],
            )
        else:
            cur.execute(
                "SELECT 0, position FROM eventstore_event WHERE stream = %s AND version = %s",
                [stream, version],
            )
        row = cur.fetchone()
    return (int(row[0]), int(row[1])) if row else None


def tail_cursor() -> tuple[int, int]:
    """The cursor just after the last event a tailing reader may see now."""
    if connection.vendor != "postgresql":
        last = StoredEvent.objects.order_by("-position").values_list("position", flat=True).first()
        return (0, last or 0)
    horizon = pg_horizon()
    with connection.cursor() as cur:
        cur.execute(
            "SELECT e.transaction_id::text::bigint AS txid, e.position FROM eventstore_event e "
            "WHERE e.transaction_id < %s::text::xid8 "
            "ORDER BY e.transaction_id DESC, e.position DESC LIMIT 1",
            [str(horizon)],
        )
        row = cur.fetchone()
    return (int(row[0]), int(row[1])) if row else TAIL_START
