"""Bounties (BNTY-1..8): which pot pays, splits with odd CZK to the earliest positions,
progressive shares, the winner's own bounty, absent named players, and conservation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain import bounties
from tournaments.domain import tournament as t
from tournaments.domain.config import BountyRule
from tournaments.domain.events import BountyCollected, BountyPlaced, TournamentFinished

from .support import Driver, play_round, started


def ko_hand(d: Driver, table_id: int, final: dict[int, int], knockouts: dict) -> list:
    table = d.s.tables[table_id]
    number = table.hands_played + 1
    d(t.StartTableHand(table_id, number, table.button_seat, None, None))
    stacks = {p: d.s.players[p].stack for p in table.seats.values() if d.s.players[p].stack}
    return d(t.RecordHandResult(table_id, number, stacks, {**stacks, **final}, 3,
                                knockouts=knockouts))  # fmt: skip


@pytest.mark.rule("BNTY-2")
def test_the_bounty_comes_from_the_highest_pot_the_busted_player_was_in() -> None:
    # main pot (0) won by 7, side pot (1) between 2 and 3 won by 3: player 2 was all-in for
    # his last chips in the side pot, player 9 (short) only in the main pot
    pots = [(0, [2, 3, 7, 9], [7]), (1, [2, 3], [3])]
    assert bounties.relevant_pot_winners(pots, 2) == (3,)
    assert bounties.relevant_pot_winners(pots, 9) == (7,)
    assert bounties.relevant_pot_winners(pots, 5) == ()


@pytest.mark.rule("BNTY-4")
def test_a_split_bounty_gives_odd_czk_to_the_earliest_positions() -> None:
    assert bounties.split(1001, [4, 8, 1]) == [(4, 334), (8, 334), (1, 333)]
    state = bounties.BountyState(heads={5: 101})
    collected = bounties.collect(state, "knockout", 5000, 5, [2, 6])
    assert collected is not None
    assert [(a.player_id, a.cash) for a in collected.awards] == [(2, 51), (6, 50)]


@pytest.mark.rule("BNTY-1")
def test_progressive_knockout_cash_share_and_head_growth() -> None:
    d = started(9, tables=(1, 2), bounty=BountyRule("progressive", 1000, (), 5000))
    assert d.s.bounty.paid_in == 9000 and d.s.bounty.heads[3] == 1000
    (table_id,) = d.s.tables
    events = ko_hand(d, table_id, {3: 0, 1: 20_000}, {3: (1,)})
    collected = next(e for e in events if isinstance(e, BountyCollected))
    assert collected.player_id == 3 and collected.amount == 1000
    assert d.s.bounty.cash_won[1] == 500 and d.s.bounty.heads[1] == 1500
    # player 4 busts to player 1: half of 1,000 in cash, half onto 1's head
    ko_hand(d, table_id, {4: 0, 1: 30_000}, {4: (1,)})
    assert d.s.bounty.cash_won[1] == 1000 and d.s.bounty.heads[1] == 2000


@pytest.mark.rule("BNTY-5")
@pytest.mark.rule("BNTY-6")
def test_fixed_bounty_named_player_absent_or_winning_is_not_paid() -> None:
    d = started(9, tables=(1, 2), bounty=BountyRule("fixed", 5000, (2, 42), 5000))
    assert d.s.bounty.heads == {2: 5000}  # 42 never registered: no bounty (BNTY-6)
    assert not any(isinstance(e, BountyPlaced) and e.player_id == 42 for e in d.events)
    (table_id,) = d.s.tables
    others = [p for p in range(1, 10) if p != 2]
    ko_hand(d, table_id, {p: 0 for p in others} | {2: 90_000}, {p: (2,) for p in others})
    finished = d.events[-1]
    assert isinstance(finished, TournamentFinished) and finished.winner_player_id == 2
    assert d.s.bounty.cash_won == {}  # the fixed bounty on the winner is not paid


@pytest.mark.rule("BNTY-5")
def test_knockout_winner_gets_his_own_bounty() -> None:
    d = started(9, tables=(1, 2), bounty=BountyRule("knockout", 300))
    (table_id,) = d.s.tables
    others = [p for p in range(1, 10) if p != 5]
    ko_hand(d, table_id, {p: 0 for p in others} | {5: 90_000}, {p: (5,) for p in others})
    assert d.s.status == t.FINISHED
    assert d.s.bounty.cash_won == {5: 9 * 300}


@pytest.mark.rule("BNTY-1")
@pytest.mark.rule("BNTY-4")
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(["knockout", "progressive"]),
       share=st.integers(0, 10_000), amount=st.integers(1, 999))  # fmt: skip
def test_bounty_money_is_conserved(seed: int, kind: str, share: int, amount: int) -> None:
    d = started(14, tables=(1, 2, 3), bounty=BountyRule(kind, amount, (), share))  # type: ignore[arg-type]
    rng = random.Random(seed)
    for _ in range(400):
        if d.s.status == t.FINISHED:
            break
        play_round(d, rng, bust_chance=0.4)
        b = d.s.bounty
        assert sum(b.cash_won.values()) + sum(b.heads.values()) == b.paid_in == 14 * amount
    assert d.s.status == t.FINISHED
    assert sum(d.s.bounty.cash_won.values()) == 14 * amount
    assert sum(d.s.bounty.heads.values()) == 0


@pytest.mark.rule("BNTY-1")
def test_the_cage_prices_include_the_fee_and_the_entrants_bounty() -> None:
    from dataclasses import replace

    from tournaments.domain.config import AddOnRule, RebuyRule, ReEntryRule

    from .support import config

    base = config()
    assert bounties.cage_prices(base) == bounties.CagePrices(1100, None, None, None)
    knockout = replace(
        base,
        bounty=BountyRule(kind="knockout", amount=500),
        reentry=ReEntryRule(allowed=True, price=1000, fee=50),
        rebuy=RebuyRule(allowed=True, price=400, fee=0),
        add_on=AddOnRule(allowed=True, price=300, fee=30),
    )
    # every entry puts a bounty on the entrant's head; chips bought later do not
    assert bounties.cage_prices(knockout) == bounties.CagePrices(1600, 1550, 400, 330)
    fixed = replace(base, bounty=BountyRule(kind="fixed", amount=2000, players=(7,)))
    assert bounties.cage_prices(fixed).registration == 1100  # the house pays a fixed bounty
