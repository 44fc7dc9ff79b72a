"""Benchmark (issue #11): does a server process's memory level off? In process, batch by
batch, the RSS (MB) and the Python allocations still live (tracemalloc, MB) after:

* ``http``: dealer hands played through the whole ASGI application (``casino.asgi``: the
  one-hop handler, its thread pool, every middleware, the DRF views), players seated once;
* ``sockets``: table-feed WebSockets opened, given their snapshot and closed, through the
  application's consumers (Channels' communicator, the configured channel layer);
* ``cache``: screens' snapshots of hands that another worker then finishes (the hand is
  loaded here and never again), to show the state cache lets them go (``IDLE_SECONDS``,
  shortened here to ``--idle`` 2 s so that a batch outlives it; ``--idle inf`` shows the
  cache without the limit).

Run: ``uv run python -m tests.bench.bench_memory [--batches 6] [--hands 60]`` (PostgreSQL
and Redis on 127.0.0.1). It creates a fresh database ``casino_bench_memory`` and prepares it
with ``manage.py up --no-serve``. Flat means: RSS and live allocations stop growing after
the first batches (a warm process), whatever the number of batches.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import subprocess
import sys
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PG = os.environ.get("PG_URL_BASE", "postgres://postgres@127.0.0.1:5432")
DB = "casino_bench_memory"
BOARD = [("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")]


def _rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _report(what: str, batch: int, done: int) -> None:
    gc.collect()
    live = tracemalloc.get_traced_memory()[0] / 1e6 if tracemalloc.is_tracing() else 0.0
    print(f"{what:8s} batch {batch}: {done:7d} done, RSS {_rss_mb():6.1f} MB, "
          f"live allocations {live:6.2f} MB", flush=True)  # fmt: skip


class Tablet:
    """Calls the ASGI application directly, as uvicorn would, with a device token."""

    def __init__(self, application: Any, token: str) -> None:
        self.application, self.token = application, token

    async def post(self, path: str, body: dict[str, Any]) -> Any:
        raw = json.dumps(body).encode()
        headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                   (b"authorization", f"Token {self.token}".encode()),
                   (b"idempotency-key", str(uuid.uuid4()).encode()),
                   (b"content-length", str(len(raw)).encode())]  # fmt: skip
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
                 "query_string": b"", "root_path": "", "headers": headers,
                 "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 8000)}  # fmt: skip
        pending = [{"type": "http.request", "body": raw, "more_body": False}]

        async def receive() -> dict[str, Any]:
            if pending:
                return pending.pop()
            await asyncio.Event().wait()  # the client never disconnects early
            return {}

        answer: dict[str, Any] = {"body": b""}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            elif message["type"] == "http.response.body":
                answer["body"] += message.get("body", b"")

        await self.application(scope, receive, send)
        if answer["status"] >= 400:
            raise RuntimeError(f"{path}: {answer['status']} {answer['body'][:200]!r}")
        return json.loads(answer["body"])

    async def table(self) -> int:
        table = await self.post("/api/v1/tables/", {
            "name": f"memory {uuid.uuid4().hex[:6]}", "game": "NLH", "small_blind": 50,
            "big_blind": 100, "buy_in_min": 1, "buy_in_max": 10**9, "rake_percent_bp": 0,
            "rake_cap": 0, "returning_player_rule": False})  # fmt: skip
        table_id = int(table["table_id"])
        for seat in range(1, 7):
            player = await self.post("/api/v1/players/", {"name": f"m-{uuid.uuid4().hex[:8]}"})
            await self.post(f"/api/v1/tables/{table_id}/seats/",
                            {"player_id": player["id"], "seat": seat, "buy_in": 10**7})  # fmt: skip
        return table_id

    async def start(self, table_id: int) -> Any:
        return await self.post(f"/api/v1/tables/{table_id}/hands/", {})

    async def finish(self, hand: Any) -> int:
        """Play ``hand`` to the end with checks and calls; the requests it took."""
        url, streets, requests = f"/api/v1/hands/{hand['hand_id']}", iter(BOARD), 0
        while hand["phase"] != "complete":
            requests += 1
            if hand["phase"] == "betting":
                legal = hand["legal"]
                action = "call" if legal["to_call"] else "check"
                hand = await self.post(f"{url}/actions/", {"seat": legal["seat"], "action": action})
            elif hand["next_street"]:
                street, cards = next(streets)
                hand = await self.post(f"{url}/board/", {"street": street, "cards": cards})
            else:
                winners = [[min(pot["eligible_seats"])] for pot in hand["pots"]]
                hand = await self.post(f"{url}/award/", {"winners_by_pot": winners})
        return requests


async def http(tablet: Tablet, batches: int, hands: int) -> None:
    table_id = await tablet.table()
    done = 0
    for batch in range(batches):
        for _ in range(hands):
            done += 1 + await tablet.finish(await tablet.start(table_id))
        _report("http", batch, done)


async def sockets(tablet: Tablet, application: Any, batches: int, count: int) -> None:
    from channels.testing import WebsocketCommunicator

    table_id = await tablet.table()
    await tablet.start(table_id)  # a hand in play: each snapshot holds it
    done = 0
    for batch in range(batches):
        for _ in range(count):
            path = f"/ws/tables/{table_id}/?token={tablet.token}"
            screen = WebsocketCommunicator(application, path, headers=[(b"host", b"127.0.0.1")])
            connected, _ = await screen.connect(timeout=10)
            if not connected:
                raise RuntimeError("the table feed refused the screen")
            await screen.receive_json_from(timeout=10)  # the snapshot
            await screen.disconnect()
            done += 1
        _report("sockets", batch, done)


async def cache(tablet: Tablet, batches: int, hands: int, idle: float) -> None:
    """Hands a screen loaded here mid-hand and another worker finished: the stale mid-hand
    states stay cached until the cache's idle limit lets them go."""
    from asgiref.sync import sync_to_async

    from casino.eventstore import aggregates
    from tables import services

    aggregates.cache.idle = idle
    table_id = await tablet.table()
    done = 0
    for batch in range(batches):
        for _ in range(hands):
            hand = await tablet.start(table_id)
            seen = await sync_to_async(services.load_hand)(hand["hand_id"])  # a screen's look
            await tablet.finish(hand)  # finishing it here evicts it: put back what the
            stream = services.hand_stream(hand["hand_id"])  # screen's worker still holds
            aggregates.cache.put(stream, seen.version, seen.state)
            done += 1
        held = len(aggregates.cache)
        await asyncio.sleep(min(idle, 5.0) + 0.5)
        aggregates.cache.get("any stream")  # any use drops what went idle
        print(f"cache    batch {batch}: {held} states cached, {len(aggregates.cache)} after "
              "the idle limit", flush=True)  # fmt: skip
        _report("cache", batch, done)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batches", type=int, default=6)
    parser.add_argument("--hands", type=int, default=60, help="hands per batch (http, cache)")
    parser.add_argument("--sockets", type=int, default=300, help="sockets per batch")
    parser.add_argument("--idle", type=float, default=2.0,
                        help="the state cache's idle limit in the cache scenario, seconds "
                        "('inf': none, as before issue #11's fix)")  # fmt: skip
    parser.add_argument("--trace", action="store_true", help="count live allocations too")
    args = parser.parse_args()
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)"],
                   check=True)  # fmt: skip
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"CREATE DATABASE {DB}"], check=True)
    redis = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/3")
    os.environ.update({"DATABASE_URL": f"{PG}/{DB}", "DEBUG": "false", "LOG_LEVEL": "ERROR",
                       "SECRET_KEY": "bench-" + "k" * 60, "SECURE_SSL_REDIRECT": "false",
                       "CHANNEL_LAYER_PREFIX": f"{DB}-{os.getpid()}",
                       "REDIS_URL": redis})  # fmt: skip
    setup = subprocess.run([sys.executable, "manage.py", "up", "--no-serve"], cwd=ROOT,
                           env=os.environ, capture_output=True, text=True, check=True)  # fmt: skip
    token = re.search(r"Demo admin token: +(\S+)", setup.stdout).group(1)  # type: ignore[union-attr]
    if args.trace:
        tracemalloc.start()
    from casino.asgi import application

    tablet = Tablet(application, token)
    began = time.perf_counter()
    asyncio.run(http(tablet, args.batches, args.hands))
    asyncio.run(sockets(tablet, application, args.batches, args.sockets))
    asyncio.run(cache(tablet, args.batches, args.hands, args.idle))
    print(f"done in {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
