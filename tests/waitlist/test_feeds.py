"""Live feeds of the waiting lists (Channels communicator, Redis channel layer, PostgreSQL,
the relay tailing the log): the floor console gets a snapshot then every list event in
order; the public board needs no login and only ever receives board snapshots with
nicknames or initials (never raw events, full names or phone numbers)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from casino.models import Device, Player
from casino.realtime.relay import Relay
from tests.casino.test_realtime import receive_all
from tests.conftest import TabletClient
from tests.waitlist.helpers import call, join, open_list, open_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def world() -> Iterator[dict[str, Any]]:
    admin = Device.objects.create(name=f"f-{uuid.uuid4().hex[:6]}", role=Device.Role.ADMIN)
    cashier = Device.objects.create(name=f"c-{uuid.uuid4().hex[:6]}", role=Device.Role.CASHIER)
    tablet = TabletClient(admin)
    table_id = open_table(tablet)
    list_id = open_list(tablet)
    shark = Player.objects.create(name="Karel Hiddenname", nickname="Shark")
    join(tablet, list_id, shark, "phone", phone="+420 606 000 111")
    relay = Relay(name=f"relay-{uuid.uuid4().hex[:6]}", start_at_tail=True)
    relay.load_cursor()
    yield {
        "tablet": tablet,
        "table_id": table_id,
        "list_id": list_id,
        "token": admin.token,
        "cashier_token": cashier.token,
        "relay": relay,
        "players": [Player.objects.create(name=f"Feed Player{n}") for n in range(3)],
    }
    async_to_sync(relay.close)()  # its thread's database session, or the test db stays


def test_the_floor_feed_sends_a_snapshot_then_every_list_event_in_order(world: dict) -> None:
    stream = f"waitlist-{world['list_id']}"

    async def scenario() -> tuple[dict, list[dict], dict]:
        ws = WebsocketCommunicator(application, f"/ws/waitlists/?token={world['token']}")
        assert (await ws.connect())[0]
        snapshot = await ws.receive_json_from()

        def changes() -> None:
            for player in world["players"]:
                join(world["tablet"], world["list_id"], player)
            call(world["tablet"], world["list_id"], world["table_id"], 1)

        await sync_to_async(changes)()
        events = await receive_all(ws, world["relay"])
        await ws.disconnect()
        refused = WebsocketCommunicator(
            application, f"/ws/waitlists/?token={world['cashier_token']}"
        )
        await refused.connect()
        error = await refused.receive_json_from()
        await refused.disconnect()
        return snapshot, events, error

    snapshot, events, error = async_to_sync(scenario)()
    assert snapshot["type"] == "snapshot"
    assert snapshot["versions"][stream] == 2  # opened, one player listed
    (listed,) = snapshot["state"]["lists"]
    assert [e["display"] for e in listed["entries"]] == ["Shark"]
    list_events = [(e["version"], e["event_type"]) for e in events if e["stream"] == stream]
    assert list_events == [
        (3, "waitlist.PlayerListed"),
        (4, "waitlist.PlayerListed"),
        (5, "waitlist.PlayerListed"),
        (6, "waitlist.PlayerCalled"),
    ]
    assert events[-1]["data"]["deadline"]
    assert error["code"] == "not_allowed"  # a cashier does not read the lists


def test_the_public_board_feed_needs_no_login_and_shows_no_private_data(world: dict) -> None:
    async def scenario() -> list[dict]:
        ws = WebsocketCommunicator(application, "/ws/board/waitlists/")
        assert (await ws.connect())[0]
        first = await ws.receive_json_from()
        await sync_to_async(call)(world["tablet"], world["list_id"], world["table_id"], 1)
        updates = await receive_all(ws, world["relay"])
        await ws.disconnect()
        return [first, *updates]

    messages = async_to_sync(scenario)()
    assert {m["type"] for m in messages} == {"snapshot"}
    first, last = messages[0], messages[-1]
    assert first["state"]["lists"][0]["names"] == [
        {"position": 1, "display": "Shark", "called": False, "away": False,
         "call_deadline": None, "call_seconds_left": None}
    ]  # fmt: skip
    called = last["state"]["lists"][0]["names"][0]
    assert called["called"] is True
    assert 0 < called["call_seconds_left"] <= 300 and called["call_deadline"]  # the countdown
    text = json.dumps(messages)
    for secret in ("Hiddenname", "606 000", "player_id", "phone"):
        assert secret not in text
