"""The room's chips (``CASINO_CHIP_SET``): the dealer tablet offers these for the chips a
player pushes (BET-17..24). The set was fixed in the tablet's script, so a room without
1 CZK chips, or with 10,000 CZK plaques, could not say so."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings

ROOT = Path(__file__).resolve().parents[2]


def _offered(client: Any) -> list[int]:
    page = client.get("/tablet/").content.decode()
    found = re.search(r'<script id="chip-set" type="application/json">(.*?)</script>', page)
    assert found, "the tablet page carries no chip set"
    return list(json.loads(found.group(1)))


@pytest.mark.django_db
def test_the_tablet_offers_the_rooms_chips(client: Any) -> None:
    assert _offered(client) == [1, 5, 25, 100, 500, 1000, 5000, 25000, 100000]  # the default
    with override_settings(CASINO_CHIP_SET=[25, 100, 500, 1000, 5000, 10000]):
        assert _offered(client) == [25, 100, 500, 1000, 5000, 10000]


@pytest.mark.parametrize(
    ("value", "chips"),
    [(" 1000,25 ,100,25", "[25, 100, 1000]"), ("25,abc", None), ("0,25", None), ("", None)],
)
def test_the_chip_set_setting_is_read_or_refused_at_start(value: str, chips: str | None) -> None:
    """Sorted and without repeats; a value that is not a whole amount above 0 stops the
    service at start with the setting named, never a tablet offering a broken chip."""
    env = {**os.environ, "CASINO_CHIP_SET": value, "DJANGO_SETTINGS_MODULE": "casino.settings"}
    script = "import django; django.setup(); from django.conf import settings; "
    script += "print(settings.CASINO_CHIP_SET)"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if chips is None:
        assert done.returncode != 0 and "CASINO_CHIP_SET" in done.stderr, done.stderr[-500:]
    else:
        assert done.stdout.strip() == chips, done.stderr[-500:]
