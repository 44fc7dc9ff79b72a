"""Benchmark: seat draw, balancing and breaking a table for a 10,000-player field (WSOP
Main Event size), pure domain (no database).

Run: ``uv run python -m tests.bench.bench_tournament_seating``. Goal: each under 1 s.

1. ``seating.draw_seats`` for 10,000 players on 1,112 nine-handed tables.
2. The aggregate's ``StartTournament`` decision (seat draw + a high-card button draw per
   table) and folding its event.
3. A full balancing pass (``seating.balance``) after 3,000 random busts spread unevenly
   (every table idle).
4. ``seating.break_table`` of one table, and ``tables_to_break`` + ``break_tables`` for
   every table due after the busts, in one pass.
5. One ``RecordHandResult`` decision in the 10,000-player aggregate (eliminations,
   balancing) and its fold.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from tournaments.domain import seating
from tournaments.domain import tournament as t
from tournaments.domain.config import Level, TournamentConfig

PLAYERS = 10_000
TABLE_SIZE = 9


def timed(label: str, fn: Callable[[], Any]) -> Any:
    start = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - start
    print(f"{label:<62} {elapsed * 1000:9.1f} ms {'OK' if elapsed < 1 else 'SLOW'}")
    return result


def main() -> None:
    rng = random.Random(42)
    players = list(range(1, PLAYERS + 1))
    table_ids = list(range(1, seating.tables_needed(PLAYERS, TABLE_SIZE) + 1))
    draw = timed(
        f"draw_seats: {PLAYERS} players, {len(table_ids)} tables",
        lambda: seating.draw_seats(players, table_ids, TABLE_SIZE, rng),
    )
    seats: dict[int, dict[int, int]] = {tid: {} for tid in table_ids}
    for pid, (tid, seat) in draw.items():
        seats[tid][seat] = pid

    # uneven busts: some tables lose many players
    busted = set(rng.sample(players, 3000))
    for tid in table_ids[:200]:
        busted |= set(list(seats[tid].values())[:5])
    layouts = {
        tid: seating.TableLayout(
            tid,
            TABLE_SIZE,
            {s: p for s, p in seats[tid].items() if p not in busted},
            button_seat=min(seats[tid]),
            big_blind_seat=sorted(seats[tid])[min(2, len(seats[tid]) - 1)],
        )
        for tid in table_ids
    }
    left = sum(len(lay.seats) for lay in layouts.values())
    moves = timed(
        f"balance: {left} players left, one pass",
        lambda: seating.balance(layouts),
    )
    print(f"    {len(moves)} moves")
    timed("break_table: one table", lambda: seating.break_table(layouts, table_ids[-1], rng))

    due = seating.tables_to_break(left, table_ids[::-1], TABLE_SIZE)
    moved = timed(
        f"break_tables: the {len(due)} tables due after the busts, one pass",
        lambda: seating.break_tables(layouts, due, rng),
    )
    print(f"    {len(moved)} players moved")

    cfg = TournamentConfig(
        name="Main Event", buy_in=10_000, fee=0, starting_stack=60_000, min_entrants=2,
        levels=(Level(100, 200, 200, "big_blind_ante", 120),),
    )  # fmt: skip
    now = datetime(2025, 7, 3, 12, tzinfo=UTC)
    state = t.evolve(None, t.decide(None, t.CreateTournament("main", cfg), now)[0])
    for pid in players:
        state = t.evolve(state, t.decide(state, t.Register(pid), now)[0])
    events = timed(
        "aggregate StartTournament decide (draw + button cards)",
        lambda: t.decide(state, t.StartTournament(tuple(table_ids), 7), now),
    )
    state = timed("aggregate fold TournamentStarted", lambda: t.evolve(state, events[0]))
    state = t.evolve(state, t.decide(state, t.StartClock(), now)[0])
    table = state.tables[table_ids[0]]
    for e in t.decide(state, t.StartTableHand(table.table_id, 1, table.button_seat), now):
        state = t.evolve(state, e)
    stacks = {pid: state.players[pid].stack for pid in state.tables[table_ids[0]].seats.values()}
    winner, *losers = sorted(stacks)
    final = {pid: 0 for pid in losers} | {winner: sum(stacks.values())}
    result = timed(
        "aggregate RecordHandResult decide (8 busts, balancing)",
        lambda: t.decide(state, t.RecordHandResult(table.table_id, 1, stacks, final, 3), now),
    )
    print(f"    {len(result)} events")


if __name__ == "__main__":
    main()
