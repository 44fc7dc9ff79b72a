"""Fixed-limit hold'em (FLH): fixed bet sizes, the raise cap (BET-5) and the heads-up
exception of the floor rules (BET-6), and FL hands replayed from PHH files."""

from __future__ import annotations

from pathlib import Path

import pytest
from pokerkit import HandHistory

from tables.domain import DealBoard, TakeAction
from tables.domain.limit import bets_this_round, street_bet_size
from tables.phh import check_finishing_stacks, load_phh, replay
from tests.tables.domain.support import play, refused, start_hand

FL_PHH = sorted((Path(__file__).resolve().parents[1] / "data" / "phh_fixed_limit").glob("*.phh"))


def fl(stacks=(1000, 1000, 1000), lifted: bool = False, **config):  # type: ignore[no-untyped-def]
    return play(None, start_hand(stacks, game="FLH", limit_cap_lifted_heads_up=lifted, **config))


@pytest.mark.rule("BET-5")
def test_three_raises_preflop_then_the_cap() -> None:
    state = play(fl(), TakeAction(3, "raise"), TakeAction(1, "raise"), TakeAction(2, "raise"))
    assert state.to_call == 20 and state.stacks == {1: 970, 2: 960, 3: 980}
    assert state.legal is not None and not state.legal.can_raise
    refusal = refused(state, TakeAction(3, "raise"), "raise_cap_reached")
    assert refusal.rule == "BET-5"
    refused(state, TakeAction(3, "raise", amount_to=50), "raise_cap_reached")
    # an all-in at the cap is a call, and the tablet is told so (it showed the whole stack)
    assert state.legal.all_in_to == state.legal.call_to == 40
    after = play(state, TakeAction(3, "all_in"))
    assert after.stacks[3] == 960


@pytest.mark.rule("BET-5")
def test_a_bet_and_three_raises_after_the_flop_even_heads_up_in_a_tournament() -> None:
    state = play(
        fl((1000, 1000), mode="tournament"),
        TakeAction(2, "call"),
        TakeAction(1, "check"),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet"),
        TakeAction(2, "raise"),
        TakeAction(1, "raise"),
        TakeAction(2, "raise"),
    )
    assert bets_this_round(state.history) == 4
    assert state.to_call == 10
    assert refused(state, TakeAction(1, "raise"), "raise_cap_reached").rule == "BET-5"


@pytest.mark.rule("BET-6")
def test_cap_lifted_heads_up_under_the_floor_rules() -> None:
    state = play(
        fl((1000, 1000), lifted=True),
        TakeAction(2, "raise"),
        TakeAction(1, "raise"),
        TakeAction(2, "raise"),
        TakeAction(1, "raise"),  # a fourth raise: only heads-up
        TakeAction(2, "raise"),
    )
    assert state.stacks == {1: 950, 2: 940}
    assert state.legal is not None and state.legal.can_raise


@pytest.mark.rule("BET-6")
def test_cap_lifted_only_when_two_players_are_left_before_the_third_raise() -> None:
    three = play(fl(lifted=True), TakeAction(3, "raise"), TakeAction(1, "raise"))
    capped = play(three, TakeAction(2, "raise"))
    assert refused(capped, TakeAction(3, "raise"), "raise_cap_reached").rule == "BET-6"
    # the big blind folds before the third raise: two left, the cap is off
    heads_up = play(three, TakeAction(2, "fold"), TakeAction(3, "raise"), TakeAction(1, "raise"))
    assert heads_up.stacks == {1: 950, 2: 990, 3: 960}
    assert heads_up.legal is not None and heads_up.legal.can_raise
    # capped three-handed, then a fold: still capped, the third raise came with three in
    # (QA: seat 1 was offered a fifth bet after seat 3 folded at the cap)
    folded_after = play(capped, TakeAction(3, "fold"))
    assert folded_after.legal is not None and not folded_after.legal.can_raise
    assert refused(folded_after, TakeAction(1, "raise"), "raise_cap_reached").rule == "BET-6"


@pytest.mark.rule("BET-5")
def test_fixed_steps_small_bet_then_big_bet() -> None:
    assert (street_bet_size(10, 0), street_bet_size(10, 3), street_bet_size(10, 4)) == (10, 10, 20)
    state = fl()
    assert state.legal is not None and (state.legal.min_raise_to, state.legal.max_raise_to) == (
        20,
        20,
    )
    refused(state, TakeAction(3, "raise", amount_to=30), "not_the_limit_step")
    refused(state, TakeAction(3, "raise", amount_to=15), "raise_below_minimum")
    turn = play(
        state,
        TakeAction(3, "call"),
        TakeAction(1, "call"),
        TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet"),
        TakeAction(2, "call"),
        TakeAction(3, "call"),
        DealBoard("turn", "8d"),
        TakeAction(1, "bet"),
    )
    assert turn.stacks[1] == 1000 - 10 - 10 - 20  # the big bet on the turn


def test_short_stack_all_in_is_at_most_the_step() -> None:
    state = play(fl((1000, 1000, 15)), TakeAction(3, "all_in"))
    assert state.stacks[3] == 0 and state.seat_state(3).bet == 15  # type: ignore[union-attr]
    start = fl((1000, 1000, 500))
    assert start.legal is not None and start.legal.all_in_to == 20  # what "all in" puts in
    big = play(start, TakeAction(3, "all_in"))
    assert big.stacks[3] == 480  # all in at fixed limit raises by one step
    short = fl((1000, 1000, 15))
    assert short.legal is not None and short.legal.all_in_to == 15


@pytest.mark.parametrize("path", FL_PHH, ids=lambda p: p.stem)
@pytest.mark.rule("BET-5")
def test_fixed_limit_phh_replays_to_the_finishing_stacks(path: Path) -> None:
    hand = load_phh(path)
    assert hand.game == "FLH"
    state = replay(hand)
    assert check_finishing_stacks(hand.expected_stacks, state.stacks) == []
    with open(path, "rb") as file:  # pokerkit itself agrees with the file
        *_, last = HandHistory.load(file)
    assert [state.stacks[p.seat] for p in hand.players] == list(last.stacks)


def test_fixed_limit_phh_files_exist() -> None:
    assert len(FL_PHH) == 3


@pytest.mark.rule("BET-5")
@pytest.mark.rule("BET-6")
def test_table_setting_picks_the_rule_by_mode_unless_set() -> None:
    from tables.domain.table import limit_cap_lifted_heads_up
    from tables.events import TableOpened

    def opened(**changes: object) -> TableOpened:
        base: dict[str, object] = dict(
            table_id=1, name="FL", game="FLH", small_blind=5, big_blind=10, ante=0,
            ante_type="none", buy_in_min=100, buy_in_max=1000, rake_percent_bp=0, rake_cap=0,
            no_flop_no_drop=False, min_raise_rule="previous_increment", max_seats=10,
        )  # fmt: skip
        return TableOpened(**{**base, **changes})  # type: ignore[arg-type]

    assert limit_cap_lifted_heads_up(opened()) is True  # cash: the floor rules (BET-6)
    assert limit_cap_lifted_heads_up(opened(mode="tournament", tournament_id=1)) is False
    assert limit_cap_lifted_heads_up(opened(limit_cap_lifted_heads_up=False)) is False
