"""Satellite prizes and T-Money (TREG-11), without a database."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from casino.errors import DomainError
from tournaments.domain import satellites as sat
from tournaments.domain.events import TMoneyCredited, TMoneySpent

NOW = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)


@pytest.mark.rule("TREG-11")
@given(
    st.integers(min_value=0, max_value=500),
    st.integers(min_value=1, max_value=10**6),
    st.integers(min_value=0, max_value=10**6),
)
def test_the_pool_buys_whole_seats_and_the_leftover_goes_to_the_next_place(
    seats: int, seat: int, extra: int
) -> None:
    pool = seats * seat + extra
    prizes = sat.prizes(pool, seat)
    assert sum(prizes) == pool  # nothing is lost or made up
    assert prizes.count(seat) >= pool // seat
    assert all(p == seat for p in prizes[: pool // seat])
    assert len(prizes) == pool // seat + (1 if pool % seat else 0)
    assert list(prizes) == sorted(prizes, reverse=True)


def test_a_prize_splits_into_seats_and_cash() -> None:
    assert sat.split(600, 600) == (1, 0)
    assert sat.split(650, 600) == (1, 50)  # a tie on the bubble: a seat and cash
    assert sat.split(350, 600) == (0, 350)
    assert sat.split(100, 0) == (0, 100)
    with pytest.raises(ValueError):
        sat.prizes(100, 0)


@pytest.mark.rule("TREG-11")
def test_t_money_is_credited_and_spent_never_below_zero() -> None:
    account = sat.Account(7)
    [credit] = sat.decide(account, sat.Credit(600, "satellite 3"), NOW)
    assert isinstance(credit, TMoneyCredited) and credit.balance == 600
    account = sat.evolve(account, credit)
    [spend] = sat.decide(account, sat.Spend(350, 9), NOW)
    assert isinstance(spend, TMoneySpent) and spend.balance == 250
    account = sat.evolve(account, spend)
    with pytest.raises(DomainError) as refused:
        sat.decide(account, sat.Spend(251, 9), NOW)
    assert refused.value.code == "insufficient_t_money"
    with pytest.raises(DomainError):
        sat.decide(account, sat.Credit(0, "nothing"), NOW)
