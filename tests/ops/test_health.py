"""Liveness and readiness (casino/health.py): each check can fail, and readiness says so."""

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from casino.eventstore import store
from casino.eventstore.models import StoredEvent, SubscriptionCursor
from casino.health import relay_backlog
from tests.conftest import wait_until

ROOT = Path(__file__).resolve().parents[2]


def _ready(client: Client) -> tuple[int, dict[str, str]]:
    response = client.get("/health/ready/?format=json")
    return response.status_code, json.loads(response.content)


def _old_events(count: int, age_seconds: float) -> None:
    at = timezone.now() - timedelta(seconds=age_seconds)
    StoredEvent.objects.bulk_create(
        StoredEvent(
            stream="health-probe",
            version=i,
            type="probe",
            schema_version=1,
            data={},
            recorded_at=at,
        )
        for i in range(1, count + 1)
    )


def test_liveness_checks_nothing_and_answers() -> None:
    assert Client().get("/health/live/").status_code == 200


@pytest.mark.django_db
def test_ready_lists_database_migrations_broker_redis_and_relay() -> None:
    status, body = _ready(Client())
    assert status == 200, body
    names = " ".join(body)
    for check in ("Database", "Migrations", "CeleryBroker", "RelayLag", "Redis"):
        assert check in names
    assert set(body.values()) == {"OK"}


@pytest.mark.django_db(transaction=True)  # the relay reads committed events only
def test_ready_fails_while_the_relay_lags_and_recovers_when_it_catches_up(settings: Any) -> None:
    settings.HEALTH_RELAY_MAX_LAG_SECONDS = 30
    _old_events(3, age_seconds=120)
    # committed events are visible to the log's readers once every older transaction on the
    # server has ended (store.read_all): on a shared server that may take a moment
    wait_until(lambda: relay_backlog().events == 3, timeout=120)
    backlog = relay_backlog()
    assert (backlog.events, backlog.started) == (3, False)
    assert backlog.oldest_age_seconds >= 119
    status, body = _ready(Client())
    assert status == 500
    assert "relay not started, 3 events" in next(v for k, v in body.items() if "RelayLag" in k)

    # the relay saved a cursor at the head: nothing left to push
    transaction_id, position = store.tail_cursor()
    SubscriptionCursor.objects.create(
        name="relay", transaction_id=transaction_id, position=position
    )
    assert relay_backlog().events == 0
    assert _ready(Client())[0] == 200


@pytest.mark.django_db(transaction=True)
def test_a_fresh_backlog_within_the_limit_is_ready(settings: Any) -> None:
    settings.HEALTH_RELAY_MAX_LAG_SECONDS = 600
    SubscriptionCursor.objects.create(name="relay")
    _old_events(2, age_seconds=1)
    wait_until(lambda: relay_backlog().events == 2, timeout=120)
    assert _ready(Client())[0] == 200


_PROBE = """
import django, json, sys
django.setup()
from django.core.management import call_command
from django.test import Client
first = Client().get("/health/ready/?format=json", HTTP_HOST="127.0.0.1")
call_command("migrate", verbosity=0)
second = Client().get("/health/ready/?format=json", HTTP_HOST="127.0.0.1")
print(json.dumps([first.status_code, json.loads(first.content), second.status_code]))
"""


def test_ready_fails_while_migrations_are_pending(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        "REDIS_URL": "",
        "DJANGO_SETTINGS_MODULE": "casino.settings",
    }
    out = subprocess.run(
        [sys.executable, "-c", _PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    first_status, first, second_status = json.loads(out.stdout.strip().splitlines()[-1])
    assert first_status == 500
    assert "migrations pending" in next(v for k, v in first.items() if "Migrations" in k)
    assert second_status == 200
