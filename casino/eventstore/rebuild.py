"""Rebuilding the read models from the log, fast: in memory, then one bulk copy.

The projection handlers are ORM code written for the live path (one event, a few queries,
inside the append's transaction). Replaying a year of a busy room through them against
PostgreSQL costs four round trips per event. A rebuild therefore runs the *same handlers*
against an in-memory SQLite copy of the projection tables (a database router sends every
query on a projection model there while :func:`rebuild` runs), then replaces the tables'
contents in PostgreSQL with ``DELETE`` and ``COPY`` in the same transaction that holds the
log still (``LOCK ... IN EXCLUSIVE MODE``: appends wait, readers see the old rows until it
commits). On SQLite the copy is ``bulk_create`` in batches.

Only events some projection handles are read (``WHERE type IN (...)``): hand actions, board
cards and the like feed no read model and are skipped by the database.

Options (``manage.py rebuild_projections``):

- ``--since POSITION|ISO-TIME``: no clearing; apply only the events from that point on to the
  current read models (catching up tables restored from a backup taken at that point);
- ``--stream PATTERN``: only events of the streams matching the glob (``table-7``,
  ``waitlist-*``), also without clearing (repairing what one stream's events feed, after
  removing those rows by hand).

Both are repairs by an operator who knows what the read models already hold: applying an
event twice is not idempotent. A plain rebuild is always safe.
"""

from __future__ import annotations

import fnmatch
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, connections, models, transaction
from django.utils.dateparse import parse_datetime

from casino.eventstore import projections, store
from casino.eventstore import rows as rows_sql
from casino.numbers import whole_number

ALIAS = "projection_rebuild"


class RebuildRouter:
    """Sends the projection models' queries to the in-memory database during a rebuild
    (and nowhere else: outside :func:`rebuild` it has no opinion)."""

    def db_for_read(self, model: type[models.Model], **hints: Any) -> str | None:
        routed = rows_sql.rerouted.get()
        return ALIAS if routed is not None and model in routed[0] else None

    def db_for_write(self, model: type[models.Model], **hints: Any) -> str | None:
        return self.db_for_read(model)

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return False if db == ALIAS else None


@dataclass(frozen=True)
class Scope:
    """Which events to replay: all (``clear``), or from ``since`` / of ``stream`` streams."""

    since_position: int = 0
    since_time: datetime | None = None
    stream: str | None = None

    @property
    def clear(self) -> bool:
        return not (self.since_position or self.since_time or self.stream)

    @classmethod
    def parse(cls, since: str | None = None, stream: str | None = None) -> Scope:
        """``since`` is a log position (digits) or an ISO time (UTC when no offset).

        Raises:
            ValueError: ``since`` is neither.
        """
        if not since:
            return cls(stream=stream)
        if (position := whole_number(since)) is not None:
            return cls(since_position=position, stream=stream)
        at = parse_datetime(since)
        if at is None:
            raise ValueError(f"--since {since!r}: give a log position or an ISO time")
        if at.tzinfo is None:
            from datetime import UTC

            at = at.replace(tzinfo=UTC)
        return cls(since_time=at, stream=stream)


def _projection_models() -> list[type[models.Model]]:
    seen: list[type[models.Model]] = []
    for projection in projections.registry():
        seen += [m for m in projection.models if m not in seen]
    return seen


def _handled_types() -> list[str]:
    return sorted({t for p in projections.registry() for t in p.handlers})


@contextmanager
def _memory_database(routed: list[type[models.Model]]) -> Iterator[None]:
    """An in-memory SQLite database with the projection tables, routed to while open."""
    from django.db.backends.sqlite3.base import DatabaseWrapper

    # registered for this thread only, not in settings: a connection of its own
    memory = DatabaseWrapper(
        connections.configure_settings(
            {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}}
        )["default"],
        alias=ALIAS,
    )
    connections[ALIAS] = memory
    try:
        with memory.schema_editor() as editor:
            for model in routed:
                editor.create_model(model)
        with memory.cursor() as cur:
            cur.execute("PRAGMA foreign_keys = OFF")
        token = rows_sql.rerouted.set((frozenset(routed), memory))
        try:
            yield
        finally:
            rows_sql.rerouted.reset(token)
    finally:
        memory.close()
        del connections[ALIAS]


def _read_events(scope: Scope, batch_size: int) -> Iterator[list[store.RecordedEvent]]:
    """The handled events in ``scope`` in log order, ``batch_size`` at a time."""
    types = _handled_types()
    marks = ", ".join(["%s"] * len(types))
    sql = (
        "SELECT position, stream, version, type, schema_version, data, metadata, command_id, "
        f"recorded_at FROM eventstore_event WHERE type IN ({marks}) AND position > %s"
    )
    extra: list[Any] = []
    if scope.since_time is not None:
        sql += " AND recorded_at >= %s"
        extra.append(scope.since_time)
    sql += " ORDER BY position LIMIT %s"
    after = max(0, scope.since_position - 1)
    pattern = scope.stream
    while True:
        with connection.cursor() as cur:
            cur.execute(sql, [*types, after, *extra, batch_size])
            rows = cur.fetchall()
        if not rows:
            return
        after = rows[-1][0]
        if pattern:
            rows = [r for r in rows if fnmatch.fnmatchcase(r[1], pattern)]
        yield [store._recorded(store._row(values)) for values in rows]


def count_events(scope: Scope) -> int:
    """How many events :func:`rebuild` will replay (for the progress bar)."""
    types = _handled_types()
    qs = store.StoredEvent.objects.filter(type__in=types, position__gte=scope.since_position)
    if scope.since_time is not None:
        qs = qs.filter(recorded_at__gte=scope.since_time)
    if scope.stream and not any(c in scope.stream for c in "*?["):
        qs = qs.filter(stream=scope.stream)
    return qs.count()


def _copy_out(routed: list[type[models.Model]]) -> None:
    """Replace the projection tables' rows with the in-memory ones (DELETE, then COPY)."""
    memory = connections[ALIAS]
    with connection.cursor() as cur:
        for model in reversed(routed):  # FKs are deferred on PostgreSQL; children first anyway
            cur.execute(f"DELETE FROM {connection.ops.quote_name(model._meta.db_table)}")
    for model in routed:
        fields = list(model._meta.concrete_fields)
        columns = [str(f.column) for f in fields]
        with memory.cursor() as source:
            source.execute(
                f"SELECT {', '.join(memory.ops.quote_name(c) for c in columns)} "
                f"FROM {memory.ops.quote_name(model._meta.db_table)}"
            )
            rows = source.fetchall()
        if rows:
            convert = [(i, fn) for i, f in enumerate(fields)
                       if (fn := _converter(f, memory, connection)) is not None]  # fmt: skip
            _insert(model, columns, (_converted(row, convert) for row in rows))
    _reset_sequences(routed)


def _converted(row: tuple[Any, ...], convert: list[tuple[int, Callable[[Any], Any]]]) -> list[Any]:
    values = list(row)
    for i, fn in convert:
        values[i] = fn(values[i])
    return values


def _converter(field: Any, source: Any, target: Any) -> Callable[[Any], Any] | None:
    """A value as ``source`` returns it -> Python (the field's converters) -> as ``target``
    stores it; ``None`` when that is the value itself (integers and text)."""
    from django.db.models.expressions import Col

    col = Col(field.model._meta.db_table, field)
    converters = source.ops.get_db_converters(col) + field.get_db_converters(source)
    plain = (models.IntegerField, models.CharField, models.TextField)
    if not converters and isinstance(field, plain) and not isinstance(field, models.BooleanField):
        return None

    def convert(value: Any) -> Any:
        for fn in converters:
            value = fn(value, col, source)
        return field.get_db_prep_save(value, connection=target)

    return convert


def _insert(model: type[models.Model], columns: list[str], rows: Iterator[list[Any]]) -> None:
    table = connection.ops.quote_name(model._meta.db_table)
    if connection.vendor == "postgresql":
        names = ", ".join(connection.ops.quote_name(c) for c in columns)
        with connection.cursor() as cur:
            raw = cur.cursor  # psycopg 3: COPY with each value adapted by its type
            with raw.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        return
    marks = ", ".join(["%s"] * len(columns))
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    batch: list[list[Any]] = []
    with connection.cursor() as cur:
        for row in rows:
            batch.append(row)
            if len(batch) >= 1000:
                cur.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", batch)
                batch = []
        if batch:
            cur.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", batch)


def _reset_sequences(routed: list[type[models.Model]]) -> None:
    from django.core.management.color import no_style

    statements = connection.ops.sequence_reset_sql(no_style(), routed)
    if statements:
        with connection.cursor() as cur:
            for sql in statements:
                cur.execute(sql)


def _load_current(routed: list[type[models.Model]]) -> None:
    """Copy the current read models into memory (``--since``/``--stream``: no clearing)."""
    memory = connections[ALIAS]
    for model in routed:
        fields = list(model._meta.concrete_fields)
        names = ", ".join(connection.ops.quote_name(str(f.column)) for f in fields)
        with connection.cursor() as cur:
            cur.execute(f"SELECT {names} FROM {connection.ops.quote_name(model._meta.db_table)}")
            rows = cur.fetchall()
        if not rows:
            continue
        convert = [(i, fn) for i, f in enumerate(fields)
                   if (fn := _converter(f, connection, memory)) is not None]  # fmt: skip
        marks = ", ".join(["%s"] * len(fields))
        with memory.cursor() as cur:
            cur.executemany(
                f"INSERT INTO {memory.ops.quote_name(model._meta.db_table)} ({names}) "
                f"VALUES ({marks})",
                [_converted(row, convert) for row in rows],
            )


@contextmanager
def _collect_per_batch() -> Iterator[Callable[[], object]]:
    """The cyclic garbage collector off, but for a young-generation pass after each batch.

    A batch makes a few hundred thousand short-lived objects (rows, events, parameters);
    the automatic collector would walk them every 700 allocations, about a tenth of the
    rebuild's time. Cycles the handlers leave (the ORM's) are still freed batch by batch."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield lambda: gc.collect(1)
    finally:
        if enabled:
            gc.enable()


def rebuild(
    scope: Scope | None = None,
    *,
    batch_size: int = 5000,
    progress: Callable[[int], object] | None = None,
) -> int:
    """Rebuild every registered projection from the log; returns the events replayed.

    ``scope`` (default: everything, clearing the read models first) narrows the replay, see
    the module docstring. ``progress(n)`` is called after each batch of ``n`` events.
    """
    scope = scope or Scope()
    routed = _projection_models()
    count = 0
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cur:
                cur.execute("LOCK TABLE eventstore_event IN EXCLUSIVE MODE")
        with _memory_database(routed):
            if not scope.clear:
                _load_current(routed)
            with transaction.atomic(using=ALIAS), _collect_per_batch() as collect:
                for batch in _read_events(scope, batch_size):
                    projections.dispatch(batch)
                    count += len(batch)
                    collect()
                    if progress is not None:
                        progress(len(batch))
            _copy_out(routed)
    return count
