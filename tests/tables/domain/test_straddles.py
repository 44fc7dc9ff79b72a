"""Straddles (SEAT-18..20): posting, the UTG chain, live-blind action order and raise size."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import dacite
import pytest

from tables.domain import DealBoard, HandState, TakeAction, decide, evolve, load
from tables.domain.seating import straddle_amounts, straddle_chain
from tables.events import ForcedBet, HandSettled, HandStarted

from .support import conserved, play, play_events, refused, start_hand

DACITE = dacite.Config(cast=[tuple], strict=True)


def six_handed(*straddles: int, **config: Any) -> HandState:
    """Seats 1-6 with 5000 each, button 6, blinds 50/100 (SB 1, BB 2, UTG 3)."""
    return play(None, start_hand([5000] * 6, sb=50, bb=100, straddles=straddles, **config))


# -- posting and the chain ----------------------------------------------------------------------


@pytest.mark.rule("SEAT-18")
def test_straddle_is_twice_the_big_blind_from_the_seat_left_of_it() -> None:
    state = six_handed(3)
    assert state.started.posts == (
        ForcedBet(seat=1, kind="small_blind", amount=50),
        ForcedBet(seat=2, kind="big_blind", amount=100),
        ForcedBet(seat=3, kind="straddle", amount=200),
    )
    assert state.straddles == (3,)
    seat3 = state.seat_state(3)
    assert seat3 is not None and (seat3.bet, seat3.stack, seat3.contributed) == (200, 4800, 200)
    assert state.pot == 350
    assert state.to_act == 4  # live blind: the action starts left of the straddle
    assert state.legal is not None and state.legal.to_call == 200


@pytest.mark.rule("SEAT-19")
def test_each_re_straddle_is_twice_the_previous_up_to_the_button() -> None:
    state = six_handed(3, 4, 5, 6)
    assert [(p.seat, p.kind, p.amount) for p in state.started.posts[2:]] == [
        (3, "straddle", 200),
        (4, "straddle", 400),
        (5, "straddle", 800),
        (6, "straddle", 1600),
    ]
    assert state.to_act == 1  # after the button's straddle the small blind acts first
    assert state.legal is not None and state.legal.to_call == 1550
    assert straddle_amounts(100, 4) == (200, 400, 800, 1600)
    assert straddle_chain(6, range(1, 7)) == (3, 4, 5, 6)


@pytest.mark.rule("SEAT-19")
def test_three_handed_only_the_button_may_straddle() -> None:
    state = play(None, start_hand([1000, 1000, 1000], straddles=(3,)))
    assert state.started.posts[-1] == ForcedBet(seat=3, kind="straddle", amount=20)
    assert state.to_act == 1
    refused(None, start_hand([1000, 1000, 1000], straddles=(3, 1)), "straddle_past_button")


@pytest.mark.rule("SEAT-19")
def test_the_straddle_chain_skips_empty_seats() -> None:
    stacks = {1: 1000, 3: 1000, 5: 1000, 8: 1000}
    assert straddle_chain(8, stacks) == (5, 8)
    state = play(None, start_hand(stacks, button=8, straddles=(5, 8)))
    assert [p.seat for p in state.started.posts] == [1, 3, 5, 8]
    assert state.to_act == 1


@pytest.mark.rule("SEAT-19")
def test_a_straddle_past_the_button_is_refused() -> None:
    violation = refused(
        None, start_hand([5000] * 6, straddles=(3, 4, 5, 6, 1)), "straddle_past_button"
    )
    assert violation.rule == "SEAT-19"
    assert violation.context == {"seat": 1, "button_seat": 6, "straddle_number": 5}


@pytest.mark.rule("SEAT-20")
@pytest.mark.parametrize(
    ("straddles", "seat", "expected"),
    [
        ((6,), 6, 3),  # a button straddle without the UTG one (Mississippi)
        ((4,), 4, 3),
        ((1,), 1, 3),  # the small blind
        ((3, 5), 5, 4),  # the chain skips a seat
        ((3, 3), 3, 4),
    ],
)
def test_mississippi_straddles_are_refused(
    straddles: tuple[int, ...], seat: int, expected: int
) -> None:
    violation = refused(
        None, start_hand([5000] * 6, straddles=straddles), "mississippi_straddle_not_allowed"
    )
    assert violation.rule == "SEAT-20"
    assert violation.context["seat"] == seat
    assert violation.context["expected_seat"] == expected


@pytest.mark.rule("SEAT-18")
def test_straddles_are_for_cash_games_only() -> None:
    violation = refused(
        None, start_hand([5000] * 6, straddles=(3,), mode="tournament"), "straddle_not_allowed"
    )
    assert violation.rule == "SEAT-18"
    assert violation.context["mode"] == "tournament"


@pytest.mark.rule("SEAT-18")
@pytest.mark.rule("SEAT-10")
def test_no_straddle_heads_up() -> None:
    # the seat left of the big blind is the button, who posts the small blind
    violation = refused(None, start_hand([1000, 1000], straddles=(2,)), "straddle_not_allowed")
    assert violation.context["player_count"] == 2


@pytest.mark.rule("SEAT-18")
def test_a_straddle_is_posted_in_full() -> None:
    violation = refused(
        None, start_hand([1000, 1000, 15, 1000], straddles=(3,)), "straddle_exceeds_stack"
    )
    assert violation.rule == "SEAT-18"
    assert violation.context == {"seat": 3, "straddle": 20, "stack": 15, "ante": 0}
    short = refused(
        None,
        start_hand([1000, 1000, 25, 1000], straddles=(3,), ante=10, ante_type="per_player"),
        "straddle_exceeds_stack",
    )
    assert short.context == {"seat": 3, "straddle": 20, "stack": 25, "ante": 10}
    # exactly the straddle after the ante: the straddler is all-in
    state = play(
        None,
        start_hand([1000, 1000, 30, 1000], straddles=(3,), ante=10, ante_type="per_player"),
    )
    seat3 = state.seat_state(3)
    assert seat3 is not None and seat3.all_in and seat3.contributed == 30


@pytest.mark.rule("SEAT-12")
def test_a_straddle_from_a_seat_not_dealt_in_is_refused() -> None:
    refused(
        None, start_hand({1: 1000, 2: 1000, 4: 1000}, button=4, straddles=(3,)), "seat_not_in_hand"
    )


# -- action -------------------------------------------------------------------------------------


@pytest.mark.rule("SEAT-18")
@pytest.mark.rule("SEAT-9")
def test_the_last_straddler_has_the_option() -> None:
    state = six_handed(3, 4)
    state = play(state, *(TakeAction(seat, "call") for seat in (5, 6, 1, 2, 3)))
    assert state.to_act == 4
    legal = state.legal
    assert legal is not None
    assert (legal.to_call, legal.can_check, legal.can_raise, legal.min_raise_to) == (
        0,
        True,
        True,
        800,
    )
    checked = play(state, TakeAction(4, "check"))
    assert checked.phase == "awaiting_board" and checked.pot == 2400
    raised = play(state, TakeAction(4, "raise", 1200))
    assert raised.to_act == 5


@pytest.mark.rule("SEAT-18")
@pytest.mark.rule("BET-8")
def test_the_minimum_raise_over_a_straddle_is_twice_the_straddle() -> None:
    state = six_handed(3)
    assert state.legal is not None and state.legal.min_raise_to == 400  # pokerkit says 300
    violation = refused(state, TakeAction(4, "raise", 300), "raise_below_minimum")
    assert violation.rule == "SEAT-18"
    assert violation.context["min_raise_to"] == 400
    state = play(state, TakeAction(4, "raise", 400))
    assert state.legal is not None and state.legal.min_raise_to == 600
    state = play(state, TakeAction(5, "raise", 1000))
    assert state.legal is not None and state.legal.min_raise_to == 1600  # pokerkit's increment


@pytest.mark.rule("SEAT-18")
@pytest.mark.rule("BET-3")
def test_after_the_flop_the_minimum_bet_is_the_big_blind_again() -> None:
    state = six_handed(3)
    state = play(state, *(TakeAction(seat, "call") for seat in (4, 5, 6, 1, 2)))
    state = play(state, TakeAction(3, "check"), DealBoard("flop", "Qs9c4s"))
    assert state.legal is not None and state.legal.min_raise_to == 100
    state = play(state, TakeAction(1, "bet", 100))
    assert state.to_act == 2


@pytest.mark.rule("BET-9")
def test_double_last_rule_with_a_straddle() -> None:
    state = six_handed(3, 4, min_raise_rule="double_last")
    assert state.legal is not None and state.legal.min_raise_to == 800


@pytest.mark.rule("SD-9")
def test_everyone_folds_to_the_straddler() -> None:
    state = six_handed(3)
    state, events = play_events(state, TakeAction(4, "fold"))
    for seat in (5, 6, 1):
        state = play(state, TakeAction(seat, "fold"))
    state, events = play_events(state, TakeAction(2, "fold"))
    result = events[-1]
    assert isinstance(result, HandSettled)
    assert [(u.seat, u.amount) for u in result.uncalled] == [(3, 100)]
    assert state.stacks == {1: 4950, 2: 4900, 3: 5150, 4: 5000, 5: 5000, 6: 5000}
    assert conserved(state)


@pytest.mark.rule("SEAT-18")
def test_straddles_with_antes() -> None:
    state = six_handed(3, 4, ante=100, ante_type="big_blind")
    assert [(p.seat, p.kind, p.amount) for p in state.started.posts] == [
        (2, "ante", 100),
        (1, "small_blind", 50),
        (2, "big_blind", 100),
        (3, "straddle", 200),
        (4, "straddle", 400),
    ]
    assert state.to_act == 5 and state.pot == 850


# -- events -------------------------------------------------------------------------------------


@pytest.mark.rule("SEAT-18")
def test_a_straddled_hand_replays_from_its_events_alone() -> None:
    state = six_handed(3, 4)
    for seat in (5, 6, 1, 2, 3):
        state = play(state, TakeAction(seat, "call"))
    state = play(
        state, TakeAction(4, "raise", 1000), *(TakeAction(s, "fold") for s in (5, 6, 1, 2))
    )
    state = play(state, TakeAction(3, "call"), DealBoard("flop", "Qs9c4s"))
    started = state.history[0]
    assert isinstance(started, HandStarted)
    payload = json.loads(json.dumps(dataclasses.asdict(started)))
    assert dacite.from_dict(HandStarted, payload, config=DACITE) == started
    replayed = load(state.history)
    assert replayed is not None
    assert (replayed.seats, replayed.to_act, replayed.phase) == (
        state.seats,
        state.to_act,
        state.phase,
    )
    assert replayed.legal == state.legal


def test_posts_that_disagree_with_the_straddles_are_rejected() -> None:
    started = decide(None, start_hand([5000] * 6, straddles=(3,)))[0]
    assert isinstance(started, HandStarted)
    tampered = dataclasses.replace(
        started, posts=(*started.posts[:2], ForcedBet(seat=3, kind="straddle", amount=30))
    )
    with pytest.raises(ValueError):
        evolve(None, tampered)


@pytest.mark.rule("SEAT-19")
def test_the_button_ends_the_chain_when_the_table_places_the_big_blind() -> None:
    assert straddle_chain(6, range(1, 7), big_blind_seat=2) == (3, 4, 5, 6)
    assert straddle_chain(8, {1: 1, 3: 1, 5: 1, 8: 1}, big_blind_seat=3) == (5, 8)
    placed = start_hand([5000] * 6, sb=50, bb=100, small_blind_seat=1, big_blind_seat=2,
                        straddles=(3, 4, 5, 6))  # fmt: skip
    state = play(None, placed)
    assert [(p.seat, p.kind, p.amount) for p in state.started.posts[2:]] == [
        (3, "straddle", 200),
        (4, "straddle", 400),
        (5, "straddle", 800),
        (6, "straddle", 1600),
    ]
    # a dead small blind (placed): the chain still runs from left of the BB to the button
    dead_sb = start_hand({2: 5000, 3: 5000, 4: 5000, 6: 5000}, button=6, sb=50, bb=100,
                         small_blind_seat=None, big_blind_seat=2, straddles=(3, 4, 6))  # fmt: skip
    assert [p.seat for p in play(None, dead_sb).started.posts if p.kind == "straddle"] == [3, 4, 6]
    violation = refused(None, dataclasses.replace(placed, straddles=(3, 4, 5, 6, 1)),
                        "straddle_past_button")  # fmt: skip
    assert violation.rule == "SEAT-19"
