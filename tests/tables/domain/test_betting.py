"""Starting a hand and the betting: decide/evolve of StartHand and TakeAction."""

from __future__ import annotations

from typing import Any

import pytest

from tables.domain import (
    DealBoard,
    HandState,
    ShowCards,
    StartHand,
    TakeAction,
    decide,
    evolve,
    next_button,
)
from tables.domain.seating import acting_order
from tables.events import ActionTaken, ForcedBet, HandSettled, HandStarted, SeatInHand

from .support import play, play_events, refused, start_hand


def three_handed(**config: Any) -> HandState:
    """Seats 1, 2, 3 with 1000 each; button 3, SB 1 (5), BB 2 (10); seat 3 first to act."""
    return play(None, start_hand([1000, 1000, 1000], **config))


def limped_to_flop(state: HandState) -> HandState:
    return play(
        state,
        TakeAction(3, "call"),
        TakeAction(1, "call"),
        TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
    )


# -- seating ----------------------------------------------------------------------------------


@pytest.mark.rule("SEAT-4")
def test_next_button_moves_one_occupied_seat_clockwise() -> None:
    assert next_button(3, [1, 3, 6, 9]) == 6
    assert next_button(9, [1, 3, 6, 9]) == 1
    assert next_button(4, [1, 3, 6, 9]) == 6  # the old button seat emptied
    assert next_button(10, [2, 5]) == 2
    assert next_button(None, [4, 7]) == 4
    with pytest.raises(ValueError):
        next_button(1, [])


def test_acting_order_is_clockwise_from_the_seat_after_the_button() -> None:
    assert acting_order(6, [1, 2, 3, 4, 5, 6]) == (1, 2, 3, 4, 5, 6)
    assert acting_order(3, [1, 3, 5, 8]) == (5, 8, 1, 3)
    assert acting_order(9, [2, 5, 7]) == (2, 5, 7)  # dead button on an empty seat


# -- StartHand ----------------------------------------------------------------------------------


@pytest.mark.rule("SEAT-7")
def test_blinds_are_posted_by_position_and_first_to_act_is_left_of_the_big_blind() -> None:
    events = decide(None, start_hand({2: 500, 5: 600, 7: 700, 9: 800}, button=5))
    started = events[0]
    assert isinstance(started, HandStarted)
    assert started.posts == (ForcedBet(7, "small_blind", 5), ForcedBet(9, "big_blind", 10))
    state = evolve(None, started)
    assert state.to_act == 2
    assert state.stacks == {2: 500, 5: 600, 7: 695, 9: 790}
    assert state.pot == 15
    assert state.street == "preflop"
    assert state.phase == "betting"


def test_seats_are_listed_in_seat_order() -> None:
    started = decide(None, start_hand({7: 100, 2: 100, 4: 100}, button=2))[0]
    assert isinstance(started, HandStarted)
    assert [s.seat for s in started.seats] == [2, 4, 7]


@pytest.mark.rule("SEAT-10")
def test_heads_up_the_button_posts_the_small_blind_and_acts_first_preflop() -> None:
    state = play(None, start_hand({3: 1000, 7: 1000}, button=7))
    assert state.started.posts == (ForcedBet(7, "small_blind", 5), ForcedBet(3, "big_blind", 10))
    assert state.to_act == 7
    state = play(state, TakeAction(7, "call"))
    assert state.to_act == 3
    legal = state.legal
    assert legal is not None and legal.can_check and legal.can_raise
    state = play(state, TakeAction(3, "check"), DealBoard("flop", "2c7d9h"))
    assert state.to_act == 3  # the button acts last after the flop


@pytest.mark.rule("SEAT-10")
@pytest.mark.parametrize("game", ["NLH", "PLO", "FLH"])
def test_heads_up_with_equal_blinds_the_button_still_acts_first_preflop(game: str) -> None:
    """50/50 heads-up: pokerkit opens the betting after the larger blind, and with two equal
    blinds it took the button's for it, so the big blind acted first (found by QA)."""
    state = play(None, start_hand({3: 1000, 7: 1000}, button=7, sb=50, bb=50, game=game))
    assert state.started.posts == (
        ForcedBet(7, "small_blind", 50),
        ForcedBet(3, "big_blind", 50),
    )
    assert state.to_act == 7
    legal = state.legal
    assert legal is not None and legal.can_check  # he has matched the big blind
    state = play(state, TakeAction(7, "check"))
    assert state.to_act == 3  # the big blind's option
    state = play(state, TakeAction(3, "check"), DealBoard("flop", "2c7d9h"))
    assert state.to_act == 3  # the button acts last after the flop
    assert state.stacks == {3: 950, 7: 950}


@pytest.mark.rule("SEAT-10")
def test_three_handed_with_equal_blinds_the_button_opens() -> None:
    state = play(None, start_hand([1000, 1000, 1000], sb=50, bb=50))
    assert state.to_act == 3
    state = play(state, TakeAction(3, "call"), TakeAction(1, "check"))
    assert state.to_act == 2


@pytest.mark.rule("SEAT-8")
def test_short_stacks_post_what_they_have() -> None:
    state = play(None, start_hand({1: 3, 2: 6, 3: 1000}))
    assert state.started.posts == (ForcedBet(1, "small_blind", 3), ForcedBet(2, "big_blind", 6))
    assert state.stacks == {1: 0, 2: 0, 3: 1000}
    assert state.seat_state(1).all_in  # type: ignore[union-attr]


@pytest.mark.rule("SEAT-8")
def test_short_big_blind_all_in_hand_plays_to_showdown() -> None:
    state = play(None, start_hand({1: 1000, 2: 6, 3: 1000}))
    state = play(state, TakeAction(3, "call"), TakeAction(1, "call"))
    assert state.phase == "awaiting_board"  # seat 2 is all-in, seats 1 and 3 play on


@pytest.mark.rule("SEAT-8")
def test_after_a_short_big_blind_the_others_play_as_if_the_blind_were_full() -> None:
    """BB 10 posting 6 all-in: the call is 10 and the minimum raise is to 20 (not 6 and 16);
    the 4 above his 6 is a side pot he cannot win."""
    state = play(None, start_hand({1: 1000, 2: 6, 3: 1000}))
    legal = state.legal
    assert legal is not None and legal.seat == 3
    assert (legal.to_call, legal.call_to, legal.min_raise_to) == (10, 10, 20)
    violation = refused(state, TakeAction(3, "raise", 19), "raise_below_minimum")
    assert violation.context["min_raise_to"] == 20
    state, events = play_events(state, TakeAction(3, "call"))
    assert events == [ActionTaken(3, "call", 10, 10, False)]
    legal = state.legal
    assert legal is not None and (legal.seat, legal.to_call, legal.min_raise_to) == (1, 5, 20)
    state = play(state, TakeAction(1, "call"))
    assert state.phase == "awaiting_board"
    assert [(p.amount, p.eligible_seats) for p in state.pots()] == [(18, (1, 2, 3)), (8, (1, 3))]


@pytest.mark.rule("SEAT-8")
def test_a_short_big_blind_who_is_not_called_gets_the_excess_back() -> None:
    state = play(None, start_hand({1: 1000, 2: 6, 3: 1000}))
    state = play(state, TakeAction(3, "raise", 40), TakeAction(1, "fold"))
    assert state.phase == "showdown"  # seat 2 all-in, seat 3 alone with chips
    assert state.seat_state(3).contributed == 40  # type: ignore[union-attr]


def test_per_player_antes_are_posted_by_everyone_before_the_blinds() -> None:
    state = play(
        None, start_hand({1: 1000, 2: 1000, 3: 1, 4: 1000}, ante=2, ante_type="per_player")
    )
    assert state.started.posts == (
        ForcedBet(1, "ante", 2),
        ForcedBet(2, "ante", 2),
        ForcedBet(3, "ante", 1),
        ForcedBet(4, "ante", 2),
        ForcedBet(1, "small_blind", 5),
        ForcedBet(2, "big_blind", 10),
    )
    assert state.pot == 22
    assert state.stacks == {1: 993, 2: 988, 3: 0, 4: 998}
    assert state.to_act == 4  # seat 3 is all-in from the ante


def test_big_blind_ante_is_posted_by_the_big_blind() -> None:
    state = play(None, start_hand([1000] * 5, ante=10, ante_type="big_blind"))
    assert state.started.posts == (
        ForcedBet(2, "ante", 10),
        ForcedBet(1, "small_blind", 5),
        ForcedBet(2, "big_blind", 10),
    )
    assert state.stacks[2] == 980
    legal = state.legal
    assert legal is not None and legal.to_call == 10  # the ante is not part of the bet


def test_big_blind_ante_heads_up_is_posted_by_the_big_blind() -> None:
    state = play(None, start_hand({4: 1000, 8: 1000}, button=8, ante=10, ante_type="big_blind"))
    assert ForcedBet(4, "ante", 10) in state.started.posts
    assert ForcedBet(4, "big_blind", 10) in state.started.posts
    assert ForcedBet(8, "small_blind", 5) in state.started.posts


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (start_hand([1000]), "wrong_player_count"),
        (start_hand({0: 10, 2: 10}), "invalid_seat"),
        (start_hand({1: 10, 11: 10}), "invalid_seat"),
        (start_hand({1: 10, 2: 0}), "seat_has_no_chips"),
        (start_hand([10, 10], button=11), "invalid_button"),
        (start_hand([10, 10], game="STUD"), "unsupported_game"),
        (start_hand([10, 10], sb=20, bb=10), "invalid_stakes"),
        (start_hand([10, 10], bb=0), "invalid_stakes"),
        (start_hand([10, 10], ante=5), "invalid_stakes"),
        (start_hand([10, 10], min_raise_rule="triple"), "invalid_config"),
        (start_hand([10, 10], mode="home"), "invalid_config"),
        (start_hand([10, 10], rake_percent_bp=-1), "invalid_rake"),
        (start_hand([10, 10], rake_cap=-5), "invalid_rake"),
    ],
)
def test_start_hand_refusals(command: StartHand, code: str) -> None:
    refused(None, command, code)


def test_duplicate_player_is_refused() -> None:
    command = StartHand(
        hand_id="h",
        table_id=1,
        hand_number=1,
        button_seat=2,
        seats=(SeatInHand(1, "same", 100), SeatInHand(2, "same", 100)),
        small_blind=5,
        big_blind=10,
    )
    refused(None, command, "duplicate_player")


def test_a_started_hand_cannot_start_again() -> None:
    refused(three_handed(), start_hand(), "hand_already_started")


def test_commands_before_the_hand_starts_are_refused() -> None:
    refused(None, TakeAction(1, "fold"), "hand_not_started")


# -- turn order ---------------------------------------------------------------------------------


@pytest.mark.rule("BET-25")
def test_acting_out_of_turn_is_refused() -> None:
    violation = refused(three_handed(), TakeAction(1, "call"), "not_your_turn")
    assert violation.context == {"seat": 1, "to_act": 3}
    assert violation.rule == "BET-25"
    assert violation.as_dict()["code"] == "not_your_turn"


@pytest.mark.rule("BET-1")
def test_action_goes_clockwise_and_postflop_starts_left_of_the_button() -> None:
    state = three_handed()
    order = []
    for command in (TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check")):
        order.append(state.to_act)
        state = play(state, command)
    assert order == [3, 1, 2]
    assert state.phase == "awaiting_board"
    assert state.next_street == "flop"
    state = play(state, DealBoard("flop", "Qs9c4s"))
    assert state.to_act == 1
    assert state.street == "flop"


def test_unknown_seat_and_folded_seat_are_refused() -> None:
    state = play(three_handed(), TakeAction(3, "fold"))
    refused(state, TakeAction(4, "call"), "seat_not_in_hand")
    refused(state, TakeAction(3, "call"), "seat_folded")
    refused(state, TakeAction(1, "shove"), "unknown_action")  # type: ignore[arg-type]


def test_no_action_while_the_next_street_is_awaited() -> None:
    state = play(
        three_handed(), TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check")
    )
    refused(state, TakeAction(1, "check"), "no_betting_now")


# -- checks, calls, bets ------------------------------------------------------------------------


@pytest.mark.rule("BET-1")
def test_check_facing_a_bet_is_refused() -> None:
    violation = refused(three_handed(), TakeAction(3, "check"), "check_not_allowed")
    assert violation.context["to_call"] == 10


def test_call_with_nothing_to_call_is_refused() -> None:
    state = limped_to_flop(three_handed())
    refused(state, TakeAction(1, "call"), "nothing_to_call")


@pytest.mark.rule("SEAT-9")
def test_big_blind_has_the_option_when_the_pot_is_limped() -> None:
    state = play(three_handed(), TakeAction(3, "call"), TakeAction(1, "call"))
    legal = state.legal
    assert state.to_act == 2
    assert legal is not None
    assert (legal.to_call, legal.can_check, legal.can_raise, legal.min_raise_to) == (
        0,
        True,
        True,
        20,
    )
    raised = play(state, TakeAction(2, "raise", 40))
    assert raised.to_act == 3  # the option raise reopens the action


@pytest.mark.rule("BET-3")
def test_minimum_bet_is_the_big_blind() -> None:
    state = limped_to_flop(three_handed())
    violation = refused(state, TakeAction(1, "bet", 9), "bet_below_minimum")
    assert violation.rule == "BET-3"
    assert violation.context["min_raise_to"] == 10
    state, events = play_events(state, TakeAction(1, "bet", 10))
    assert events == [ActionTaken(1, "bet", 10, 10, False)]


def test_bet_and_raise_need_the_right_kind_and_an_amount() -> None:
    state = three_handed()
    refused(state, TakeAction(3, "bet", 30), "bet_not_allowed")  # the big blind is a bet
    refused(state, TakeAction(3, "raise"), "amount_required")
    # table stakes: only his chips on the table play (BET-24, a caller's duty, was cited)
    assert refused(state, TakeAction(3, "raise", 1001), "amount_exceeds_stack").rule == "BI-6"
    refused(state, TakeAction(3, "raise", 10), "raise_below_minimum")
    flop = limped_to_flop(state)
    refused(flop, TakeAction(1, "raise", 20), "nothing_to_raise")


def test_short_all_in_bet_below_the_minimum_is_allowed() -> None:
    state = play(None, start_hand([1000, 1000, 17]))
    state = limped_to_flop(state)
    state = play(state, TakeAction(1, "check"), TakeAction(2, "check"))
    state, events = play_events(state, TakeAction(3, "bet", 7))
    assert events == [ActionTaken(3, "bet", 7, 7, True)]


@pytest.mark.rule("BET-8")
def test_minimum_raise_is_the_previous_increment() -> None:
    state = three_handed()
    legal = state.legal
    assert legal is not None and legal.min_raise_to == 20
    state = play(state, TakeAction(3, "raise", 30))  # raise by 20
    violation = refused(state, TakeAction(1, "raise", 45), "raise_below_minimum")
    assert violation.rule == "BET-8"
    assert violation.context == {"seat": 1, "amount_to": 45, "min_raise_to": 50, "to_call": 25}
    state = play(state, TakeAction(1, "raise", 50))
    assert state.min_raise_to == 70


@pytest.mark.rule("BET-8")
def test_minimum_reraise_after_100_to_500_is_900() -> None:
    state = play(None, start_hand([5000, 5000, 5000], sb=50, bb=100))
    state = play(
        state,
        TakeAction(3, "call"),
        TakeAction(1, "call"),
        TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet", 100),
        TakeAction(2, "raise", 500),
    )
    assert state.min_raise_to == 900
    refused(state, TakeAction(3, "raise", 899), "raise_below_minimum")
    play(state, TakeAction(3, "raise", 900))


@pytest.mark.rule("BET-9")
def test_double_last_rule_needs_twice_the_last_bet() -> None:
    state = play(
        None, start_hand([5000, 5000, 950 + 100], sb=50, bb=100, min_raise_rule="double_last")
    )
    state = play(
        state,
        TakeAction(3, "call"),
        TakeAction(1, "call"),
        TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet", 100),
    )
    assert state.min_raise_to == 200
    # below the previous raise too (BET-8), but the table's rule sets the minimum: BET-9
    # (BET-8 was cited, found by QA)
    assert refused(state, TakeAction(2, "raise", 150), "raise_below_minimum").rule == "BET-9"
    state = play(state, TakeAction(2, "raise", 500))
    assert state.min_raise_to == 950  # would be 1000, capped at seat 3's all-in
    violation = refused(state, TakeAction(3, "raise", 900), "raise_below_minimum")
    assert violation.rule == "BET-9"
    assert violation.context["min_raise_to"] == 950
    state = play(state, TakeAction(3, "all_in"))  # all-in below double: allowed
    assert state.seat_state(3).stack == 0  # type: ignore[union-attr]
    violation = refused(state, TakeAction(1, "raise", 1850), "raise_below_minimum")
    assert violation.rule == "BET-9"
    assert violation.context["min_raise_to"] == 1900
    play(state, TakeAction(1, "raise", 1900))


@pytest.mark.rule("BET-9")
@pytest.mark.rule("BET-14")
def test_double_last_an_all_in_below_the_house_minimum_does_not_reopen_for_the_raiser() -> None:
    """100, raised to 500, then all-in to 950 (below the house minimum of 1,000): the raiser
    to 500 may only call or fold, though 450 is a full raise by the previous increment."""
    state = play(
        None, start_hand([5000, 5000, 950 + 100], sb=50, bb=100, min_raise_rule="double_last")
    )
    state = play(
        state,
        TakeAction(3, "call"),
        TakeAction(1, "call"),
        TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet", 100),
        TakeAction(2, "raise", 500),
        TakeAction(3, "all_in"),
        TakeAction(1, "call"),
    )
    legal = state.legal
    assert legal is not None and legal.seat == 2
    assert not legal.can_raise and legal.to_call == 450
    violation = refused(state, TakeAction(2, "raise", 2000), "raise_not_reopened")
    assert violation.rule == "BET-14"
    refused(state, TakeAction(2, "all_in"), "raise_not_reopened")
    state = play(state, TakeAction(2, "call"))
    assert state.phase == "awaiting_board"


@pytest.mark.rule("BET-14")
def test_double_last_a_full_house_raise_after_the_short_all_in_reopens() -> None:
    state = play(
        None, start_hand([5000, 5000, 950 + 100, 5000], sb=50, bb=100, button=4,
                         min_raise_rule="double_last"),
    )  # fmt: skip
    state = play(
        state,
        TakeAction(3, "call"),
        TakeAction(4, "call"),
        TakeAction(1, "call"),
        TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet", 100),
        TakeAction(2, "raise", 500),
        TakeAction(3, "all_in"),
        TakeAction(4, "raise", 1900),  # a full raise by the house rule
        TakeAction(1, "fold"),
    )
    legal = state.legal
    assert legal is not None and legal.seat == 2 and legal.can_raise


@pytest.mark.rule("BET-9")
def test_double_last_rule_preflop() -> None:
    state = play(None, start_hand([5000] * 4, sb=50, bb=100, min_raise_rule="double_last"))
    state = play(state, TakeAction(3, "raise", 300))
    assert state.min_raise_to == 600  # previous increment would say 500
    violation = refused(state, TakeAction(4, "raise", 500), "raise_below_minimum")
    assert violation.rule == "BET-9"


@pytest.mark.rule("BET-4")
def test_pot_limit_omaha_maximum_raise_is_the_pot() -> None:
    state = play(None, start_hand([1000, 1000, 1000], game="PLO"))
    assert state.max_raise_to == 35  # call 10, then raise the pot of 25
    violation = refused(state, TakeAction(3, "raise", 36), "raise_above_pot_limit")
    assert violation.context["max_raise_to"] == 35
    refused(state, TakeAction(3, "all_in"), "raise_above_pot_limit")
    state = play(state, TakeAction(3, "raise", 35))
    assert state.max_raise_to == 115  # seat 1 calls 30 (pot 80), then raises 80 more
    state = play(state, TakeAction(1, "call"), TakeAction(2, "call"), DealBoard("flop", "Qs9c4s"))
    assert state.pot == 105
    assert state.max_raise_to == 105
    refused(state, TakeAction(1, "bet", 106), "bet_above_pot_limit")
    play(state, TakeAction(1, "bet", 105))


@pytest.mark.rule("BET-4")
def test_no_limit_has_no_maximum_but_the_stack() -> None:
    state = three_handed()
    assert state.max_raise_to == 1000
    play(state, TakeAction(3, "raise", 1000))


@pytest.mark.rule("BET-14")
def test_short_all_in_raise_does_not_reopen_the_betting() -> None:
    state = play(None, start_hand([1000, 160, 1000]))
    state = limped_to_flop(state)
    state = play(state, TakeAction(1, "bet", 100))
    state, events = play_events(state, TakeAction(2, "all_in"))
    assert events == [ActionTaken(2, "raise", 150, 150, True)]
    legal = state.legal
    assert legal is not None and legal.can_raise  # seat 3 has not acted yet: may raise
    assert legal.min_raise_to == 250
    state = play(state, TakeAction(3, "call"))
    legal = state.legal
    assert state.to_act == 1
    assert legal is not None and not legal.can_raise and legal.to_call == 50
    violation = refused(state, TakeAction(1, "raise", 400), "raise_not_reopened")
    assert violation.rule == "BET-14"
    refused(state, TakeAction(1, "all_in"), "raise_not_reopened")
    state = play(state, TakeAction(1, "call"))
    assert state.phase == "awaiting_board"


@pytest.mark.rule("BET-14")
def test_full_all_in_raise_reopens_the_betting() -> None:
    state = play(None, start_hand([1000, 210, 1000]))
    state = limped_to_flop(state)
    state = play(state, TakeAction(1, "bet", 100), TakeAction(2, "all_in"), TakeAction(3, "call"))
    legal = state.legal
    assert legal is not None and legal.can_raise and legal.min_raise_to == 300


def test_a_short_call_is_an_all_in_call() -> None:
    state = play(None, start_hand([1000, 1000, 60]))
    state = play(state, TakeAction(3, "call"), TakeAction(1, "raise", 200))
    state = play(state, TakeAction(2, "fold"))
    state, events = play_events(state, TakeAction(3, "call"))
    assert events == [ActionTaken(3, "call", 60, 50, True)]
    assert state.phase == "showdown"  # one player left with chips: the betting is over


def test_all_in_facing_only_all_in_opponents_is_a_call() -> None:
    state = play(None, start_hand({1: 300, 2: 1000}, button=2))
    state = play(state, TakeAction(2, "call"), TakeAction(1, "all_in"))
    refused(state, TakeAction(2, "raise", 600), "opponents_all_in")
    state, events = play_events(state, TakeAction(2, "all_in"))
    assert events == [ActionTaken(2, "call", 300, 290, False)]
    assert state.phase == "showdown"


def test_a_stack_that_only_covers_a_call_cannot_raise() -> None:
    state = play(None, start_hand([1000, 1000, 60]))
    state = play(state, TakeAction(3, "call"), TakeAction(1, "raise", 200), TakeAction(2, "fold"))
    refused(state, TakeAction(3, "raise", 60), "amount_exceeds_stack")
    refused(state, TakeAction(3, "raise", 61), "amount_exceeds_stack")


def test_all_in_bet_raise_and_call_are_resolved() -> None:
    state = limped_to_flop(play(None, start_hand([500, 300, 1000])))
    state, events = play_events(state, TakeAction(1, "all_in"))
    assert events == [ActionTaken(1, "bet", 490, 490, True)]
    state, events = play_events(state, TakeAction(2, "all_in"))
    assert events == [ActionTaken(2, "call", 290, 290, True)]
    state, events = play_events(state, TakeAction(3, "all_in"))
    assert events == [ActionTaken(3, "call", 490, 490, False)]  # nobody left to raise


def test_fold_when_a_check_is_possible_is_allowed_at_cash_tables_only() -> None:
    flop = limped_to_flop(three_handed())
    _, events = play_events(flop, TakeAction(1, "fold"))
    assert events == [ActionTaken(1, "fold", 0, 0, False)]
    tournament = limped_to_flop(three_handed(mode="tournament"))
    refused(tournament, TakeAction(1, "fold"), "fold_not_allowed")
    assert tournament.legal is not None and not tournament.legal.can_fold


@pytest.mark.rule("SD-16")
def test_everybody_folds_to_the_big_blind() -> None:
    state, events = play_events(play(three_handed(), TakeAction(3, "fold")), TakeAction(1, "fold"))
    settled = events[-1]
    assert isinstance(settled, HandSettled)
    assert settled.method == "uncontested"
    assert [(u.seat, u.amount) for u in settled.uncalled] == [(2, 5)]
    assert state.is_complete
    assert state.stacks == {1: 995, 2: 1005, 3: 1000}
    assert state.pot == 0
    assert state.to_act is None and state.legal is None
    refused(state, TakeAction(2, "check"), "hand_already_complete")


@pytest.mark.rule("SD-9")
def test_uncalled_bet_is_returned_when_everyone_folds() -> None:
    state = limped_to_flop(three_handed())
    state = play(
        state, TakeAction(1, "bet", 200), TakeAction(2, "raise", 600), TakeAction(3, "fold")
    )
    state, events = play_events(state, TakeAction(1, "fold"))
    settled = events[-1]
    assert isinstance(settled, HandSettled)
    assert [(u.seat, u.amount) for u in settled.uncalled] == [(2, 400)]
    assert [(p.amount, p.winners[0].seat) for p in settled.pots] == [(430, 2)]
    assert state.stacks == {1: 790, 2: 1220, 3: 990}


def test_legal_actions_for_the_tablet() -> None:
    state = three_handed()
    legal = state.legal
    assert legal is not None
    assert (legal.seat, legal.to_call, legal.call_to, legal.all_in_to) == (3, 10, 10, 1000)
    assert (legal.can_check, legal.can_bet, legal.can_raise) == (False, False, True)
    assert (state.to_call, state.min_raise_to, state.max_raise_to) == (10, 20, 1000)


def test_decide_does_not_change_the_state() -> None:
    state = three_handed()
    before = (state.seats, state.phase, state.to_act, state.legal)
    decide(state, TakeAction(3, "raise", 40))
    decide(state, TakeAction(3, "fold"))
    assert (state.seats, state.phase, state.to_act, state.legal) == before


def test_an_older_state_stays_usable_after_evolving() -> None:
    state = three_handed()
    newer = play(state, TakeAction(3, "raise", 40))
    assert state.to_act == 3 and state.min_raise_to == 20  # rebuilt on demand
    assert newer.to_act == 1 and newer.min_raise_to == 70
    other = play(state, TakeAction(3, "call"))  # a second branch from the old state
    assert other.to_act == 1 and other.to_call == 5
    assert newer.to_call == 35


def test_show_is_refused_before_showdown() -> None:
    refused(three_handed(), ShowCards(3, "AsKs"), "not_at_showdown")


@pytest.mark.rule("SEAT-8")
@pytest.mark.parametrize(("stack", "blind", "ante"), [(15, 10, 5), (10, 10, 0), (7, 7, 0)])
def test_a_big_blind_short_of_blind_and_ante_posts_the_blind_first(
    stack: int, blind: int, ante: int
) -> None:
    """Big-blind ante 10, blind 10: a big blind of 15 put it all in the (dead) ante, was
    eligible for no pot, and the others only had to call the small blind (found by QA)."""
    stacks = {1: 1000, 2: stack, 3: 1000}
    state = play(None, start_hand(stacks, button=3, ante=10, ante_type="big_blind"))
    posts = {(p.seat, p.kind): p.amount for p in state.started.posts}
    assert (posts[(2, "big_blind")], posts.get((2, "ante"), 0)) == (min(blind, stack), ante)
    legal = state.legal
    assert legal is not None and legal.seat == 3 and legal.to_call == 10  # the full blind
    state = play(state, TakeAction(3, "call"), TakeAction(1, "call"))
    main = state.pots()[0]
    assert 2 in main.eligible_seats and main.amount == 3 * min(blind, stack) + ante


@pytest.mark.rule("SD-20")
def test_the_pots_on_screen_while_a_street_is_bet() -> None:
    """Before anyone acted the tablet showed a main pot of 20 that the button could not win
    (found by QA): mid-street, every chip is in and only an all-in caps a pot."""
    state = play(None, start_hand({1: 1000, 2: 1000, 3: 1000}, button=3))
    assert [(p.amount, p.eligible_seats) for p in state.pots_on_screen()] == [(15, (1, 2, 3))]
    state = play(None, start_hand({1: 1000, 2: 6, 3: 1000}))  # BB 10 all-in for 6 (SEAT-8)
    state = play(state, TakeAction(3, "call"))
    shown = [(p.amount, p.eligible_seats) for p in state.pots_on_screen()]
    assert shown == [(17, (1, 2, 3)), (4, (1, 3))]


@pytest.mark.rule("SEAT-8")
def test_a_big_blind_all_in_on_a_per_player_ante_leaves_the_call_at_the_full_blind() -> None:
    state = play(None, start_hand({1: 1000, 2: 2, 3: 1000}, ante=2, ante_type="per_player"))
    assert ForcedBet(2, "ante", 2) in state.started.posts
    legal = state.legal
    assert legal is not None and legal.seat == 3 and legal.to_call == 10  # not the 5 of the SB
