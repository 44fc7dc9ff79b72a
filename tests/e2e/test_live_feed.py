"""End to end: a running server (uvicorn, PostgreSQL, Redis channel layer, the relay) and a
tablet on a real WebSocket (the ``websockets`` library) receiving a replayed hand."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tables.phh import load_phh
from tables.replay import HttpApi, Replayer
from tests.servers import free_port

ROOT = Path(__file__).resolve().parents[2]
HAND = ROOT.parent / "shared" / "phh" / "wsop-2023-43" / "00-02-07.phh"
PG = "postgres://postgres@127.0.0.1:5432"


@pytest.fixture
def server() -> Any:
    """``manage.py up`` on a fresh PostgreSQL database with the Redis channel layer."""
    name = f"casino_e2e_{uuid.uuid4().hex[:8]}"
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"{PG}/{name}", "REDIS_URL": "redis://127.0.0.1:6379/5",
           "CHANNEL_LAYER_PREFIX": name, "TEST_DATABASE_NAME": ""}  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "up", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(4)]
        tokens = {
            kind: re.search(rf"Demo {kind} token: +(\S+)", "".join(lines)).group(1)  # type: ignore[union-attr]
            for kind in ("dealer", "admin")
        }
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                httpx.get(f"{base}/api/schema/", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        yield {"base": base, "port": port, "db": f"{PG}/{name}", **tokens}
    finally:
        proc.terminate()
        proc.wait(20)
        subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {name}"])


@pytest.mark.skipif(not HAND.exists(), reason="shared/phh is not beside the repo")
def test_tablet_receives_every_event_of_a_replayed_hand_in_order(server: dict) -> None:
    hand = load_phh(HAND)
    replayer = Replayer(HttpApi(server["base"], server["admin"]))

    async def scenario() -> tuple[list[dict], Any]:
        messages: list[dict] = []
        # The replay opens table 5 (after the four demo tables): the admin follows it.
        url = f"ws://127.0.0.1:{server['port']}/ws/tables/5/?token={server['admin']}"
        outcome_holder: list[Any] = []

        async def listen(ws: Any) -> None:
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=5)
                except TimeoutError:
                    return
                messages.append(json.loads(raw))

        replayer._table_for(hand)  # opens table 5 before the tablet connects
        async with websockets.connect(url) as ws:
            listener = asyncio.create_task(listen(ws))
            outcome_holder.append(await asyncio.to_thread(replayer.replay, hand))
            await listener
        return messages, outcome_holder[0]

    messages, outcome = asyncio.run(scenario())
    assert outcome.matched, outcome.error
    assert messages[0]["type"] == "snapshot"
    events = [m for m in messages if m["type"] == "event"]
    hand_events = [e for e in events if e["stream"].startswith("hand-")]
    assert [e["version"] for e in hand_events] == list(range(1, len(hand_events) + 1))
    actions = [e["data"] for e in hand_events if e["event_type"] == "tables.ActionTaken"]
    recorded = [r for r in hand.requests if type(r).__name__ == "ActionRequest"]
    assert [(a["seat"], a["action"]) for a in actions] == [
        (r.seat, r.kind)
        for r in recorded  # type: ignore[union-attr]
    ]
    assert hand_events[-1]["event_type"] == "tables.HandSettled"
    table_versions = [e["version"] for e in events if e["stream"] == "table-5"]
    assert table_versions == sorted(table_versions) and len(set(table_versions)) == len(
        table_versions
    )
