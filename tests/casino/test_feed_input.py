"""What a client sends to the live feeds (found by probing a fresh ``up``, issue #11): the
feeds are read-only and ignore every frame, JSON or not, instead of dying without a close
frame; a WebSocket path no app routes is refused with ``not_found`` and close code 4404,
instead of a server error at the handshake."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from casino.asgi import application
from tests.conftest import TabletClient

pytestmark = pytest.mark.django_db(transaction=True)

FRAMES: list[dict[str, Any]] = [
    {"text_data": "not json"},
    {"text_data": "[1, 2"},
    {"bytes_data": b"\x00\xff\xfe"},
    {"text_data": '{"type": "log.events", "events": []}'},  # not a relay message
]


@pytest.mark.parametrize("feed", ["table", "waitlist board"])
def test_a_feed_ignores_whatever_the_client_sends_and_stays_open(
    tablet: TabletClient, nlh_table: int, feed: str
) -> None:
    path = {
        "table": f"/ws/tables/{nlh_table}/?token={tablet.device.token}",
        "waitlist board": "/ws/board/waitlists/",
    }[feed]

    async def scenario() -> tuple[dict[str, Any], bool]:
        ws = WebsocketCommunicator(application, path)
        connected, _ = await ws.connect()
        assert connected
        first = await ws.receive_json_from(timeout=10)
        for frame in FRAMES:
            await ws.send_to(**frame)
        quiet = await ws.receive_nothing(timeout=1)  # no close, no error
        await ws.disconnect()
        return first, quiet

    first, quiet = async_to_sync(scenario)()
    assert first["type"] != "error"
    assert quiet


def refusal(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Open a socket at ``path`` that the server accepts only to refuse: its ``error``
    message and the close that follows."""

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        ws = WebsocketCommunicator(application, path)
        connected, _ = await ws.connect()
        assert connected
        error = await ws.receive_json_from(timeout=10)
        closed = await ws.receive_output(timeout=10)
        await ws.disconnect()
        return error, closed

    return async_to_sync(scenario)()


@pytest.mark.parametrize(
    "path", ["/ws/waitlists/board/", "/ws/nothing/", "/ws/tables/abc/", "/", "/api/v1/tables/"]
)
def test_a_websocket_path_no_app_routes_is_refused_with_4404(
    tablet: TabletClient, path: str
) -> None:
    error, closed = refusal(f"{path}?token={tablet.device.token}")
    assert (error["type"], error["code"]) == ("error", "not_found")
    assert (closed["type"], closed["code"]) == ("websocket.close", 4404)


@pytest.mark.parametrize(
    "query",
    ["token={t}&token={t}", "token={t}&v=3", "token={t}&v=", "token={t}&format=json", "tok={t}"],
)
def test_a_feed_refuses_a_query_it_does_not_take_as_the_api_does(
    tablet: TabletClient, nlh_table: int, query: str
) -> None:
    """A repeated parameter (two tokens: which one authorised?), a message format that
    does not exist (``?v=3`` was served as v1) or an unknown parameter: ``bad_query``,
    close 4400, as the API answers 400 for such a query string (found by fuzzing)."""
    error, closed = refusal(f"/ws/tables/{nlh_table}/?{query.format(t=tablet.device.token)}")
    assert (error["type"], error["code"]) == ("error", "bad_query"), error
    assert (closed["type"], closed["code"]) == ("websocket.close", 4400)
