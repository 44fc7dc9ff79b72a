"""Benchmark (issue #11): N dealer tablets recording hands concurrently over HTTP, one
WebSocket subscriber per table, in the production topology, against pgbench.

Run: ``uv run python -m tests.bench.bench_live [--tables 10 50 200] [--seconds 20]
[--workload phh|seated]`` (PostgreSQL and Redis on 127.0.0.1; pgbench on the PATH). It
creates a fresh database ``casino_bench``, prepares it with ``manage.py up --no-serve``,
then runs the production topology with ``DEBUG`` off: the web server of
``deploy/Dockerfile`` (gunicorn with 2 uvicorn workers, each on a socket of its own,
``casino/server.py``) and one ``manage.py relay`` process, the Redis channel layer.
``--server uvicorn`` runs ``uvicorn --workers 2`` instead (one shared socket; the
comparison of docs/realtime.md, "Hot path"; ``BENCH_UVICORN_ARGS`` adds uvicorn options).
``--servers N`` runs N such servers on ports of their own (with ``--workers 1``, the
scale-out topology of ``docs/realtime.md``) and spreads the tablets and screens evenly over
them, as a balancer in front would; with one server, the kernel places the tablets'
connections on the workers. Workloads:

* ``phh``: each tablet replays shared PHH hands, seating and cashing out players each hand;
* ``seated``: six players seated once per table, then hands of check/call/raise actions.

Per N it prints: actions/s, a dealer action's round trip p50/p99, commit-to-push p50/p99
(the event's ``recorded_at`` to its arrival at the subscriber), and the ratio of actions/s
to pgbench's single-row INSERTs/s into a comparable table measured in the same run. A
second line per N gives the CPU each part of the run spent per dealer action (ms): the
server's workers, the relay, PostgreSQL (the bench database's backends and the server's
own processes), this load generator and the screens' process, and how many of the
machine's cores were busy in all: where an action's cost goes, on a machine they share.
``--soak-minutes M`` (workload ``seated``) then keeps a room of the first N tables playing
for M minutes (the same tables, hands going on) and prints, each minute, actions/s, the
push latency and the RSS of the server workers and the relay (MB).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
import websockets

from tables.phh import ActionRequest, BoardRequest, PhhHand, ShowRequest, load_phh
from tables.replay import discover
from tests.servers import connections_per_worker, family, free_port, wait_http

ROOT = Path(__file__).resolve().parents[2]
PG = os.environ.get("PG_URL_BASE", "postgres://postgres@127.0.0.1:5432")
DB = "casino_bench"


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (0.99: the p99), nearest rank; NaN if empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def seated_action(legal: dict[str, Any], n: int) -> dict[str, Any]:
    """The ``seated`` workload's action for the player to act (``legal``: the hand's legal
    actions) in the tablet's hand ``n``: a bet or raise to the minimum on every third hand
    when there is nothing to call, otherwise a check or a call."""
    body: dict[str, Any] = {"seat": legal["seat"]}
    if legal["can_raise"] and n % 3 == 0 and not legal["to_call"]:
        body |= {"action": "bet" if legal["can_bet"] else "raise",
                 "amount_to": legal["min_raise_to"]}  # fmt: skip
    else:
        body["action"] = "call" if legal["to_call"] else "check"
    return body


class Tablet:
    """One table: replays hands in a loop and measures each action's round trip."""

    def __init__(self, client: aiohttp.ClientSession, index: int, hands: list[PhhHand]) -> None:
        self.client, self.index, self.hands = client, index, hands
        self.latencies: list[float] = []
        self.think = 0.0  # seconds between a tablet's requests (0: as fast as it can)
        self.actions = 0
        self.errors = 0
        self.unfinished: dict[str, Any] | None = None

    async def post(self, path: str, body: dict[str, Any], *, action: bool = False) -> Any:
        if self.think:
            await asyncio.sleep(self.think * random.uniform(0.5, 1.5))
        began = time.perf_counter()
        async with self.client.post(
            path, json=body, headers={"Idempotency-Key": str(uuid.uuid4())}
        ) as r:
            text = await r.text()
        if action:
            self.latencies.append(time.perf_counter() - began)
            self.actions += 1
        if r.status >= 400:
            self.errors += 1
            raise RuntimeError(f"{path}: {r.status} {text[:200]}")
        return json.loads(text)

    async def setup(self) -> int:
        table = await self.post("/api/v1/tables/", {
            "name": f"bench {self.index}", "game": "NLH", "small_blind": 50, "big_blind": 100,
            "buy_in_min": 1, "buy_in_max": 10**9, "rake_percent_bp": 0, "rake_cap": 0,
            "returning_player_rule": False})  # fmt: skip
        self.table_id = int(table["table_id"])
        self.players = [
            (await self.post("/api/v1/players/", {"name": f"b{self.index}-{n}"}))["id"]
            for n in range(6)
        ]
        return self.table_id

    async def seat_all(self) -> None:
        """Seat the six players once (workload ``seated``; before the timed window)."""
        base = f"/api/v1/tables/{self.table_id}"
        for seat, player_id in enumerate(self.players, start=1):
            await self.post(f"{base}/seats/", {"player_id": player_id, "seat": seat,
                                               "buy_in": 10**7})  # fmt: skip

    async def run_seated(self, until: float) -> None:
        """Players seated once; hands of raises, calls and checks to the river."""
        base = f"/api/v1/tables/{self.table_id}"
        n = 0
        board = [("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")]
        while time.perf_counter() < until:
            n += 1
            try:
                # a hand the last timed window left unfinished (a soak) is played on first
                hand = self.unfinished or await self.post(f"{base}/hands/", {})
                self.unfinished = None
                url = f"/api/v1/hands/{hand['hand_id']}"
                dealt = {0: 0, 3: 1, 4: 2, 5: 3}[len(hand.get("board", []))]  # streets out
                streets = iter(board[dealt:])
                while hand["phase"] != "complete" and time.perf_counter() < until:
                    if hand["phase"] == "betting":
                        body = seated_action(hand["legal"], n)
                        hand = await self.post(f"{url}/actions/", body, action=True)
                    elif hand["next_street"]:
                        street, cards = next(streets)
                        hand = await self.post(f"{url}/board/", {"street": street,
                                                                  "cards": cards})  # fmt: skip
                    else:
                        live = [p for p in hand["pots"]]
                        winners = [[min(p["eligible_seats"])] for p in live]
                        hand = await self.post(f"{url}/award/", {"winners_by_pot": winners})
                if hand["phase"] != "complete":
                    self.unfinished = hand
            except RuntimeError:
                return

    async def run(self, until: float) -> None:
        n = 0
        while time.perf_counter() < until:
            hand = self.hands[n % len(self.hands)]
            n += 1
            base = f"/api/v1/tables/{self.table_id}"
            try:
                for p, player_id in zip(hand.players, self.players, strict=False):
                    await self.post(f"{base}/seats/", {"player_id": player_id, "seat": p.seat,
                                                       "buy_in": p.stack})  # fmt: skip
                started = await self.post(f"{base}/hands/", {"button_seat": hand.button_seat})
                url = f"/api/v1/hands/{started['hand_id']}"
                for req in hand.requests:
                    if isinstance(req, ActionRequest):
                        body: dict[str, Any] = {"seat": req.seat, "action": req.kind}
                        if req.amount_to is not None:
                            body["amount_to"] = req.amount_to
                        await self.post(f"{url}/actions/", body, action=True)
                    elif isinstance(req, BoardRequest):
                        await self.post(f"{url}/board/", {"street": req.street, "cards": req.cards})
                    elif isinstance(req, ShowRequest) and req.cards:
                        await self.post(f"{url}/show/", {"seat": req.seat, "cards": req.cards})
                    elif isinstance(req, ShowRequest):
                        await self.post(f"{url}/muck/", {"seat": req.seat, "deliberate": True})
                for p in hand.players:
                    await self.post(f"{base}/seats/{p.seat}/cash-out/", {})
            except RuntimeError:
                return


async def subscribe(ws_url: str, until: float, delays: list[float],
                    slow: list[tuple[str, float, str, float]]) -> None:  # fmt: skip
    """One screen: each event's delay to ``delays``; a push later than 1 s also to
    ``slow`` as ``(feed, delay s, where, arrival s since the epoch)``, ``where`` naming
    the event, the socket's local port (to find its server worker) and how long the socket
    had been quiet before it (a silent socket then a burst, or late events in a flow)."""
    snapshot: dict[str, int] = {}
    previous = time.time()
    async with websockets.connect(ws_url, max_queue=None) as ws:
        port = ws.transport.get_extra_info("sockname")[1]
        while time.perf_counter() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=1)
            except TimeoutError:
                continue
            quiet, previous = time.time() - previous, time.time()
            message = json.loads(raw)
            if message.get("type") == "event":
                recorded = datetime.fromisoformat(message["recorded_at"].replace("Z", "+00:00"))
                delay = (datetime.now(UTC) - recorded).total_seconds()
                delays.append(delay)
                if delay > 1:
                    where = (f"{message['stream']}:{message['version']} (snapshot had "
                             f"{snapshot.get(message['stream'])}), port {port}, socket quiet "
                             f"{quiet:.2f} s before")  # fmt: skip
                    slow.append((ws_url.split("?")[0][-12:], delay, where, time.time()))
            elif message.get("type") == "snapshot":
                snapshot = message.get("versions", {})
            if message.get("type") == "snapshot" and message.get("reason"):
                slow.append((ws_url.split("?")[0][-12:], 0.0, f"snapshot {message['reason']}",
                             time.time()))  # fmt: skip


def _watch(urls: list[str], seconds: float, out: Any) -> None:
    """A separate process of screens (one per table feed): each push's delay, to ``out``.
    Screens are other devices than the tablets: their reading must not wait behind the
    load generator's HTTP work, nor (as far as the OS allows) behind the server's CPU on
    this shared machine, so the process asks for a higher scheduling priority (``nice
    -5``; ignored without the right to)."""
    with contextlib.suppress(OSError):
        os.nice(-5)

    async def watch_all() -> tuple[list[float], list[tuple[str, float, str, float]]]:
        delays: list[float] = []
        slow: list[tuple[str, float, str, float]] = []
        until = time.perf_counter() + seconds

        async def stalls() -> None:
            # this process's own stalls (a starved client, not a late server) to ``slow``
            while time.perf_counter() < until:
                t0 = time.perf_counter()
                await asyncio.sleep(0.05)
                over = time.perf_counter() - t0 - 0.05
                if over > 0.3:
                    slow.append(("SCREENS-STALL", over, "", time.time()))

        await asyncio.gather(stalls(), *(subscribe(url, until, delays, slow) for url in urls),
                             return_exceptions=True)  # fmt: skip
        return delays, slow

    out.send(asyncio.run(watch_all()))
    out.close()


class Room:
    """The tablets of ``tables`` tables, each on its own keep-alive connection, with their
    tables created (and, for ``seated``, their players seated) before any timed window."""

    def __init__(self, base_urls: list[str], token: str, tables: int, hands: list[PhhHand],
                 workload: str, think: float) -> None:  # fmt: skip
        # One keep-alive connection per tablet, as a room's tablets have: a tablet's
        # requests stay on one server process (a shared pool would spread one hand over
        # both workers). aiohttp, not httpx: the load generator shares the machine's two
        # cores with the service, and httpx spent about three times the CPU per request.
        headers = {"Authorization": f"Token {token}"}
        # tablet i (and its table's screen) uses server i modulo the number of servers: as
        # a balancer would spread a room's tablets, one connection each, over them
        self.base_urls, self.token, self.workload = base_urls, token, workload
        self.think = think
        self.headers, self.tables = headers, tables
        self.clients: list[aiohttp.ClientSession] = []
        self.hands = hands
        self.tablets: list[Tablet] = []
        self.table_ids: list[int] = []
        self.meter: CpuMeter | None = None

    async def prepare(self) -> None:
        # sessions belong to the running event loop: made here, not in __init__
        self.clients = [
            aiohttp.ClientSession(
                base_url=self.base_urls[i % len(self.base_urls)], headers=self.headers,
                timeout=aiohttp.ClientTimeout(total=120),
                connector=aiohttp.TCPConnector(limit=1, keepalive_timeout=300),
            )
            for i in range(self.tables)
        ]  # fmt: skip
        self.tablets = [Tablet(c, i, self.hands[i::self.tables] or self.hands)
                        for i, c in enumerate(self.clients)]  # fmt: skip
        self.table_ids = [await t.setup() for t in self.tablets]
        if self.workload == "seated":
            await asyncio.gather(*(t.seat_all() for t in self.tablets))

    async def close(self) -> None:
        await asyncio.gather(*(c.close() for c in self.clients))

    async def timed(self, seconds: float) -> dict[str, float]:
        """Run the workload for ``seconds`` with one screen per table watching its feed;
        the window's figures."""
        ws = [base.replace("http", "ws") for base in self.base_urls]
        urls = [f"{ws[i % len(ws)]}/ws/tables/{tid}/?token={self.token}"
                for i, tid in enumerate(self.table_ids)]  # fmt: skip
        context = multiprocessing.get_context("spawn")
        receiving, sending = context.Pipe(duplex=False)
        screens = context.Process(target=_watch, args=(urls, seconds + 3, sending))
        screens.start()
        await asyncio.sleep(2)  # the screens connect and take their snapshots
        for tablet in self.tablets:
            tablet.think = self.think
            tablet.latencies, tablet.actions = [], 0
        if self.meter is not None and screens.pid is not None:
            self.meter.start(screens.pid)
        began = time.perf_counter()
        until = began + seconds
        if self.workload == "seated":
            await asyncio.gather(*(t.run_seated(until) for t in self.tablets))
        else:
            await asyncio.gather(*(t.run(until) for t in self.tablets))
        elapsed = time.perf_counter() - began
        self.cpu = self.meter.stop() if self.meter is not None else {}
        delays: list[float] = []
        self.slow: list[tuple[str, float, str, float]] = []
        for _ in range(600):  # the screens report once they are done (or died: no delays)
            if await asyncio.to_thread(receiving.poll, 0.1):
                delays, self.slow = receiving.recv()
                break
            if not screens.is_alive():
                break
        screens.join(30)
        latencies = [x for t in self.tablets for x in t.latencies]
        return {
            "tables": len(self.tablets),
            "actions_per_s": sum(t.actions for t in self.tablets) / elapsed,
            "action_p50_ms": percentile(latencies, 0.5) * 1000,
            "action_p99_ms": percentile(latencies, 0.99) * 1000,
            "push_p50_ms": percentile(delays, 0.5) * 1000,
            "push_p99_ms": percentile(delays, 0.99) * 1000,
            "pushes": len(delays),
            "errors": sum(t.errors for t in self.tablets),
        }


async def run_round(base_urls: list[str], token: str, tables: int, seconds: float,
                    hands: list[PhhHand], workload: str = "phh", think: float = 0.0,
                    meter: CpuMeter | None = None) -> dict[str, Any]:  # fmt: skip
    """One timed window of ``tables`` tablets: the row's figures, with ``cpu_<part>``
    (ms of CPU per dealer action), ``cores_busy`` and ``tablets_per_worker`` when ``meter``
    is given."""
    room = Room(base_urls, token, tables, hands, workload, think)
    room.meter = meter
    try:
        await room.prepare()
        row: dict[str, Any] = await room.timed(seconds)
        if meter is not None:
            row["tablets_per_worker"] = [
                count
                for server, base in zip(meter.servers, base_urls, strict=True)
                for count in connections_per_worker(server, int(base.rsplit(":", 1)[1]))
            ]
        actions = row["actions_per_s"] * room.cpu.get("wall", 0.0)
        if actions:
            parts = ("server", "relay", "postgres", "load", "screens")
            row |= {f"cpu_{part}": room.cpu[part] / actions * 1000 for part in parts}
            row["cores_busy"] = sum(room.cpu[part] for part in parts) / room.cpu["wall"]
        return row
    finally:
        await room.close()


async def soak(base_urls: list[str], token: str, tables: int, minutes: int,
               hands: list[PhhHand], workload: str, think: float, servers: list[int],
               relay: int) -> None:  # fmt: skip
    """The same room playing on for ``minutes``: each minute's figures and the RSS of the
    server's processes and the relay (MB)."""
    room = Room(base_urls, token, tables, hands, workload, think)
    try:
        await room.prepare()
        for minute in range(minutes):
            row = await room.timed(60)
            late = {feed for feed, _, _, _ in room.slow}
            print(f"minute {minute + 1}: {row['actions_per_s']:.0f} actions/s, action p50/p99 "
                  f"{row['action_p50_ms']:.0f}/{row['action_p99_ms']:.0f} ms, push p50/p99 "
                  f"{row['push_p50_ms']:.0f}/{row['push_p99_ms']:.0f} ms "
                  f"({len(room.slow)} pushes over 1 s, on {len(late)} feeds), RSS server "
                  f"{sum(map(_rss_mb, servers)):.0f} MB (each process: "
                  f"{', '.join(f'{m:.0f}' for s in servers for m in _rss_each_mb(s))}), "
                  f"relay {_rss_mb(relay):.0f} MB, errors {row['errors']:.0f}",
                  flush=True)  # fmt: skip
            if os.environ.get("BENCH_SHOW_SLOW"):
                for feed, delay, where, at in sorted(room.slow, key=lambda x: x[3])[:40]:
                    print(f"  slow {feed} {delay:.2f} s {where} at {at:.2f}", flush=True)
    finally:
        await room.close()


def pgbench_inserts(clients: int, seconds: int) -> float:
    """Single-row INSERTs/s into a table shaped like the event log (jsonb payloads)."""
    dsn = f"{PG}/{DB}"
    subprocess.run(["psql", dsn, "-qc", "CREATE TABLE IF NOT EXISTS bench_insert (id bigserial "
                    "primary key, stream text, version int, data jsonb, at timestamptz)"],
                   check=True)  # fmt: skip
    script = Path("/tmp/bench_insert.sql")
    script.write_text("INSERT INTO bench_insert (stream, version, data, at) VALUES "
                      "('table-1', 1, '{\"seat\": 3, \"amount_to\": 300}', now());\n")  # fmt: skip
    out = subprocess.run(
        ["pgbench", "-n", "-f", str(script), "-c", str(clients), "-j", "2", "-T", str(seconds),
         dsn], capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    match = re.search(r"tps = ([\d.]+)", out)
    return float(match.group(1)) if match else float("nan")


def _rss_each_mb(pid: int) -> list[float]:
    """Resident memory (MB, from /proc) of a process, then of each of its children."""
    sizes = []
    for p in family(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) / 1024)
        except OSError:
            pass
    return sizes


def _rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (MB), from /proc."""
    return sum(_rss_each_mb(pid))


def _ticks(pid: int) -> int:
    """CPU time (user + system, clock ticks) of a live process, from /proc (0: gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _postgres_pids(database: str) -> list[int]:
    """The PostgreSQL processes working for the bench: backends on ``database`` and the
    server's own (checkpointer, WAL writer ...), by their process titles."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if title.startswith("postgres: ") and (f" {database} " in title or "(" not in title):
            pids.append(int(entry.name))
    return pids


class CpuMeter:
    """CPU seconds spent by each part of the run between :meth:`start` and :meth:`stop`:
    ``server`` (uvicorn and its workers), ``relay``, ``postgres``, ``load`` (this process,
    all its threads) and ``screens`` (the screens' process). Counted process by process:
    one that starts meanwhile counts from its start; one that exits meanwhile (a closed
    database connection) is lost, not subtracted."""

    def __init__(self, servers: list[int], relay: int) -> None:
        self.servers, self.relay, self.screens = servers, relay, 0
        self.hz = os.sysconf("SC_CLK_TCK")

    def _read(self) -> tuple[dict[str, dict[int, int]], float, float]:
        """Ticks per part and pid, this process's CPU seconds, and the clock."""
        parts = {
            "server": [pid for server in self.servers for pid in family(server)],
            "relay": family(self.relay),
            "postgres": _postgres_pids(DB),
            "screens": [self.screens] if self.screens else [],
        }
        ticks = {part: {pid: _ticks(pid) for pid in pids} for part, pids in parts.items()}
        own = resource.getrusage(resource.RUSAGE_SELF)
        return ticks, own.ru_utime + own.ru_stime, time.perf_counter()

    def start(self, screens: int) -> None:
        """Begin counting (``screens``: the pid of the screens' process, running)."""
        self.screens = screens
        self.began = self._read()

    def stop(self) -> dict[str, float]:
        """Seconds of CPU per part (``wall``: seconds elapsed) since :meth:`start`."""
        before, load_before, clock_before = self.began
        after, load_after, clock_after = self._read()
        used = {
            part: sum(
                ticks - before[part].get(pid, 0) for pid, ticks in after[part].items() if ticks
            )
            / self.hz
            for part in after
        }
        return used | {"load": load_after - load_before, "wall": clock_after - clock_before}


def server_command(server: str, port: int, workers: int) -> list[str]:
    """The command line of one API server on ``port`` with ``workers`` worker processes:
    ``gunicorn`` as ``deploy/Dockerfile`` runs it (``casino.server``), or ``uvicorn --workers``
    with the same settings (``BENCH_UVICORN_ARGS`` adds uvicorn options, for experiments).
    Keep-alive 75 s: a tablet's connection is not closed between two hands."""
    if server == "gunicorn":
        return [sys.executable, "-m", "gunicorn", "-c", "python:casino.server",
                "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--keep-alive", "75",
                "--log-level", "warning", "casino.asgi:application"]  # fmt: skip
    return [sys.executable, "-m", "uvicorn", "casino.asgi:application", "--port", str(port),
            "--workers", str(workers), "--lifespan", "on", "--log-level", "warning",
            "--timeout-keep-alive", "75", "--ws-per-message-deflate", "false", "--no-access-log",
            *os.environ.get("BENCH_UVICORN_ARGS", "").split()]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 50, 200])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=2, help="workers per server")
    parser.add_argument("--server", choices=["gunicorn", "uvicorn"], default="gunicorn",
                        help="gunicorn: the production command (casino/server.py, a "
                        "socket per worker); uvicorn: --workers N on one socket")  # fmt: skip
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes on ports of their own, the tablets spread "
                        "evenly over them (as behind a balancer)")  # fmt: skip
    parser.add_argument("--workload", choices=["phh", "seated"], default="seated")
    parser.add_argument("--soak-minutes", type=int, default=0)
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a tablet waits before each request, +-50%% (a dealer's "
                        "pace; 0: every tablet as fast as it can)")  # fmt: skip
    args = parser.parse_args()
    if args.soak_minutes and args.workload != "seated":
        # a PHH tablet re-seats its players each hand and cannot take up a hand the last
        # minute left unfinished
        parser.error("--soak-minutes needs --workload seated")
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)"],
                   check=True)  # fmt: skip
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"CREATE DATABASE {DB}"], check=True)
    env = {**os.environ, "DATABASE_URL": f"{PG}/{DB}", "DEBUG": "false",
           "SECRET_KEY": "bench-" + "k" * 60, "SECURE_SSL_REDIRECT": "false",
           "CHANNEL_LAYER_PREFIX": f"{DB}-{os.getpid()}",
           "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/3")}  # fmt: skip
    setup = subprocess.run([sys.executable, "manage.py", "up", "--no-serve"], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    token = re.search(r"Demo admin token: +(\S+)", setup.stdout).group(1)  # type: ignore[union-attr]
    ports = [free_port() for _ in range(args.servers)]
    # the servers log as in production (a JSON line per request, part of the cost measured),
    # into a file rather than over the results
    logs = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed once the servers stop)
        prefix="bench_live-servers-", suffix=".log", delete=False
    )
    print(f"server and relay logs: {logs.name}")
    servers = [
        subprocess.Popen(
            server_command(args.server, port, args.workers),
            cwd=ROOT,
            env=env,
            stdout=logs,
            stderr=subprocess.STDOUT,
        )
        for port in ports
    ]
    relay = subprocess.Popen([sys.executable, "manage.py", "relay"], cwd=ROOT, env=env,
                             stdout=logs, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        base_urls = [f"http://127.0.0.1:{port}" for port in ports]
        for base_url in base_urls:
            wait_http(base_url, seconds=60)
        hands = [load_phh(p) for p in discover([ROOT.parent / "shared" / "phh" / "pluribus"])[:400]]
        print(f"workload {args.workload}, think {args.think} s, {args.servers} {args.server} "
              f"server(s) of {args.workers} worker(s) + relay, DEBUG off")  # fmt: skip
        print(
            "tables  actions/s  action p50/p99 ms  push p50/p99 ms  pushes  errors  "
            "pgbench inserts/s  ratio"
        )
        for n in args.tables:
            meter = CpuMeter([server.pid for server in servers], relay.pid)
            row = asyncio.run(run_round(base_urls, token, n, args.seconds, hands, args.workload,
                                        args.think, meter))  # fmt: skip
            inserts = pgbench_inserts(min(n, 40), int(args.seconds))  # server connections: 100
            action = f"{row['action_p50_ms']:8.1f} / {row['action_p99_ms']:7.1f}"
            push = f"{row['push_p50_ms']:8.1f} / {row['push_p99_ms']:7.1f}"
            print(
                f"{n:6d} {row['actions_per_s']:10.1f} {action} {push} {row['pushes']:7d} "
                f"{row['errors']:7d} {inserts:18.0f} {row['actions_per_s'] / inserts:6.3f}",
                flush=True,
            )
            if "cores_busy" in row:
                print(f"        CPU ms per action: server {row['cpu_server']:.2f}, relay "
                      f"{row['cpu_relay']:.2f}, PostgreSQL {row['cpu_postgres']:.2f}, load "
                      f"generator {row['cpu_load']:.2f}, screens {row['cpu_screens']:.2f}; "
                      f"{row['cores_busy']:.2f} of {os.cpu_count()} cores busy; tablets "
                      f"per worker {'/'.join(map(str, row['tablets_per_worker']))}",
                      flush=True)  # fmt: skip
        if args.soak_minutes:
            asyncio.run(soak(base_urls, token, args.tables[0], args.soak_minutes, hands,
                             args.workload, args.think, [server.pid for server in servers],
                             relay.pid))  # fmt: skip
    finally:
        for proc in (*servers, relay):
            proc.terminate()
            proc.wait(20)
        logs.close()


if __name__ == "__main__":
    main()
