"""Early payouts (ELIM-7, ELIM-8) and the prize pool being provisional (TREG-15)."""

from __future__ import annotations

import pytest

from casino.errors import DomainError
from tournaments.domain import deals, payments
from tournaments.domain import tournament as t
from tournaments.domain.events import EarlyPayoutCredited, TournamentFinished, WinningsPaid

from .support import Driver, started


def hand(d: Driver, table_id: int, final: dict[int, int]) -> list:
    table = d.s.tables[table_id]
    number = table.hands_played + 1
    d(t.StartTableHand(table_id, number, table.button_seat, None, None))
    stacks = {p: d.s.players[p].stack for p in table.seats.values() if d.s.players[p].stack}
    return d(t.RecordHandResult(table_id, number, stacks, {**stacks, **final}, 3))


@pytest.mark.rule("ELIM-7")
@pytest.mark.rule("ELIM-8")
def test_the_minimum_cash_is_credited_at_the_money_and_the_balance_at_the_end() -> None:
    d = started(9, tables=(1, 2), early_payout=True)
    (table_id,) = d.s.tables
    events = hand(d, table_id, {p: 0 for p in range(3, 10)} | {1: 80_000})
    credited = next(e for e in events if isinstance(e, EarlyPayoutCredited))
    assert credited.players == (1, 2) and credited.amount == 3100  # 2nd place's prize
    paid = d(payments.PayWinnings(2))[0]
    assert isinstance(paid, WinningsPaid) and paid.prize == 3100 and paid.kind == "early_payout"
    with pytest.raises(DomainError):
        d(payments.PayWinnings(2))  # nothing more until he goes out
    hand(d, table_id, {2: 0, 1: 90_000})
    assert isinstance(d.events[-1], TournamentFinished)
    # 2nd place earned 3,100: already paid, no second payment (ELIM-8)
    with pytest.raises(DomainError) as nothing:
        d(payments.PayWinnings(2))
    assert nothing.value.code == "nothing_owed"
    second = d(payments.PayWinnings(1))[0]
    assert isinstance(second, WinningsPaid) and second.prize == 5900


@pytest.mark.rule("TREG-15")
def test_no_deal_while_the_prize_pool_is_provisional() -> None:
    d = started(9, tables=(1, 2), late_reg_until_level=3, late_reg_close_at_money=False)
    for pid in range(1, 10):
        d(deals.RequestDeal(pid))
    with pytest.raises(DomainError) as provisional:
        d(deals.ProposeDeal("icm"))
    assert provisional.value.code == "prize_pool_provisional"
    assert provisional.value.rule == "TREG-15"


@pytest.mark.rule("ELIM-1")
def test_the_event_ends_when_every_remaining_player_would_get_the_same_prize() -> None:
    from tournaments.domain.config import PayoutBand, PayoutBracket

    equal_five = (PayoutBracket(100, (PayoutBand(5, 2000),)),)  # 5 equal prizes
    d = started(9, tables=(1, 2), payout_table=equal_five)
    (table_id,) = d.s.tables
    events = hand(d, table_id, {6: 0, 7: 0, 8: 0, 9: 0, 1: 50_000})
    finished = events[-1]
    assert isinstance(finished, TournamentFinished)  # 5 left, all would win 1,800
    top = [r for r in finished.results if r.place == 1]
    assert len(top) == 5 and all(r.place_to == 5 and r.prize == 1800 for r in top)
    assert finished.winner_player_id == 1  # the chip leader is named
