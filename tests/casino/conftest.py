"""Fixtures shared by the live-feed tests (tests/casino/test_realtime.py, test_live_path.py)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from casino.models import Device, Player
from casino.realtime.relay import Relay
from tests.conftest import NLH_10_20, TabletClient


@pytest.fixture
def world() -> Iterator[dict[str, Any]]:
    device = Device.objects.create(name=f"t-{uuid.uuid4().hex[:6]}", role=Device.Role.ADMIN)
    tablet = TabletClient(device)
    table_id = tablet.post("/api/v1/tables/", NLH_10_20).json()["table_id"]
    for n in range(1, 4):
        player = Player.objects.create(name=f"p{n}")
        tablet.post(f"/api/v1/tables/{table_id}/seats/",
                    {"player_id": player.id, "seat": n, "buy_in": 1000})  # fmt: skip
    relay = Relay(name=f"relay-{uuid.uuid4().hex[:6]}", start_at_tail=True)
    relay.load_cursor()
    yield {"tablet": tablet, "table_id": table_id, "token": device.token, "relay": relay}
    # the relay's own thread holds a database session: left open, the test database cannot
    # be dropped at the end of the run
    async_to_sync(relay.close)()
