"""Misdeals and void hands (MIS-1..3, MIS-11, MIS-12) and the rabbit hunt (RAKE-7, RAKE-8)."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from functools import reduce
from typing import Any

import dacite
import pytest

from casino.domain_events import EVENT_TYPES
from tables.domain import (
    DealBoard,
    DeclareMisdeal,
    HandState,
    RecordRabbitHunt,
    RunItTimes,
    ShowCards,
    TakeAction,
    VoidHand,
    decide,
    evolve,
    load,
)
from tables.domain.hand_rulings import RecordRabbitConsent, decide_ruling
from tables.events import HandStarted, HandVoided, RabbitHunted, SeatAmount, SeatStack
from tables.ruling_events import RabbitHuntConsented

from .support import conserved, play, play_events, refused, start_hand

DACITE = dacite.Config(cast=[tuple], strict=True)
START = {1: 1000, 2: 1000, 3: 1000}


def three_handed(**config: Any) -> HandState:
    """Seats 1, 2, 3 with 1000 each; button 3, SB 1 (5), BB 2 (10); seat 3 first to act."""
    return play(None, start_hand([1000, 1000, 1000], **config))


def assert_void(state: HandState, kind: str) -> HandVoided:
    voided = state.voided
    assert voided is not None and voided.kind == kind
    assert state.is_complete and state.result is None and state.to_act is None
    assert state.stacks == {s.seat: s.starting_stack for s in state.seats}
    assert state.pot == 0 and state.legal is None
    assert voided.final_stacks == tuple(SeatStack(s.seat, s.starting_stack) for s in state.seats)
    return voided


# -- misdeal ------------------------------------------------------------------------------------


@pytest.mark.rule("MIS-1")
def test_a_misdeal_before_any_action_returns_the_blinds() -> None:
    state, events = play_events(three_handed(), DeclareMisdeal("first card exposed"))
    assert events == [
        HandVoided(
            kind="misdeal",
            reason="first card exposed",
            returned=(SeatAmount(1, 5), SeatAmount(2, 10)),
            final_stacks=(SeatStack(1, 1000), SeatStack(2, 1000), SeatStack(3, 1000)),
        )
    ]
    assert_void(state, "misdeal")
    for command in (TakeAction(3, "call"), DeclareMisdeal("again"), VoidHand("again")):
        refused(state, command, "hand_already_complete")


@pytest.mark.rule("MIS-1")
def test_misdeal_window_counts_every_action_by_default() -> None:
    one = play(three_handed(), TakeAction(3, "raise", 40))
    state = play(one, DeclareMisdeal("button in the wrong place"))
    voided = assert_void(state, "misdeal")
    assert voided.returned == (SeatAmount(1, 5), SeatAmount(2, 10), SeatAmount(3, 40))
    two = play(one, TakeAction(1, "fold"))  # a fold counts (MIS-1)
    violation = refused(two, DeclareMisdeal("late"), "misdeal_too_late")
    assert violation.rule == "MIS-1"
    assert violation.context == {
        "actions_counted": 2,
        "misdeal_action_threshold": 2,
        "misdeal_counts_passive_actions": True,
    }


@pytest.mark.rule("MIS-3")
def test_misdeal_window_with_only_active_actions_counted() -> None:
    state = three_handed(misdeal_counts_passive_actions=False)
    state = play(state, TakeAction(3, "fold"), TakeAction(1, "call"))  # the fold does not count
    assert play(state, DeclareMisdeal("card off the table")).voided is not None
    state = play(state, TakeAction(2, "raise", 30))
    violation = refused(state, DeclareMisdeal("late"), "misdeal_too_late")
    assert violation.rule == "MIS-3"
    assert violation.context["actions_counted"] == 2


@pytest.mark.rule("MIS-2")
def test_misdeal_window_of_three_actions() -> None:
    state = three_handed(misdeal_action_threshold=3)
    state = play(state, TakeAction(3, "call"), TakeAction(1, "call"))
    assert play(state, DeclareMisdeal("wrong seat dealt first")).voided is not None
    state = play(state, TakeAction(2, "check"))
    assert refused(state, DeclareMisdeal("late"), "misdeal_too_late").rule == "MIS-2"


@pytest.mark.rule("MIS-3")
def test_no_misdeal_after_the_flop_unless_configured() -> None:
    for allowed in (False, True):
        state = three_handed(misdeal_action_threshold=10, misdeal_allowed_after_flop=allowed)
        state = play(
            state,
            TakeAction(3, "call"),
            TakeAction(1, "call"),
            TakeAction(2, "check"),
            DealBoard("flop", "Qs9c4s"),
            TakeAction(1, "bet", 20),
        )
        if not allowed:
            violation = refused(state, DeclareMisdeal("late"), "misdeal_too_late")
            assert violation.rule == "MIS-3"
            assert violation.context == {"street": "flop", "misdeal_allowed_after_flop": False}
            continue
        state = play(state, DeclareMisdeal("extra cards dealt"))
        voided = assert_void(state, "misdeal")
        assert voided.returned == (SeatAmount(1, 30), SeatAmount(2, 10), SeatAmount(3, 10))


@pytest.mark.rule("MIS-1")
@pytest.mark.rule("SEAT-18")
def test_a_misdeal_returns_antes_and_straddles_too() -> None:
    state = play(
        None,
        start_hand([1000] * 4, ante=2, ante_type="per_player", straddles=(3,)),
    )
    state = play(state, DeclareMisdeal("joker in the deck"))
    voided = assert_void(state, "misdeal")
    assert voided.returned == (
        SeatAmount(1, 7),
        SeatAmount(2, 12),
        SeatAmount(3, 22),
        SeatAmount(4, 2),
    )


@pytest.mark.rule("MIS-1")
def test_misdeal_refusals() -> None:
    assert refused(three_handed(), DeclareMisdeal("  "), "reason_required").rule == "MIS-1"
    violation = refused(
        None, start_hand([1000, 1000], misdeal_action_threshold=0), "invalid_config"
    )
    assert violation.rule == "MIS-1"
    refused(None, DeclareMisdeal("no hand"), "hand_not_started")


# -- void hand ----------------------------------------------------------------------------------


@pytest.mark.rule("MIS-11")
@pytest.mark.rule("MIS-12")
def test_a_foreign_or_duplicate_card_voids_the_hand_at_any_point() -> None:
    state = play(
        three_handed(),
        TakeAction(3, "raise", 40),
        TakeAction(1, "call"),
        TakeAction(2, "call"),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet", 100),
        TakeAction(2, "raise", 300),
    )
    refused(state, DeclareMisdeal("too late"), "misdeal_too_late")
    refused(state, VoidHand(""), "reason_required")
    state, events = play_events(state, VoidHand("red-backed card in a blue deck"))
    voided = assert_void(state, "void")
    assert voided.reason == "red-backed card in a blue deck"
    assert voided.returned == (SeatAmount(1, 140), SeatAmount(2, 340), SeatAmount(3, 40))
    assert events == [voided]


@pytest.mark.rule("MIS-12")
@pytest.mark.rule("RAKE-10")
def test_void_during_an_all_in_runout_and_not_after_the_settlement() -> None:
    state = play(None, start_hand({1: 1000, 2: 600}, button=2, rake_percent_bp=500, rake_cap=300))
    state = play(state, TakeAction(2, "all_in"), TakeAction(1, "call"), RunItTimes(2))
    state = play(state, DealBoard("flop", "2h7s9c", run=2))
    voided = assert_void(play(state, VoidHand("two Ks in play")), "void")
    assert voided.returned == (SeatAmount(1, 600), SeatAmount(2, 600))
    done = play(
        state,
        DealBoard("flop", "3h8sTc", run=1),
        DealBoard("turn", "4d", run=1),
        DealBoard("river", "5d", run=1),
        DealBoard("turn", "Jd", run=2),
        DealBoard("river", "Qd", run=2),
        ShowCards(1, "AcAd"),
        ShowCards(2, "KcKd"),
    )
    assert done.is_complete and done.result is not None
    refused(done, VoidHand("found later"), "hand_already_complete")


@pytest.mark.rule("MIS-11")
def test_a_void_hand_replays_from_its_events_and_round_trips() -> None:
    state = play(three_handed(misdeal_action_threshold=3), TakeAction(3, "call"))
    state = play(state, VoidHand("marked card"))
    assert EVENT_TYPES["tables.HandVoided"] is HandVoided
    for event in state.history:
        payload = json.loads(json.dumps(dataclasses.asdict(event)))  # type: ignore[call-overload]
        assert dacite.from_dict(type(event), payload, config=DACITE) == event
    replayed = load(state.history)
    assert replayed is not None and replayed.voided == state.voided
    assert replayed.stacks == START and replayed.is_complete


def test_an_old_hand_started_payload_gets_the_catalogue_misdeal_window() -> None:
    started = decide(None, start_hand([1000, 1000]))[0]
    payload = json.loads(json.dumps(dataclasses.asdict(started)))  # type: ignore[call-overload]
    for name in (
        "misdeal_action_threshold",
        "misdeal_counts_passive_actions",
        "misdeal_allowed_after_flop",
    ):
        del payload[name]
    old = dacite.from_dict(HandStarted, payload, config=DACITE)
    assert (
        old.misdeal_action_threshold,
        old.misdeal_counts_passive_actions,
        old.misdeal_allowed_after_flop,
    ) == (2, True, False)
    assert old == started


# -- rabbit hunt --------------------------------------------------------------------------------


def won_on_the_flop(**config: Any) -> HandState:
    """Seat 1 bets the flop and both others fold: the turn and river were never dealt."""
    return play(
        three_handed(**config),
        TakeAction(3, "call"),
        TakeAction(1, "call"),
        TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
        TakeAction(1, "bet", 20),
        TakeAction(2, "fold"),
        TakeAction(3, "fold"),
    )


@pytest.mark.rule("RAKE-8")
def test_a_rabbit_hunt_records_the_cards_and_takes_the_fee_from_the_stack() -> None:
    state = won_on_the_flop(rake_percent_bp=500, rake_cap=300)
    result = state.result
    assert result is not None and result.rake == 1
    assert state.stacks == {1: 1019, 2: 990, 3: 990}
    state, events = play_events(
        state, RecordRabbitHunt(seat=2, cards="kd 5C", fee=20, consenting_seats=(3, 1))
    )
    assert events == [RabbitHuntConsented(2, (1, 3)), RabbitHunted(seat=2, cards="Kd5c", fee=20)]
    assert state.rabbit == events[1]
    assert state.stacks == {1: 1019, 2: 970, 3: 990}
    assert state.result == result  # the cards never change the result
    assert sum(state.stacks.values()) + result.rake + 20 == 3000
    replayed = load(state.history)
    assert replayed is not None and replayed.stacks == state.stacks
    payload = json.loads(json.dumps(dataclasses.asdict(events[1])))
    assert dacite.from_dict(RabbitHunted, payload, config=DACITE) == events[1]
    assert EVENT_TYPES["tables.RabbitHunted"] is RabbitHunted
    refused(state, RecordRabbitHunt(seat=3, cards="Kd", fee=0), "rabbit_hunt_already_recorded")


@pytest.mark.rule("RAKE-8")
def test_a_rabbit_hunt_needs_every_other_players_consent() -> None:
    state = won_on_the_flop()
    violation = refused(state, RecordRabbitHunt(2, "Kd", 20), "consent_missing")
    assert (violation.rule, violation.context["missing"]) == ("RAKE-8", [1, 3])
    violation = refused(state, RecordRabbitHunt(2, "Kd", 20, consenting_seats=(1,)),
                        "consent_missing")  # fmt: skip
    assert violation.context["missing"] == [3]
    # consent recorded before the hunt (the floor's ruling), for the same seat only
    ruling = decide_ruling(
        state, RecordRabbitConsent(2, (1, 3)), datetime(2026, 11, 27, tzinfo=UTC)
    )
    consented = reduce(evolve, ruling, state)
    refused(consented, RecordRabbitHunt(3, "Kd", 20), "consent_missing")
    assert play(consented, RecordRabbitHunt(2, "Kd", 20)).stacks[2] == state.stacks[2] - 20


@pytest.mark.rule("RAKE-8")
def test_the_whole_board_may_be_hunted_after_a_preflop_win() -> None:
    state = play(three_handed(), TakeAction(3, "fold"), TakeAction(1, "fold"))
    assert conserved(state)
    refused(state, RecordRabbitHunt(3, "2c3c4c5c6c7c", 5), "wrong_card_count")
    state = play(state, RecordRabbitHunt(3, "2c3c4c5c6c", 5, consenting_seats=(1, 2)))
    assert state.stacks == {1: 995, 2: 1005, 3: 995}  # 5 to the dealer


@pytest.mark.rule("RAKE-7")
def test_no_rabbit_hunt_in_tournaments() -> None:
    state = won_on_the_flop(mode="tournament")
    violation = refused(state, RecordRabbitHunt(2, "Kd5c", 0), "rabbit_hunt_not_allowed")
    assert violation.rule == "RAKE-7"


@pytest.mark.rule("RAKE-8")
def test_rabbit_hunt_refusals() -> None:
    refused(three_handed(), RecordRabbitHunt(2, "Kd", 10), "hand_not_complete")
    state = won_on_the_flop()
    refused(state, RecordRabbitHunt(7, "Kd", 10), "seat_not_in_hand")
    refused(state, RecordRabbitHunt(2, "Kd", -1), "invalid_fee")
    refused(state, RecordRabbitHunt(2, "Kd", 0), "invalid_fee")  # the requester pays (QA)
    violation = refused(state, RecordRabbitHunt(2, "Kd", 991), "fee_exceeds_stack")
    assert violation.context == {"seat": 2, "fee": 991, "stack": 990}
    assert play(state, RecordRabbitHunt(2, "Kd", 990, consenting_seats=(1, 3))).stacks[2] == 0
    violation = refused(state, RecordRabbitHunt(2, "Kd5c2h", 10), "wrong_card_count")
    assert violation.context == {"card_count": 3, "undealt": 2}
    refused(state, RecordRabbitHunt(2, "Qs", 10), "duplicate_card")  # on the flop
    refused(state, RecordRabbitHunt(2, "Zz", 10), "invalid_cards")
    voided = play(three_handed(), DeclareMisdeal("misdeal"))
    refused(voided, RecordRabbitHunt(2, "Kd", 10), "hand_voided")
    showdown = play(
        three_handed(),
        TakeAction(3, "call"),
        TakeAction(1, "call"),
        TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
        *(TakeAction(s, "check") for s in (1, 2, 3)),
        DealBoard("turn", "8d"),
        *(TakeAction(s, "check") for s in (1, 2, 3)),
        DealBoard("river", "2h"),
        *(TakeAction(s, "check") for s in (1, 2, 3)),
        ShowCards(1, "AcKd"),
        ShowCards(2, "9s9h"),
        ShowCards(3, "2c7d"),
    )
    assert showdown.is_complete
    refused(showdown, RecordRabbitHunt(1, "Ah", 10), "nothing_to_hunt")
