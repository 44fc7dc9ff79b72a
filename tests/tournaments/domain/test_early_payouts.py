"""Early payouts (ELIM-7, ELIM-8) and the prize pool being provisional (TREG-15)."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.errors import DomainError
from tournaments.domain import deals, payments
from tournaments.domain import tournament as t
from tournaments.domain.events import EarlyPayoutCredited, TournamentFinished, WinningsPaid
from tournaments.domain.standings import busted_results

from .support import Driver, play_round, started


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


def _down_to_three() -> Driver:
    """18 players at one table after the first hands; players 4..18 out, 1..3 left."""
    d = started(18, tables=(1, 2, 3, 4))
    while len(d.s.tables) > 1 or d.s.players_left > 3:
        table_id = max(d.s.tables, key=lambda x: len(d.s.tables[x].seats))
        seated = sorted(p for p in d.s.tables[table_id].seats.values() if d.s.players[p].stack)
        keep = [p for p in seated if p <= 3] or seated[:1]
        out = [p for p in seated if p not in keep][:2]
        winner = keep[0]
        gain = sum(d.s.players[p].stack for p in out)
        hand(d, table_id, {p: 0 for p in out} | {winner: d.s.players[winner].stack + gain})
    return d


@pytest.mark.rule("ELIM-6")
def test_a_player_out_in_the_money_is_paid_as_he_leaves() -> None:
    """QA: 4th place could not be paid until the whole event ended (``no_prize``)."""
    d = _down_to_three()
    (table_id,) = d.s.tables
    with pytest.raises(DomainError) as nothing:
        d(payments.PayWinnings(17))  # out of the money
    assert nothing.value.code == "nothing_owed"
    hand(d, table_id, {3: 0, 1: d.s.players[1].stack + d.s.players[3].stack})
    assert d.s.status == "running" and d.s.players_left == 2
    paid = d(payments.PayWinnings(3))[0]
    assert isinstance(paid, WinningsPaid) and paid.kind == "prize"
    assert paid.prize == 3600 and [(e.place, e.prize) for e in paid.entries] == [(3, 3600)]
    with pytest.raises(DomainError):
        d(payments.PayWinnings(3))  # paid once
    hand(d, table_id, {2: 0, 1: d.s.players[1].stack + d.s.players[2].stack})
    finished = d.events[-1]
    assert isinstance(finished, TournamentFinished)
    third = next(r for r in finished.results if r.player_id == 3)
    assert (third.place, third.prize) == (3, 3600)  # the end agrees with what was paid
    with pytest.raises(DomainError) as again:
        d(payments.PayWinnings(3))
    assert again.value.code == "nothing_owed"
    assert d(payments.PayWinnings(2))[0].prize == 5400  # type: ignore[attr-defined]


@pytest.mark.rule("TREG-15")
def test_a_player_out_is_not_paid_while_the_prize_pool_may_still_grow() -> None:
    d = started(9, tables=(1, 2), late_reg_until_level=3, late_reg_close_at_money=False,
                late_reg_close_below_full_table=False)  # fmt: skip
    (table_id,) = d.s.tables
    hand(d, table_id, {p: 0 for p in range(3, 10)} | {1: 80_000})
    assert d.s.late_reg_open and d.s.players_left == 2
    with pytest.raises(DomainError) as provisional:
        d(payments.PayWinnings(3))
    assert provisional.value.code == "nothing_owed"


@pytest.mark.rule("ELIM-6")
@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(9, 40),
    hand_for_hand=st.booleans(),
)
def test_a_prize_fixed_for_a_player_out_is_the_prize_the_end_gives_him(
    seed: int, players: int, hand_for_hand: bool
) -> None:
    """Whatever the field and the order of the busts (ties, hand-for-hand rounds, tables
    breaking), a prize the cage may pay while the event runs is never changed later."""
    rng = random.Random(seed)
    d = started(players, seed=seed)
    fixed: dict[int, int] = {}
    for _ in range(2000):
        if d.s.status != t.RUNNING:
            break
        if hand_for_hand and not d.s.hand_for_hand and len(d.s.tables) > 1:
            with contextlib.suppress(DomainError):
                d(t.StartHandForHand())
        for result in busted_results(d.s):
            assert fixed.setdefault(result.entry_number, result.prize) == result.prize
        if not play_round(d, rng, bust_chance=0.2):
            d(t.EndBreak()) if d.s.clock.on_break else d.tick(minutes=30)
    finished = next(e for e in reversed(d.events) if isinstance(e, TournamentFinished))
    final = {r.entry_number: r.prize for r in finished.results}
    assert {entry: final[entry] for entry in fixed} == fixed


@pytest.mark.rule("ELIM-7")
def test_no_early_payout_while_late_registration_is_open_it_comes_once_it_closes() -> None:
    d = started(9, tables=(1, 2), early_payout=True, late_reg_until_level=3,
                late_reg_close_at_money=False, late_reg_close_below_full_table=False)  # fmt: skip
    (table_id,) = d.s.tables
    hand(d, table_id, {p: 0 for p in range(3, 10)} | {1: 80_000})  # in the money: 2 left
    hand(d, table_id, {})
    assert d.s.late_reg_open and d.s.players_left == 2
    assert not any(isinstance(e, EarlyPayoutCredited) for e in d.events)
    assert not d.s.early_credited
    after = d(t.CloseLateRegistration())
    after += hand(d, table_id, {})  # credited by the next hand at the latest
    credited = [e for e in after if isinstance(e, EarlyPayoutCredited)]
    assert [(e.players, e.amount) for e in credited] == [((1, 2), 3100)]


@pytest.mark.rule("ELIM-7")
def test_the_hand_that_reaches_the_money_credits_the_early_payout_at_once() -> None:
    """With late entry still open, the hand that reached the money closed it and credited
    nothing: the credit came with the next hand (found by the mutation audit)."""
    d = started(9, tables=(1, 2), early_payout=True, late_reg_until_level=3,
                late_reg_close_below_full_table=False)  # fmt: skip
    (table_id,) = d.s.tables
    events = hand(d, table_id, {p: 0 for p in range(3, 10)} | {1: 80_000})
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("LateRegistrationClosed") < kinds.index("EarlyPayoutCredited")
    credited = next(e for e in events if isinstance(e, EarlyPayoutCredited))
    assert credited.players == (1, 2) and credited.amount == 3100


@pytest.mark.rule("ELIM-7")
def test_closing_late_entry_in_the_money_credits_the_early_payout_at_once() -> None:
    d = started(9, tables=(1, 2), early_payout=True, late_reg_until_level=3,
                late_reg_close_at_money=False, late_reg_close_below_full_table=False)  # fmt: skip
    (table_id,) = d.s.tables
    hand(d, table_id, {p: 0 for p in range(3, 10)} | {1: 80_000})
    assert d.s.late_reg_open and not d.s.early_credited
    events = d(t.CloseLateRegistration())
    credited = next(e for e in events if isinstance(e, EarlyPayoutCredited))
    assert credited.players == (1, 2)
