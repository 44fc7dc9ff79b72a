"""Live feeds of a tournament (issue #6; Channels communicator, Redis channel layer,
PostgreSQL, the relay tailing the log): the public clock board needs no login and only
ever receives clock snapshots (no names, no player ids); the director's console gets a
snapshot, then every tournament event in order, each followed by the fresh clock; roles
that may not ``get_tournament`` are refused; an unknown tournament is closed with 4404."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

from casino.asgi import application
from casino.eventstore import store
from casino.eventstore.commands import run_command
from casino.models import Device, StaffProfile
from casino.realtime.relay import Relay
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register
from tournaments import services
from tournaments.serializers import ClockSerializer

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "Hiddenname"
CLOCK_FIELDS = set(ClockSerializer().fields)


def _device(role: str, **kw: Any) -> Device:
    return Device.objects.create(name=f"{role}-{uuid.uuid4().hex[:6]}", role=role, **kw)


SAME_ORIGIN = [(b"host", b"testserver"), (b"origin", b"http://testserver")]
"""What a browser on the service's own page sends (a console socket checks the Origin)."""


def _loaded(relay: Relay) -> Relay:
    relay.load_cursor()
    return relay


@pytest.fixture
def world() -> Iterator[dict[str, Any]]:
    """A running tournament of 12 (two tables), devices of several roles, a relay."""
    tablet = TabletClient(_device(Device.Role.ADMIN))
    tournament_id = create(tablet)
    players = register(tablet, tournament_id, 12, prefix=SECRET)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    started = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
    relay = _loaded(Relay(name=f"relay-{uuid.uuid4().hex[:6]}", start_at_tail=True))
    tables = started["tables"]
    yield {
        "tablet": tablet,
        "tournament_id": tournament_id,
        "stream": f"tournament-{tournament_id}",
        "tables": tables,
        "started_at_version": started["version"],
        "players": players,
        "director": TabletClient(_device(Device.Role.DIRECTOR)),
        "cashier": _device(Device.Role.CASHIER).token,
        "dealer": _device(Device.Role.DEALER, table_id=tables[0]).token,
        "relay": relay,
    }
    async_to_sync(relay.close)()  # its thread's database session, or the test db stays


async def _open(path: str, **kw: Any) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    ws = WebsocketCommunicator(application, path, **kw)
    connected, _ = await ws.connect()
    assert connected
    return ws, await ws.receive_json_from()


async def _refusal(path: str, **kw: Any) -> tuple[dict[str, Any], int]:
    """The error message and the close code of a refused connection."""
    ws = WebsocketCommunicator(application, path, **kw)
    await ws.connect()
    error = await ws.receive_json_from()
    closed = await ws.receive_output()
    await ws.disconnect()
    assert closed["type"] == "websocket.close"
    return error, int(closed["code"])


async def receive_until(
    ws: WebsocketCommunicator,
    relay: Relay,
    done: Callable[[list[dict[str, Any]]], bool],
    timeout: float = 30.0,
) -> list[dict[str, Any]]:
    """Pump the relay and take messages until ``done(messages)``, then until quiet. The
    relay reads only below the oldest transaction open anywhere on the server (other test
    runs too), so a push may take a while: wait for what is expected, not a fixed time."""
    messages: list[dict[str, Any]] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while not done(messages):
        assert asyncio.get_running_loop().time() < deadline, messages
        await relay.pump()
        while not await ws.receive_nothing(timeout=0.1):
            messages.append(await ws.receive_json_from())
    await relay.pump()
    while not await ws.receive_nothing(timeout=0.5):
        messages.append(await ws.receive_json_from())
    return messages


def board_at(stream: str, version: int) -> Callable[[list[dict[str, Any]]], bool]:
    """Done when a board snapshot shows ``version`` of ``stream``."""
    return lambda ms: any(m["versions"][stream] >= version for m in ms)


def console_at(version: int) -> Callable[[list[dict[str, Any]]], bool]:
    """Done when the event of ``version`` and the clock after it have arrived."""
    return lambda ms: (
        bool(ms)
        and ms[-1]["type"] == "clock"
        and any(m["type"] == "event" and m["version"] == version for m in ms)
    )


def _version(stream: str) -> Any:
    return sync_to_async(store.stream_version)(stream)


def _director(service: Callable[..., Any], tournament_id: int) -> Any:
    """Run a director's clock command through the service, as a Celery task or the API does."""
    return sync_to_async(run_command)(lambda: service(tournament_id=tournament_id))


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_the_public_clock_board_needs_no_login_and_shows_no_player_data(world: dict) -> None:
    tid, stream = world["tournament_id"], world["stream"]

    async def scenario() -> tuple[dict, list[dict], list[dict]]:
        ws, first = await _open(f"/ws/tournaments/{tid}/clock/")
        await sync_to_async(play_hand)(world["tablet"], world["tables"][0], random.Random(6))
        after_hand = await receive_until(
            ws, world["relay"], board_at(stream, await _version(stream))
        )
        paused = await sync_to_async(world["director"].post)(
            f"/api/v1/tournaments/{tid}/clock/pause/"
        )
        assert paused.status_code == 200, paused.json()
        after_pause = await receive_until(
            ws, world["relay"], board_at(stream, await _version(stream))
        )
        await ws.disconnect()
        return first, after_hand, after_pause

    first, after_hand, after_pause = async_to_sync(scenario)()
    messages = [first, *after_hand, *after_pause]
    assert {m["type"] for m in messages} == {"snapshot"}  # never a raw event
    assert first["v"] == 1 and first["versions"] == {stream: world["started_at_version"]}
    state = first["state"]
    assert set(state) == {"tournament_id", "name", "status", "clock"}
    assert (state["tournament_id"], state["status"]) == (tid, "running")
    clock = state["clock"]
    assert set(clock) == CLOCK_FIELDS
    assert (clock["level"], clock["small_blind"], clock["big_blind"]) == (1, 25, 50)
    assert clock["players_left"] == 12 and clock["average_stack"] == 5000
    assert clock["prize_pool"] == 12 * 500 and clock["paused"] is False
    assert after_hand, "a hand dealt and finished sends a new snapshot"
    assert after_hand[-1]["versions"][stream] > first["versions"][stream]
    assert after_pause and after_pause[-1]["state"]["clock"]["paused"] is True
    assert after_pause[-1]["versions"] == {stream: store.stream_version(stream)}
    versions = [m["versions"][stream] for m in messages]
    assert versions == sorted(set(versions))  # one snapshot per new version, in order
    text = json.dumps(messages)
    assert SECRET not in text
    assert not {k for k in _keys(messages) if "player" in k and k != "players_left"}


def test_the_console_feed_sends_a_snapshot_then_events_in_order_each_with_the_clock(
    world: dict,
) -> None:
    tid, stream = world["tournament_id"], world["stream"]

    async def scenario() -> tuple[dict, list[dict]]:
        ws, snapshot = await _open(f"/ws/tournaments/{tid}/?token={world['cashier']}")
        await sync_to_async(play_hand)(world["tablet"], world["tables"][0], random.Random(6))
        await _director(services.pause_clock, tid)  # the director, in-process
        messages = await receive_until(ws, world["relay"], console_at(await _version(stream)))
        await ws.disconnect()
        return snapshot, messages

    snapshot, messages = async_to_sync(scenario)()
    assert snapshot["type"] == "snapshot" and snapshot["v"] == 1
    start = snapshot["versions"][stream]
    tournament = snapshot["state"]["tournament"]
    assert tournament["tournament_id"] == tid and tournament["version"] == start
    assert tournament["clock"]["players_left"] == 12 and tournament["tables"] == world["tables"]
    events = [m for m in messages if m["type"] == "event"]
    end = store.stream_version(stream)
    assert [e["version"] for e in events] == list(range(start + 1, end + 1))  # none missed
    assert {e["stream"] for e in events} == {stream}
    types = [e["event_type"] for e in events]
    assert types[0] == "tournaments.TableHandStarted" and types[-1] == "tournaments.ClockPaused"
    # every event is followed by a clock message; the last one shows the pause
    assert [m["type"] for m in messages] == ["event", "clock"] * len(events)
    clocks = [m for m in messages if m["type"] == "clock"]
    assert all(set(c["clock"]) == CLOCK_FIELDS and c["stream"] == stream for c in clocks)
    assert clocks[-1]["clock"]["paused"] is True
    assert clocks[-1]["state_version"] == store.stream_version(stream)


def test_a_director_resuming_the_console_gets_exactly_what_it_missed(world: dict) -> None:
    tid, stream = world["tournament_id"], world["stream"]
    user = get_user_model().objects.create_user(username=f"td-{uuid.uuid4().hex[:6]}")
    StaffProfile.objects.create(user=user, role="director")
    console = Client()
    console.force_login(user)
    cookie = f"sessionid={console.cookies['sessionid'].value}".encode()

    async def scenario() -> tuple[dict, list[dict], list[dict]]:
        path = f"/ws/tournaments/{tid}/"
        ws, snapshot = await _open(path, headers=[(b"cookie", cookie), *SAME_ORIGIN])
        await ws.disconnect()
        await _director(services.pause_clock, tid)
        await _director(services.resume_clock, tid)
        back = WebsocketCommunicator(
            application,
            # another stream in the resume is ignored: the feed reads only its own
            f"{path}?resume={stream}:{snapshot['versions'][stream]},cage:0",
            headers=[(b"cookie", cookie), *SAME_ORIGIN],
        )
        assert (await back.connect())[0]
        caught_up = await receive_until(back, world["relay"], console_at(await _version(stream)))
        await back.disconnect()
        headers = [(b"cookie", cookie), *SAME_ORIGIN]
        fresh, again = await _open(f"{path}?resume=cage:0", headers=headers)
        await fresh.disconnect()
        return snapshot, caught_up, [again]

    snapshot, caught_up, again = async_to_sync(scenario)()
    assert snapshot["type"] == "snapshot"
    events = [m for m in caught_up if m["type"] == "event"]
    assert [(e["stream"], e["event_type"]) for e in events] == [
        (stream, "tournaments.ClockPaused"),
        (stream, "tournaments.ClockResumed"),
    ]
    assert caught_up[-1]["type"] == "clock" and caught_up[-1]["clock"]["paused"] is False
    assert again[0]["type"] == "snapshot" and set(again[0]["versions"]) == {stream}


def test_the_console_feed_refuses_roles_that_may_not_read_the_tournament(world: dict) -> None:
    tid = world["tournament_id"]

    async def scenario() -> list[tuple[dict, int]]:
        return [
            await _refusal(f"/ws/tournaments/{tid}/?token={world['dealer']}"),
            await _refusal(f"/ws/tournaments/{tid}/"),
            await _refusal(f"/ws/tournaments/{tid}/?token=not-a-token"),
        ]

    for error, code in async_to_sync(scenario)():
        assert (error["type"], error["code"], code) == ("error", "not_allowed", 4403)


def test_a_dealer_tablet_reads_the_public_clock(world: dict) -> None:
    async def scenario() -> dict:
        path = f"/ws/tournaments/{world['tournament_id']}/clock/?token={world['dealer']}"
        ws, first = await _open(path)
        await ws.disconnect()
        return first

    first = async_to_sync(scenario)()
    assert first["type"] == "snapshot" and first["state"]["clock"]["level"] == 1


def test_an_unknown_tournament_is_closed_with_4404(world: dict) -> None:
    unknown = world["tournament_id"] + 1000

    async def scenario() -> list[tuple[dict, int]]:
        return [
            await _refusal(f"/ws/tournaments/{unknown}/clock/"),
            await _refusal(f"/ws/tournaments/{unknown}/?token={world['cashier']}"),
        ]

    for error, code in async_to_sync(scenario)():
        assert (error["type"], error["code"], code) == ("error", "not_found", 4404)
