"""Benchmark: how soon a screen sees a dealer's action in the embedded mode (``manage.py
up`` on SQLite with the in-process channel layer), as a new user meets the service.

Run: ``uv run python -m tests.bench.bench_embedded_push [--actions 100]``. It starts
``manage.py up`` on a fresh SQLite file (no ``DATABASE_URL`` or ``REDIS_URL``, like the
README's first command), seats three players at table 1 through the API with the demo
admin token, opens one screen on ``/ws/tables/1/`` with the demo dealer token, then, one at
a time with a random pause of 0-200 ms between them, folds the player to act (starting a
new hand when the last one ended) and times, for each fold:

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
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import aiohttp

from tests.bench.bench_live import percentile
from tests.servers import free_port, wait_http

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=100)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'room.sqlite3'}"
        log = (Path(tmp) / "up.log").open("w")
        server = subprocess.Popen(
            [sys.executable, "manage.py", "up", "--port", str(port)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, text=True,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            lines = [server.stdout.readline() for _ in range(4)]
            dealer = re.search(r"Demo dealer token: (\S+)", lines[2])
            admin = re.search(r"Demo admin token:  (\S+)", lines[3])
            assert dealer and admin, lines
            base = f"http://127.0.0.1:{port}"
            wait_http(base)
            post, screen = asyncio.run(_run(base, admin[1], dealer[1], args.actions))
        finally:
            server.terminate()
            server.wait(30)
            log.close()
    print(f"{args.actions} folds through manage.py up (SQLite, in-process channel layer)")
    for name, values in (("dealer's POST", post), ("action to screen", screen)):
        print(f"  {name:17} p50 {percentile(values, 0.5):6.1f} ms   p90 "
              f"{percentile(values, 0.9):6.1f}   p99 {percentile(values, 0.99):6.1f}   "
              f"max {max(values):6.1f}")  # fmt: skip


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


async def _run(base: str, admin: str, dealer: str, actions: int) -> tuple[list[float], ...]:
    async with aiohttp.ClientSession(base, headers={"Authorization": f"Token {admin}"}) as s:
        for seat in (1, 2, 3):
            answer = await s.post("/api/v1/players/", json={"name": f"Bench {seat}"},
                                  headers=_key())  # fmt: skip
            player = (await answer.json())["id"]
            seating = {"player_id": player, "seat": seat, "buy_in": 2000}
            answer = await s.post("/api/v1/tables/1/seats/", json=seating, headers=_key())
            assert answer.status == 201, await answer.text()
            await answer.read()
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
