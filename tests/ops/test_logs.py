"""Structured JSON logs (casino/logs.py): request id, actor, device, stream, command id."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from casino import logs


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """Every log record of the process, rendered as the production JSON formatter does."""
    stream = io.StringIO()
    config = logs.logging_config("json")
    formatter = logging.config.DictConfigurator(config).configure_formatter(
        config["formatters"]["json"]
    )
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield stream
    finally:
        root.removeHandler(handler)


def _parsed(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


@pytest.mark.django_db
def test_a_json_line_carries_the_request_id_and_the_actor(
    tablet: Any, log_lines: io.StringIO
) -> None:
    response = tablet.http.get("/api/v1/tables/", HTTP_X_REQUEST_ID="req-h16-1")
    assert response.status_code == 200
    (line,) = [entry for entry in _parsed(log_lines) if entry.get("request_id") == "req-h16-1"]
    assert line["event"] == "request_finished"
    assert line["code"] == 200
    assert line["actor"] == f"device:{tablet.device.pk}"
    assert line["device"] == "tablet-1"
    assert line["level"] == "info" and "timestamp" in line


@pytest.mark.django_db
def test_a_write_logs_its_command_id_and_stream_and_the_event_has_the_same_request_id(
    tablet: Any, log_lines: io.StringIO
) -> None:
    from casino.eventstore.models import StoredEvent
    from tests.conftest import NLH_10_20

    key = str(uuid.uuid4())
    response = tablet.post("/api/v1/tables/", NLH_10_20, key=key, **{"X-Request-ID": "req-h16-2"})
    assert response.status_code == 201, response.json()
    (line,) = [e for e in _parsed(log_lines) if e.get("request_id") == "req-h16-2"]
    assert line["command_id"] == key
    assert line["stream"] == f"table-{response.json()['table_id']}"
    event = StoredEvent.objects.get(command_id=key)
    assert event.metadata["request_id"] == "req-h16-2"


@pytest.mark.django_db
def test_a_refusal_is_logged_once(tablet: Any, log_lines: io.StringIO) -> None:
    response = tablet.http.post("/api/v1/tables/", {}, format="json", HTTP_X_REQUEST_ID="r-4xx")
    assert response.status_code == 400
    lines = [e for e in _parsed(log_lines) if "/api/v1/tables/" in json.dumps(e)]
    assert len(lines) == 1, lines
    assert lines[0]["level"] == "warning" and lines[0]["code"] == 400
    assert lines[0]["request_id"] == "r-4xx" and lines[0]["actor"].startswith("device:")


def test_console_format_is_human_readable() -> None:
    stream = io.StringIO()
    config = logs.logging_config("console")
    formatter = logging.config.DictConfigurator(config).configure_formatter(
        config["formatters"]["console"]
    )
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    probe = logging.getLogger("casino.probe")
    # earlier tests may have reconfigured logging (a Celery worker does): this test is
    # about the formatter, so the probe logger is made to emit whatever came before
    probe.disabled, probe.propagate = False, False
    probe.setLevel(logging.DEBUG)
    probe.addHandler(handler)
    try:
        probe.warning("relay lagging")
    finally:
        probe.removeHandler(handler)
    text = stream.getvalue()
    assert "relay lagging" in text and not text.lstrip().startswith("{")
