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
        # past about 150 operations Swagger UI keeps only those near the viewport in the
        # page: scroll through it, collecting each operation's block id
        shown: set[str] = set()
        paths: set[str] = set()
        for _ in range(400):
            shown |= set(page.eval_on_selector_all(".opblock", "els => els.map(e => e.id)"))
            paths |= set(page.locator(".opblock-summary-path").all_inner_texts())
            at_end = page.evaluate(
                "window.innerHeight + window.scrollY >= document.body.scrollHeight - 2"
            )
            if at_end:
                break
            page.mouse.wheel(0, 600)
            page.wait_for_timeout(30)
        assert failed == [], failed  # no asset answered 404
        ids = {block.rsplit("-", 1)[-1] for block in shown}  # operations-<tag>-<operationId>
        assert ids == operations, (sorted(operations - ids)[:10], sorted(ids - operations)[:10])
        assert "/api/v1/tables/" in {p.replace("\u200b", "") for p in paths}
        assert "Casino poker room API" in page.locator(".title").inner_text()
    finally:
        up.stop()
