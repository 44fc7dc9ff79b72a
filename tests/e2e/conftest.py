"""End-to-end fixtures: a headless Chromium (Debian's ``chromium`` package, driven by
Playwright for Python; no browser download ever -- ``playwright install`` is not run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")  # its event loop must not outlive the module
def browser() -> Iterator[Any]:
    """A headless Chromium shared by the session's tests; skipped without the system
    browser (``apt-get install -y chromium``, as .ci/run does)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser page (own context: no cookies shared between tests)."""
    context = browser.new_context()
    try:
        yield context.new_page()
    finally:
        context.close()
