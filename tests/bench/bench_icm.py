"""Benchmark: ICM equities (Malmuth-Harville, DEAL-7), pure domain.

Run: ``uv run python -m tests.bench.bench_icm``. Goals: 10 players under 10 ms (exact),
16 players under 1 s (exact subset program), and a 50-player Monte Carlo run with its
standard error stated. Every place is paid (the worst case for the exact program).
"""

from __future__ import annotations

import random
import time

from tournaments.domain import icm


def _case(players: int, rng: random.Random) -> tuple[list[int], list[int]]:
    stacks = [rng.randint(5_000, 500_000) for _ in range(players)]
    prizes = sorted((rng.randint(1_000, 200_000) for _ in range(players)), reverse=True)
    return stacks, prizes


def main() -> None:
    rng = random.Random(2026)
    for players, goal in ((10, 0.010), (13, 1.0), (16, 1.0)):
        stacks, prizes = _case(players, rng)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            result = icm.equities(stacks, prizes)
            best = min(best, time.perf_counter() - start)
        verdict = "OK" if best < goal else "SLOW"
        print(f"{players:>3} players, {players} places, {result.method:<10} "
              f"{best * 1000:9.1f} ms (goal < {goal * 1000:.0f} ms) {verdict}")  # fmt: skip
    stacks, prizes = _case(10, rng)
    start = time.perf_counter()
    icm.exact_recursive(stacks, prizes)
    print(f" 10 players, recursion (reference) {(time.perf_counter() - start) * 1000:9.1f} ms")
    stacks = [rng.randint(5_000, 500_000) for _ in range(50)]
    prizes = sorted((rng.randint(1_000, 200_000) for _ in range(9)), reverse=True)
    start = time.perf_counter()
    mc = icm.monte_carlo(stacks, prizes, seed=50, trials=icm.DEFAULT_TRIALS)
    elapsed = time.perf_counter() - start
    pool = sum(prizes)
    print(f" 50 players,  9 places, monte_carlo {elapsed * 1000:9.1f} ms, {mc.trials} trials, "
          f"max standard error {mc.max_standard_error:.0f} CZK of a {pool:,} CZK pool "
          f"({mc.max_standard_error / pool * 100:.3f} %)")  # fmt: skip


if __name__ == "__main__":
    main()
