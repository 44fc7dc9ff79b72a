"""Swagger UI on ``manage.py up`` (issue #12 E): its static assets are served (whitenoise),
so the page renders in a real browser and lists the API's operations."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.test_up_timers import Up
from tests.servers import free_port

pytestmark = pytest.mark.slow


def test_swagger_ui_lists_the_operations_in_headless_chromium(tmp_path: Path, page: Any) -> None:
    up = Up(tmp_path / "room.sqlite3", free_port())
    try:
        up.wait_until_serving()
        schema = httpx.get(f"{up.base}/api/schema/?format=json", timeout=10)
        assert schema.status_code == 200, schema.text
        operations = {
            op["operationId"] for item in schema.json()["paths"].values() for op in item.values()
        }
        assert len(operations) > 60
        failed: list[str] = []
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        page.goto(f"{up.base}/api/docs/", wait_until="networkidle")
        page.wait_for_selector(".opblock", timeout=20_000)
        shown = page.locator(".opblock").count()
        paths = set(page.locator(".opblock-summary-path").all_inner_texts())
        assert failed == [], failed  # no asset answered 404
        assert shown == len(operations), (shown, len(operations))
        assert "/api/v1/tables/" in {p.replace("\u200b", "") for p in paths}
        assert "Casino poker room API" in page.locator(".title").inner_text()
    finally:
        up.stop()
