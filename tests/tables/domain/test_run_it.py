"""Running the rest of the board two or three times (RAKE-10), and the pot split (RAKE-9)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import dacite
import pytest

from casino.domain_events import EVENT_TYPES
from tables.domain import (
    AwardPots,
    DealBoard,
    HandState,
    MuckCards,
    RunItTimes,
    ShowCards,
    TakeAction,
    load,
)
from tables.events import Award, BoardDealt, HandSettled, RunItTimesAgreed, RunShare

from .support import conserved, play, play_events, refused, start_hand

DACITE = dacite.Config(cast=[tuple], strict=True)

RUN_1 = (("flop", "2h7s9c"), ("turn", "3d"), ("river", "4s"))  # aces hold
RUN_2 = (("flop", "Ks8sJd"), ("turn", "5c"), ("river", "6h"))  # kings make a set
RUN_3 = (("flop", "AhKhQh"), ("turn", "Jh"), ("river", "Th"))  # royal flush on the board


def heads_up_all_in(**config: Any) -> HandState:
    """Seat 1 (big blind) and seat 2 (button), 1000 each: all-in preflop and called."""
    state = play(None, start_hand({1: 1000, 2: 1000}, button=2, **config))
    return play(state, TakeAction(2, "all_in"), TakeAction(1, "call"))


def deal_run(state: HandState, run: int, streets: tuple[tuple[str, str], ...]) -> HandState:
    for street, cards in streets:
        state = play(state, DealBoard(street, cards, run=run))  # type: ignore[arg-type]
    return state


def settled(state: HandState) -> HandSettled:
    assert state.result is not None
    return state.result


# -- the split ----------------------------------------------------------------------------------


@pytest.mark.rule("RAKE-10")
def test_run_it_twice_splits_the_pot_between_the_two_boards() -> None:
    state = heads_up_all_in()
    assert state.phase == "showdown" and state.next_street == "flop"
    state, events = play_events(state, RunItTimes(2))
    assert events == [RunItTimesAgreed(times=2)]
    assert (state.run_count, state.next_street, state.next_run) == (2, "flop", 1)
    state = play(state, ShowCards(1, "AcAd"), ShowCards(2, "KcKd"))
    state = deal_run(state, 1, RUN_1)
    assert not state.is_complete and state.next_run == 2
    state = deal_run(state, 2, RUN_2)
    result = settled(state)
    assert result.method == "showdown"
    (pot,) = result.pots
    assert pot.amount == 2000 and pot.hand_rank is None
    assert [(r.run, r.amount, r.winners) for r in pot.runs] == [
        (1, 1000, (Award(1, 1000),)),
        (2, 1000, (Award(2, 1000),)),
    ]
    assert all(r.hand_rank is not None for r in pot.runs)
    assert pot.winners == (Award(1, 1000), Award(2, 1000))
    assert state.stacks == {1: 1000, 2: 1000}
    assert state.boards == (
        ("2h", "7s", "9c", "3d", "4s"),
        ("Ks", "8s", "Jd", "5c", "6h"),
    )
    assert conserved(state)


@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("RAKE-9")
@pytest.mark.rule("SD-21")
def test_three_runs_rake_once_then_odd_chips_to_run_one_and_left_of_the_button() -> None:
    state = heads_up_all_in(rake_percent_bp=500, rake_cap=300)
    state = play(state, RunItTimes(3), ShowCards(1, "AcAd"), ShowCards(2, "KcKd"))
    # the runs may be dealt in any order, each run's streets in order
    state = play(state, DealBoard("flop", RUN_3[0][1], run=3), DealBoard("flop", RUN_1[0][1]))
    state = deal_run(state, 2, RUN_2)
    state = deal_run(state, 1, RUN_1[1:])
    state = deal_run(state, 3, RUN_3[1:])
    result = settled(state)
    (pot,) = result.pots
    assert (pot.amount, pot.rake, result.rake) == (2000, 100, 100)  # 5 % once, on the whole pot
    assert [(r.run, r.amount) for r in pot.runs] == [(1, 634), (2, 633), (3, 633)]
    assert pot.runs[0].winners == (Award(1, 634),)
    assert pot.runs[1].winners == (Award(2, 633),)
    # a tie on run 3 (royal flush on the board): the odd chip left of the button (seat 1)
    assert pot.runs[2].winners == (Award(1, 317), Award(2, 316))
    assert state.stacks == {1: 634 + 317, 2: 633 + 316}
    assert conserved(state)


@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("SD-20")
def test_each_side_pot_is_split_across_the_runs() -> None:
    state = play(None, start_hand([100, 300, 600, 1000]))
    state = play(
        state,
        TakeAction(3, "all_in"),
        TakeAction(4, "call"),
        TakeAction(1, "all_in"),
        TakeAction(2, "all_in"),
        RunItTimes(2),
        ShowCards(1, "AcAd"),
        ShowCards(2, "KcKd"),
        ShowCards(3, "QcQd"),
        ShowCards(4, "JcJd"),
    )
    state = deal_run(state, 1, RUN_1)  # aces, kings, queens win the pots they can
    state = deal_run(state, 2, (("flop", "Js8s5d"), ("turn", "6c"), ("river", "2s")))  # jacks
    result = settled(state)
    by_index = {p.index: p for p in result.pots}
    assert [(p.index, p.amount) for p in result.pots] == [(2, 600), (1, 600), (0, 400)]
    assert by_index[0].runs[0].winners == (Award(1, 200),)
    assert by_index[0].runs[1].winners == (Award(4, 200),)
    assert by_index[1].winners == (Award(2, 300), Award(4, 300))
    assert by_index[2].winners == (Award(3, 300), Award(4, 300))
    assert state.stacks == {1: 200, 2: 300, 3: 300, 4: 400 + 200 + 300 + 300}
    assert conserved(state)


@pytest.mark.rule("RAKE-10")
def test_all_but_one_all_in_with_the_betting_closed_may_run_it() -> None:
    state = play(None, start_hand([500, 500, 2000]))
    state = play(
        state,
        TakeAction(3, "call"),
        TakeAction(1, "all_in"),
        TakeAction(2, "all_in"),
        TakeAction(3, "call"),
    )
    seat3 = state.seat_state(3)
    assert state.phase == "showdown" and seat3 is not None and seat3.stack == 1500
    state = play(state, RunItTimes(3))
    assert state.run_count == 3


@pytest.mark.rule("RAKE-10")
def test_runs_after_the_flop_share_the_flop() -> None:
    state = play(None, start_hand({1: 1000, 2: 1000}, button=2))
    state = play(state, TakeAction(2, "call"), TakeAction(1, "check"), DealBoard("flop", "2h7s9c"))
    state = play(state, TakeAction(1, "all_in"), TakeAction(2, "call"), RunItTimes(2))
    assert state.board == ("2h", "7s", "9c") and state.next_street == "turn"
    refused(state, DealBoard("flop", "3d4s5s", run=2), "wrong_board_street")
    state = play(
        state,
        DealBoard("turn", "3d"),
        DealBoard("river", "4s"),
        DealBoard("turn", "Ks", run=2),
        DealBoard("river", "5c", run=2),
        ShowCards(1, "AcAd"),
        ShowCards(2, "KcKd"),
    )
    assert state.boards == (("2h", "7s", "9c", "3d", "4s"), ("2h", "7s", "9c", "Ks", "5c"))
    assert state.stacks == {1: 1000, 2: 1000}
    assert conserved(state)


@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("SD-16")
def test_a_muck_during_the_runs_gives_the_whole_pot_to_the_last_hand() -> None:
    state = play(heads_up_all_in(rake_percent_bp=500, rake_cap=300), RunItTimes(2))
    state, events = play_events(state, MuckCards(2, deliberate=True))
    result = events[-1]
    assert isinstance(result, HandSettled) and result.method == "uncontested"
    assert result.rake == 0  # no flop, no drop: no run was dealt
    assert result.pots[0].runs == ()
    assert state.stacks == {1: 2000, 2: 0}


@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("RAKE-1")
def test_a_flop_dealt_on_the_runs_counts_for_no_flop_no_drop() -> None:
    state = play(heads_up_all_in(rake_percent_bp=500, rake_cap=300), RunItTimes(2))
    state = play(state, DealBoard("flop", "2h7s9c"), MuckCards(2, deliberate=True))
    assert settled(state).rake == 100


# -- manual award -------------------------------------------------------------------------------


@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("SD-20")
def test_manual_award_names_the_winners_of_each_run() -> None:
    state = play(heads_up_all_in(), RunItTimes(2))
    refused(state, AwardPots((), winners_by_run=(((1,),), ((2,),))), "board_not_complete")
    state = deal_run(deal_run(state, 1, RUN_1), 2, RUN_2)
    assert refused(state, AwardPots(((1,),)), "wrong_run_count").rule == "RAKE-10"
    refused(state, AwardPots((), winners_by_run=(((1,),),)), "wrong_run_count")
    violation = refused(
        state, AwardPots((), winners_by_run=(((1,),), ((3,),))), "seat_not_eligible"
    )
    assert violation.context["run"] == 2
    state = play(state, AwardPots((), winners_by_run=(((1,),), ((1, 2),))))
    result = settled(state)
    assert result.method == "manual"
    assert [r.winners for r in result.pots[0].runs] == [
        (Award(1, 1000),),
        (Award(1, 500), Award(2, 500)),
    ]
    assert state.stacks == {1: 1500, 2: 500}
    once = deal_run(heads_up_all_in(), 1, RUN_1)
    refused(once, AwardPots((), winners_by_run=(((1,),), ((2,),))), "wrong_run_count")


# -- refusals -----------------------------------------------------------------------------------


@pytest.mark.rule("RAKE-10")
def test_run_it_refusals() -> None:
    allin = heads_up_all_in()
    tournament = heads_up_all_in(mode="tournament")
    assert refused(tournament, RunItTimes(2), "run_it_not_allowed").rule == "RAKE-10"
    for times in (0, 1, 4):
        violation = refused(allin, RunItTimes(times), "invalid_run_count")
        assert violation.context == {"times": times, "max_times": 3}
    betting = play(None, start_hand([1000, 1000, 1000]))
    refused(betting, RunItTimes(2), "run_it_not_available")
    closed_round = play(
        betting, TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check")
    )
    assert closed_round.phase == "awaiting_board"
    refused(closed_round, RunItTimes(2), "run_it_not_available")
    complete_board = deal_run(allin, 1, RUN_1)
    assert complete_board.phase == "showdown"
    violation = refused(complete_board, RunItTimes(2), "run_it_not_available")
    assert violation.context["board_size"] == 5
    twice = play(allin, RunItTimes(2))
    assert refused(twice, RunItTimes(3), "run_count_already_set").context["run_count"] == 2


@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("MIS-12")
def test_run_board_refusals() -> None:
    allin = heads_up_all_in()
    assert refused(allin, DealBoard("flop", "2h7s9c", run=2), "invalid_run").context == {
        "run": 2,
        "run_count": 1,
    }
    state = play(allin, RunItTimes(2), DealBoard("flop", "2h7s9c", run=1))
    refused(state, DealBoard("flop", "3h4h5h", run=3), "invalid_run")
    refused(state, DealBoard("flop", "3h4h5h", run=0), "invalid_run")
    violation = refused(state, DealBoard("flop", "3h4h5h", run=1), "wrong_board_street")
    assert violation.context["expected_street"] == "turn"
    refused(state, DealBoard("flop", "3h4h9c", run=2), "duplicate_card")  # 9c is on run 1
    done = deal_run(deal_run(state, 1, RUN_1[1:]), 2, RUN_2)
    assert done.is_complete is False  # nobody has shown yet
    assert done.next_street is None
    refused(done, DealBoard("river", "Qs", run=2), "wrong_board_street")


# -- events -------------------------------------------------------------------------------------


@pytest.mark.rule("RAKE-10")
def test_a_hand_run_twice_replays_and_round_trips_through_json() -> None:
    state = play(heads_up_all_in(rake_percent_bp=500, rake_cap=300), RunItTimes(2))
    state = play(state, ShowCards(1, "AcAd"), ShowCards(2, "KcKd"))
    state = deal_run(deal_run(state, 1, RUN_1), 2, RUN_2)
    assert state.is_complete
    assert EVENT_TYPES["tables.RunItTimesAgreed"] is RunItTimesAgreed
    for event in state.history:
        payload = json.loads(json.dumps(dataclasses.asdict(event)))  # type: ignore[call-overload]
        assert dacite.from_dict(type(event), payload, config=DACITE) == event
    replayed = load(state.history)
    assert replayed is not None
    assert replayed.boards == state.boards and replayed.stacks == state.stacks
    assert replayed.result == state.result
    deals = [e for e in state.history if isinstance(e, BoardDealt)]
    assert [e.run for e in deals] == [1, 1, 1, 2, 2, 2]
    assert isinstance(settled(state).pots[0].runs[0], RunShare)


def test_an_old_board_event_without_a_run_is_run_one() -> None:
    payload = {"street": "flop", "cards": "2h7s9c"}
    assert dacite.from_dict(BoardDealt, payload, config=DACITE) == BoardDealt("flop", "2h7s9c", 1)
