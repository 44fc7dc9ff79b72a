"""ICM (Malmuth-Harville, DEAL-7): the exact methods agree with each other, with pokerkit's
``calculate_icm`` and with published worked examples; Monte Carlo lands within its stated
error; whole amounts always sum to the pool."""

from __future__ import annotations

import random
import time

import pokerkit
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain import icm

pytestmark = pytest.mark.rule("DEAL-7")


@pytest.mark.parametrize(
    ("prizes", "stacks", "expected"),
    [
        # pokerkit's documented examples (its calculate_icm docstring)
        ((70, 30), (50, 30, 20), (45.1786, 32.25, 22.5714)),
        ((50, 30, 20), (25, 87, 88), (25.69, 37.08, 37.21)),
        ((50, 30, 20), (198, 1, 1), (49.79, 25.10, 25.10)),
        # by hand: A (50 % of chips) is 1st with 0.5, 2nd with 0.3*5/7 + 0.2*5/8 = 0.3393,
        # 3rd with 0.1607: 25 + 10.18 + 3.21 = 38.39
        ((50, 30, 20), (5000, 3000, 2000), (38.3929, 32.75, 28.8571)),
    ],
)
def test_published_worked_examples(prizes, stacks, expected) -> None:
    for method in (icm.exact_recursive, icm.exact_subset_dp):
        got = method(stacks, prizes)
        assert got == pytest.approx(expected, abs=0.01)


@settings(max_examples=80, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 10**6), min_size=1, max_size=7),
    prizes=st.lists(st.integers(0, 10**6), min_size=1, max_size=8),
)
def test_exact_methods_match_pokerkit(stacks: list[int], prizes: list[int]) -> None:
    prizes = sorted(prizes, reverse=True)
    paid = prizes[: len(stacks)]
    reference = pokerkit.calculate_icm(paid, stacks)
    assert icm.exact_recursive(stacks, prizes) == pytest.approx(reference, rel=1e-9, abs=1e-6)
    assert icm.exact_subset_dp(stacks, prizes) == pytest.approx(reference, rel=1e-9, abs=1e-6)
    # every paid place goes to someone
    assert sum(icm.exact_subset_dp(stacks, prizes)) == pytest.approx(sum(paid), rel=1e-9)


def test_recursion_and_subset_program_agree_at_ten_players() -> None:
    rng = random.Random(7)
    stacks = [rng.randint(1000, 90_000) for _ in range(10)]
    prizes = sorted((rng.randint(1000, 50_000) for _ in range(10)), reverse=True)
    assert icm.exact_recursive(stacks, prizes) == pytest.approx(
        icm.exact_subset_dp(stacks, prizes), rel=1e-9
    )


def test_equal_stacks_get_equal_shares_and_the_leader_the_most() -> None:
    assert icm.exact_subset_dp([100] * 6, [600, 300, 100]) == pytest.approx([1000 / 6] * 6)
    eq = icm.exact_subset_dp([500, 300, 200], [500, 300, 200])
    assert eq[0] > eq[1] > eq[2]
    assert eq[0] < 500  # ICM: the chip leader is worth less than his chip share


def test_speed_ten_players_under_10_ms_and_sixteen_under_a_second() -> None:
    rng = random.Random(3)
    ten = [rng.randint(1000, 100_000) for _ in range(10)]
    sixteen = [rng.randint(1000, 100_000) for _ in range(16)]
    prizes = sorted((rng.randint(100, 100_000) for _ in range(16)), reverse=True)
    best = min(_time(lambda: icm.equities(ten, prizes)) for _ in range(5))
    assert best < 0.010
    assert icm.equities(ten, prizes).method == "subset_dp"
    assert min(_time(lambda: icm.equities(sixteen, prizes)) for _ in range(2)) < 1.0
    assert icm.equities([*sixteen, 500], prizes, seed=1, trials=200).method == "monte_carlo"


def _time(fn) -> float:
    """CPU seconds of ``fn`` (this process only: a busy shared machine does not count)."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def test_monte_carlo_is_within_its_stated_error_of_the_exact_value() -> None:
    rng = random.Random(11)
    stacks = [rng.randint(1000, 50_000) for _ in range(12)]
    prizes = [40_000, 25_000, 15_000, 10_000, 6_000, 4_000]
    exact = icm.exact_subset_dp(stacks, prizes)
    result = icm.monte_carlo(stacks, prizes, seed=2024, trials=20_000)
    assert result.trials == 20_000 and result.seed == 2024
    assert all(e > 0 for e in result.standard_errors)
    for got, want, err in zip(result.equities, exact, result.standard_errors, strict=True):
        assert abs(got - want) < 5 * err  # well inside five standard errors
    # the same seed gives the same estimate (the draw is stored in the deal event)
    assert (
        icm.monte_carlo(stacks, prizes, seed=2024, trials=500).equities
        == icm.monte_carlo(stacks, prizes, seed=2024, trials=500).equities
    )


def test_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        icm.exact_subset_dp([0, 0], [10])
    with pytest.raises(ValueError):
        icm.exact_recursive([1] * 11, [10])
    with pytest.raises(ValueError):
        icm.to_amounts([1.0], 10, unit=0)


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.floats(0, 1e7, allow_nan=False), min_size=1, max_size=20).filter(
        lambda v: sum(v) > 0
    ),
    pool=st.integers(0, 10**8),
    unit=st.sampled_from([1, 10, 100, 500]),
)
def test_amounts_sum_exactly_to_the_pool(values: list[float], pool: int, unit: int) -> None:
    amounts = icm.to_amounts(values, pool, unit)
    assert sum(amounts) == pool
    assert all(a >= 0 for a in amounts)
    weight = sum(values)
    for a, v in zip(amounts, values, strict=True):  # never more than one unit off
        assert abs(a - v / weight * (pool - pool % unit)) <= unit + pool % unit + 1e-6 * pool
