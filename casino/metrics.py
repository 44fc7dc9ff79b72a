"""Prometheus metrics of the card room (prometheus_client; HTTP defaults by django-prometheus).

Scraped at ``/metrics`` (:func:`metrics_view`), which answers only a request carrying
``Authorization: Bearer <METRICS_TOKEN>`` or a logged-in Django staff user: the page names
tables and error codes, so it is not public. Production may instead scrape an internal port.

Metrics (all names prefixed ``casino_``):

- ``casino_events_committed_total{type}``: every event, counted after its transaction commits;
- ``casino_dealer_actions_total{type}``: what dealers record on hands (``hand-*`` streams),
  counted after commit: a player action by its kind (``fold``, ``check``, ``call``, ``bet``,
  ``raise``) and the other hand events by name (``BoardDealt``, ``HandSettled`` ...).
  ``rate(casino_dealer_actions_total[1m])`` is dealer actions per second by type;
- ``casino_refusals_total{code}``: 4xx answers by their stable error code (counted in the one
  exception handler, :mod:`casino.api.errors`);
- ``casino_relay_backlog_events{relay}`` and ``casino_relay_oldest_unpushed_seconds{relay}``:
  read from the relay's saved cursor and the log's committed head at scrape time;
- ``casino_relay_push_lag_seconds{relay}`` (histogram) and the gauges above, set by the relay
  itself through :func:`set_relay_backlog` and :func:`observe_push_lag` when it calls them;
- ``casino_timer_lateness_seconds{task}``: how late an ETA timer task (blind level end,
  call-up deadline) started against its due time;
- ``casino_open_sockets{feed}``: WebSocket connections open per feed (route pattern).

Several uvicorn workers: set ``PROMETHEUS_MULTIPROC_DIR`` to an empty directory shared by the
processes of one host (prometheus_client multiprocess mode; empty it at start-up). The scrape
then sums the counters of every worker; gauges use ``livesum``/``max`` accordingly.
"""

from __future__ import annotations

import hmac
import os
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import prometheus_client
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from prometheus_client import Counter, Gauge, Histogram, multiprocess
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from casino.eventstore.store import RecordedEvent

EVENTS_COMMITTED = Counter(
    "casino_events_committed", "Events committed to the log, by type.", ["type"]
)
DEALER_ACTIONS = Counter(
    "casino_dealer_actions",
    "Hand events recorded by dealers (player actions by kind, other hand events by name).",
    ["type"],
)
REFUSALS = Counter("casino_refusals", "Refused requests (4xx) by error code.", ["code"])
RELAY_BACKLOG = Gauge(
    "casino_relay_pushed_backlog_events",
    "Events the relay had still to push after its last batch (set by the relay).",
    ["relay"],
    multiprocess_mode="max",
)
RELAY_PUSH_LAG = Histogram(
    "casino_relay_push_lag_seconds",
    "Seconds from an event's commit to its push by the relay.",
    ["relay"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
TIMER_LATENESS = Histogram(
    "casino_timer_lateness_seconds",
    "Seconds an ETA timer task started after its due time.",
    ["task"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
OPEN_SOCKETS = Gauge(
    "casino_open_sockets",
    "WebSocket connections open, by feed.",
    ["feed"],
    multiprocess_mode="livesum",
)

_ACTION = "tables.ActionTaken"


def _dealer_action_type(recorded: RecordedEvent) -> str | None:
    if not recorded.stream.startswith("hand-"):
        return None
    if recorded.type == _ACTION:
        return str(getattr(recorded.event, "action", "action"))
    return recorded.type.rsplit(".", 1)[-1]


def count_committed(recorded: Iterable[RecordedEvent]) -> None:
    """Count ``recorded`` when the current transaction commits (nothing if it rolls back)."""
    types = [(event.type, _dealer_action_type(event)) for event in recorded]

    def count() -> None:
        for event_type, action in types:
            EVENTS_COMMITTED.labels(type=event_type).inc()
            if action is not None:
                DEALER_ACTIONS.labels(type=action).inc()

    transaction.on_commit(count)


def count_refusal(code: str) -> None:
    """Count one refused request (a 4xx) by its stable error ``code``."""
    REFUSALS.labels(code=code).inc()


def set_relay_backlog(events: int, *, relay: str = "relay") -> None:
    """For the relay: how many committed events are still to push after a batch."""
    RELAY_BACKLOG.labels(relay=relay).set(events)


def observe_push_lag(recorded_at: datetime, *, relay: str = "relay") -> None:
    """For the relay: one event pushed; ``recorded_at`` is its commit time (UTC)."""
    lag = (datetime.now(UTC) - recorded_at).total_seconds()
    RELAY_PUSH_LAG.labels(relay=relay).observe(max(0.0, lag))


def observe_timer_lateness(task: str, due: datetime | str | None) -> None:
    """An ETA task ``task`` starts now; ``due`` is its ETA (a UTC datetime or ISO text)."""
    if due is None:
        return
    if isinstance(due, str):
        due = datetime.fromisoformat(due)
    if due.tzinfo is None:
        due = due.replace(tzinfo=UTC)
    TIMER_LATENESS.labels(task=task).observe(max(0.0, (datetime.now(UTC) - due).total_seconds()))


_ID = re.compile(r"/\d+(?=/)")


def feed_of(path: str) -> str:
    """The feed of a WebSocket path: ``/ws/tables/7/`` -> ``/ws/tables/:id/``."""
    return _ID.sub("/:id", path)


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class OpenSocketsMiddleware:
    """ASGI middleware: counts accepted WebSocket connections per feed until they close."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        gauge = OPEN_SOCKETS.labels(feed=feed_of(scope["path"]))
        open_ = False

        async def counting_send(message: dict[str, Any]) -> None:
            nonlocal open_
            if message["type"] == "websocket.accept" and not open_:
                open_ = True
                gauge.inc()
            elif message["type"] == "websocket.close" and open_:
                open_ = False
                gauge.dec()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            if open_:
                gauge.dec()


class RelayBacklogCollector(Collector):
    """At scrape time: the relay's backlog read from its cursor and the log (read-only)."""

    def collect(self) -> Iterable[GaugeMetricFamily]:
        from casino.health import relay_backlog

        name = settings.HEALTH_RELAY_CURSOR
        backlog = relay_backlog(name)
        events = GaugeMetricFamily(
            "casino_relay_backlog_events",
            "Committed events the relay has not pushed yet (its cursor against the log).",
            labels=["relay"],
        )
        events.add_metric([name], backlog.events)
        oldest = GaugeMetricFamily(
            "casino_relay_oldest_unpushed_seconds",
            "Age of the oldest committed event the relay has not pushed (0 when none).",
            labels=["relay"],
        )
        oldest.add_metric([name], backlog.oldest_age_seconds)
        return [events, oldest]


def _allowed(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    header = request.headers.get("Authorization", "")
    if token and header.startswith("Bearer "):
        return hmac.compare_digest(header.removeprefix("Bearer ").strip(), token)
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and user.is_staff)


def metrics_view(request: HttpRequest) -> HttpResponse:
    """``/metrics``: the Prometheus text format, for the metrics token or a staff user."""
    if not _allowed(request):
        return HttpResponse("metrics: token or staff login required\n", status=403)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = prometheus_client.CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        page = prometheus_client.generate_latest(registry)
    else:
        page = prometheus_client.generate_latest(prometheus_client.REGISTRY)
    page += prometheus_client.generate_latest(_backlog_registry())
    return HttpResponse(page, content_type=prometheus_client.CONTENT_TYPE_LATEST)


def _backlog_registry() -> prometheus_client.CollectorRegistry:
    registry = prometheus_client.CollectorRegistry(auto_describe=False)
    registry.register(RelayBacklogCollector())
    return registry
