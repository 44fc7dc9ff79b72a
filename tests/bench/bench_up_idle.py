"""Benchmark: the CPU that ``manage.py up`` spends at rest, as a new user leaves it running.

Run: ``uv run python -m tests.bench.bench_up_idle [--seconds 30] [--settle 10]``. It starts
``manage.py up`` on a fresh SQLite file with the in-process channel layer, like the README's
first command (``bench_embedded_push.fresh_embedded_room``), lets it settle
for ``--settle`` seconds, then reads the process's user and system CPU time
(``/proc/<pid>/stat``, Linux) across ``--seconds`` seconds with no request and no socket.

What it spends at rest is the embedded timers and the relay waiting for work: the Celery
worker polling the in-memory broker, beat's sweeps (``casino.celery.start_embedded``) and the
relay's SQLite poll (``RELAY_SQLITE_POLL_SECONDS``). On 2026-11-28 it was 9-10 % of a core
before those were slowed to what their promises need, 2-3 % after (``docs/realtime.md``).
"""

from __future__ import annotations

import argparse
import os
import time

from tests.bench.bench_embedded_push import fresh_embedded_room


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of process ``pid`` so far, seconds (``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--settle", type=float, default=10.0)
    args = parser.parse_args()
    with fresh_embedded_room() as room:
        time.sleep(args.settle)
        pid = room.process.pid
        start, cpu_start = time.monotonic(), cpu_seconds(pid)
        time.sleep(args.seconds)
        used = cpu_seconds(pid) - cpu_start
        elapsed = time.monotonic() - start
    print(f"manage.py up at rest for {elapsed:.0f} s: {used:.2f} s of CPU, "
          f"{100 * used / elapsed:.1f} % of one core")  # fmt: skip


if __name__ == "__main__":
    main()
