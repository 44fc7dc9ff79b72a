"""Issue #11, in process (Channels communicator, Redis channel layer, PostgreSQL):

* a tablet offline across several whole hands resumes with every event, hands it never
  heard of included, none twice (format v2 cursor, and v1 versions);
* a resume that cannot be honoured gets a snapshot with a reason, never a silent feed;
* revoking a device closes its socket at once; a console socket must come from our Origin;
* the relay is woken by NOTIFY (not by its poll), batches, and only one relay pushes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.db import connections, transaction
from django.test import Client
from django.utils import timezone

from casino.asgi import application
from casino.eventstore import store
from casino.models import Device, StaffProfile
from casino.realtime.relay import Relay
from tests.casino.test_realtime import play_hand, receive_all

pytestmark = pytest.mark.django_db(transaction=True)


def _logged_since(table_id: int, hand_ids: list[str], table_version: int) -> list[Any]:
    streams = [f"hand-{h}" for h in hand_ids]
    table = [(f"table-{table_id}", e.version) for e in store.read_stream(f"table-{table_id}")]
    hands = [(s, e.version) for s in streams for e in store.read_stream(s)]
    return sorted([t for t in table if t[1] > table_version] + hands)


@pytest.mark.parametrize("fmt", ["v2", "v1"])
def test_offline_across_whole_hands_resumes_with_every_event_once(world: dict, fmt: str) -> None:
    """The tablet goes offline, three whole hands are played, it comes back with what it
    last saw: it gets every event since, including the three hands' streams it never
    heard of, each once, in order per stream."""
    path = f"/ws/tables/{world['table_id']}/?token={world['token']}&v=2"

    async def scenario() -> tuple[dict, list[dict], list[str]]:
        ws = WebsocketCommunicator(application, path)
        await ws.connect()
        snapshot = await ws.receive_json_from()
        await ws.disconnect()
        hands = [await sync_to_async(play_hand)(world["tablet"], world["table_id"]) for _ in "123"]
        versions = ",".join(f"{s}:{v}" for s, v in snapshot["versions"].items())
        query = f"&resume={versions}"
        if fmt == "v2":
            query += f"&cursor={snapshot['cursor']}"
        back = WebsocketCommunicator(application, path + query)
        await back.connect()
        caught_up = await receive_all(back, world["relay"])
        await back.disconnect()
        return snapshot, caught_up, hands

    snapshot, caught_up, hands = async_to_sync(scenario)()
    assert snapshot["v"] == 2 and snapshot["cursor"]
    keys = [(e["stream"], e["version"]) for e in caught_up]
    assert len(keys) == len(set(keys))  # nothing twice
    table_version = snapshot["versions"][f"table-{world['table_id']}"]
    assert sorted(keys) == _logged_since(world["table_id"], hands, table_version)  # no gap
    assert {f"hand-{h}" for h in hands} <= {s for s, _ in keys}  # hands it never heard of
    for stream in {s for s, _ in keys}:
        seen = [v for s, v in keys if s == stream]
        assert seen == sorted(seen)
    assert all(e["v"] == 2 and e["cursor"] for e in caught_up)


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("resume=table-{t}:999999", "version_ahead_of_log"),
        ("resume=table-{t}:1&cursor=999999999.999999999", "cursor_ahead_of_log"),
        ("resume=table-{t}:1&cursor=not-a-cursor", "bad_cursor"),
        ("resume=cage:3", "nothing_to_resume"),
        # malformed parts are ignored: a negative, oversized or unreadable version
        ("resume=table-{t}:-3", "nothing_to_resume"),
        ("resume=table-{t}:99999999999999999999999999", "nothing_to_resume"),
        ("resume=%25%25,:,x:y", "nothing_to_resume"),
        ("resume=table-{t}:1&cursor=99999999999999999999999999.1", "bad_cursor"),
        # a cursor with none of the feed's streams: no state to build on (it got events
        # from version 1 and no table, found by QA)
        ("cursor=1.1", "nothing_to_resume"),
        ("cursor=1.1&resume=", "nothing_to_resume"),
        ("cursor=1.1&resume=table-77777:3", "nothing_to_resume"),
    ],
)
def test_a_resume_that_cannot_be_honoured_gets_a_snapshot_and_the_reason(
    world: dict, query: str, reason: str
) -> None:
    path = f"/ws/tables/{world['table_id']}/?token={world['token']}&v=2&"
    path += query.format(t=world["table_id"])

    async def scenario() -> dict:
        ws = WebsocketCommunicator(application, path)
        await ws.connect()
        message = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return dict(message)

    message = async_to_sync(scenario)()
    assert message["type"] == "snapshot"
    assert message["reason"] == reason
    assert message["versions"][f"table-{world['table_id']}"] == 4


def test_revoking_a_device_closes_its_socket_within_a_second(world: dict) -> None:
    dealer = Device.objects.create(
        name=f"d-{uuid.uuid4().hex[:6]}", role=Device.Role.DEALER, table_id=world["table_id"]
    )

    async def scenario() -> tuple[dict, Any, float]:
        ws = WebsocketCommunicator(
            application, f"/ws/tables/{world['table_id']}/?token={dealer.token}"
        )
        await ws.connect()
        await ws.receive_json_from()
        began = time.monotonic()
        response = await sync_to_async(world["tablet"].post)(f"/api/v1/devices/{dealer.pk}/revoke/")
        assert response.status_code == 200, response.json()
        message = await ws.receive_json_from(timeout=1)
        closed = await ws.receive_output(timeout=1)
        return message, closed, time.monotonic() - began

    message, closed, seconds = async_to_sync(scenario)()
    assert message["type"] == "error" and message["code"] == "revoked"
    assert closed == {"type": "websocket.close", "code": 4401}
    assert seconds < 1.0


def floor_console() -> tuple[Any, Client, str]:
    """A new floor user logged in on a console: ``(user, client, session key)``."""
    user = get_user_model().objects.create_user(username=f"fl-{uuid.uuid4().hex[:6]}")
    StaffProfile.objects.create(user=user, role="floor")
    console = Client()
    console.force_login(user)
    return user, console, console.cookies["sessionid"].value


def floor_socket_after(key: str, act: Any, timeout: float = 1) -> tuple[dict, Any]:
    """Open the floor feed with session ``key``, run ``act`` once it is live: the next
    message and what the socket did next."""

    async def scenario() -> tuple[dict, Any]:
        cookie = f"sessionid={key}".encode()
        headers = [(b"cookie", cookie), (b"host", b"testserver"), (b"origin", b"http://testserver")]
        ws = WebsocketCommunicator(application, "/ws/floor/", headers=headers)
        await ws.connect()
        assert (await ws.receive_json_from())["type"] == "snapshot"
        await sync_to_async(act)()
        message = await ws.receive_json_from(timeout=timeout)
        closed = await ws.receive_output(timeout=1)
        return message, closed

    return async_to_sync(scenario)()


@pytest.mark.parametrize("change", ["logout", "password", "role"])
def test_a_consoles_socket_closes_on_logout_a_new_password_or_a_new_role(
    world: dict, change: str
) -> None:
    """A console's socket is authorised when it opens: logging out, a new password (which
    ends the account's sessions) or a new role close it, so that it is authorised afresh
    (a cashier may not read the floor's feed)."""
    user, console, key = floor_console()

    def act() -> None:
        if change == "logout":
            response = console.post(
                "/api/v1/auth/logout/", "{}", content_type="application/json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )  # fmt: skip
        else:
            body = {"password": "Green-felt-4711x"} if change == "password" else {"role": "cashier"}
            response = world["tablet"].http.patch(
                f"/api/v1/staff/{user.pk}/", body, format="json",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )  # fmt: skip
        assert response.status_code == 200, response.content

    message, closed = floor_socket_after(key, act)
    assert message["type"] == "error" and message["code"] == "revoked"
    assert closed == {"type": "websocket.close", "code": 4401}


def test_a_device_socket_closes_when_its_token_was_replaced_where_no_message_reached_it(
    world: dict, settings: Any
) -> None:
    """A second embedded ``up`` kept a socket on the demo token that the first one replaced
    (its channel layer is its own, so no revocation message came; found by QA): the
    socket re-checks its token and closes once it no longer authenticates."""
    from casino.auth import forget_device
    from casino.models import hash_token

    settings.SESSION_SOCKET_CHECK_SECONDS = 0.2
    dealer = Device.objects.create(
        name=f"d-{uuid.uuid4().hex[:6]}", role=Device.Role.DEALER, table_id=world["table_id"]
    )
    old = dealer.token

    async def scenario() -> tuple[dict, Any]:
        ws = WebsocketCommunicator(application, f"/ws/tables/{world['table_id']}/?token={old}")
        await ws.connect()
        await ws.receive_json_from()
        # another process minted a new token: a bare UPDATE, no signal, no group message
        await sync_to_async(
            lambda: Device.objects.filter(pk=dealer.pk).update(token_hash=hash_token("fresh"))
        )()
        forget_device(hash_token(old))  # past this process's token cache
        message = await ws.receive_json_from(timeout=2)
        closed = await ws.receive_output(timeout=1)
        return message, closed

    message, closed = async_to_sync(scenario)()
    assert message["type"] == "error" and message["code"] == "revoked"
    assert closed == {"type": "websocket.close", "code": 4401}


@pytest.mark.parametrize("ending", ["deleted", "expired"])
def test_a_consoles_socket_closes_when_its_session_ends(
    world: dict, ending: str, settings: Any
) -> None:
    """An open floor feed went on pushing events after its session had ended, while the
    REST API already answered 401 (found by QA): the socket closes once the session row is
    gone or past its expiry."""
    from django.contrib.sessions.models import Session

    settings.SESSION_SOCKET_CHECK_SECONDS = 0.2
    _, _, key = floor_console()

    def end() -> None:
        if ending == "deleted":
            Session.objects.filter(session_key=key).delete()
        else:
            Session.objects.filter(session_key=key).update(expire_date=timezone.now())

    message, closed = floor_socket_after(key, end, timeout=2)
    assert message["type"] == "error" and message["code"] == "session_expired"
    assert closed == {"type": "websocket.close", "code": 4401}


def first_message(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    """The first message a socket at ``path`` opened with ``headers`` receives."""

    async def scenario() -> dict[str, Any]:
        ws = WebsocketCommunicator(application, path, headers=headers)
        await ws.connect()
        message = await ws.receive_json_from()
        await ws.disconnect()
        return dict(message)

    return async_to_sync(scenario)()


@pytest.mark.parametrize(
    ("origin", "allowed"), [(b"http://testserver", True), (b"https://evil.example", False)]
)
def test_a_console_socket_must_come_from_our_origin(origin: bytes, allowed: bool) -> None:
    user = get_user_model().objects.create_user(username=f"fl-{uuid.uuid4().hex[:6]}")
    StaffProfile.objects.create(user=user, role="floor")
    console = Client()
    console.force_login(user)
    cookie = f"sessionid={console.cookies['sessionid'].value}".encode()

    headers = [(b"cookie", cookie), (b"host", b"testserver"), (b"origin", origin)]
    message = first_message("/ws/floor/", headers)
    if allowed:
        assert message["type"] == "snapshot"
    else:
        assert message == {
            "type": "error",
            "v": 1,
            "code": "bad_origin",
            "detail": message["detail"],
        }


def _run_relay(relay: Relay, stop: threading.Event) -> threading.Thread:
    """Run ``relay`` in a thread with its own event loop until ``stop`` is set."""

    def target() -> None:
        async def main() -> None:
            halt = asyncio.Event()
            task = asyncio.create_task(relay.run(halt))
            while not stop.is_set():
                await asyncio.sleep(0.02)
            halt.set()
            await task

        try:
            asyncio.run(main())
        finally:
            connections.close_all()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread


@contextlib.asynccontextmanager
async def _relay_running(relay: Relay, stream: str) -> AsyncIterator[str]:
    """``relay`` running in a thread of its own for a second already, and a channel of
    ``stream``'s group to receive its pushes on; the relay is stopped on leaving."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(f"stream-{stream}", channel)
    await sync_to_async(relay.load_cursor)()
    stop = threading.Event()
    thread = _run_relay(relay, stop)
    try:
        await asyncio.sleep(1.0)
        yield channel
    finally:
        stop.set()
        await sync_to_async(thread.join)(15)


def _append(stream: str, count: int) -> None:
    from tests.casino.test_eventstore import Deposited

    with transaction.atomic():
        version = store.stream_version(stream)
        store.append(stream, [Deposited(n) for n in range(count)], expected_version=version)


def test_the_relay_is_woken_by_notify_and_batches_a_group_s_events() -> None:
    """With a 10 s poll, an event still arrives within a second (NOTIFY at commit), and 300
    events of one stream committed together reach its group in two messages."""
    layer = get_channel_layer()
    relay = Relay(name=f"relay-{uuid.uuid4().hex[:6]}", poll=10.0)
    stream = f"acct-{uuid.uuid4().hex[:6]}"

    async def listen(channel: str, want: int, timeout: float) -> list[dict]:
        messages: list[dict] = []
        got = 0
        deadline = time.monotonic() + timeout
        while got < want and time.monotonic() < deadline:
            try:
                message = await asyncio.wait_for(layer.receive(channel), 0.5)
            except TimeoutError:
                continue
            messages.append(message)
            got += len(message["events"])
        return messages

    async def scenario() -> tuple[float, list[dict]]:
        async with _relay_running(relay, stream) as channel:  # the relay is listening
            began = time.monotonic()
            await sync_to_async(_append)(stream, 1)
            first = await listen(channel, 1, 5)
            latency = time.monotonic() - began
            await sync_to_async(_append)(stream, 300)
            batch = await listen(channel, 300, 10)
        assert [e["version"] for m in first for e in m["events"]] == [1]
        return latency, batch

    latency, batch = async_to_sync(scenario)()
    assert latency < 1.0
    assert [e["version"] for m in batch for e in m["events"]] == list(range(2, 302))
    assert len(batch) <= 2  # 200 events per message at most


def test_a_polling_relay_is_woken_by_a_commit_in_its_own_process() -> None:
    """The embedded mode's relay (SQLite: no NOTIFY, so the polling path) pushes an event
    committed in its own process at once, not at its next poll (10 s here); an append
    rolled back before it is never pushed."""
    layer = get_channel_layer()
    relay = Relay(name=f"relay-{uuid.uuid4().hex[:6]}", poll=10.0)
    relay.postgres = False  # the path SQLite takes, on the test database
    stream = f"acct-{uuid.uuid4().hex[:6]}"

    def rolled_back() -> None:
        from tests.casino.test_eventstore import Deposited

        with contextlib.suppress(RuntimeError), transaction.atomic():
            store.append(stream, [Deposited(99)], expected_version=0)
            raise RuntimeError("the command failed")

    async def scenario() -> tuple[float, list[int]]:
        async with _relay_running(relay, stream) as channel:  # read once, waits for its poll
            await sync_to_async(rolled_back)()
            began = time.monotonic()
            await sync_to_async(_append)(stream, 1)
            message = await asyncio.wait_for(layer.receive(channel), 5)
            latency = time.monotonic() - began
        return latency, [e["data"]["amount"] for e in message["events"]]

    latency, amounts = async_to_sync(scenario)()
    assert latency < 1.0
    assert amounts == [0]


def test_only_one_relay_pushes_and_a_standby_takes_over() -> None:
    name = f"relay-{uuid.uuid4().hex[:6]}"
    active, standby = Relay(name=name, standby_poll=0.1), Relay(name=name, standby_poll=0.1)
    stop_active, stop_standby = threading.Event(), threading.Event()
    threads = [_run_relay(active, stop_active)]
    time.sleep(1.0)
    threads.append(_run_relay(standby, stop_standby))
    try:
        time.sleep(1.0)
        assert active.active and not standby.active
        _append(f"acct-{uuid.uuid4().hex[:6]}", 3)
        deadline = time.monotonic() + 5
        while active.pushed < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (active.pushed, standby.pushed) == (3, 0)
        stop_active.set()
        threads[0].join(10)
        deadline = time.monotonic() + 2
        while not standby.active and time.monotonic() < deadline:
            time.sleep(0.05)
        assert standby.active  # took over within 2 s
        assert standby.cursor == active.cursor  # from the stored cursor: nothing again
        _append(f"acct-{uuid.uuid4().hex[:6]}", 2)
        deadline = time.monotonic() + 5
        while standby.pushed < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert standby.pushed == 2
    finally:
        stop_active.set()
        stop_standby.set()
        for thread in threads:
            thread.join(10)


def test_the_relay_command_takes_a_gather_time_and_refuses_one_that_is_not_live(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``manage.py relay --gather S`` runs the relay with that gather time; a negative one,
    or one past ``MAX_GATHER`` (pushes that would no longer be live), is refused before
    the relay starts."""
    from django.core.management import CommandError, call_command

    from casino.management.commands.relay import MAX_GATHER

    started: list[float] = []

    async def record_gather(self: Relay, stop: asyncio.Event) -> None:
        started.append(self.gather)

    monkeypatch.setattr(Relay, "run", record_gather)
    call_command("relay", "--gather", "0.05")
    call_command("relay")
    assert started == [0.05, 0.01]
    for bad in ("-0.01", str(MAX_GATHER + 0.5)):
        with pytest.raises(CommandError, match="--gather"):
            call_command("relay", "--gather", bad)
    assert started == [0.05, 0.01]


@pytest.mark.parametrize(
    ("headers", "detail"),
    [
        ([], "Not authenticated or allowed."),
        ([(b"cookie", b"django_language=cs")], "Nepřihlášeno nebo bez oprávnění."),
        ([(b"accept-language", b"cs-CZ,cs;q=0.9,en;q=0.5")], "Nepřihlášeno nebo bez oprávnění."),
        ([(b"cookie", b"django_language=xx")], "Not authenticated or allowed."),
    ],
)
def test_a_feed_refuses_in_the_language_of_the_page(
    headers: list[tuple[bytes, bytes]], detail: str
) -> None:
    """A socket's refusal is said in the console's language, as the REST refusals are (a
    Czech tablet showed "Feed: Not authenticated or allowed.")."""
    message = first_message("/ws/floor/?token=not-a-token", headers)
    assert (message["code"], message["detail"]) == ("not_allowed", detail)
