"""Benchmark: ``rebuild_projections`` events/s on PostgreSQL, beside pgbench's single-row
INSERT rate measured in the same run.

Run: ``uv run python -m tests.bench.bench_rebuild [--tables 200] [--hands 100] [--actions 12]``
(PostgreSQL on 127.0.0.1, ``pgbench`` on the PATH; ``PG_URL_BASE`` to change the server).
It creates the scratch databases ``casino_bench_rebuild`` and ``casino_bench_pgbench``, writes
a synthetic log through the event store (per table: opened, nine players seated, ``--hands``
hands each as ``HandBegan`` + ``HandEnded``, nine cash-outs; every one of these events feeds
a read model, the worst case: a real log also holds hand actions, which the rebuild skips
in SQL), rebuilds every projection, checks the rebuilt tables equal the live ones, and
prints events/s next to pgbench's INSERTs/s (4 clients, 10 s).

``--actions N`` makes it a room's log instead: each hand also has its hand stream, ``N``
betting actions and the flop, turn and river (``ActionTaken`` / ``BoardDealt``, which no
read model takes). The rate is then of the whole log, as an operator meets it.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

PG = os.environ.get("PG_URL_BASE", "postgres://postgres@127.0.0.1:5432")
DB = os.environ.get("BENCH_DB", "casino_bench_rebuild")
PGBENCH_DB = DB + "_pgbench"
ROOT = Path(__file__).resolve().parents[2]


def _psql(*commands: str, db: str = "postgres") -> None:
    args = ["psql", f"{PG}/{db}", "-q"]
    for command in commands:
        args += ["-c", command]
    subprocess.run(args, check=True, capture_output=True)


def pgbench_inserts_per_second(seconds: int = 10, clients: int = 4) -> float:
    """pgbench's single-row INSERT transactions per second into a scratch database."""
    _psql(f"DROP DATABASE IF EXISTS {PGBENCH_DB}", f"CREATE DATABASE {PGBENCH_DB}")
    subprocess.run(["pgbench", "-i", "-q", f"{PG}/{PGBENCH_DB}"], check=True, capture_output=True)
    _psql(
        "CREATE TABLE bench_insert (id bigserial PRIMARY KEY, stream text, data jsonb, "
        "at timestamptz DEFAULT now())",
        db=PGBENCH_DB,
    )
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write("INSERT INTO bench_insert (stream, data) VALUES ('table-1', '{\"a\": 1}');\n")
    out = subprocess.run(
        ["pgbench", "-n", "-c", str(clients), "-T", str(seconds), "-f", script.name,
         f"{PG}/{PGBENCH_DB}"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    os.unlink(script.name)
    _psql(f"DROP DATABASE IF EXISTS {PGBENCH_DB}")
    match = re.search(r"tps = ([\d.]+)", out)
    return float(match.group(1)) if match else float("nan")


def write_log(tables: int, hands: int, actions: int = 0) -> int:
    """A synthetic log; returns the number of events."""
    from django.db import transaction

    from casino.eventstore import store
    from tables.events import (
        ActionTaken,
        BoardDealt,
        DealtInSeat,
        HandBegan,
        HandEnded,
        PlayerCashedOut,
        PlayerSeated,
        SeatStack,
        TableOpened,
    )

    total = 0
    for table_id in range(1, tables + 1):
        events: list = [
            TableOpened(
                table_id,
                f"T{table_id}",
                "NLH",
                10,
                20,
                0,
                "none",
                1000,
                5000,
                500,
                300,
                False,
                "standard",
                9,
            )
        ]
        seats = range(1, 10)
        events += [PlayerSeated(table_id, s, table_id * 100 + s, 2000) for s in seats]
        for number in range(1, hands + 1):
            hand_id = str(uuid.uuid4())
            dealt = tuple(DealtInSeat(s, table_id * 100 + s, 2000) for s in seats)
            events.append(HandBegan(table_id, hand_id, number, 1 + number % 9, dealt))
            events.append(HandEnded(table_id, hand_id, tuple(SeatStack(s, 2000) for s in seats), 0))
            if actions:
                street = [ActionTaken(1 + n % 9, "call", 20, 20, False) for n in range(actions)]
                street += [BoardDealt("flop", "2c7d9h"), BoardDealt("turn", "Js"),
                           BoardDealt("river", "3d")]  # fmt: skip
                with transaction.atomic():
                    store.append(f"hand-{hand_id}", street, expected_version=0)
                total += len(street)
        events += [PlayerCashedOut(table_id, s, table_id * 100 + s, 2000) for s in seats]
        with transaction.atomic():
            store.append(f"table-{table_id}", events, expected_version=0)
        total += len(events)
    return total


def _snapshot() -> dict[str, list]:
    from casino.eventstore.rebuild import _projection_models

    return {m._meta.label: sorted(map(repr, m.objects.values_list())) for m in _projection_models()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--actions", type=int, default=0, help="betting actions per hand")
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    args = parser.parse_args()

    _psql(f"DROP DATABASE IF EXISTS {DB}", f"CREATE DATABASE {DB}")
    os.environ.update(DATABASE_URL=f"{PG}/{DB}", REDIS_URL="", LOG_LEVEL="ERROR",
                      DJANGO_SETTINGS_MODULE="casino.settings")  # fmt: skip
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from casino.eventstore.rebuild import rebuild

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    events = write_log(args.tables, args.hands, args.actions)
    print(f"wrote {events} events in {time.perf_counter() - started:.1f} s (live appends)")
    live = _snapshot()
    started = time.perf_counter()
    replayed = rebuild()
    elapsed = time.perf_counter() - started
    assert replayed == (events if not args.actions else args.tables * (2 * args.hands + 19))
    assert _snapshot() == live, "the rebuilt read models differ from the live ones"
    rate = events / elapsed
    print(f"rebuild: {events} events ({replayed} feed a read model) in {elapsed:.2f} s = "
          f"{rate:,.0f} events/s (tables equal)")  # fmt: skip
    tps = pgbench_inserts_per_second(args.pgbench_seconds)
    print(f"pgbench single-row INSERT (4 clients): {tps:,.0f} /s; rebuild = {rate / tps:.1f}x")
    from django.db import connections

    connections.close_all()
    _psql(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


if __name__ == "__main__":
    main()
