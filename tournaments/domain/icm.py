"""The Independent Chip Model (Malmuth-Harville), pure standard library (DEAL-7).

A player's chance of finishing 1st is his share of the chips; given who finished above him,
his chance of each next place is his share of the chips still left (Harville's formula).
His ICM equity is the sum over the paid places of ``prize x P(place)``.

Three ways to compute it, picked by :func:`equities` from the number of players:

* :func:`exact_subset_dp` (used up to :data:`AUTO_EXACT_MAX_PLAYERS` = 16, allowed up to
  :data:`EXACT_MAX_PLAYERS` = 18): the Harville probabilities as a forward dynamic program
  over the subsets of players already placed (``2^n x n / 2`` steps, stopping at the
  number of paid places). Measured (``tests/bench/bench_icm.py``, every place paid): about
  2 ms for 10 players, 20 ms for 13, 0.2 s for 16.
* :func:`exact_recursive` (up to :data:`RECURSION_MAX_PLAYERS` = 10): the textbook
  recursion "who finishes next?" over the set of players still in, memoized on that set.
  Same numbers, slower (``n^2 x 2^n``: about 13 ms for 10 players and 10 places); kept as
  the independent reference the tests check the program against.
* :func:`monte_carlo` beyond 16 players: finishing orders drawn from the Harville model (an
  exponential race: player ``i`` draws ``Exp(rate=chips_i)``, the smallest draw finishes
  1st, which is exactly Harville's distribution by memorylessness), with the standard
  error of each equity stated. The seed is given by the caller (stored in the event).

Chips are integers (chips), prizes integers (CZK); equities are floats in CZK.
:func:`to_amounts` turns equities into whole amounts that sum exactly to the pool
(largest remainder, see its docstring).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

RECURSION_MAX_PLAYERS = 10
EXACT_MAX_PLAYERS = 18
AUTO_EXACT_MAX_PLAYERS = 16
DEFAULT_TRIALS = 20_000


@dataclass(frozen=True, slots=True)
class IcmResult:
    """Equity per player (CZK, same order as the stacks), the ``method`` used
    (``"recursive"``, ``"subset_dp"`` or ``"monte_carlo"``), and for Monte Carlo the
    ``trials``, the ``seed`` and each equity's standard error (CZK; 0 for exact methods)."""

    equities: tuple[float, ...]
    method: str
    standard_errors: tuple[float, ...]
    trials: int = 0
    seed: int | None = None

    @property
    def max_standard_error(self) -> float:
        return max(self.standard_errors, default=0.0)


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> None:
    if not stacks:
        raise ValueError("no players")
    if any(s < 0 for s in stacks) or sum(stacks) <= 0:
        raise ValueError("stacks must be >= 0 chips with a positive total")
    if any(p < 0 for p in prizes):
        raise ValueError("prizes must be >= 0 CZK")


def _places(stacks: Sequence[int], prizes: Sequence[int]) -> list[int]:
    """The prizes that can be won: at most one per player with chips (a player with no
    chips finishes after every player with chips)."""
    return list(prizes[: len(stacks)])


def exact_recursive(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[float, ...]:
    """ICM equities (CZK) by the Malmuth-Harville recursion, memoized on the set of players
    still to be placed. ``prizes``: 1st place first; places past the players are ignored.

    Raises:
        ValueError: more than :data:`RECURSION_MAX_PLAYERS` players, negative values or no
            chips at all.
    """
    _check(stacks, prizes)
    n = len(stacks)
    if n > RECURSION_MAX_PLAYERS:
        raise ValueError(f"the recursion is for at most {RECURSION_MAX_PLAYERS} players")
    pay = _places(stacks, prizes)
    chips = [float(s) for s in stacks]

    @cache
    def rest(mask: int, place: int) -> tuple[float, ...]:
        # equities of the players in ``mask`` for places ``place`` ... (0-based)
        if place >= len(pay) or mask == 0:
            return (0.0,) * n
        members = [i for i in range(n) if mask >> i & 1]
        total = sum(chips[i] for i in members)
        out = [0.0] * n
        if total <= 0:  # only players with no chips left: they share the places in order
            return tuple(out)
        for j in members:
            if chips[j] <= 0:
                continue
            p = chips[j] / total
            out[j] += p * pay[place]
            below = rest(mask & ~(1 << j), place + 1)
            for i in members:
                out[i] += p * below[i]
        return tuple(out)

    return rest((1 << n) - 1, 0)


def exact_subset_dp(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[float, ...]:
    """ICM equities (CZK), exact, by a forward dynamic program over the subsets of players
    already placed: ``P(S)`` is the probability that the players of ``S`` took the first
    ``|S|`` places; each player ``j`` outside ``S`` takes place ``|S|+1`` with probability
    ``P(S) x chips_j / chips outside S``. Stops at the number of paid places.

    Raises:
        ValueError: more than :data:`EXACT_MAX_PLAYERS` players, negative values or no
            chips at all.
    """
    _check(stacks, prizes)
    n = len(stacks)
    if n > EXACT_MAX_PLAYERS:
        raise ValueError(f"the exact program is for at most {EXACT_MAX_PLAYERS} players")
    pay = _places(stacks, prizes)
    places = len(pay)
    chips = [float(s) for s in stacks]
    total = sum(chips)
    size = 1 << n
    prob = [0.0] * size
    prob[0] = 1.0
    placed_chips = [0.0] * size
    count = [0] * size
    equity = [0.0] * n
    bits = [(j, 1 << j, chips[j]) for j in range(n) if chips[j] > 0]
    for mask in range(size):  # a subset always comes before its supersets
        p = prob[mask]
        if p == 0.0:
            continue
        k = count[mask]
        if k >= places:
            continue
        left = total - placed_chips[mask]
        if left <= 0:
            continue
        prize = pay[k]
        scale = p / left
        placed = placed_chips[mask]
        for j, bit, c in bits:
            if mask & bit:
                continue
            q = scale * c
            equity[j] += prize * q
            nxt = mask | bit
            if prob[nxt] == 0.0:
                placed_chips[nxt] = placed + c
                count[nxt] = k + 1
            prob[nxt] += q
    return tuple(equity)


def monte_carlo(
    stacks: Sequence[int], prizes: Sequence[int], *, seed: int, trials: int = DEFAULT_TRIALS
) -> IcmResult:
    """ICM equities (CZK) estimated from ``trials`` finishing orders drawn from the
    Harville model with ``random.Random(seed)``; each equity's standard error
    (sample standard deviation / sqrt(trials), CZK) is returned with it.

    Raises:
        ValueError: ``trials`` < 2, negative values or no chips at all.
    """
    _check(stacks, prizes)
    if trials < 2:
        raise ValueError("at least 2 trials")
    n = len(stacks)
    pay = _places(stacks, prizes)
    rng = random.Random(seed)
    live = [i for i in range(n) if stacks[i] > 0]
    broke = [i for i in range(n) if stacks[i] <= 0]
    rates = [float(stacks[i]) for i in live]
    total = [0.0] * n
    squares = [0.0] * n
    expo = rng.expovariate
    for _ in range(trials):
        keys = sorted((expo(r), i) for r, i in zip(rates, live, strict=True))
        order = [i for _, i in keys] + broke
        for place, prize in enumerate(pay):
            i = order[place]
            total[i] += prize
            squares[i] += prize * prize
    means = tuple(t / trials for t in total)
    errors = tuple(
        math.sqrt(max(0.0, (sq / trials - m * m)) * trials / (trials - 1) / trials)
        for sq, m in zip(squares, means, strict=True)
    )
    return IcmResult(means, "monte_carlo", errors, trials, seed)


def equities(
    stacks: Sequence[int], prizes: Sequence[int], *, seed: int = 0, trials: int = DEFAULT_TRIALS
) -> IcmResult:
    """ICM equities with the best method for the field size: the exact subset program up
    to 16 players (under 10 ms up to 10, under 1 s at 16), Monte Carlo (``seed``,
    ``trials``) beyond, with its standard errors.

    Raises:
        ValueError: negative values or no chips at all.
    """
    n = len(stacks)
    if n <= AUTO_EXACT_MAX_PLAYERS:
        return IcmResult(exact_subset_dp(stacks, prizes), "subset_dp", (0.0,) * n)
    return monte_carlo(stacks, prizes, seed=seed, trials=trials)


def to_amounts(values: Sequence[float], pool: int, unit: int = 1) -> tuple[int, ...]:
    """Whole amounts (CZK) for real-valued shares ``values`` of ``pool``, summing exactly
    to ``pool`` (largest-remainder rounding in steps of ``unit``).

    The values are scaled to ``pool`` (so float error in them cannot change the total),
    each amount is rounded down to a multiple of ``unit``, then the ``unit``\\ s left over
    go one each to the largest remainders (ties: the larger value, then the earlier
    player), and the last ``pool % unit`` CZK to the largest value (earliest on ties).

    Raises:
        ValueError: ``unit`` <= 0, ``pool`` < 0, a negative value, or all values 0 with a
            positive pool.
    """
    if unit <= 0 or pool < 0 or any(v < 0 for v in values):
        raise ValueError("unit must be > 0, pool and values >= 0")
    if not values:
        if pool:
            raise ValueError("no one to pay the pool to")
        return ()
    weight = float(sum(values))
    if weight <= 0:
        if pool:
            raise ValueError("all values are 0")
        return (0,) * len(values)
    units, odd = divmod(pool, unit)
    exact = [v / weight * units for v in values]
    floors = [math.floor(x) for x in exact]
    left = units - sum(floors)
    order = sorted(range(len(values)), key=lambda i: (-(exact[i] - floors[i]), -values[i], i))
    i = 0
    while left > 0:  # left <= len(values) unless float error: loop round if so
        floors[order[i % len(order)]] += 1
        left -= 1
        i += 1
    while left < 0:  # defensive: take back from the smallest remainders
        j = order[-1 - (i % len(order))]
        if floors[j] > 0:
            floors[j] -= 1
            left += 1
        i += 1
    amounts = [f * unit for f in floors]
    top = min(range(len(values)), key=lambda i: (-values[i], i))
    amounts[top] += odd
    return tuple(amounts)


SMALLER_UNITS = (50, 20, 10, 5, 2, 1)
"""Rounding units tried, largest first, when the event's unit moves a share too far."""

ROUNDING_TOLERANCE = 0.05
"""How far rounding may move a deal share, as a part of it (5 %)."""


def rounding_unit(values: Sequence[float], pool: int, unit: int) -> int:
    """The rounding unit of shares of ``pool`` (a deal, a cancellation's settlement; CZK):
    ``unit`` (the event's) or, when rounding to it
    would move a share of 1 CZK or more by over :data:`ROUNDING_TOLERANCE` of it, the
    largest of :data:`SMALLER_UNITS` that does not, else 1. ``values`` are the players'
    weights (equities, chips, or 1 each). So nobody owed a share is left with 0 (DEAL-2:
    a deal gives every remaining player a share) and an even split stays even (DEAL-9).

    Raises:
        ValueError: as :func:`to_amounts`.
    """
    weight = float(sum(values))
    shares = [v / weight * pool for v in values] if weight > 0 else [0.0] * len(values)
    for candidate in (unit, *(u for u in SMALLER_UNITS if u < unit)):
        amounts = to_amounts(values, pool, candidate)
        if all(
            abs(amount - share) <= share * ROUNDING_TOLERANCE
            for amount, share in zip(amounts, shares, strict=True)
            if share >= 1
        ):
            return candidate
    return 1
