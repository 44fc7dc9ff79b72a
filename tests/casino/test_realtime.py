"""Live feeds over WebSockets (Channels communicator, Redis channel layer, PostgreSQL).

A tablet receives every event of a hand in order; a client that reconnects with the
versions it saw ends with the same events as one that stayed; repeats are dropped and
gaps filled; a writer that dies right after commit loses no push (pushes come from the
log); anonymous clients are refused.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from casino.eventstore import store
from casino.eventstore.models import SubscriptionCursor
from casino.models import Device, Player
from casino.realtime.relay import Relay
from tests.conftest import NLH_10_20, TabletClient

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def play_hand(tablet: TabletClient, table_id: int, *, stop_after: int | None = None) -> str:
    """A raise and folds around to the end (or stop after ``stop_after`` actions)."""
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {}).json()
    assert "phase" in hand, hand
    done = 0
    while hand["phase"] == "betting" and (stop_after is None or done < stop_after):
        body = {"seat": hand["to_act"], "action": "fold"}
        if done == 0:
            body = {"seat": hand["to_act"], "action": "raise", "amount_to": 60}
        hand = tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/", body).json()
        assert "phase" in hand, hand
        done += 1
    return str(hand["hand_id"])


def finish_hand(tablet: TabletClient, hand_id: str) -> None:
    hand = tablet.get(f"/api/v1/hands/{hand_id}/").json()
    while hand["phase"] == "betting":
        hand = tablet.post(f"/api/v1/hands/{hand_id}/actions/",
                           {"seat": hand["to_act"], "action": "fold"}).json()  # fmt: skip


async def receive_all(ws: WebsocketCommunicator, relay: Relay) -> list[dict[str, Any]]:
    """Pump the relay and take every message until both are quiet. The relay reads only
    below the oldest transaction running anywhere on the server, so it may need a few
    rounds while another client holds a transaction open."""
    messages: list[dict[str, Any]] = []
    quiet_rounds = 0
    while quiet_rounds < 3:
        pumped = await relay.pump()
        received = 0
        while not await ws.receive_nothing(timeout=0.3):
            messages.append(await ws.receive_json_from())
            received += 1
        quiet_rounds = 0 if pumped or received else quiet_rounds + 1
    return messages


def logged(table_id: int, hand_ids: list[str]) -> list[tuple[str, int]]:
    streams = [f"table-{table_id}"] + [f"hand-{h}" for h in hand_ids]
    return sorted((e.stream, e.version) for s in streams for e in store.read_stream(s))


def test_tablet_gets_a_snapshot_then_every_event_of_a_hand_in_order(world: dict) -> None:
    async def scenario() -> tuple[dict, list[dict]]:
        ws = WebsocketCommunicator(
            application, f"/ws/tables/{world['table_id']}/?token={world['token']}"
        )
        connected, _ = await ws.connect()
        assert connected
        snapshot = await ws.receive_json_from()
        hand_id = await sync_to_async(play_hand)(world["tablet"], world["table_id"])
        events = await receive_all(ws, world["relay"])
        await ws.disconnect()
        return snapshot | {"hand_id": hand_id}, events

    snapshot, events = async_to_sync(scenario)()
    table_stream = f"table-{world['table_id']}"
    assert snapshot["type"] == "snapshot" and snapshot["v"] == 1
    assert snapshot["versions"] == {table_stream: 4}  # opened + three seats
    assert [s["seat"] for s in snapshot["state"]["table"]["seats"]] == [1, 2, 3]
    received = sorted((e["stream"], e["version"]) for e in events)
    assert received == [p for p in logged(world["table_id"], [snapshot["hand_id"]]) if
                        p[0] != table_stream or p[1] > 4]  # fmt: skip
    for stream in {e["stream"] for e in events}:
        versions = [e["version"] for e in events if e["stream"] == stream]
        assert versions == sorted(versions)  # in order per stream
    types = [e["event_type"] for e in events if e["stream"].startswith("hand-")]
    assert types[0] == "tables.HandStarted" and types[-1] == "tables.HandSettled"


def test_reconnecting_client_gets_exactly_what_it_missed(world: dict) -> None:
    async def scenario() -> tuple[list[dict], list[dict]]:
        path = f"/ws/tables/{world['table_id']}/?token={world['token']}"
        steady, flaky = (
            WebsocketCommunicator(application, path),
            WebsocketCommunicator(application, path),
        )
        await steady.connect()
        await flaky.connect()
        await steady.receive_json_from()
        snapshot = await flaky.receive_json_from()
        hand_id = await sync_to_async(play_hand)(world["tablet"], world["table_id"], stop_after=1)
        seen = await receive_all(flaky, world["relay"])
        await flaky.disconnect()  # the tablet loses its connection mid-hand
        await sync_to_async(finish_hand)(world["tablet"], hand_id)
        await sync_to_async(play_hand)(world["tablet"], world["table_id"])
        versions = dict(snapshot["versions"])
        for event in seen:
            versions[event["stream"]] = event["version"]
        resume = ",".join(f"{s}:{v}" for s, v in versions.items())
        back = WebsocketCommunicator(application, f"{path}&resume={resume}")
        await back.connect()
        caught_up = await receive_all(back, world["relay"])
        steady_events = await receive_all(steady, world["relay"])
        await back.disconnect()
        await steady.disconnect()
        return seen + caught_up, steady_events

    flaky_events, steady_events = async_to_sync(scenario)()

    def keys(events: list[dict]) -> list[tuple[str, int]]:
        return [(e["stream"], e["version"]) for e in events]

    assert len(keys(flaky_events)) == len(set(keys(flaky_events)))  # no duplicates
    table_stream = f"table-{world['table_id']}"
    flaky_table = [v for s, v in keys(flaky_events) if s == table_stream]
    steady_table = [v for s, v in keys(steady_events) if s == table_stream]
    assert flaky_table == steady_table  # the table stream, gapless and in order
    # the hand the flaky client was following is complete too; the next hand began on the
    # table stream (HandBegan), and its own events are the table feed's to send on connect
    flaky_hands = {s for s, _ in keys(flaky_events) if s.startswith("hand-")}
    for stream in flaky_hands:
        versions = [v for s, v in keys(flaky_events) if s == stream]
        assert versions == list(range(1, store.stream_version(stream) + 1))


def test_repeats_are_dropped_and_gaps_filled(world: dict) -> None:
    async def scenario() -> list[dict]:
        ws = WebsocketCommunicator(
            application, f"/ws/tables/{world['table_id']}/?token={world['token']}"
        )
        await ws.connect()
        await ws.receive_json_from()
        await sync_to_async(play_hand)(world["tablet"], world["table_id"], stop_after=2)
        relay = world["relay"]
        first = await receive_all(ws, relay)
        # a relay restarted from an old cursor pushes everything again: nothing repeats
        await sync_to_async(SubscriptionCursor.objects.filter(name=relay.name).update)(
            transaction_id=0, position=0
        )
        again = Relay(name=relay.name)
        repeats = await receive_all(ws, again)
        await again.close()
        await ws.disconnect()
        return first + repeats

    events = async_to_sync(scenario)()
    keys = [(e["stream"], e["version"]) for e in events]
    assert len(keys) == len(set(keys)) and keys


def test_a_hand_over_before_the_snapshot_is_not_sent_after_it(
    world: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand that begins after a socket joined its table's group and ends before its
    snapshot is read (a slow connect in a busy room): the snapshot holds it (the table after
    the hand, no hand in play), so none of its events follows the snapshot, though their
    pushes wait in the socket's queue. Before, the last push found a stream the snapshot had
    not named and the feed sent the whole finished hand again, seconds late. The next hand
    arrives whole, in order."""
    from casino.realtime.consumers import LogFeedConsumer

    read_snapshot = LogFeedConsumer._read_snapshot
    over: list[str] = []

    def slow_connect(self: LogFeedConsumer) -> Any:
        if not over:  # the socket is in its group: a whole hand is played and pushed
            over.append(play_hand(world["tablet"], world["table_id"]))
            while async_to_sync(world["relay"].pump)():
                pass
        return read_snapshot(self)

    monkeypatch.setattr(LogFeedConsumer, "_read_snapshot", slow_connect)

    async def scenario() -> tuple[dict, list[dict], str]:
        ws = WebsocketCommunicator(
            application, f"/ws/tables/{world['table_id']}/?v=2&token={world['token']}"
        )
        await ws.connect()
        snapshot = await ws.receive_json_from()
        next_hand = await sync_to_async(play_hand)(world["tablet"], world["table_id"])
        messages = await receive_all(ws, world["relay"])
        await ws.disconnect()
        return snapshot, messages, next_hand

    snapshot, messages, next_hand = async_to_sync(scenario)()
    table = f"table-{world['table_id']}"
    assert snapshot["type"] == "snapshot" and snapshot["state"]["hand"] is None
    assert snapshot["versions"] == {table: snapshot["state"]["table"]["version"]}
    assert f"hand-{over[0]}" not in {m.get("stream") for m in messages}
    assert [(m["stream"], m["version"]) for m in messages if m["stream"] != table] == [
        (f"hand-{next_hand}", v) for v in range(1, store.stream_version(f"hand-{next_hand}") + 1)
    ]
    table_versions = [m["version"] for m in messages if m["stream"] == table]
    assert table_versions == list(
        range(snapshot["versions"][table] + 1, store.stream_version(table) + 1)
    )


def test_a_socket_forgets_old_streams_with_a_fresh_snapshot(
    world: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory per socket is bounded: past ``SENT_STREAMS_MAX`` streams (a table's feed meets
    a new hand stream every hand) the socket gets a snapshot with ``reason:
    "streams_limit"`` and forgets the rest. Nothing committed before that snapshot is sent
    after it, and every later event still arrives once, in order."""
    from casino.realtime import consumers

    monkeypatch.setattr(consumers, "SENT_STREAMS_MAX", 2)  # two hands beyond the snapshot's

    async def scenario() -> tuple[list[dict], list[str]]:
        ws = WebsocketCommunicator(
            application, f"/ws/tables/{world['table_id']}/?v=2&token={world['token']}"
        )
        await ws.connect()
        messages = [await ws.receive_json_from()]
        hands = []
        for _ in range(5):
            hands.append(await sync_to_async(play_hand)(world["tablet"], world["table_id"]))
            messages += await receive_all(ws, world["relay"])
        await ws.disconnect()
        return messages, hands

    messages, hands = async_to_sync(scenario)()
    snapshots = [i for i, m in enumerate(messages) if m["type"] == "snapshot"]
    assert [messages[i].get("reason") for i in snapshots] == [None, "streams_limit"]
    limit = messages[snapshots[1]]
    before, after = messages[1 : snapshots[1]], messages[snapshots[1] + 1 :]
    # before: the first three hands' streams were followed until the third pushed past 2
    assert {e["stream"] for e in before} == {f"table-{world['table_id']}"} | {
        f"hand-{h}" for h in hands[:3]
    }
    cut = store.parse_cursor(limit["cursor"])
    assert cut is not None
    for event in after:
        assert event["type"] == "event"
        parsed = store.parse_cursor(event["cursor"])
        assert parsed is not None and parsed > cut, event  # nothing from before, again
        assert event["version"] > limit["versions"].get(event["stream"], 0)
    keys = [(e["stream"], e["version"]) for e in after]
    assert len(keys) == len(set(keys))
    for hand in hands[3:]:  # the hands after the snapshot arrive whole, in order
        versions = [v for s, v in keys if s == f"hand-{hand}"]
        assert versions == list(range(1, store.stream_version(f"hand-{hand}") + 1))


class DroppingLayer:
    """The channel layer, except that group sends are lost while ``dropping`` (Redis
    pub/sub delivers at most once: a dropped connection loses what was published)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.dropping, self.dropped = inner, False, 0

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.dropping:
            self.dropped += 1
            return
        await self.inner.group_send(group, message)


def test_a_lost_relay_batch_is_read_from_the_log_whole_hands_included(world: dict) -> None:
    """Issue #11: a batch of pushes lost between the relay and the server (a hand that
    began and ended inside it) reaches the tablet when the next batch shows the gap in the
    relay's numbering: every event once, in order per stream."""

    async def scenario() -> tuple[list[dict], list[str], int]:
        from channels.layers import get_channel_layer

        layer = DroppingLayer(get_channel_layer())
        relay = Relay(name=world["relay"].name, layer=layer)  # type: ignore[arg-type]
        ws = WebsocketCommunicator(
            application, f"/ws/tables/{world['table_id']}/?token={world['token']}"
        )
        await ws.connect()
        await ws.receive_json_from()
        hands = [await sync_to_async(play_hand)(world["tablet"], world["table_id"])]
        events = await receive_all(ws, relay)
        layer.dropping = True
        hands.append(await sync_to_async(play_hand)(world["tablet"], world["table_id"]))
        events += await receive_all(ws, relay)
        layer.dropping = False
        hands.append(await sync_to_async(play_hand)(world["tablet"], world["table_id"]))
        events += await receive_all(ws, relay)
        await relay.close()
        await ws.disconnect()
        return events, hands, layer.dropped

    events, hands, dropped = async_to_sync(scenario)()
    assert dropped >= 1
    keys = [(e["stream"], e["version"]) for e in events]
    assert len(keys) == len(set(keys))  # no duplicates
    table_stream = f"table-{world['table_id']}"
    assert sorted(keys) == [p for p in logged(world["table_id"], hands)
                            if p[0] != table_stream or p[1] > 4]  # fmt: skip
    lost_hand = f"hand-{hands[1]}"
    assert [v for s, v in keys if s == lost_hand] == list(
        range(1, store.stream_version(lost_hand) + 1)
    )


def test_the_relay_numbers_each_group_and_forgets_the_oldest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each group's messages are numbered 1, 2, ... in the relay's term; the numbers of at
    most SEQUENCE_GROUPS groups are kept (groups come and go with hands and players), the
    least recently sent to forgotten first."""
    from casino.realtime import relay as relay_module

    monkeypatch.setattr(relay_module, "SEQUENCE_GROUPS", 2)
    relay = Relay(name="numbering")
    assert [relay.next_seq("table-1"), relay.next_seq("table-1"), relay.next_seq("hand-a")] == [
        1, 2, 1]  # fmt: skip
    relay.next_seq("table-1")  # table-1 is now the most recent; hand-a the oldest
    relay.next_seq("hand-b")  # a third group: hand-a is forgotten
    assert len(relay._sequence) == 2
    assert relay.next_seq("table-1") == 4
    assert relay.next_seq("hand-a") == 1


def test_a_writer_killed_right_after_commit_loses_no_push(world: dict) -> None:
    script = "\n".join(
        [
            "import os, django",
            "django.setup()",
            "from django.db import transaction",
            "from casino.eventstore import store",
            "from tables.cash_events import RefreshmentPaid",
            "from tables.models import SeatView",
            f"t = {world['table_id']}",
            "p = SeatView.objects.get(table_id=t, seat=1).player_id",
            "with transaction.atomic():",
            "    v = store.stream_version(f'table-{t}')",
            "    store.append(f'table-{t}', [RefreshmentPaid(t, 1, p, 10)], expected_version=v)",
            "os._exit(0)  # dies right after the commit, before anything could be pushed",
        ]
    )

    async def scenario() -> list[dict]:
        ws = WebsocketCommunicator(
            application, f"/ws/tables/{world['table_id']}/?token={world['token']}"
        )
        await ws.connect()
        await ws.receive_json_from()
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "casino.settings",
               "DATABASE_URL": _test_database_url()}  # fmt: skip
        await sync_to_async(subprocess.run)(
            [sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=60
        )
        events = await receive_all(ws, world["relay"])
        await ws.disconnect()
        return events

    events = async_to_sync(scenario)()
    assert [e["event_type"] for e in events] == ["cashgame.RefreshmentPaid"]


def _test_database_url() -> str:
    from django.db import connection

    settings = connection.settings_dict
    return f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"


def test_floor_feed_gets_every_table_and_anonymous_is_refused(world: dict) -> None:
    async def scenario() -> tuple[dict, list[dict], int]:
        floor = WebsocketCommunicator(application, f"/ws/floor/?token={world['token']}")
        await floor.connect()
        snapshot = await floor.receive_json_from()
        await sync_to_async(play_hand)(world["tablet"], world["table_id"])
        events = await receive_all(floor, world["relay"])
        await floor.disconnect()
        anonymous = WebsocketCommunicator(application, f"/ws/tables/{world['table_id']}/")
        await anonymous.connect()
        refusal = await anonymous.receive_json_from()
        closed = await anonymous.receive_output()
        assert refusal["type"] == "error"
        return snapshot, events, closed["code"]

    snapshot, events, code = async_to_sync(scenario)()
    assert [t["table_id"] for t in snapshot["state"]["tables"]] == [world["table_id"]]
    assert events and all(e["stream"] == f"table-{world['table_id']}" for e in events)
    assert {e["event_type"] for e in events} == {"tables.HandBegan", "tables.HandEnded"}
    assert code == 4403


def test_feeds_follow_the_permission_matrix(world: dict) -> None:
    own = Device.objects.create(name="own", role=Device.Role.DEALER, table_id=world["table_id"])
    other = Device.objects.create(name="other", role=Device.Role.DEALER, table_id=999)

    async def first_message(path: str) -> dict[str, Any]:
        ws = WebsocketCommunicator(application, path)
        await ws.connect()
        message = await ws.receive_json_from()
        await ws.disconnect()
        return dict(message)

    async def scenario() -> list[str]:
        table = f"/ws/tables/{world['table_id']}/?token="
        return [
            (await first_message(table + own.token))["type"],
            (await first_message(table + other.token))["type"],
            (await first_message(f"/ws/floor/?token={own.token}"))["type"],
        ]

    assert async_to_sync(scenario)() == ["snapshot", "error", "error"]


def test_resume_never_reads_streams_of_another_feed(world: dict) -> None:
    """A tablet naming another table's stream, the cage or a hand of another table in
    ``?resume=`` gets none of their events: only its own table's streams are resumed."""
    tablet = world["tablet"]
    other = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "other"}).json()["table_id"]
    for n in (1, 2):
        player = Player.objects.create(name=f"o{n}")
        tablet.post(f"/api/v1/tables/{other}/seats/",
                    {"player_id": player.id, "seat": n, "buy_in": 1000})  # fmt: skip
    foreign_hand = play_hand(tablet, other)

    async def scenario() -> list[dict]:
        resume = f"table-{other}:0,hand-{foreign_hand}:0,cage:0,table-{world['table_id']}:0"
        path = f"/ws/tables/{world['table_id']}/?token={world['token']}&resume={resume}"
        ws = WebsocketCommunicator(application, path)
        await ws.connect()
        messages = await receive_all(ws, world["relay"])
        await ws.disconnect()
        return messages

    streams = {m.get("stream") for m in async_to_sync(scenario)()}
    assert streams == {f"table-{world['table_id']}"}
