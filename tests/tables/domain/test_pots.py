"""Pot arithmetic: uncalled bets, side pots, rake and odd chips (tables.domain.pots)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.domain.pots import (
    Pot,
    PotDecision,
    build_pots,
    clockwise_from,
    first_clockwise_from_button,
    rake_pots,
    return_uncalled,
    settle_pots,
    split_across_runs,
    split_pot,
)
from tables.events import Award, RunShare, SeatAmount


@pytest.mark.rule("SD-9")
def test_uncalled_part_of_the_largest_bet_is_returned() -> None:
    called, uncalled = return_uncalled({1: 100, 2: 400, 3: 250})
    assert uncalled == SeatAmount(seat=2, amount=150)
    assert called == {1: 100, 2: 250, 3: 250}


@pytest.mark.rule("SD-9")
def test_nothing_returned_when_the_top_bet_is_matched() -> None:
    called, uncalled = return_uncalled({1: 300, 2: 300, 3: 50})
    assert uncalled is None
    assert called == {1: 300, 2: 300, 3: 50}


def test_single_pot_when_everyone_matched() -> None:
    assert build_pots({1: 100, 2: 100, 3: 100}, [1, 2, 3]) == (Pot(0, 300, (1, 2, 3)),)


def test_folded_chips_stay_in_the_pot_but_folded_seats_are_not_eligible() -> None:
    # seat 3 folded after putting 40 in: its chips are in the main pot, same eligibility.
    assert build_pots({1: 100, 2: 100, 3: 40}, [1, 2]) == (Pot(0, 240, (1, 2)),)


def test_side_pots_with_three_all_ins() -> None:
    pots = build_pots({1: 100, 2: 300, 3: 600, 4: 600}, [1, 2, 3, 4])
    assert pots == (
        Pot(0, 400, (1, 2, 3, 4)),
        Pot(1, 600, (2, 3, 4)),
        Pot(2, 600, (3, 4)),
    )


def test_dead_money_above_every_live_seat_joins_the_pot_below() -> None:
    # seat 3 (folded) put in more than the all-in seat 1 and the caller seat 2 reached.
    pots = build_pots({1: 100, 2: 100, 3: 150}, [1, 2])
    assert pots == (Pot(0, 350, (1, 2)),)


def test_big_blind_ante_is_dead_money_in_the_main_pot() -> None:
    pots = build_pots({1: 100, 2: 300, 3: 300}, [1, 2, 3], dead_money=30)
    assert pots == (Pot(0, 330, (1, 2, 3)), Pot(1, 400, (2, 3)))


def test_a_live_seat_that_put_nothing_live_in_wins_what_the_folded_seats_left() -> None:
    # seat 4 is all-in for a dead small blind only (dead money), 1 and 2 folded after
    # putting 5 each: the chips nobody live reached form a pot open to the live seat.
    assert build_pots({1: 5, 2: 5, 4: 0}, [4], dead_money=1) == (Pot(0, 11, (4,)),)
    assert build_pots({1: 5, 2: 5, 4: 0}, [4]) == (Pot(0, 10, (4,)),)
    with pytest.raises(ValueError):
        build_pots({1: 5, 2: 5}, [])


@pytest.mark.rule("SD-23")
def test_clockwise_order_starts_left_of_the_button() -> None:
    assert clockwise_from(5, [1, 3, 5, 6, 9]) == [6, 9, 1, 3, 5]
    assert first_clockwise_from_button(10, [10, 2, 1]) == [1, 2, 10]


@pytest.mark.rule("SD-21")
def test_odd_chips_go_one_each_from_the_first_winner_left_of_the_button() -> None:
    awards = split_pot(101, [2, 7, 9], button_seat=8)
    assert awards == (Award(9, 34), Award(2, 34), Award(7, 33))
    awards = split_pot(100, [2, 7, 9], button_seat=8)
    assert awards == (Award(9, 34), Award(2, 33), Award(7, 33))


def test_odd_chip_rule_is_a_parameter() -> None:
    def lowest_seat_first(button: int, winners: object) -> list[int]:
        return sorted(winners)  # type: ignore[call-overload]

    assert split_pot(5, [7, 2], 1, lowest_seat_first) == (Award(2, 3), Award(7, 2))


@pytest.mark.rule("RAKE-1")
def test_rake_is_rounded_down_to_the_whole_unit() -> None:
    assert rake_pots([199], 500, 1000) == (9,)  # 9.95 -> 9
    assert rake_pots([19], 500, 1000) == (0,)


@pytest.mark.rule("RAKE-2")
@pytest.mark.parametrize(
    ("pot", "expected"),
    [(5980, 299), (6000, 300), (6020, 300), (100_000, 300)],
    ids=["below-cap", "at-cap", "just-above-cap", "far-above-cap"],
)
def test_rake_cap_boundaries(pot: int, expected: int) -> None:
    assert rake_pots([pot], 500, 300) == (expected,)


@pytest.mark.rule("RAKE-2")
def test_one_cap_per_hand_taken_from_the_main_pot_first() -> None:
    # 5 % of 4000 = 200, of 3000 = 150, of 2000 = 100; cap 300 for the hand
    assert rake_pots([4000, 3000, 2000], 500, 300) == (200, 100, 0)
    assert rake_pots([1000, 1000, 1000], 500, 300) == (50, 50, 50)


def test_zero_percent_or_zero_cap_takes_no_rake() -> None:
    assert rake_pots([10_000, 500], 0, 300) == (0, 0)
    assert rake_pots([10_000], 500, 0) == (0,)


@pytest.mark.rule("SD-20")
def test_settle_awards_side_pots_first_outermost_first() -> None:
    winners = {0: (1,), 1: (2,), 2: (4,)}
    settlement = settle_pots(
        {1: 100, 2: 300, 3: 600, 4: 700},
        [1, 2, 3, 4],
        lambda pot: PotDecision(winners[pot.index]),
        button_seat=4,
    )
    assert [p.index for p in settlement.pots] == [2, 1, 0]
    assert settlement.uncalled == (SeatAmount(4, 100),)
    assert settlement.payouts == {4: 100 + 600, 2: 600, 1: 400}


@pytest.mark.rule("RAKE-1")
def test_settle_rakes_after_returning_the_uncalled_bet() -> None:
    settlement = settle_pots(
        {1: 1000, 2: 3000},
        [1, 2],
        lambda pot: PotDecision((1,)),
        button_seat=2,
        rake_percent_bp=500,
        rake_cap=300,
    )
    assert settlement.uncalled == (SeatAmount(2, 2000),)
    assert settlement.rake == 100
    assert settlement.payouts == {1: 1900, 2: 2000}


def test_settle_refuses_a_winner_who_is_not_eligible() -> None:
    with pytest.raises(ValueError, match="not eligible"):
        settle_pots({1: 100, 2: 100}, [1], lambda pot: PotDecision((2,)), button_seat=2)


# -- run it more than once (RAKE-10) ------------------------------------------------------------


@pytest.mark.rule("RAKE-10")
def test_a_pot_splits_evenly_across_runs_with_the_odd_chips_from_run_one() -> None:
    assert split_across_runs(1000, 2) == (500, 500)
    assert split_across_runs(1001, 2) == (501, 500)
    assert split_across_runs(1900, 3) == (634, 633, 633)
    assert split_across_runs(1001, 3) == (334, 334, 333)  # one chip each, run 1 first
    assert split_across_runs(7, 1) == (7,)
    with pytest.raises(ValueError):
        split_across_runs(7, 0)


@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("RAKE-9")
@pytest.mark.rule("SD-23")
def test_settle_with_runs_rakes_once_then_splits_each_run() -> None:
    settlement = settle_pots(
        {1: 1000, 2: 1000, 3: 1000},
        [1, 2, 3],
        lambda pot: (PotDecision((1,), 10), PotDecision((2, 3), 20), PotDecision((1, 3), 30)),
        button_seat=3,
        rake_percent_bp=500,
        rake_cap=300,
    )
    (pot,) = settlement.pots
    assert (pot.amount, pot.rake, settlement.rake) == (3000, 150, 150)
    # 2850 / 3 = 950 a run; inside a run the odd chip goes left of the button (seat 1 first)
    assert pot.runs == (
        RunShare(run=1, amount=950, winners=(Award(1, 950),), hand_rank=10),
        RunShare(run=2, amount=950, winners=(Award(2, 475), Award(3, 475)), hand_rank=20),
        RunShare(run=3, amount=950, winners=(Award(1, 475), Award(3, 475)), hand_rank=30),
    )
    assert pot.winners == (Award(1, 1425), Award(2, 475), Award(3, 950))
    assert pot.hand_rank is None
    assert settlement.payouts == {1: 1425, 2: 475, 3: 950}


def test_settle_with_runs_refuses_an_ineligible_winner_on_any_run() -> None:
    with pytest.raises(ValueError, match="not eligible"):
        settle_pots(
            {1: 100, 2: 100},
            [1, 2],
            lambda pot: (PotDecision((1,)), PotDecision((3,))),
            button_seat=2,
        )


# -- properties -------------------------------------------------------------------------------

seats_st = st.lists(st.integers(1, 10), min_size=2, max_size=10, unique=True)


@st.composite
def hands(draw: st.DrawFn) -> tuple[dict[int, int], list[int], int, int, int, int, dict[int, int]]:
    seats = draw(seats_st)
    contributions = {seat: draw(st.integers(0, 5000)) for seat in seats}
    live = draw(st.lists(st.sampled_from(seats), min_size=1, unique=True))
    # a live seat has put chips in (blinds or a call): otherwise nobody could win
    first = live[0]
    contributions[first] = max(contributions[first], draw(st.integers(1, 5000)))
    button = draw(st.integers(1, 10))
    percent = draw(st.sampled_from([0, 1, 250, 500, 1000, 10_000]))
    cap = draw(st.sampled_from([0, 1, 7, 300, 10**9]))
    dead = draw(st.sampled_from([0, 0, 1, 15, 120]))
    ties = {i: draw(st.integers(0, 2**16)) for i in range(12)}
    return contributions, live, button, percent, cap, dead, ties


def _tied_winners(pot: Pot, salt: int) -> PotDecision:
    """A deterministic, varied subset of the eligible seats (ties of 1..all players)."""
    eligible = list(pot.eligible_seats)
    count = 1 + salt % len(eligible)
    start = (salt // 7) % len(eligible)
    picked = [eligible[(start + i) % len(eligible)] for i in range(count)]
    return PotDecision(tuple(sorted(picked)))


@settings(max_examples=400, deadline=None)
@given(hands())
def test_chips_are_conserved(
    hand: tuple[dict[int, int], list[int], int, int, int, int, dict[int, int]],
) -> None:
    contributions, live, button, percent, cap, dead, ties = hand
    settlement = settle_pots(
        contributions,
        live,
        lambda pot: _tied_winners(pot, ties[pot.index % 12]),
        button_seat=button,
        rake_percent_bp=percent,
        rake_cap=cap,
        dead_money=dead,
    )
    awards = sum(a.amount for p in settlement.pots for a in p.winners)
    uncalled = sum(u.amount for u in settlement.uncalled)
    assert sum(contributions.values()) + dead == awards + uncalled + settlement.rake
    assert sum(settlement.payouts.values()) == awards + uncalled
    assert 0 <= settlement.rake <= cap
    if percent == 0:
        assert settlement.rake == 0
    for pot in settlement.pots:
        assert pot.rake <= pot.amount * percent // 10_000
        assert sum(a.amount for a in pot.winners) == pot.amount - pot.rake
        assert {a.seat for a in pot.winners} <= set(pot.eligible_seats) <= set(live)
        shares = [a.amount for a in pot.winners]
        assert max(shares) - min(shares) <= 1
        assert shares == sorted(shares, reverse=True)  # odd chips to the first in order
        assert [a.seat for a in pot.winners] == clockwise_from(
            button, [a.seat for a in pot.winners]
        )


@settings(max_examples=200, deadline=None)
@given(hands())
def test_no_rake_when_not_taken(
    hand: tuple[dict[int, int], list[int], int, int, int, int, dict[int, int]],
) -> None:
    contributions, live, button, percent, cap, dead, _ = hand
    settlement = settle_pots(
        contributions,
        live,
        lambda pot: PotDecision(pot.eligible_seats[:1]),
        button_seat=button,
        rake_percent_bp=percent,
        rake_cap=cap,
        take_rake=False,
        dead_money=dead,
    )
    assert settlement.rake == 0


@settings(max_examples=300, deadline=None)
@given(hands())
def test_pots_partition_the_called_chips(
    hand: tuple[dict[int, int], list[int], int, int, int, int, dict[int, int]],
) -> None:
    contributions, live, _, _, _, dead, _ = hand
    called, uncalled = return_uncalled(contributions)
    pots = build_pots(called, live, dead)
    assert sum(p.amount for p in pots) == sum(called.values()) + dead
    assert [p.index for p in pots] == list(range(len(pots)))
    for lower, upper in itertools.pairwise(pots):
        assert set(upper.eligible_seats) < set(lower.eligible_seats)  # nested, outward
    if uncalled is not None:
        assert uncalled.amount > 0
        assert sorted(called.values())[-1] == sorted(called.values())[-2]


@settings(max_examples=300, deadline=None)
@given(hands(), st.sampled_from([2, 3]))
@pytest.mark.rule("RAKE-10")
def test_chips_are_conserved_when_the_board_is_run_more_than_once(
    hand: tuple[dict[int, int], list[int], int, int, int, int, dict[int, int]], runs: int
) -> None:
    contributions, live, button, percent, cap, dead, ties = hand
    single = settle_pots(
        contributions,
        live,
        lambda pot: PotDecision(pot.eligible_seats),
        button_seat=button,
        rake_percent_bp=percent,
        rake_cap=cap,
        dead_money=dead,
    )
    settlement = settle_pots(
        contributions,
        live,
        lambda pot: tuple(
            _tied_winners(pot, ties[(pot.index + 5 * run) % 12]) for run in range(runs)
        ),
        button_seat=button,
        rake_percent_bp=percent,
        rake_cap=cap,
        dead_money=dead,
    )
    assert settlement.rake == single.rake  # rake is taken once, before the split
    awards = sum(a.amount for p in settlement.pots for a in p.winners)
    uncalled = sum(u.amount for u in settlement.uncalled)
    assert sum(contributions.values()) + dead == awards + uncalled + settlement.rake
    assert sum(settlement.payouts.values()) == awards + uncalled
    for pot in settlement.pots:
        assert len(pot.runs) == runs
        shares = [r.amount for r in pot.runs]
        assert sum(shares) == pot.amount - pot.rake
        assert max(shares) - min(shares) <= 1 and shares == sorted(shares, reverse=True)
        for run in pot.runs:
            assert sum(a.amount for a in run.winners) == run.amount
            assert {a.seat for a in run.winners} <= set(pot.eligible_seats)
        totals: dict[int, int] = {}
        for run in pot.runs:
            for award in run.winners:
                totals[award.seat] = totals.get(award.seat, 0) + award.amount
        assert {a.seat: a.amount for a in pot.winners} == totals
