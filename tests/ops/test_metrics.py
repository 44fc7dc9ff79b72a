"""Prometheus metrics at /metrics (casino/metrics.py): protected, with the card room's own
counters next to django-prometheus' HTTP defaults."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from casino import metrics
from casino.models import Device
from tables.replay import InProcessApi, replay_files

PHH = Path(__file__).resolve().parents[3] / "shared" / "phh"
TOKEN = "scrape-me"


def _value(page: str, name: str, **labels: str) -> float:
    """The sample ``name{labels}`` in a Prometheus text page (0.0 when absent)."""
    for line in page.splitlines():
        if line.startswith("#") or not line.startswith(name + "{"):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line[len(name) : line.rindex("}")]))
        if all(found.get(k) == v for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


@pytest.fixture
def scrape(settings: Any) -> Any:
    settings.METRICS_TOKEN = TOKEN

    def get() -> str:
        response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert response.status_code == 200
        return response.content.decode()

    return get


@pytest.mark.django_db
def test_metrics_need_the_token_or_a_staff_login(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN
    client = Client()
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    user = get_user_model().objects.create_user("floor", password="x", is_staff=False)
    client.force_login(user)
    assert client.get("/metrics").status_code == 403
    user.is_staff = True
    user.save()
    assert client.get("/metrics").status_code == 200


@pytest.mark.skipif(not PHH.is_dir(), reason="shared/phh is not beside the repo")
@pytest.mark.django_db(transaction=True)  # actions are counted after commit
def test_a_replayed_hand_shows_in_the_action_counters(scrape: Any) -> None:
    before = scrape()
    dealer = Device.objects.create(name="metrics-tablet", role=Device.Role.ADMIN)
    (outcome,) = replay_files(InProcessApi(dealer.token), [PHH / "pluribus" / "102" / "0.phh"])
    assert outcome.matched, outcome.error
    after = scrape()

    def grew(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    kinds = ("fold", "check", "call", "bet", "raise")
    counted = sum(grew("casino_dealer_actions_total", type=kind) for kind in kinds)
    assert counted == outcome.actions > 0
    assert grew("casino_dealer_actions_total", type="HandSettled") == 1
    assert grew("casino_events_committed_total", type="tables.ActionTaken") == outcome.actions
    assert "django_http_requests_total_by_method_total" in after  # the HTTP defaults
    assert 'casino_relay_backlog_events{relay="relay"}' in after


@pytest.mark.django_db
def test_refusals_are_counted_by_code(scrape: Any, tablet: Any) -> None:
    before = _value(scrape(), "casino_refusals_total", code="invalid_request")
    response = tablet.http.post("/api/v1/tables/", {}, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid_request"
    after = _value(scrape(), "casino_refusals_total", code="invalid_request")
    assert after == before + 1


@pytest.mark.django_db
def test_a_rolled_back_append_counts_nothing(scrape: Any) -> None:
    from django.db import transaction

    from casino.eventstore import store
    from casino.eventstore.store import RecordedEvent

    before = _value(scrape(), "casino_events_committed_total", type="probe.Rolled")
    recorded = RecordedEvent(1, "probe-1", 1, "probe.Rolled", None, {}, datetime.now(UTC))  # type: ignore[arg-type]
    try:
        with transaction.atomic():
            metrics.count_committed([recorded])
            raise RuntimeError("refused")
    except RuntimeError:
        pass
    assert store  # the store calls count_committed after each append
    assert _value(scrape(), "casino_events_committed_total", type="probe.Rolled") == before


def test_timer_lateness_is_observed_against_the_eta() -> None:
    sample = "casino_timer_lateness_seconds_sum"
    due = datetime.now(UTC) - timedelta(seconds=5)
    before = metrics.TIMER_LATENESS.labels(task="probe").collect()[0]
    total_before = next(s.value for s in before.samples if s.name == sample)
    metrics.observe_timer_lateness("probe", due.isoformat())
    after = metrics.TIMER_LATENESS.labels(task="probe").collect()[0]
    total_after = next(s.value for s in after.samples if s.name == sample)
    assert 4.9 < total_after - total_before < 60


def test_open_sockets_are_counted_per_feed_until_they_close() -> None:
    gauge = metrics.OPEN_SOCKETS.labels(feed="/ws/tables/:id/")
    seen: list[float] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "websocket.accept"})
        seen.append(gauge._value.get())
        await send({"type": "websocket.close"})

    async def send(message: Any) -> None:
        return None

    start = gauge._value.get()
    middleware = metrics.OpenSocketsMiddleware(app)
    asyncio.run(middleware({"type": "websocket", "path": "/ws/tables/12/"}, None, send))  # type: ignore[arg-type]
    assert seen == [start + 1]
    assert gauge._value.get() == start
    assert metrics.feed_of("/ws/tournaments/3/clock/") == "/ws/tournaments/:id/clock/"


@pytest.mark.django_db
def test_the_grafana_dashboard_queries_metrics_that_exist(scrape: Any) -> None:
    import json

    dashboard = json.loads(
        (Path(__file__).parents[2] / "deploy/grafana/casino-dashboard.json").read_text()
    )
    page = scrape()
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    names = {n for e in exprs for n in re.findall(r"\b((?:casino|django)_\w+)", e)}
    assert len(names) >= 8
    for name in names:
        base = re.sub(r"_(bucket|total)$", "", name)
        assert f"# HELP {base}" in page, name
