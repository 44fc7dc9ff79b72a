"""Running a command: one transaction, optimistic retries, idempotent results.

``run_command`` is what API views, tasks and management commands call around a service::

    outcome = run_command(lambda: serialize(seat_player(...)), command_id=key,
                          fingerprint=request_fingerprint, ctx=CommandContext(...))

* The body runs in ``transaction.atomic()``. When another writer appended to the same
  stream first (:class:`ConcurrencyConflict`), the whole body runs again on fresh state,
  up to ``max_attempts`` times (guarantee 2), then the conflict is raised (HTTP 409). A
  writer that lost a race holds the stream's lock from then on, and may lose again only to
  a writer on its first try (who takes no lock): each such loss is another writer's
  progress, so the locked writer gets ``LOCKED_ATTEMPTS_FACTOR`` times as many tries.
* With a ``command_id`` the first successful result is stored in the same transaction
  (guarantee 3); a retry with the same id returns it: the database refuses its second write
  (``UNIQUE(command_id)`` of the first event, the record's primary key), or its refusal is
  found to be a command that already ran. The same id with a different request (another
  ``fingerprint``) is refused with :class:`IdempotencyKeyReused`.
* A body that raises (a refused command) commits nothing and stores nothing: a retry of
  a refused command is decided again.
* The stored results are kept ``IDEMPOTENCY_RETENTION_HOURS`` (a device retries within
  seconds or minutes), then :func:`purge_command_records` (hourly, from beat) deletes them:
  the table would otherwise grow by every write of every evening. A retry of a command
  whose result was purged, and whose events are in the log, is refused with
  :class:`IdempotencyKeyExpired` rather than run twice.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import IntegrityError, OperationalError, connection, transaction

from casino import clock
from casino.eventstore import aggregates, context, rows, store
from casino.eventstore.models import CommandRecord
from casino.eventstore.store import ConcurrencyConflict, DuplicateCommand, StaleVersion


class IdempotencyKeyReused(Exception):
    """The command id was first used for a different request."""

    def __init__(self, command_id: str) -> None:
        super().__init__(f"Idempotency-Key {command_id!r} was used for a different request")
        self.command_id = command_id


class IdempotencyKeyExpired(Exception):
    """The command ran (its events are in the log) but its stored result was purged after
    ``IDEMPOTENCY_RETENTION_HOURS``: it is neither run again nor answered."""

    def __init__(self, command_id: str) -> None:
        super().__init__(
            f"Idempotency-Key {command_id!r} was used by a command that already ran; "
            "its result is no longer kept"
        )
        self.command_id = command_id


@dataclass(frozen=True, slots=True)
class CommandOutcome:
    """A command's JSON-ready result, its HTTP status, and whether it was a replay."""

    result: Any
    status_code: int
    replayed: bool = False


def fingerprint(*parts: Any) -> str:
    """Stable hash of a request's identifying parts (method, path, body)."""
    blob = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


_STORED_SQL = (
    "SELECT fingerprint, status_code, response FROM eventstore_command WHERE command_id = %s"
)


def _stored(command_id: str, request_fingerprint: str) -> CommandOutcome | None:
    with connection.cursor() as cur:  # plain SQL
        cur.execute(_STORED_SQL, [command_id])
        row = cur.fetchone()
    if row is None:
        return None
    stored_fingerprint, status_code, response = row
    if stored_fingerprint != request_fingerprint:
        raise IdempotencyKeyReused(command_id)
    if isinstance(response, str | bytes):
        response = json.loads(response)
    return CommandOutcome(response, status_code, replayed=True)


RETRYABLE = {"40P01", "40001"}
"""SQLSTATEs after which a command is simply run again: deadlock, serialization failure."""

LOCKED_ATTEMPTS_FACTOR = 4
"""A writer holding the stream's lock after a lost race gets this many times
``max_attempts`` tries (see the module docstring)."""


def run_command(
    body: Callable[[], Any],
    *,
    ctx: context.CommandContext | None = None,
    command_id: str | None = None,
    fingerprint: str = "",
    status_code: int = 200,
    max_attempts: int = 8,
) -> CommandOutcome:
    """Run ``body`` (load, decide, append, serialize) atomically and idempotently.

    Returns the body's JSON-ready result (or the first result for a repeated command id).

    The steady state costs three round trips: the events' INSERT, the command record's
    INSERT and the COMMIT. A repeated command id is found by the database, not by a query
    first: its first event's ``UNIQUE(command_id)`` or the command record's primary key
    refuses the second write, and a refusal is checked against the stored record before it
    is answered. A writer that loses a race on a stream runs again after a short random
    pause, holding the stream's lock, so writers on one busy stream queue instead of failing.

    Raises:
        ConcurrencyConflict: still conflicting after ``max_attempts``.
        IdempotencyKeyReused: ``command_id`` belongs to another request.
        Whatever ``body`` raises: nothing is committed.
    """
    base = ctx or context.CommandContext()
    base = replace(base, command_id=command_id or base.command_id)
    key = base.command_id
    queue_on: set[str] = set()  # streams this command lost a race on: lock them first
    attempt = 0
    while True:
        attempt += 1
        # under 16 writers on one stream, 1-2 % still answered 409 after 8 tries: first
        # tries kept overtaking the queued writer (the load of a full CI run)
        last = attempt >= max_attempts * (LOCKED_ATTEMPTS_FACTOR if queue_on else 1)
        tracking = aggregates.track_trusted_loads()
        try:
            with transaction.atomic():
                for stream in sorted(queue_on):
                    store.lock_stream(stream)
                with context.command_context(replace(base, command_id_used=False)):
                    result = body()
                if key:
                    _record(key, fingerprint, status_code, result)
            return CommandOutcome(result, status_code)
        except ConcurrencyConflict as conflict:
            # Someone else wrote: decide again on fresh state (never on a cached one that
            # the conflict just proved stale). A stale If-Match is the client's: no retry,
            # unless it was judged against a cached state.
            aggregates.cache.evict(conflict.stream)
            stale_client = isinstance(conflict, StaleVersion) and (
                conflict.stream not in aggregates.trusted_streams()
            )
            if stale_client or last:
                return _first_result(key, fingerprint) or _reraise(conflict)
            if not isinstance(conflict, StaleVersion):
                queue_on.add(conflict.stream)
                time.sleep(random.uniform(0, 0.002 * attempt))
        except OperationalError as error:
            # PostgreSQL broke a deadlock or a serialization failure by rolling this
            # transaction back: nothing was written, run the command again.
            if getattr(getattr(error, "__cause__", None), "sqlstate", None) not in RETRYABLE:
                raise
            if last:
                raise
        except (DuplicateCommand, IntegrityError):
            # This command id was written before (a retry, perhaps a concurrent one):
            # answer with the first result.
            if (earlier := _first_result(key, fingerprint)) is not None:
                return earlier
            if key and store.command_in_log(key):
                raise IdempotencyKeyExpired(key) from None
            raise
        except Exception as refused:
            # A refusal decided on a cached state is decided again on fresh state; the
            # refusal of a command that already ran is answered with its first result.
            trusted = aggregates.trusted_streams()
            if trusted and not last:
                for stream in trusted:
                    aggregates.cache.evict(stream)
                continue
            return _first_result(key, fingerprint) or _reraise(refused)
        finally:
            aggregates.stop_tracking(tracking)


def _reraise(error: Exception) -> CommandOutcome:
    raise error


def _first_result(key: str | None, request_fingerprint: str) -> CommandOutcome | None:
    """The stored first result of command ``key``, if it ran (a query, on the rare paths
    only).

    Raises:
        IdempotencyKeyReused: ``key`` was first used for another request.
    """
    if not key:
        return None
    with transaction.atomic():
        return _stored(key, request_fingerprint)


_RECORD_SQL = (
    "INSERT INTO eventstore_command (command_id, fingerprint, status_code, response, "
    "recorded_at) VALUES (%s, %s, %s, %s::jsonb, %s)"
)


def _record(key: str, request_fingerprint: str, status_code: int, result: Any) -> None:
    """Store the command's first result in its transaction.

    PostgreSQL, outermost transaction: the INSERT and the COMMIT go in one round trip
    (:func:`casino.eventstore.rows.execute_then_commit`), so Django's commit that follows
    finds nothing left to do. A failed INSERT stops the COMMIT with it and the transaction
    is rolled back as usual.
    """
    if connection.vendor != "postgresql":
        CommandRecord.objects.create(
            command_id=key,
            fingerprint=request_fingerprint,
            status_code=status_code,
            response=result,
            recorded_at=clock.now(),
        )
        return
    params: list[Any] = [
        key,
        request_fingerprint,
        status_code,
        json.dumps(result, separators=(",", ":"), default=str),
        clock.now(),
    ]
    if connection.savepoint_ids:  # inside another atomic block: its owner commits
        with connection.cursor() as cur:
            cur.execute(_RECORD_SQL, params)
        return
    rows.execute_then_commit(connection, [(_RECORD_SQL, params)])


def purge_command_records(*, before: datetime, batch_size: int = 5000) -> int:
    """Delete the stored results of commands recorded before ``before`` (aware UTC), in
    batches of ``batch_size`` rows, each its own transaction; returns how many went. The
    log keeps every command's events and id: only the answer to a late retry is lost."""
    deleted = 0
    while True:
        with transaction.atomic():
            ids = list(
                CommandRecord.objects.filter(recorded_at__lt=before).values_list(
                    "command_id", flat=True
                )[:batch_size]
            )
            if not ids:
                return deleted
            deleted += CommandRecord.objects.filter(command_id__in=ids).delete()[0]
