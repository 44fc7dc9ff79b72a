"""The floor's rulings recorded in a hand's stream: the clock, exposed cards, burns, out of
turn, irregularities, disputes, rabbit-hunt consent and chop exceptions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import reduce

import pytest

from tables.domain import (
    DealBoard,
    DeclareMisdeal,
    HandState,
    MuckCards,
    ShowCards,
    TakeAction,
    evolve,
)
from tables.domain.errors import HandRuleViolation
from tables.domain.hand_rulings import (
    CallClock,
    CorrectResult,
    ExpireClock,
    RecordBurn,
    RecordChopException,
    RecordExposure,
    RecordOutOfTurn,
    RecordRabbitConsent,
    RuleIrregularity,
    RulingCommand,
    check_may_raise,
    decide_ruling,
    floor_log,
    floor_view,
    jackpot_cards,
    legal_actions,
    out_of_turn_ruling,
    rule_out_of_turn,
)
from tables.domain.showdown_procedure import HandClosure
from tables.events import ActionTaken, HandVoided
from tables.ruling_events import ChipsRead, ClockExpired, ResultCorrected
from tests.tables.domain.support import play, start_hand

T0 = datetime(2026, 11, 23, 21, 0, tzinfo=UTC)


def rule(state: HandState, command: RulingCommand, now: datetime = T0) -> tuple[HandState, list]:  # type: ignore[type-arg]
    events = decide_ruling(state, command, now)
    return reduce(evolve, events, state), events


def fresh(**config: object) -> HandState:
    return play(None, start_hand((1000, 1000, 1000), **config))


@pytest.mark.rule("BET-28")
def test_clock_expiry_kills_the_hand_and_a_stale_timer_does_nothing() -> None:
    state, (called,) = rule(fresh(), CallClock(called_by=1))
    assert called.seat == 3 and called.expires_at == (T0 + timedelta(seconds=70)).isoformat()
    assert decide_ruling(state, ExpireClock(clock=1), T0 + timedelta(seconds=69)) == []
    with pytest.raises(HandRuleViolation) as running:
        decide_ruling(state, CallClock(called_by=2), T0)
    assert getattr(running.value, "code", "") == "clock_running"
    expired, events = rule(state, ExpireClock(clock=1), T0 + timedelta(seconds=70))
    assert isinstance(events[0], ClockExpired) and events[0].rule == "BET-28"
    assert isinstance(events[1], ActionTaken) and events[1].action == "fold" and events[1].seat == 3
    assert expired.seat_state(3).folded  # type: ignore[union-attr]
    assert decide_ruling(expired, ExpireClock(clock=1), T0 + timedelta(seconds=99)) == []
    # a hand that ended (a misdeal, everyone else folded) before the clock ran out: the
    # timer finds nothing to do, it does not fail (found by fuzzing: the task raised)
    voided = play(state, DeclareMisdeal("cards exposed"))
    assert voided.is_complete
    assert decide_ruling(voided, ExpireClock(clock=1), T0 + timedelta(seconds=70)) == []


@pytest.mark.rule("BET-28")
def test_clock_ends_quietly_when_the_player_acts_in_time() -> None:
    state, _ = rule(fresh(), CallClock(called_by=1))
    acted = play(state, TakeAction(3, "call"))
    after, events = rule(acted, ExpireClock(clock=1), T0 + timedelta(seconds=80))
    assert [type(e).__name__ for e in events] == ["ClockExpired"] and events[0].outcome == "acted"
    assert not after.seat_state(1).folded  # type: ignore[union-attr]


@pytest.mark.rule("BET-29")
def test_timeout_policy_checks_when_nothing_to_call() -> None:
    state = play(fresh(), TakeAction(3, "call"), TakeAction(1, "call"))
    state, _ = rule(state, CallClock(called_by=1))  # on the big blind, nothing to call
    _, events = rule(
        state, ExpireClock(clock=1, policy="fold_or_check"), T0 + timedelta(seconds=70)
    )
    assert events[1].action == "check"


@pytest.mark.rule("BET-30")
def test_exposed_cards_make_the_hand_passive() -> None:
    state, (exposed,) = rule(fresh(mode="tournament"), RecordExposure(3, "AsKd", "tournament_000"))
    assert exposed.passive and not exposed.folded
    with pytest.raises(HandRuleViolation) as caught:
        check_may_raise(state, 3, "raise")
    assert getattr(caught.value, "code", "") == "passive_hand"
    check_may_raise(state, 3, "call")
    check_may_raise(state, 1, "raise")
    # the tablet is offered no bet or raise for him (it showed "Raise to" and "All-in")
    assert state.to_act == 3
    assert state.legal is not None and state.legal.can_raise
    legal = legal_actions(state)
    assert legal is not None and not (legal.can_bet or legal.can_raise)
    assert (legal.min_raise_to, legal.max_raise_to) == (None, None)
    assert legal.to_call == state.legal.to_call and legal.can_fold


@pytest.mark.rule("MIS-12")
def test_a_show_must_hold_the_cards_the_seat_exposed() -> None:
    """Seat 1 exposed AhKd, then showed 2s3s at showdown and was ranked with them: the
    record said two things and the wrong hand could win (found by QA)."""
    state, _ = rule(fresh(), RecordExposure(1, "Ah", "cash_000"))
    state = play(state, TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check"))
    for street, cards in (("flop", "Qs9c4s"), ("turn", "7d"), ("river", "2h")):
        state = play(state, DealBoard(street, cards))
        while state.to_act is not None:
            state = play(state, TakeAction(state.to_act, "check"))
    with pytest.raises(HandRuleViolation) as refused:
        play(state, ShowCards(1, "2s3s"))
    assert (refused.value.code, refused.value.rule) == ("exposed_cards_not_shown", "MIS-12")
    shown = play(state, ShowCards(1, "KdAh"))  # his exposed ace, in any order
    assert shown.seat_state(1).shown == "KdAh"  # type: ignore[union-attr]


@pytest.mark.rule("BET-32")
def test_deliberate_exposure_folds_the_hand() -> None:
    state, events = rule(
        fresh(), RecordExposure(1, "As", "floor_002", deliberate_for_reaction=True)
    )
    assert events[0].folded and isinstance(events[1], ActionTaken)
    assert state.seat_state(1).folded  # type: ignore[union-attr]


@pytest.mark.rule("BET-2")
def test_burn_cards_are_recorded() -> None:
    state = play(fresh(), TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check"))
    state, _ = rule(state, RecordBurn("flop", "2c"))
    state = play(state, DealBoard("flop", "Qs9c4s"))
    assert [(b.street, b.card) for b in floor_log(state.history).burns] == [("flop", "2c")]
    assert state._pk().burn_cards.__len__() == 1  # pokerkit burned one card for the flop


def _refused(state: HandState, command: RulingCommand) -> str:
    with pytest.raises(HandRuleViolation) as refused:
        decide_ruling(state, command, T0)
    return str(getattr(refused.value, "code", ""))


@pytest.mark.rule("BET-2")
@pytest.mark.rule("MIS-12")
def test_a_burn_is_for_the_street_being_dealt_once_and_a_card_is_in_one_place() -> None:
    preflop = fresh()
    assert _refused(preflop, RecordBurn("flop", "2c")) == "burn_out_of_order"  # betting on
    ready = play(preflop, TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check"))
    assert _refused(ready, RecordBurn("river", "2c")) == "burn_out_of_order"
    burned, _ = rule(ready, RecordBurn("flop", "2c"))
    assert _refused(burned, RecordBurn("flop", "3c")) == "burn_already_recorded"
    flop = play(burned, DealBoard("flop", "Qs9c4s"))
    with pytest.raises(HandRuleViolation):  # the burn is not a board card
        play(burned, DealBoard("flop", "2c9c4s"))
    assert _refused(flop, RecordBurn("turn", "5d")) == "burn_out_of_order"  # flop betting
    checked = play(flop, *(TakeAction(s, "check") for s in (1, 2, 3)))
    assert _refused(checked, RecordBurn("turn", "Qs")) == "duplicate_card"
    turn_burn, _ = rule(checked, RecordBurn("turn", "5d"))  # before the turn is dealt
    assert [b.card for b in floor_log(turn_burn.history).burns] == ["2c", "5d"]


@pytest.mark.rule("BET-30")
@pytest.mark.rule("MIS-12")
def test_an_exposure_names_a_live_players_own_cards() -> None:
    state = play(fresh(mode="tournament"), TakeAction(3, "fold"))
    assert _refused(state, RecordExposure(3, "As", "tournament_000")) == "seat_folded"
    assert _refused(state, RecordExposure(1, "AsAsAs", "tournament_000")) == "wrong_card_count"
    exposed, _ = rule(state, RecordExposure(1, "Ah", "tournament_000"))
    assert _refused(exposed, RecordExposure(2, "AhKd", "tournament_000")) == "duplicate_card"
    with pytest.raises(HandRuleViolation):  # his exposed card cannot come on the board
        play(exposed, TakeAction(1, "call"), TakeAction(2, "check"), DealBoard("flop", "Ah3s9h"))


@pytest.mark.rule("BET-25")
def test_out_of_turn_recorded_then_ruled_when_the_action_reaches_him() -> None:
    # seat 3 is to act; 2 (the big blind) acts early: his "call" of nothing is his check
    state, _ = rule(fresh(), RecordOutOfTurn(2, "call"))
    with pytest.raises(HandRuleViolation) as in_turn:  # the seat to act is not out of turn
        decide_ruling(state, RecordOutOfTurn(3, "call"), T0)
    assert getattr(in_turn.value, "code", "") == "not_out_of_turn"
    unchanged = play(state, TakeAction(3, "call"), TakeAction(1, "call"))
    ruling = out_of_turn_ruling(unchanged)
    assert ruling is not None and ruling.binding and ruling.action == "check"
    changed = play(state, TakeAction(3, "raise", amount_to=40), TakeAction(1, "call"))
    ruling = out_of_turn_ruling(changed)
    assert ruling is not None and not ruling.binding and ruling.may_bet_or_raise
    # one out-of-turn action per turn: a second would override a binding one
    with pytest.raises(HandRuleViolation) as twice:
        decide_ruling(state, RecordOutOfTurn(2, "check"), T0)
    assert getattr(twice.value, "code", "") == "out_of_turn_pending"
    # a bet or raise out of turn names its amount, or it could never bind
    with pytest.raises(HandRuleViolation) as no_amount:
        decide_ruling(fresh(), RecordOutOfTurn(2, "raise"), T0)
    assert getattr(no_amount.value, "code", "") == "amount_required"
    folded = play(fresh(), TakeAction(3, "fold"))  # seat 1 to act; 3 has folded
    with pytest.raises(HandRuleViolation) as gone:
        decide_ruling(folded, RecordOutOfTurn(3, "raise", 40), T0)
    assert getattr(gone.value, "code", "") == "seat_cannot_act"


@pytest.mark.rule("MIS-4")
def test_misdeal_cause_voids_the_hand_within_the_window() -> None:
    _, events = rule(fresh(), RuleIrregularity("first_or_second_card_exposed"))
    assert events[0].rule == "MIS-4" and isinstance(events[1], HandVoided)
    late = play(fresh(), TakeAction(3, "call"), TakeAction(1, "call"))
    _, played_on = rule(late, RuleIrregularity("first_card_wrong_seat"))
    assert [e.consequence for e in played_on] == ["play_on"]  # past the window (MIS-1)
    _, killed = rule(late, RuleIrregularity("cards_to_empty_or_ineligible_seat", seat=1,
                     post_threshold_deal_error_action="kill_affected_hand"))  # fmt: skip
    assert killed[0].consequence == "dead_hand" and killed[1].action == "fold"


@pytest.mark.rule("MIS-7")
def test_wrong_card_count_found_later_folds_the_player() -> None:
    state, events = rule(fresh(), RuleIrregularity("wrong_card_count_found_later", seat=2))
    assert state.seat_state(2).folded and events[0].rule == "MIS-7"  # type: ignore[union-attr]


def settled() -> HandState:
    return play(
        fresh(), TakeAction(3, "raise", amount_to=40), TakeAction(1, "fold"), TakeAction(2, "fold")
    )


def shown_down() -> HandState:
    """Checked down to the river: seat 3 shows and wins, seats 1 and 2 muck at the showdown
    (so a mucked winner may be either of them)."""
    checks = [TakeAction(seat, "check") for seat in (1, 2, 3)]
    return play(
        fresh(),
        TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"), *checks, DealBoard("turn", "2d"), *checks,
        DealBoard("river", "7h"), *checks,
        ShowCards(3, "AsAh"), MuckCards(1), MuckCards(2),
    )  # fmt: skip


@pytest.mark.rule("SD-24")
def test_correction_is_appended_inside_the_window_and_refused_after() -> None:
    hand = shown_down()
    closure = HandClosure(settled_at=T0, next_event_at=T0 + timedelta(minutes=2))
    fix = CorrectResult("mucked_winner", "winner's cards mucked", ((3, -10), (2, 10)), closure)
    corrected, events = rule(hand, fix, T0 + timedelta(minutes=1))
    assert isinstance(events[0], ResultCorrected)
    assert corrected.result == hand.result  # the settlement is never rewritten
    assert floor_log(corrected.history).corrections == (events[0],)
    with pytest.raises(HandRuleViolation) as closed:
        decide_ruling(hand, fix, T0 + timedelta(minutes=3))
    assert getattr(closed.value, "code", "") == "dispute_window_closed"
    with pytest.raises(HandRuleViolation) as unbalanced:
        decide_ruling(hand, CorrectResult("accounting", "x", ((3, -10),), closure), T0)
    assert getattr(unbalanced.value, "code", "") == "adjustments_not_balanced"
    # found by fuzzing: corrections that move nothing were logged as corrections
    for moves, code in (
        ((), "nothing_to_correct"),
        (((2, 0), (3, 0)), "nothing_to_correct"),
        (((2, 100), (2, -100)), "seat_listed_twice"),
    ):
        with pytest.raises(HandRuleViolation) as empty:
            decide_ruling(hand, CorrectResult("reading", "x", moves, closure), T0)
        assert empty.value.code == code


@pytest.mark.rule("SD-24")
def test_a_correction_of_the_reading_stays_within_what_the_pots_paid() -> None:
    """QA moved 100 between two seats that had folded in a hand won without a showdown: a
    wrong reading or a mucked winner gives back at most what a seat won, and a new reading
    pays only a seat that contested the pot; an accounting error is not bound to the
    awards (a call short-collected comes from a loser's stack)."""
    hand = settled()  # seats 1 and 2 fold to seat 3's raise: no showdown
    assert hand.result is not None
    won = sum(a.amount for pot in hand.result.pots for a in pot.winners if a.seat == 3)
    closure = HandClosure(settled_at=T0, next_event_at=T0 + timedelta(minutes=2))
    for kind, moves, code in (
        ("reading", ((1, -100), (2, 100)), "correction_exceeds_winnings"),
        ("mucked_winner", ((3, -(won + 1)), (2, won + 1)), "correction_exceeds_winnings"),
        ("reading", ((3, -10), (2, 10)), "seat_not_in_contest"),
        # QA gave this pot, won uncontested, to seat 2, who folded preflop
        ("mucked_winner", ((3, -10), (2, 10)), "seat_not_in_contest"),
        ("accounting", ((3, -10), (7, 10)), "seat_not_in_hand"),  # the correction's rule
    ):
        with pytest.raises(HandRuleViolation) as refused:
            decide_ruling(hand, CorrectResult(kind, "x", moves, closure), T0)
        assert (refused.value.code, refused.value.rule) == (code, "SD-24")
    down = shown_down()  # seat 2 mucked at the showdown: he may be its mucked winner
    assert down.result is not None
    pot = sum(a.amount for p in down.result.pots for a in p.winners if a.seat == 3)
    assert decide_ruling(
        down, CorrectResult("mucked_winner", "x", ((3, -pot), (2, pot)), closure), T0
    )
    assert decide_ruling(hand, CorrectResult("accounting", "x", ((1, -10), (2, 10)), closure), T0)


@pytest.mark.rule("SD-24")
def test_corrections_are_bound_across_every_correction_of_the_hand() -> None:
    """QA recorded the same give-back twice, and an accounting correction of 1,000,000 in a
    hand whose pots held a few hundred: every earlier correction of the hand counts."""
    hand = shown_down()
    assert hand.result is not None
    won = sum(a.amount for pot in hand.result.pots for a in pot.winners if a.seat == 3)
    total = sum(pot.amount for pot in hand.result.pots)
    closure = HandClosure(settled_at=T0, next_event_at=T0 + timedelta(minutes=2))

    def fix(kind: str, *moves: tuple[int, int]) -> CorrectResult:
        return CorrectResult(kind, "x", moves, closure)

    def refused(state: HandState, command: CorrectResult) -> str:
        with pytest.raises(HandRuleViolation) as no:
            decide_ruling(state, command, T0)
        assert no.value.rule == "SD-24"
        return no.value.code

    half = won // 2
    once, _ = rule(hand, fix("mucked_winner", (3, -half), (2, half)), T0)
    # the rest of seat 3's winnings may go, not a chip more
    assert refused(once, fix("mucked_winner", (3, -(won - half + 1)), (1, won - half + 1))) == (
        "correction_exceeds_winnings"
    )
    twice, _ = rule(once, fix("mucked_winner", (3, -(won - half)), (1, won - half)), T0)
    assert refused(twice, fix("mucked_winner", (3, -1), (2, 1))) == "correction_exceeds_winnings"
    # a seat is paid at most the pots: seat 2 holds half of them, seat 1 the rest
    assert refused(twice, fix("mucked_winner", (2, won - half + 1), (1, -(won - half + 1)))) == (
        "correction_exceeds_pots"
    )
    # seat 2 gives back what it was given, then no more
    back, _ = rule(twice, fix("mucked_winner", (2, -half), (3, half)), T0)
    assert refused(back, fix("mucked_winner", (2, -1), (3, 1))) == "correction_exceeds_winnings"

    # accounting: any dealt-in seat, up to the pots' total per seat over the hand
    assert refused(hand, fix("accounting", (1, -(total + 1)), (2, total + 1))) == (
        "correction_exceeds_pots"
    )
    first, _ = rule(hand, fix("accounting", (1, -total), (2, total)), T0)
    assert refused(first, fix("accounting", (1, -1), (2, 1))) == "correction_exceeds_pots"
    # moving chips back the other way is inside the bound again
    assert decide_ruling(first, fix("accounting", (2, -total), (1, total)), T0)


@pytest.mark.rule("RAKE-8")
def test_rabbit_hunt_consent_recorded_and_never_jackpot_cards() -> None:
    hand = settled()
    with pytest.raises(HandRuleViolation) as missing:
        decide_ruling(hand, RecordRabbitConsent(3, ()), T0)
    assert getattr(missing.value, "code", "") == "consent_missing"
    with pytest.raises(HandRuleViolation):
        decide_ruling(hand, RecordRabbitConsent(3, (1,)), T0)
    state, (consent,) = rule(hand, RecordRabbitConsent(3, (1, 2)))
    assert consent.consenting_seats == (1, 2)
    assert jackpot_cards(state) == ()


@pytest.mark.rule("RAKE-9")
def test_floor_exception_to_no_chop_is_recorded_with_a_reason() -> None:
    with pytest.raises(HandRuleViolation):
        decide_ruling(settled(), RecordChopException("floor-1", " ", (1, 2)), T0)
    state, (chop,) = rule(settled(), RecordChopException("floor-1", "both asked, regulars", (1, 2)))
    assert floor_log(state.history).chop_exceptions == (chop,)
    # found by QA: any seats were taken, none or one included, and at tournament hands too
    for seats, code in (((), "chop_seats_invalid"), ((1,), "chop_seats_invalid"),
                        ((1, 1), "chop_seats_invalid"), ((1, 9), "seat_not_in_hand")):  # fmt: skip
        with pytest.raises(HandRuleViolation) as refused:
            decide_ruling(settled(), RecordChopException("floor-1", "asked", seats), T0)
        assert refused.value.code == code
    tournament = play(None, start_hand((1000, 1000, 1000), mode="tournament"))
    with pytest.raises(HandRuleViolation) as not_cash:
        decide_ruling(tournament, RecordChopException("floor-1", "asked", (1, 2)), T0)
    assert (not_cash.value.code, not_cash.value.rule) == ("not_a_cash_hand", "RAKE-9")


@pytest.mark.rule("BET-25")
@pytest.mark.rule("BET-26")
def test_an_out_of_turn_action_is_carried_out_when_the_action_reaches_him() -> None:
    from tables.domain.hand_rulings import rule_out_of_turn
    from tables.ruling_events import OutOfTurnRuled

    def after(state: HandState, *commands: TakeAction) -> tuple[HandState, list]:  # type: ignore[type-arg]
        state = play(state, *commands)
        events = rule_out_of_turn(state)
        return reduce(evolve, events, state), events

    assert rule_out_of_turn(fresh()) == []  # nobody acted out of turn: nothing to rule
    early_call, _ = rule(fresh(), RecordOutOfTurn(1, "call"))  # seat 3 is to act
    # BET-25: only a call came in between: binding, and the engine records his call
    state, (ruled, call) = after(early_call, TakeAction(3, "call"))
    assert isinstance(ruled, OutOfTurnRuled) and ruled.binding and ruled.applied
    assert isinstance(call, ActionTaken) and (call.seat, call.action) == (1, "call")
    assert state.to_act == 2
    # a raise in between: not binding, he acts afresh (and may raise); ruled once only
    state, (ruled,) = after(early_call, TakeAction(3, "raise", amount_to=60))
    assert not ruled.binding and state.to_act == 1 and rule_out_of_turn(state) == []
    raised = play(state, TakeAction(1, "raise", amount_to=200))  # his own choice stands
    assert raised.to_act == 2
    # BET-26: an out-of-turn fold is never taken back, even after a raise
    early_fold, _ = rule(fresh(), RecordOutOfTurn(1, "fold"))
    state, (ruled, fold) = after(early_fold, TakeAction(3, "raise", amount_to=60))
    assert ruled.binding and (fold.seat, fold.action) == (1, "fold")
    assert state.seat_state(1).folded  # type: ignore[union-attr]
    # an action he could not take is refused when recorded, not bound and then left to the
    # dealer to replace with anything (found by QA): a raise below the minimum, a check
    # facing the big blind, a bet where there is a bet, more than his stack
    for action, amount, code in (("raise", 15, "raise_below_minimum"),  # min raise: to 20
                                 ("check", None, "check_not_allowed"),
                                 ("bet", 40, "bet_not_allowed"),
                                 ("raise", 5000, "amount_exceeds_stack")):  # fmt: skip
        with pytest.raises(HandRuleViolation) as refused:
            decide_ruling(fresh(), RecordOutOfTurn(1, action, amount_to=amount), T0)
        assert (refused.value.code, refused.value.rule) == (code, "BET-25")
    allin, _ = rule(fresh(), RecordOutOfTurn(1, "raise", amount_to=1000))  # all in: any size
    state, (ruled, shove) = after(allin, TakeAction(3, "call"))
    assert ruled.applied and (shove.seat, shove.amount_to, shove.all_in) == (1, 1000, True)


@pytest.mark.rule("MIS-7")
def test_a_dead_hand_out_of_turn_leaves_the_player_to_act_unchanged() -> None:
    state = play(None, start_hand((1000, 1000, 1000, 1000)))
    assert state.to_act == 3
    killed, events = rule(state, RuleIrregularity("wrong_card_count_found_later", seat=2))
    assert isinstance(events[-1], ActionTaken) and events[-1].seat == 2
    assert killed.seat_state(2).folded and killed.to_act == 3  # type: ignore[union-attr]
    assert killed._pk().actor_index is not None
    assert killed.order[killed._pk().actor_index] == 3  # pokerkit agrees: seat 3 acts
    after = play(killed, TakeAction(3, "call"), TakeAction(4, "call"), TakeAction(1, "call"))
    assert after.phase == "awaiting_board"  # seat 2's big blind is dead money, no option


@pytest.mark.rule("SEAT-13")
def test_an_absent_tournament_player_posts_his_blind_and_his_hand_dies() -> None:
    from tables.domain.hand_rulings import RecordAbsence

    state = play(None, start_hand((1000, 1000, 1000, 1000), mode="tournament"))
    assert state.seat_state(2).bet == 10  # type: ignore[union-attr]  # his big blind, posted
    killed, (ruled, fold) = rule(state, RecordAbsence(2))
    assert ruled.rule == "SEAT-13" and (fold.seat, fold.action) == (2, "fold")
    assert killed.seat_state(2).folded and killed.pot == state.pot  # type: ignore[union-attr]
    # ruled twice: the second says so (QA read "he has acted: he was there")
    assert _refused(killed, RecordAbsence(2)) == "absence_already_ruled"
    _, (ruled_cash, _) = rule(play(None, start_hand((1000, 1000, 1000, 1000))), RecordAbsence(4))
    assert ruled_cash.rule == "SEAT-12"


@pytest.mark.rule("MIS-16")
def test_a_burn_error_is_corrected_only_until_the_betting_on_that_board_starts() -> None:
    flop = play(
        fresh(),
        TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check"),
        DealBoard("flop", "Qs9c4s"),
    )  # fmt: skip
    _, (before,) = rule(flop, RuleIrregularity("missed_or_double_burn"))
    assert (before.consequence, before.rule) == ("correct_board", "MIS-16")
    _, (after,) = rule(
        play(flop, TakeAction(1, "check")), RuleIrregularity("missed_or_double_burn")
    )
    assert (after.consequence, after.rule) == ("board_stands", "MIS-16")


@pytest.mark.rule("MIS-5")
def test_killing_the_hand_of_a_seat_that_already_folded_folds_it_once() -> None:
    state = play(fresh(), TakeAction(3, "fold"), TakeAction(1, "call"), TakeAction(2, "check"))
    ruling = RuleIrregularity(
        "extra_cards_dealt", seat=3, post_threshold_deal_error_action="kill_affected_hand"
    )
    _, events = rule(state, ruling)
    assert [type(e).__name__ for e in events] == ["IrregularityRuled"]
    assert events[0].consequence == "dead_hand"


@pytest.mark.rule("BET-31")
def test_two_cards_shown_one_at_a_time_multi_way_make_the_cash_hand_passive() -> None:
    state = fresh()  # three-handed, cash
    one, (first,) = rule(state, RecordExposure(1, "As", "cash_000"))
    assert not first.passive  # one card may be shown any time
    _, (second,) = rule(one, RecordExposure(1, "Ks", "cash_000"))
    assert second.passive and second.rule == "BET-31"  # now both are shown


@pytest.mark.rule("BET-28")
@pytest.mark.rule("BET-30")
@pytest.mark.rule("BET-25")
def test_the_floor_view_shows_what_the_tablet_must_show() -> None:
    """The clock counts only until the player acts; an exposure's seat stays passive; an
    out-of-turn action waits to be ruled until the action reaches its seat."""
    assert floor_view(fresh()) is None  # no ruling: nothing to show
    state, _ = rule(fresh(mode="tournament"), CallClock(called_by=1))
    view = floor_view(state)
    assert view is not None and view.clock is not None
    assert (view.clock.seat, view.clock.called_by) == (3, 1)
    assert view.passive_seats == () and view.out_of_turn == ()
    state, _ = rule(state, RecordOutOfTurn(2, "call"))
    state, _ = rule(state, RecordExposure(1, "As", "tournament_000"))
    view = floor_view(state)
    assert view is not None and view.clock is not None  # seat 3 has not acted yet
    assert view.passive_seats == (1,) and [e.cards for e in view.exposures] == ["As"]
    assert [(o.seat, o.action) for o in view.out_of_turn] == [(2, "check")]  # nothing to call
    acted = play(state, TakeAction(3, "call"))  # his clock stops; seat 1 is to act
    view = floor_view(acted)
    assert view is not None and view.clock is None
    assert [(o.seat, o.action) for o in view.out_of_turn] == [(2, "check")]
    reached = play(acted, TakeAction(1, "call"))  # the action reaches seat 2: ruled
    reached = reduce(evolve, rule_out_of_turn(reached), reached)
    view = floor_view(reached)
    assert view is not None and view.out_of_turn == () and view.passive_seats == (1,)


@pytest.mark.rule("MIS-16")
@pytest.mark.rule("MIS-17")
@pytest.mark.rule("MIS-18")
@pytest.mark.rule("MIS-19")
@pytest.mark.rule("MIS-20")
def test_a_board_irregularity_is_ruled_only_where_the_board_is_at() -> None:
    preflop = fresh()
    flop_due = play(preflop, TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check"))
    flop = play(flop_due, DealBoard("flop", "Qs9c4s"))
    turn = play(
        flop, TakeAction(1, "check"), TakeAction(2, "check"), TakeAction(3, "check"),
        DealBoard("turn", "2d"),
    )  # fmt: skip
    stages = {"preflop": preflop, "flop_due": flop_due, "flop": flop, "turn": turn}
    allowed = {
        "four_card_flop": {"flop_due"},
        "flop_dealt_early": {"preflop"},
        "turn_dealt_early": {"flop"},
        "river_dealt_early": {"turn"},
        "missed_or_double_burn": {"flop_due", "flop", "turn"},
    }
    for cause, where in allowed.items():
        for name, state in stages.items():
            if name in where:
                _, (ruled, *_) = rule(state, RuleIrregularity(cause))  # type: ignore[arg-type]
                assert ruled.cause == cause
                continue
            with pytest.raises(HandRuleViolation) as refused:
                rule(state, RuleIrregularity(cause))  # type: ignore[arg-type]
            assert refused.value.code == "irregularity_not_now", (cause, name)
            assert refused.value.context["cause"] == cause
    # nothing to rule on the board: the hand's other irregularities are not street-bound
    _, (stub, *_) = rule(preflop, RuleIrregularity("stub_damaged"))
    assert stub.rule == "MIS-21"


@pytest.mark.rule("BET-27")
def test_an_insufficient_call_bars_a_raise_until_he_completes_it() -> None:
    state = fresh()
    assert state.to_act == 3 and legal_actions(state).can_raise  # type: ignore[union-attr]
    short = evolve(state, ChipsRead(3, ((5,),), "none", "insufficient_call", 5, "BET-27", 0, False))
    legal = legal_actions(short)
    assert legal is not None and not legal.can_raise and legal.min_raise_to is None
    assert legal.to_call == state.to_call  # he completes the call ...
    with pytest.raises(HandRuleViolation) as barred:
        check_may_raise(short, 3, "raise")
    assert (barred.value.code, barred.value.rule) == ("insufficient_call_pending", "BET-27")
    check_may_raise(short, 3, "call")  # ... or folds
    check_may_raise(short, 1, "raise")  # nobody else is barred
    # once he has acted, the bar is lifted: facing a raise later he may re-raise
    later = play(short, TakeAction(3, "call"), TakeAction(1, "raise", 100))
    assert later.to_act == 2
    later = play(later, TakeAction(2, "call"))
    assert later.to_act == 3 and legal_actions(later).can_raise  # type: ignore[union-attr]
    check_may_raise(later, 3, "raise")
