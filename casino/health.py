"""Liveness and readiness (django-health-check).

- ``/health/live/``: the process answers HTTP (no dependency is checked: a database outage
  must not make the orchestrator restart every web process).
- ``/health/ready/``: the process can serve: the database answers and has no pending
  migration, Redis (the channel layer, when ``REDIS_URL`` is set) answers, the Celery broker
  accepts a connection, and the push relay is not lagging (its saved cursor against the
  log's committed head, :func:`relay_backlog`). Any failure answers 500, so a load balancer
  takes the process out of rotation; ``?format=json`` lists each check.

Thresholds (settings): ``HEALTH_RELAY_MAX_LAG_SECONDS`` (default 30 s: the oldest event the
relay has not pushed may be at most this old) and ``HEALTH_RELAY_CURSOR`` (the relay's cursor
name, ``relay``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone
from health_check.base import HealthCheck
from health_check.exceptions import ServiceUnavailable

from casino.eventstore.models import SubscriptionCursor
from casino.schema import pending_migrations

_migrations_applied = False  # once true in this process, stays true (code cannot change)


@dataclass(frozen=True)
class RelayBacklog:
    """How far the push relay is behind the committed log.

    ``events``: committed events after the relay's cursor (capped at ``cap``);
    ``oldest_age_seconds``: age of the oldest of them (0.0 when there is none), i.e. how long
    the next push has been waiting since its commit; ``started``: the cursor exists.
    """

    events: int
    oldest_age_seconds: float
    started: bool


_PG_BACKLOG_SQL = """
    SELECT count(*), min(recorded_at) FROM (
        SELECT recorded_at FROM eventstore_event
         WHERE (transaction_id, position) > (%s::text::xid8, %s)
           AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
         LIMIT %s) AS unpushed
"""
_BACKLOG_SQL = """
    SELECT count(*), min(recorded_at) FROM (
        SELECT recorded_at FROM eventstore_event WHERE position > %s LIMIT %s) AS unpushed
"""


def relay_backlog(name: str | None = None, *, cap: int = 100_000) -> RelayBacklog:
    """The relay's backlog: read-only, from its saved cursor (``eventstore_subscription``)
    and the committed head of the log (the same visibility rule as the relay's reader).

    A relay that never started counts every committed event as its backlog.
    """
    name = name or settings.HEALTH_RELAY_CURSOR
    cursor = SubscriptionCursor.objects.filter(name=name).first()
    txid, position = (cursor.transaction_id, cursor.position) if cursor else (0, 0)
    with connection.cursor() as cur:
        if connection.vendor == "postgresql":
            cur.execute(_PG_BACKLOG_SQL, [str(txid), position, cap])
        else:
            cur.execute(_BACKLOG_SQL, [position, cap])
        count, oldest = cur.fetchone()
    if isinstance(oldest, str):  # SQLite answers text
        oldest = datetime.datetime.fromisoformat(oldest)
        if oldest.tzinfo is None:
            oldest = oldest.replace(tzinfo=datetime.UTC)
    age = max(0.0, (timezone.now() - oldest).total_seconds()) if oldest else 0.0
    return RelayBacklog(events=int(count), oldest_age_seconds=age, started=cursor is not None)


class _SyncCheck(HealthCheck):
    """A check that uses the Django ORM: run on Django's main sync thread (its connection),
    never on an executor thread that would leave a connection open."""

    def check(self) -> None:
        raise NotImplementedError

    async def run(self) -> None:
        await sync_to_async(self.check)()


@dataclass
class Migrations(_SyncCheck):
    """Unavailable while a migration is pending (the schema is older than the code)."""

    def check(self) -> None:
        global _migrations_applied
        if _migrations_applied:
            return
        try:
            pending = pending_migrations()
        except DatabaseError as exc:
            raise ServiceUnavailable("cannot read the migration history") from exc
        if pending:
            raise ServiceUnavailable(f"{len(pending)} migrations pending, e.g. {pending[0]}")
        _migrations_applied = True


@dataclass
class RelayLag(_SyncCheck):
    """Unavailable when the oldest event the relay has not pushed is older than
    ``HEALTH_RELAY_MAX_LAG_SECONDS``: WebSocket clients are not getting pushes."""

    cursor: str = "relay"

    def check(self) -> None:
        backlog = relay_backlog(self.cursor)
        limit = float(settings.HEALTH_RELAY_MAX_LAG_SECONDS)
        if backlog.events and backlog.oldest_age_seconds > limit:
            state = "behind" if backlog.started else "not started,"
            raise ServiceUnavailable(
                f"relay {state} {backlog.events} events, oldest "
                f"{backlog.oldest_age_seconds:.0f} s (limit {limit:.0f} s)"
            )


@dataclass
class CeleryBroker(HealthCheck):
    """The Celery broker accepts a connection (``CELERY_BROKER_URL``); workers are not
    required for the web to be ready (timers are caught up by the beat sweeps)."""

    timeout = datetime.timedelta(seconds=3)

    def run(self) -> None:  # sync: django-health-check runs it in its executor
        from celery import current_app as app  # the project's (casino.celery sets it)

        try:
            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=2)
        except Exception as exc:  # kombu raises the transport's own errors
            raise ServiceUnavailable(f"broker: {type(exc).__name__}") from exc


def readiness_checks() -> list[Any]:
    """The checks of ``/health/ready/`` for this configuration."""
    checks: list[Any] = [
        "health_check.checks.Database",
        (Migrations, {}),
        (CeleryBroker, {}),
        (RelayLag, {"cursor": settings.HEALTH_RELAY_CURSOR}),
    ]
    if settings.REDIS_URL:
        from health_check.contrib.redis import Redis
        from redis.asyncio import Redis as RedisClient

        url = settings.REDIS_URL
        checks.append((Redis, {"client_factory": lambda: RedisClient.from_url(url)}))
    return checks


def reset_for_tests() -> None:
    """Forget that migrations were found applied (tests that roll a migration back)."""
    global _migrations_applied
    _migrations_applied = False
