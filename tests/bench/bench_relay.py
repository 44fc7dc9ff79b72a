"""Benchmark (issue #11): the relay alone, pushing a backlog of committed events to their
groups on the Redis channel layer, with one subscribed channel per table group.

Run: ``DEBUG=false uv run python -m tests.bench.bench_relay [--events 50000] [--tables 200]``
(PostgreSQL and Redis on 127.0.0.1). It creates a fresh database ``casino_bench_relay``,
appends ``--events`` table events spread over ``--tables`` table streams (in transactions
of 500), then times one :class:`casino.realtime.relay.Relay` from the start of the log to
its end, and checks that every subscribed channel received every event of its table.
Target: at least 5,000 events/s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

PG = os.environ.get("PG_URL_BASE", "postgres://postgres@127.0.0.1:5432")
DB = "casino_bench_relay"
ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--tables", type=int, default=200)
    args = parser.parse_args()
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)"],
                   check=True)  # fmt: skip
    subprocess.run(["psql", f"{PG}/postgres", "-qc", f"CREATE DATABASE {DB}"], check=True)
    os.environ.update(
        DATABASE_URL=f"{PG}/{DB}",
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/10"),
        CHANNEL_LAYER_PREFIX=f"{DB}-{os.getpid()}",
        DJANGO_SETTINGS_MODULE="casino.settings",
        DEBUG="false",
        SECRET_KEY=os.environ.get("SECRET_KEY", "bench-" + "x" * 60),
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    asyncio.run(_run(args.events, args.tables))


async def _run(events: int, tables: int) -> None:
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer
    from django.db import transaction

    from casino.eventstore import store
    from casino.realtime.relay import Relay
    from tables.cash_events import RefreshmentPaid

    layer = get_channel_layer()
    channels = {}
    for t in range(1, tables + 1):
        channels[t] = await layer.new_channel()
        await layer.group_add(f"table-{t}", channels[t])

    def fill() -> None:
        from casino.eventstore.commands import run_command
        from tables import services

        for t in range(1, tables + 1):
            run_command(lambda t=t: services.open_table(
                name=f"bench {t}", game="NLH", small_blind=10, big_blind=20,
                buy_in_min=100, buy_in_max=10_000, limits_reason="bench"))  # fmt: skip

    def fill_backlog() -> None:
        versions = {t: store.stream_version(f"table-{t}") for t in range(1, tables + 1)}
        for start in range(0, events, 500):
            with transaction.atomic():
                for n in range(start, min(start + 500, events)):
                    t = n % tables + 1
                    store.append(
                        f"table-{t}", [RefreshmentPaid(t, 1, 1, 10)], expected_version=versions[t]
                    )
                    versions[t] += 1

    began = time.perf_counter()
    await sync_to_async(fill)()

    relay = Relay("bench", start_at_tail=True)
    await sync_to_async(relay.load_cursor)()  # after the tables opened: only the backlog
    await sync_to_async(fill_backlog)()
    print(f"appended {events} events to {tables} table streams in "
          f"{time.perf_counter() - began:.1f} s")  # fmt: skip
    received = dict.fromkeys(channels, 0)

    async def drain(t: int) -> None:
        while received[t] < events // tables:
            message = await layer.receive(channels[t])
            received[t] += len(message["events"])

    drains = [asyncio.create_task(drain(t)) for t in channels]
    began = time.perf_counter()
    pushed = 0
    profile = None
    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    while pushed < events:
        pushed += await relay.pump()
    if profile is not None:
        profile.disable()
        profile.dump_stats(os.environ["BENCH_PROFILE"])
    pushed_in = time.perf_counter() - began
    await asyncio.wait_for(asyncio.gather(*drains), timeout=120)
    delivered_in = time.perf_counter() - began
    await relay.close()
    print(f"relay pushed {pushed} events to {tables} groups (+ floor) in {pushed_in:.2f} s: "
          f"{pushed / pushed_in:,.0f} events/s; every subscriber had all its events after "
          f"{delivered_in:.2f} s ({events / delivered_in:,.0f} events/s end to end)")  # fmt: skip
    assert all(received[t] == events // tables for t in channels)


if __name__ == "__main__":
    main()
