"""Board, showdown, pots, rake and manual awards through decide/evolve."""

from __future__ import annotations

from typing import Any

import pytest

from tables.domain import (
    AwardPots,
    DealBoard,
    HandState,
    MuckCards,
    ShowCards,
    TakeAction,
)
from tables.events import Award, CardsMucked, CardsShown, HandSettled, SeatAmount

from .support import conserved, play, play_events, refused, start_hand


def settled(state: HandState) -> HandSettled:
    assert state.result is not None
    return state.result


def heads_up_all_in() -> HandState:
    """Seat 1 (BB) 300 vs seat 2 (button, SB) 1000: all-in preflop, called."""
    state = play(None, start_hand({1: 300, 2: 1000}, button=2))
    return play(state, TakeAction(2, "call"), TakeAction(1, "all_in"), TakeAction(2, "call"))


def four_way_all_in(**config: Any) -> HandState:
    """Stacks 100/300/600/1000 (seats 1-4, button 4): everyone all-in or calling preflop."""
    state = play(None, start_hand([100, 300, 600, 1000], **config))
    return play(
        state,
        TakeAction(3, "all_in"),
        TakeAction(4, "call"),
        TakeAction(1, "all_in"),
        TakeAction(2, "all_in"),
    )


def check_around(state: HandState) -> HandState:
    """Everyone calls or checks until the betting round is closed."""
    while state.phase == "betting":
        assert state.to_act is not None
        state = play(state, TakeAction(state.to_act, "call" if state.to_call else "check"))
    return state


def to_river(
    state: HandState, *, flop: str = "2c7d9h", turn: str = "Js", river: str = "Kd"
) -> HandState:
    """Deal the board, checking (or calling) every street."""
    for street, cards in (("flop", flop), ("turn", turn), ("river", river)):
        state = play(check_around(state), DealBoard(street, cards))  # type: ignore[arg-type]
    return check_around(state)


# -- board --------------------------------------------------------------------------------------


@pytest.mark.rule("MIS-12")
@pytest.mark.rule("MIS-13")
@pytest.mark.rule("BET-1")
def test_board_refusals() -> None:
    state = play(None, start_hand([1000, 1000, 1000]))
    refused(state, DealBoard("flop", "2c7d9h"), "betting_round_not_complete")
    state = play(state, TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check"))
    violation = refused(state, DealBoard("turn", "2c"), "wrong_board_street")
    assert violation.context["expected_street"] == "flop"
    # a miskeyed board is the board's rule; four cards on the flop is MIS-17's (QA: a
    # two-card flop cited MIS-17)
    assert refused(state, DealBoard("flop", "2c7d"), "wrong_card_count").rule == "BET-2"
    assert refused(state, DealBoard("flop", "2c7d9h8s"), "wrong_card_count").rule == "MIS-17"
    assert refused(state, DealBoard("flop", "2c7d1x"), "invalid_cards").rule == "MIS-13"
    assert refused(state, DealBoard("flop", "2c7d2c"), "duplicate_card").rule == "MIS-12"
    state = play(state, DealBoard("flop", "2c 7D 9h"))
    assert state.board == ("2c", "7d", "9h")
    state = play(state, *(TakeAction(s, "check") for s in (1, 2, 3)))
    refused(state, DealBoard("turn", "9h"), "duplicate_card")


def test_all_in_runout_is_dealt_at_showdown() -> None:
    state = heads_up_all_in()
    assert state.phase == "showdown"
    assert state.next_street == "flop"
    refused(state, TakeAction(2, "check"), "no_betting_now")
    refused(state, DealBoard("river", "2c"), "wrong_board_street")
    state = play(state, DealBoard("flop", "2c7d9h"), DealBoard("turn", "Js"))
    assert state.phase == "showdown" and state.next_street == "river"


# -- showdown -------------------------------------------------------------------------------------


@pytest.mark.rule("SD-1")
def test_best_hand_wins_at_showdown() -> None:
    state = to_river(play(None, start_hand([1000, 1000, 1000])), river="Kd")
    assert state.phase == "showdown"
    state = play(state, ShowCards(1, "KcKh"), ShowCards(2, "AcAh"))
    assert not state.is_complete
    state, events = play_events(state, ShowCards(3, "JcJh"))
    assert isinstance(events[0], CardsShown)
    result = events[-1]
    assert isinstance(result, HandSettled)
    assert result.method == "showdown"
    assert result.pots[0].winners == (Award(1, 30),)
    assert result.pots[0].hand_rank is not None
    assert state.stacks == {1: 1020, 2: 990, 3: 990}
    assert conserved(state)
    refused(state, ShowCards(1, "KcKh"), "hand_already_complete")


def test_shows_may_come_before_the_all_in_runout() -> None:
    state = play(heads_up_all_in(), ShowCards(2, "AcAd"), ShowCards(1, "KcKd"))
    assert not state.is_complete
    state = play(state, DealBoard("flop", "2c7d9h"), DealBoard("turn", "Js"))
    state, events = play_events(state, DealBoard("river", "3s"))
    result = events[-1]
    assert isinstance(result, HandSettled)
    assert result.uncalled == ()
    assert state.stacks == {1: 0, 2: 1300}
    assert conserved(state)


@pytest.mark.rule("SD-9")
def test_uncalled_part_of_a_bet_against_a_short_all_in_is_returned() -> None:
    state = play(None, start_hand({1: 300, 2: 1000}, button=2))
    state = play(state, TakeAction(2, "raise", 1000), TakeAction(1, "call"))
    state = play(state, ShowCards(1, "AcAd"), ShowCards(2, "KcKd"))
    state = play(
        state, DealBoard("flop", "2c7d9h"), DealBoard("turn", "Js"), DealBoard("river", "3s")
    )
    result = settled(state)
    assert result.uncalled == (SeatAmount(2, 700),)
    assert state.stacks == {1: 600, 2: 700}


@pytest.mark.rule("SD-20")
def test_side_pots_with_three_all_ins() -> None:
    state = four_way_all_in()
    assert state.phase == "showdown"
    pots = state.pots()
    assert [(p.amount, p.eligible_seats) for p in pots] == [
        (400, (1, 2, 3, 4)),
        (600, (2, 3, 4)),
        (600, (3, 4)),
    ]
    state = play(
        state, DealBoard("flop", "2c7d9h"), DealBoard("turn", "Js"), DealBoard("river", "Kd")
    )
    state = play(
        state,
        ShowCards(4, "AcAh"),
        ShowCards(3, "3c4h"),
        ShowCards(2, "JcJh"),
        ShowCards(1, "KcKh"),
    )
    result = settled(state)
    assert [(p.index, p.amount, p.winners) for p in result.pots] == [
        (2, 600, (Award(4, 600),)),
        (1, 600, (Award(2, 600),)),
        (0, 400, (Award(1, 400),)),
    ]
    assert state.stacks == {1: 400, 2: 600, 3: 0, 4: 1000}
    assert conserved(state)


@pytest.mark.rule("SD-21")
@pytest.mark.rule("SD-23")
def test_odd_chip_goes_to_the_first_winner_clockwise_from_the_button() -> None:
    # seats 2, 5, 8; button 2, so SB 5, BB 8; the clockwise order from the button is 5, 8, 2
    state = play(None, start_hand({2: 1000, 5: 1000, 8: 1000}, button=2))
    state = play(state, TakeAction(2, "call"), TakeAction(5, "fold"), TakeAction(8, "check"))
    state = to_river(state, flop="AsKsQs", turn="Js", river="Ts")  # royal flush on board
    state = play(state, ShowCards(2, "4h5h"), ShowCards(8, "2c3d"))
    result = settled(state)
    assert result.pots[0].amount == 25
    assert result.pots[0].winners == (Award(8, 13), Award(2, 12))
    assert state.stacks == {2: 1002, 5: 995, 8: 1003}


@pytest.mark.rule("SD-2")
def test_omaha_uses_exactly_two_hole_cards() -> None:
    state = play(None, start_hand([1000, 1000, 1000], game="PLO"))
    state = play(state, TakeAction(3, "call"), TakeAction(1, "fold"), TakeAction(2, "check"))
    state = to_river(state, flop="AhKhQh", turn="9h", river="2c")
    # seat 3 holds one heart: no flush in Omaha; seat 2's three deuces win
    state = play(state, ShowCards(3, "Th3s4s5s"), ShowCards(2, "2s2d7c8c"))
    assert settled(state).pots[0].winners == (Award(2, 25),)
    refused(
        play(None, start_hand([1000, 1000], game="PLO")),
        ShowCards(1, "AsAd"),
        "not_at_showdown",
    )


@pytest.mark.rule("SD-3")
@pytest.mark.rule("MIS-12")
def test_show_refusals() -> None:
    state = to_river(play(None, start_hand([1000, 1000, 1000])))
    assert refused(state, ShowCards(1, "KcKhKs"), "wrong_card_count").rule == "SD-3"
    refused(state, ShowCards(1, "Kc2c"), "duplicate_card")  # 2c is on the board
    refused(state, ShowCards(1, "Kc1c"), "invalid_cards")
    refused(state, ShowCards(9, "KcKh"), "seat_not_in_hand")
    state = play(state, ShowCards(1, "KcKh"))
    refused(state, ShowCards(2, "KcQd"), "duplicate_card")  # shown by seat 1
    refused(state, ShowCards(1, "AcAh"), "cards_already_shown")
    refused(state, MuckCards(1), "cards_already_shown")
    state = play(state, MuckCards(2))
    refused(state, ShowCards(2, "AcAh"), "cards_already_mucked")
    refused(state, MuckCards(2), "cards_already_mucked")


def test_folded_seat_cannot_show() -> None:
    state = play(None, start_hand([1000, 1000, 1000]))
    state = play(state, TakeAction(3, "fold"), TakeAction(1, "call"), TakeAction(2, "check"))
    state = to_river(state)
    refused(state, ShowCards(3, "AcAh"), "seat_folded")


@pytest.mark.rule("SD-16")
def test_a_mucked_hand_cannot_win_and_the_last_live_hand_wins_unseen() -> None:
    state = to_river(play(None, start_hand([1000, 1000, 1000])))
    state = play(state, ShowCards(1, "3c4h"), MuckCards(2))
    state, events = play_events(state, MuckCards(3))
    assert isinstance(events[0], CardsMucked)
    result = events[-1]
    assert isinstance(result, HandSettled)
    assert result.method == "uncontested"
    assert result.pots[0].winners == (Award(1, 30),)
    assert result.pots[0].hand_rank is None


@pytest.mark.rule("SD-16")
def test_the_only_live_hand_in_a_side_pot_cannot_muck() -> None:
    state = play(None, start_hand([100, 1000, 1000]))
    state = play(
        state,
        TakeAction(3, "call"),
        TakeAction(1, "all_in"),
        TakeAction(2, "call"),
        TakeAction(3, "call"),
        DealBoard("flop", "2c7d9h"),
        TakeAction(2, "bet", 200),
        TakeAction(3, "call"),
    )
    state = play(state, DealBoard("turn", "Js"), TakeAction(2, "check"), TakeAction(3, "check"))
    state = play(state, DealBoard("river", "Kd"), TakeAction(2, "check"), TakeAction(3, "check"))
    assert [(p.amount, p.eligible_seats) for p in state.pots()] == [(300, (1, 2, 3)), (400, (2, 3))]
    state = play(state, MuckCards(2))
    violation = refused(state, MuckCards(3), "last_live_hand")
    assert violation.context["pot_index"] == 1
    state = play(state, ShowCards(3, "3c4h"), ShowCards(1, "KcKh"))
    result = settled(state)
    assert [(p.index, p.winners) for p in result.pots] == [
        (1, (Award(3, 400),)),
        (0, (Award(1, 300),)),
    ]


# -- manual award ----------------------------------------------------------------------


@pytest.mark.rule("SD-20")
def test_manual_award_names_the_winners_of_each_pot() -> None:
    state = play(
        four_way_all_in(),
        DealBoard("flop", "2c7d9h"),
        DealBoard("turn", "Js"),
        DealBoard("river", "Kd"),
    )
    state, events = play_events(state, AwardPots(((2,), (3, 4), (3,))))
    result = events[-1]
    assert isinstance(result, HandSettled) and result.method == "manual"
    assert state.stacks == {1: 0, 2: 400, 3: 300 + 600, 4: 400 + 300}
    assert conserved(state)


def test_manual_award_refusals() -> None:
    betting = play(None, start_hand([1000, 1000, 1000]))
    refused(betting, AwardPots(((1,),)), "not_at_showdown")
    allin = four_way_all_in()
    refused(allin, AwardPots(((1,), (2,), (3,))), "board_not_complete")
    state = play(
        allin, DealBoard("flop", "2c7d9h"), DealBoard("turn", "Js"), DealBoard("river", "Kd")
    )
    assert refused(state, AwardPots(((1,), (2,))), "wrong_pot_count").context["pot_count"] == 3
    refused(state, AwardPots(((1,), (), (3,))), "pot_without_winner")
    refused(state, AwardPots(((1, 1), (2,), (3,))), "duplicate_winner")
    violation = refused(state, AwardPots(((1,), (1,), (3,))), "seat_not_eligible")
    assert violation.context == {"pot_index": 1, "seat": 1, "eligible_seats": [2, 3, 4]}
    # the main and first side pot now have the same players
    mucked = play(state, MuckCards(1, deliberate=True))
    assert [(p.amount, p.eligible_seats) for p in mucked.pots()] == [
        (1000, (2, 3, 4)),
        (600, (3, 4)),
    ]
    refused(mucked, AwardPots(((1,), (3,))), "seat_not_eligible")


@pytest.mark.rule("SD-3")
def test_a_manual_award_goes_to_no_seat_that_never_showed_over_one_that_did() -> None:
    """QA: seat 4 showed, and the dealer's award gave a pot to a seat that never did.
    Where nobody of a pot had his cards recorded, the dealer's reading stands."""
    state = play(
        four_way_all_in(),
        DealBoard("flop", "2c7d9h"), DealBoard("turn", "Js"), DealBoard("river", "Kd"),
    )  # fmt: skip
    assert [p.eligible_seats for p in state.pots()] == [(1, 2, 3, 4), (2, 3, 4), (3, 4)]
    shown = play(state, ShowCards(4, "2h2d"))
    violation = refused(shown, AwardPots(((1,), (2,), (3,))), "cards_not_tabled")
    assert (violation.rule, violation.context["seat"]) == ("SD-3", 1)
    assert violation.context["shown_seats"] == [4]
    refused(shown, AwardPots(((4,), (4,), (3,))), "cards_not_tabled")  # a side pot
    refused(shown, AwardPots(((1, 4), (4,), (4,))), "cards_not_tabled")  # no share either
    _, events = play_events(shown, AwardPots(((4,), (4,), (4,))))
    assert isinstance(events[-1], HandSettled) and events[-1].method == "manual"
    # nobody showed: the dealer read the cards on the table
    _, events = play_events(state, AwardPots(((1,), (2,), (3,))))
    assert isinstance(events[-1], HandSettled)


# -- rake -----------------------------------------------------------------------------


def raked_heads_up(each: int, **config: Any) -> HandState:
    """Heads-up at 50/100, 5 % capped at 300: each player puts ``each`` in; seat 1 wins."""
    state = play(
        None,
        start_hand(
            {1: 10_000, 2: 10_000},
            button=2,
            sb=50,
            bb=100,
            rake_percent_bp=500,
            rake_cap=300,
            **config,
        ),
    )
    state = play(state, TakeAction(2, "call"), TakeAction(1, "check"), DealBoard("flop", "2c7d9h"))
    state = play(state, TakeAction(1, "bet", each - 100), TakeAction(2, "call"))
    state = play(state, DealBoard("turn", "Js"), TakeAction(1, "check"), TakeAction(2, "check"))
    state = play(state, DealBoard("river", "Kd"), TakeAction(1, "check"), TakeAction(2, "check"))
    return play(state, ShowCards(1, "KcKh"), ShowCards(2, "3c4h"))


@pytest.mark.rule("RAKE-1")
@pytest.mark.rule("RAKE-2")
@pytest.mark.parametrize(
    ("each", "rake"),
    [(1999, 199), (2990, 299), (3000, 300), (3010, 300), (5000, 300)],
    ids=["rounded-down", "below-cap", "at-cap", "just-above-cap", "far-above-cap"],
)
def test_rake_boundaries(each: int, rake: int) -> None:
    state = raked_heads_up(each)
    result = settled(state)
    assert result.rake == rake
    assert result.pots[0].rake == rake
    assert state.stacks[1] == 10_000 + each - rake
    assert conserved(state)


@pytest.mark.rule("RAKE-2")
def test_rake_cap_counts_side_pots_together_main_pot_first() -> None:
    state = play(
        None,
        start_hand(
            {1: 2000, 2: 5000, 3: 5000},
            sb=50,
            bb=100,
            rake_percent_bp=500,
            rake_cap=400,
        ),
    )
    state = play(
        state,
        TakeAction(3, "raise", 5000),
        TakeAction(1, "call"),
        TakeAction(2, "call"),
        DealBoard("flop", "2c7d9h"),
        DealBoard("turn", "Js"),
        DealBoard("river", "Kd"),
        ShowCards(1, "KcKh"),
        ShowCards(2, "JcJh"),
        ShowCards(3, "3c4h"),
    )
    result = settled(state)
    assert [(p.index, p.amount, p.rake) for p in result.pots] == [(1, 6000, 100), (0, 6000, 300)]
    assert result.rake == 400
    assert state.stacks == {1: 5700, 2: 5900, 3: 0}
    assert conserved(state)


@pytest.mark.rule("RAKE-1")
def test_no_flop_no_drop() -> None:
    config = {"sb": 50, "bb": 100, "rake_percent_bp": 500, "rake_cap": 300}
    state = play(None, start_hand([10_000, 10_000, 10_000], **config))
    state = play(state, TakeAction(3, "raise", 1000), TakeAction(1, "call"), TakeAction(2, "fold"))
    state = play(
        state, DealBoard("flop", "2c7d9h"), TakeAction(1, "bet", 500), TakeAction(3, "fold")
    )
    assert settled(state).rake == 105  # 5 % of 2100 (the 500 bet is returned): flop dealt

    folded = play(
        play(None, start_hand([10_000, 10_000, 10_000], **config)),
        TakeAction(3, "raise", 1000),
        TakeAction(1, "fold"),
        TakeAction(2, "fold"),
    )
    assert settled(folded).rake == 0
    assert folded.stacks == {1: 9950, 2: 9900, 3: 10_150}

    dropping = play(
        play(None, start_hand([10_000, 10_000, 10_000], no_flop_no_drop=False, **config)),
        TakeAction(3, "raise", 1000),
        TakeAction(1, "fold"),
        TakeAction(2, "fold"),
    )
    assert settled(dropping).rake == 12  # 5 % of the 250 pot after the uncalled 900
    assert conserved(dropping)


@pytest.mark.rule("RAKE-1")
def test_all_in_preflop_with_a_runout_is_raked() -> None:
    state = play(
        None,
        start_hand({1: 1000, 2: 1000}, button=2, rake_percent_bp=500, rake_cap=300),
    )
    state = play(state, TakeAction(2, "all_in"), TakeAction(1, "call"))
    state = play(
        state, DealBoard("flop", "2c7d9h"), DealBoard("turn", "Js"), DealBoard("river", "Kd")
    )
    state = play(state, ShowCards(1, "AcAh"), ShowCards(2, "AdAs"))
    result = settled(state)
    assert result.rake == 100
    assert [a.amount for a in result.pots[0].winners] == [950, 950]
