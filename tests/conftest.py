"""Shared fixtures. The suite runs against real PostgreSQL and Redis: ``DATABASE_URL`` and
``REDIS_URL`` default to the local servers (pyproject ``[tool.pytest.ini_options] env``)."""

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.models import Device, Player


class TabletClient:
    """A dealer tablet: token auth, a fresh Idempotency-Key on every write (or a given one)."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.http = APIClient()
        self.http.credentials(HTTP_AUTHORIZATION=f"Token {device.token}")

    def get(self, path: str) -> Any:
        return self.http.get(path)

    def post(self, path: str, data: Any = None, *, key: str | None = None, **headers: str) -> Any:
        return self.http.post(
            path,
            data or {},
            format="json",
            HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()),
            **{f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()},
        )


@pytest.fixture(autouse=True, scope="session")
def _flush_past_the_truncate_guard() -> Iterator[None]:
    """The log refuses ``TRUNCATE`` (migration ``eventstore 0003``), but a transactional
    test's teardown empties every table with one. The test role is a superuser, so the
    flush runs with ``session_replication_role = replica``, which silences triggers for that
    transaction only; the application role may not set it (deploy/README.md)."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.execute_sql_flush

    def flush(self: DatabaseOperations, sql_list: list[str]) -> None:
        original(self, ["SET LOCAL session_replication_role = replica", *sql_list])

    DatabaseOperations.execute_sql_flush = flush  # type: ignore[method-assign]
    yield
    DatabaseOperations.execute_sql_flush = original  # type: ignore[method-assign]


HOUSE_RAKE_STEPS = [("NLH", 0, 300), ("PLO", 0, 200), ("PLO", 50, 300), ("FLH", 0, 300)]
"""The rake steps the migrations seed (cashgame 0001, 0011): 5 % and these caps."""


@pytest.fixture(autouse=True)
def _house_rake_schedule(request: pytest.FixtureRequest) -> None:
    """A transactional test starts after another's flush, which also empties the rows the
    migrations seeded. A table may rake at most its rake step (``rake_above_schedule``), so
    put the house's steps back, as every real database has them."""
    marker = request.node.get_closest_marker("django_db")
    by_marker = marker is not None and bool(
        marker.kwargs.get("transaction") or (marker.args and marker.args[0])
    )
    if not by_marker and "transactional_db" not in request.fixturenames:
        return
    request.getfixturevalue("transactional_db")
    from cashgame.models import RakeSchedule

    for game, from_small_blind, cap in HOUSE_RAKE_STEPS:
        RakeSchedule.objects.get_or_create(
            game=game, from_small_blind=from_small_blind, defaults={"percent_bp": 500, "cap": cap}
        )


@pytest.fixture(autouse=True)
def _fresh_aggregate_cache() -> None:
    """Tests empty the database between them; in production streams never shrink, so a
    process's cached aggregates stay valid. Start every test with an empty cache."""
    from casino.eventstore import aggregates

    aggregates.cache.clear()


@pytest.fixture
def tablet(db: None) -> TabletClient:
    """A device allowed every operation (admin role): tests of rules and flows. What each
    role may do is tested on its own in tests/casino/test_permissions.py."""
    return TabletClient(Device.objects.create(name="tablet-1", role=Device.Role.ADMIN))


@pytest.fixture
def players(db: None) -> list[Player]:
    return [Player.objects.create(name=f"Player {i}") for i in range(1, 11)]


NLH_10_20 = {
    "name": "NLH 10/20",
    "game": "NLH",
    "small_blind": 10,
    "big_blind": 20,
    "buy_in_min": 1000,
    "buy_in_max": 5000,
}
"""An NLH 10/20 table; its rake is the house's (5 %, cap 300: the rake schedule), so that a
test opening another game with it gets that game's rake, never NLH's above its schedule."""


@pytest.fixture
def nlh_table(tablet: TabletClient) -> int:
    response = tablet.post("/api/v1/tables/", NLH_10_20)
    assert response.status_code == 201, response.json()
    return int(response.json()["table_id"])


def wait_until(check: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll ``check`` every 50 ms until it is true (another thread's work, e.g. a worker).

    Raises:
        AssertionError: still false after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the worker")
        time.sleep(0.05)


@pytest.fixture
def worker() -> Iterator[list[tuple[str, Any]]]:
    """A real Celery worker (in-process thread, the project's app and broker); yields the
    ``(task name, return value)`` of each task it ran. Use with
    ``pytest.mark.django_db(transaction=True)`` so the worker sees the test's data."""
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun

    from casino.celery import app

    ran: list[tuple[str, Any]] = []

    def record(sender: Any = None, retval: Any = None, **_: Any) -> None:
        ran.append((sender.name, retval))

    with app.connection_for_write() as conn:  # tasks queued by earlier tests: drop them
        conn.default_channel.queue_purge(app.conf.task_default_queue)
    task_postrun.connect(record, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
            yield ran
    finally:
        task_postrun.disconnect(record)
