"""Placed and owed blinds in the hand engine: a dead small blind (SEAT-5), a dead button on a
seat nobody is dealt in at, heads-up placement (SEAT-10), and blinds owed by returning or new
players (SEAT-15, SEAT-16): a dead small blind and live big/small blinds posted out of
position. Each is checked against what pokerkit makes of it (action order, option, call
amount, pot limit) and against our pots (dead money in the main pot)."""

from __future__ import annotations

import dataclasses
import json

import dacite
import pytest

from tables.domain import (
    AwardPots,
    DealBoard,
    DeclareMisdeal,
    HandState,
    ShowCards,
    TakeAction,
    load,
)
from tables.events import ForcedBet, HandSettled, HandStarted, HandVoided

from .support import conserved, play, play_events, refused, start_hand

DACITE = dacite.Config(cast=[tuple], strict=True)
SIX = {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000, 6: 1000}


def fold_round(state: HandState, *seats: int) -> HandState:
    return play(state, *(TakeAction(seat, "fold") for seat in seats))


# -- dead small blind and dead button (SEAT-5) ----------------------------------------------------


@pytest.mark.rule("SEAT-5")
def test_dead_small_blind_only_the_big_blind_posts_and_utg_opens() -> None:
    # button 6, the small blind's seat (1) is empty: nobody posts it; seat 2 is the big blind
    stacks = {2: 1000, 3: 1000, 4: 1000, 6: 1000}
    state = play(None, start_hand(stacks, button=6, big_blind_seat=2, small_blind_seat=None))
    assert state.started.posts == (ForcedBet(seat=2, kind="big_blind", amount=10),)
    assert (state.small_blind_seat, state.big_blind_seat) == (None, 2)
    assert state.to_act == 3 and state.legal is not None and state.legal.to_call == 10
    state = play(state, TakeAction(3, "call"), TakeAction(4, "call"), TakeAction(6, "call"))
    assert state.to_act == 2  # the big blind keeps his option (SEAT-9)
    assert state.legal is not None and state.legal.can_check
    state = play(state, TakeAction(2, "check"), DealBoard("flop", "2c7d9h"))
    assert state.to_act == 2 and state.pot == 40  # first after the button acts first


@pytest.mark.rule("SEAT-5")
def test_dead_button_on_an_empty_seat_acts_last_is_the_seat_before_it() -> None:
    # the button is seat 3, nobody sits there: seat 4 small blind, 5 big blind, 1 last
    stacks = {1: 1000, 4: 1000, 5: 1000, 7: 1000}
    state = play(None, start_hand(stacks, button=3, small_blind_seat=4, big_blind_seat=5))
    assert state.order == (4, 5, 7, 1)
    assert state.to_act == 7
    state = play(state, TakeAction(7, "call"), TakeAction(1, "call"), TakeAction(4, "call"))
    state = play(state, TakeAction(5, "check"), DealBoard("flop", "2c7d9h"))
    state = play(state, TakeAction(4, "check"), TakeAction(5, "check"), TakeAction(7, "check"))
    assert state.to_act == 1  # the seat right of the dead button acts last
    state = play(state, TakeAction(1, "bet", 20), *(TakeAction(s, "fold") for s in (4, 5, 7)))
    assert state.is_complete and conserved(state) and state.stacks[1] == 1030


@pytest.mark.rule("SEAT-5")
def test_dead_small_blind_with_a_big_blind_ante_the_big_blind_antes() -> None:
    stacks = {2: 1000, 3: 1000, 4: 1000}
    state = play(
        None,
        start_hand(stacks, button=1, big_blind_seat=2, ante=10, ante_type="big_blind"),
    )
    assert state.started.posts == (
        ForcedBet(seat=2, kind="ante", amount=10),
        ForcedBet(seat=2, kind="big_blind", amount=10),
    )
    state = fold_round(state, 3, 4)
    assert state.is_complete and state.stacks == {2: 1000, 3: 1000, 4: 1000}


@pytest.mark.rule("SEAT-10")
def test_heads_up_placed_blinds_must_be_button_small_blind() -> None:
    ok = play(None, start_hand({2: 500, 7: 500}, button=7, small_blind_seat=7, big_blind_seat=2))
    assert (ok.small_blind_seat, ok.big_blind_seat, ok.to_act) == (7, 2, 7)
    refusal = refused(
        None, start_hand({2: 500, 7: 500}, button=7, big_blind_seat=2), "invalid_blind_seat"
    )
    assert refusal.rule == "SEAT-10"
    refused(
        None,
        start_hand({2: 500, 7: 500}, button=7, small_blind_seat=2, big_blind_seat=7),
        "invalid_blind_seat",
    )


@pytest.mark.rule("SEAT-7")
def test_placed_blinds_are_checked() -> None:
    four = {1: 500, 2: 500, 3: 500, 4: 500}

    def refused_blinds(sb: int | None, bb: int | None, code: str) -> str:
        hand = start_hand(four, button=4, small_blind_seat=sb, big_blind_seat=bb)
        return refused(None, hand, code).rule

    refused_blinds(None, 9, "invalid_blind_seat")  # not dealt in
    refused_blinds(2, 2, "invalid_blind_seat")
    refused_blinds(6, 2, "invalid_blind_seat")
    refused_blinds(1, None, "invalid_blind_seat")  # a small blind needs a big blind
    # the small blind is the seat dealt in just before the big blind; no blind on the button
    assert refused_blinds(1, 3, "blinds_out_of_order") == "SEAT-7"
    refused_blinds(3, 4, "blinds_out_of_order")
    refused_blinds(4, 1, "blinds_out_of_order")
    # a seat between the button and the small blind plays without a blind (allowed)
    state = play(None, start_hand(four, button=4, small_blind_seat=2, big_blind_seat=3))
    assert state.to_act == 4 and state.order == (1, 2, 3, 4)


# -- owed blinds (SEAT-15, SEAT-16) ----------------------------------------------------------------


@pytest.mark.rule("SEAT-16")
def test_posted_big_blind_is_live_and_keeps_the_option() -> None:
    # button 6, blinds 1/2; seat 3 (UTG) is back and posts a live big blind
    state = play(None, start_hand(SIX, button=6, posted_big_blinds=(3,)))
    assert state.started.posts[-1] == ForcedBet(seat=3, kind="posted_bb", amount=10)
    seat3 = state.seat_state(3)
    assert seat3 is not None and (seat3.bet, seat3.stack) == (10, 990)
    assert state.to_act == 3 and state.legal is not None
    assert state.legal.to_call == 0 and state.legal.can_check and state.legal.can_raise
    state = play(state, TakeAction(3, "check"), TakeAction(4, "call"), TakeAction(5, "fold"))
    state = play(state, TakeAction(6, "fold"), TakeAction(1, "call"))
    assert state.to_act == 2 and state.legal is not None and state.legal.can_check
    state = play(state, TakeAction(2, "raise", 40))
    assert state.to_act == 3 and state.legal is not None and state.legal.to_call == 30


@pytest.mark.rule("SEAT-16")
def test_posted_big_blind_behind_the_big_blind_gets_the_option_too() -> None:
    # seat 5 posts a live big blind two seats after the big blind: the action opens at 3
    state = play(None, start_hand(SIX, button=6, posted_big_blinds=(5,)))
    assert state.to_act == 3
    state = play(state, TakeAction(3, "call"), TakeAction(4, "call"))
    assert state.to_act == 5 and state.legal is not None and state.legal.can_check
    state = play(state, TakeAction(5, "check"), TakeAction(6, "call"), TakeAction(1, "call"))
    state = play(state, TakeAction(2, "check"))
    assert state.phase == "awaiting_board" and state.pot == 60


@pytest.mark.rule("SEAT-16")
def test_dead_small_blind_goes_in_the_pot_and_not_toward_the_call() -> None:
    state = play(None, start_hand(SIX, button=6, dead_small_blinds=(4,), posted_big_blinds=(4,)))
    assert state.started.posts == (
        ForcedBet(seat=4, kind="dead_sb", amount=5),
        ForcedBet(seat=1, kind="small_blind", amount=5),
        ForcedBet(seat=2, kind="big_blind", amount=10),
        ForcedBet(seat=4, kind="posted_bb", amount=10),
    )
    seat4 = state.seat_state(4)
    assert seat4 is not None and (seat4.bet, seat4.contributed, seat4.stack) == (10, 15, 985)
    assert state.pot == 30
    state = play(state, TakeAction(3, "fold"), TakeAction(4, "raise", 30))
    state = fold_round(state, 5, 6, 1, 2)
    assert state.is_complete and conserved(state)
    assert state.stacks[4] == 1000 + 5 + 10  # his raise back, the blinds and his dead SB
    assert state.result is not None and state.result.uncalled[0].amount == 20


@pytest.mark.rule("SEAT-16")
def test_dead_small_blind_alone_still_owes_the_full_call() -> None:
    state = play(None, start_hand(SIX, button=6, dead_small_blinds=(3,)))
    assert state.to_act == 3 and state.legal is not None and state.legal.to_call == 10
    assert state.pot == 20


@pytest.mark.rule("SEAT-16")
def test_dead_small_blind_is_dead_money_in_the_main_pot() -> None:
    # seat 3 posts both and is all-in for 15 (5 dead + 10 live); seat 4 bets more
    stacks = {1: 1000, 2: 1000, 3: 15, 4: 1000}
    state = play(None, start_hand(stacks, button=4, dead_small_blinds=(3,), posted_big_blinds=(3,)))
    assert state.seat_state(3).stack == 0  # type: ignore[union-attr]
    state = play(state, TakeAction(4, "raise", 100), TakeAction(1, "fold"), TakeAction(2, "call"))
    state = play(state, DealBoard("flop", "2c7d9h"), TakeAction(2, "check"), TakeAction(4, "check"))
    state = play(state, DealBoard("turn", "Js"), TakeAction(2, "check"), TakeAction(4, "check"))
    state = play(state, DealBoard("river", "Kd"), TakeAction(2, "check"), TakeAction(4, "check"))
    state = play(state, ShowCards(2, "3c4d"), ShowCards(3, "AcAh"), ShowCards(4, "5c6d"))
    assert state.result is not None and conserved(state)
    main, side = state.result.pots[-1], state.result.pots[0]
    # main: 10 from each of 3 live levels + seat 1's small blind 5 + the dead 5
    assert (main.index, main.amount, main.eligible_seats) == (0, 10 * 3 + 5 + 5, (2, 3, 4))
    assert (side.index, side.amount, side.eligible_seats) == (1, 90 * 2, (2, 4))
    assert state.stacks[3] == 40


@pytest.mark.rule("SEAT-16")
def test_short_stack_pays_the_dead_small_blind_first() -> None:
    state = play(
        None,
        start_hand({1: 1000, 2: 1000, 3: 8, 4: 1000}, button=4, dead_small_blinds=(3,),
                   posted_big_blinds=(3,)),
    )  # fmt: skip
    assert [p for p in state.started.posts if p.seat == 3] == [
        ForcedBet(seat=3, kind="dead_sb", amount=5),
        ForcedBet(seat=3, kind="posted_bb", amount=3),
    ]


@pytest.mark.rule("SEAT-16")
def test_live_small_blind_when_it_is_not_dead() -> None:
    # missed_blind_sb_dead off: both owed blinds are live, 15 toward his call (a raise)
    state = play(None, start_hand(SIX, button=6, posted_big_blinds=(4,), posted_small_blinds=(4,)))
    seat4 = state.seat_state(4)
    assert seat4 is not None and (seat4.bet, seat4.contributed) == (15, 15)
    assert state.to_act == 3 and state.legal is not None and state.legal.to_call == 15
    state = play(state, TakeAction(3, "fold"))
    assert state.to_act == 4 and state.legal is not None and state.legal.to_call == 0


@pytest.mark.rule("SEAT-15")
def test_owed_blinds_with_a_dead_small_blind_and_dead_button() -> None:
    # dead button 3, dead small blind (4 empty); 6 is the big blind; 1 posts both
    stacks = {1: 1000, 6: 1000, 8: 1000, 9: 1000}
    state = play(
        None,
        start_hand(stacks, button=3, big_blind_seat=6, dead_small_blinds=(1,),
                   posted_big_blinds=(1,)),
    )  # fmt: skip
    assert state.order == (6, 8, 9, 1) and state.to_act == 8
    state = play(state, TakeAction(8, "fold"), TakeAction(9, "fold"))
    assert state.to_act == 1 and state.legal is not None and state.legal.can_check
    state = play(state, TakeAction(1, "check"), TakeAction(6, "check"))
    assert state.phase == "awaiting_board" and state.pot == 25


def test_pot_limit_counts_the_dead_small_blind() -> None:
    state = play(
        None,
        start_hand(SIX, button=6, game="PLO", dead_small_blinds=(3,), posted_big_blinds=(3,)),
    )
    assert state.to_act == 3 and state.legal is not None
    # pot 5 + 10 + 5 (dead) + 10 = 30, nothing to call: raise to 10 + 30
    assert state.legal.max_raise_to == 40


@pytest.mark.rule("SEAT-16")
def test_owed_blinds_are_checked() -> None:
    refused(None, start_hand(SIX, button=6, posted_big_blinds=(2,)), "invalid_post")
    refused(None, start_hand(SIX, button=6, dead_small_blinds=(1,)), "invalid_post")
    refused(None, start_hand(SIX, button=6, dead_small_blinds=(3, 3)), "invalid_post")
    refused(None, start_hand(SIX, button=6, posted_big_blinds=(8,)), "seat_not_in_hand")
    err = refused(None, start_hand({1: 100, 2: 100}, posted_big_blinds=(1,)), "invalid_post")
    assert err.rule == "SEAT-16"
    # a live poster may not straddle; the straddle chain starts left of the big blind
    hand = start_hand(SIX, button=6, posted_big_blinds=(3,), straddles=(3,))
    assert refused(None, hand, "straddle_not_allowed").rule == "SEAT-18"


@pytest.mark.rule("SEAT-18")
def test_straddle_left_of_a_placed_big_blind() -> None:
    stacks = {2: 1000, 3: 1000, 4: 1000, 6: 1000}
    state = play(None, start_hand(stacks, button=1, big_blind_seat=2, straddles=(3,)))
    assert state.to_act == 4 and state.straddles == (3,)
    refused(
        None,
        start_hand(stacks, button=1, big_blind_seat=2, straddles=(4,)),
        "mississippi_straddle_not_allowed",
    )


# -- replay, void and the event codec -------------------------------------------------------------


@pytest.mark.rule("SEAT-16")
def test_owed_blinds_replay_from_the_events_and_round_trip_json() -> None:
    state = play(
        None,
        start_hand({1: 1000, 6: 1000, 8: 1000, 9: 1000}, button=3, big_blind_seat=6,
                   dead_small_blinds=(1,), posted_big_blinds=(1,), posted_small_blinds=(8,)),
    )  # fmt: skip
    state = play(state, TakeAction(8, "fold"), TakeAction(9, "call"), TakeAction(1, "check"))
    state = play(state, TakeAction(6, "check"), DealBoard("flop", "2c7d9h"))
    state = play(state, *(TakeAction(s, "check") for s in (6, 9, 1)), DealBoard("turn", "Js"))
    state = play(state, *(TakeAction(s, "check") for s in (6, 9, 1)), DealBoard("river", "Kd"))
    state = play(state, *(TakeAction(s, "check") for s in (6, 9, 1)))
    state = play(state, ShowCards(6, "AcAh"), ShowCards(9, "3c4d"), ShowCards(1, "5c6h"))
    assert isinstance(state.result, HandSettled) and conserved(state)
    assert state.stacks[6] == 1000 + 10 + 10 + 5 + 5  # 9 and 1 called, dead SB, 8's live SB
    replayed = load(state.history)
    assert replayed is not None and replayed.stacks == state.stacks
    for event in state.history:
        payload = json.loads(json.dumps(dataclasses.asdict(event)))  # type: ignore[call-overload]
        assert dacite.from_dict(type(event), payload, config=DACITE) == event
    started = state.history[0]
    assert isinstance(started, HandStarted) and started.big_blind_seat == 6
    assert started.small_blind_seat is None


def test_changed_posts_do_not_replay() -> None:
    state = play(None, start_hand(SIX, button=6, dead_small_blinds=(3,)))
    started = state.history[0]
    assert isinstance(started, HandStarted)
    dead = dataclasses.replace(started.posts[0], amount=7)  # not the small blind
    forged = dataclasses.replace(started, posts=(dead, *started.posts[1:]))
    with pytest.raises(ValueError):
        load([forged])


@pytest.mark.rule("MIS-1")
def test_misdeal_gives_the_dead_small_blind_back() -> None:
    state = play(None, start_hand(SIX, button=6, dead_small_blinds=(4,), posted_big_blinds=(4,)))
    state, events = play_events(state, DeclareMisdeal("exposed card"))
    voided = events[-1]
    assert isinstance(voided, HandVoided) and state.stacks == SIX
    assert {r.seat: r.amount for r in voided.returned} == {1: 5, 2: 10, 4: 15}


def test_legacy_hands_keep_positional_blinds() -> None:
    state = play(None, start_hand(SIX, button=6))
    started = state.history[0]
    assert isinstance(started, HandStarted)
    assert (started.small_blind_seat, started.big_blind_seat) == (None, None)
    assert (state.small_blind_seat, state.big_blind_seat) == (1, 2)
    heads_up = play(None, start_hand({3: 100, 8: 100}, button=3))
    assert (heads_up.small_blind_seat, heads_up.big_blind_seat) == (3, 8)


def test_manual_award_with_dead_money() -> None:
    state = play(None, start_hand(SIX, button=6, dead_small_blinds=(3,), posted_big_blinds=(3,)))
    state = play(state, TakeAction(3, "check"), *(TakeAction(s, "fold") for s in (4, 5, 6, 1)))
    state = play(state, TakeAction(2, "check"))
    for board in (DealBoard("flop", "2c7d9h"), DealBoard("turn", "Js"), DealBoard("river", "Kd")):
        state = play(state, board, TakeAction(2, "check"), TakeAction(3, "check"))
    state = play(state, AwardPots(((3,),)))
    assert state.result is not None and conserved(state)
    assert state.stacks[3] == 1000 + 5 + 10  # the small blind and the big blind's call
