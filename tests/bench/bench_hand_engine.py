"""Benchmark: fold a 30-event hand and decide one command (pure domain, no database).

Run: ``uv run python -m tests.bench.bench_hand_engine``. Goal: well under 2 ms.
"""

from __future__ import annotations

import time
from functools import reduce

from casino.domain_events import DomainEvent
from tables.domain import DealBoard, HandCommand, HandState, TakeAction, decide, evolve, load
from tests.tables.domain.support import start_hand


def main() -> None:
    commands: list[HandCommand] = [
        start_hand([5000] * 6),
        TakeAction(3, "call"),
        TakeAction(4, "raise", 40),
        *(TakeAction(s, "call") for s in (5, 6, 1, 2, 3)),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet", 50),
        TakeAction(2, "raise", 150),
        *(TakeAction(s, "call") for s in (3, 4, 5, 6, 1)),
        DealBoard("turn", "As"),
        TakeAction(1, "bet", 100),
        TakeAction(2, "raise", 300),
        TakeAction(3, "fold"),
        *(TakeAction(s, "call") for s in (4, 5, 6, 1)),
        DealBoard("river", "8d"),
        TakeAction(1, "bet", 300),
        TakeAction(2, "raise", 900),
        *(TakeAction(s, "call") for s in (4, 5, 6)),
    ]
    events: list[DomainEvent] = []
    state: HandState | None = None
    for command in commands:
        new = decide(state, command)
        events += new
        state = reduce(evolve, new, state)
    next_command = TakeAction(1, "raise", 1500)
    timings = []
    for _ in range(500):
        began = time.perf_counter()
        decide(load(events), next_command)
        timings.append(time.perf_counter() - began)
    timings.sort()
    p50, p99 = timings[len(timings) // 2], timings[int(len(timings) * 0.99)]
    print(f"fold {len(events)} events + decide: p50 {p50 * 1e3:.3f} ms, p99 {p99 * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
