"""Benchmark: how soon a screen sees a dealer's action in the embedded mode (``manage.py
up`` on SQLite with the in-process channel layer), as a new user meets the service.

Run: ``uv run python -m tests.bench.bench_embedded_push [--actions 100]``. It starts
``manage.py up`` on a fresh SQLite file with the in-process channel layer, like the README's
first command (``tests.browser.conftest.start_room`` without ``REDIS_URL``), seats three
players at table 1 through the API with the demo admin token, opens one screen on
``/ws/tables/1/`` with the demo dealer token, then, one at a time with a random pause of
0-200 ms between them, folds the player to act (starting a new hand when the last one
ended) and times, for each fold:

* the dealer's POST (request sent to answer received), and
* action to screen: request sent to the first event of it on the screen's socket.

Nothing else runs on the server, so this is latency, not throughput. The browser test
``tests/browser/test_tablet.py`` holds the same path to a p95 of 150 ms (400 ms unless
``BROWSER_STRICT_LATENCY=1``) through two real browsers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import aiohttp

from tests.bench.bench_live import percentile
from tests.browser.conftest import Room, start_room


@contextmanager
def fresh_embedded_room() -> Iterator[Room]:
    """``manage.py up`` as the README's first command starts it, until the block ends: a
    fresh SQLite file and the in-process channel layer (``start_room`` without
    ``REDIS_URL`` or ``BROWSER_DATABASE_URL``)."""
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("BROWSER_DATABASE_URL", None)
    rooms = start_room()
    try:
        yield next(rooms)
    finally:
        rooms.close()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=100)
    args = parser.parse_args()
    with fresh_embedded_room() as room:
        for seat in (1, 2, 3):
            seating = {"player_id": room.player(f"Bench {seat}"), "seat": seat, "buy_in": 2000}
            room.api("POST", "/api/v1/tables/1/seats/", seating)
        post, screen = asyncio.run(_run(room.base, room.dealer_token, args.actions))
    print(f"{args.actions} folds through manage.py up (SQLite, in-process channel layer)")
    for name, values in (("dealer's POST", post), ("action to screen", screen)):
        print(f"  {name:17} p50 {percentile(values, 0.5):6.1f} ms   p90 "
              f"{percentile(values, 0.9):6.1f}   p99 {percentile(values, 0.99):6.1f}   "
              f"max {max(values):6.1f}")  # fmt: skip


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


async def _run(base: str, dealer: str, actions: int) -> tuple[list[float], list[float]]:
    post: list[float] = []
    screen: list[float] = []
    async with aiohttp.ClientSession(base, headers={"Authorization": f"Token {dealer}"}) as s:
        ws = await s.ws_connect(f"/ws/tables/1/?token={dealer}")

        async def drain(seconds: float) -> None:
            with_timeout = True
            while with_timeout:
                try:
                    await asyncio.wait_for(ws.receive(), seconds)
                except TimeoutError:
                    with_timeout = False

        await drain(0.5)
        while len(post) < actions:
            table = await (await s.get("/api/v1/tables/1/")).json()
            hand_id = table.get("current_hand_id")
            if not hand_id:
                answer = await s.post("/api/v1/tables/1/hands/", json={}, headers=_key())
                assert answer.status == 201, await answer.text()
                hand_id = (await answer.json())["hand_id"]
                await drain(0.3)
            hand = await (await s.get(f"/api/v1/hands/{hand_id}/")).json()
            await asyncio.sleep(random.uniform(0, 0.2))  # any phase of a poll
            began = time.perf_counter()
            answer = await s.post(f"/api/v1/hands/{hand_id}/actions/", headers=_key(),
                                  json={"seat": hand["to_act"], "action": "fold"})  # fmt: skip
            answered = time.perf_counter()
            assert answer.status < 300, await answer.text()
            await answer.read()
            while True:
                message = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
                if message.get("type") == "event":
                    break
            seen = time.perf_counter()
            post.append((answered - began) * 1000)
            screen.append((seen - began) * 1000)
            await drain(0.1)
        await ws.close()
    return post, screen


if __name__ == "__main__":
    main()
