"""The floor's rulings during a hand: out of turn, the clock, exposed cards, presence and
seat changes (pure functions)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tables.domain.errors import HandRuleViolation
from tables.domain.rulings import (
    call_clock,
    clock_expired,
    clock_expiry,
    exposed_cards,
    presence_at_last_card,
    resolve_out_of_turn,
    seat_change_entry,
)

NOW = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


@pytest.mark.rule("BET-25")
def test_out_of_turn_binding_unless_the_action_changed() -> None:
    unchanged = resolve_out_of_turn("call", None, ["check", "call", "fold"])
    assert unchanged.binding and unchanged.action == "call" and not unchanged.may_bet_or_raise
    changed = resolve_out_of_turn("call", None, ["check", "raise"])
    assert not changed.binding and changed.may_bet_or_raise and changed.may_fold
    bet = resolve_out_of_turn("bet", 400, ["check"])
    assert bet.binding and (bet.action, bet.amount_to) == ("bet", 400)


@pytest.mark.rule("BET-26")
def test_out_of_turn_restrictions() -> None:
    fold = resolve_out_of_turn("fold", None, ["raise"])
    assert fold.binding and fold.action == "fold" and fold.rule == "BET-26"
    check = resolve_out_of_turn("check", None, ["check"])
    assert check.binding and not check.may_bet_or_raise
    call_then_raise = resolve_out_of_turn("call", None, ["bet"])
    assert call_then_raise.may_bet_or_raise  # the action before him changed


@pytest.mark.rule("BET-28")
def test_clock_call_eligibility_and_countdown() -> None:
    clock = call_clock(seat_to_act=3, called_by=5, caller_seated=True, caller_holds_cards=False,
                       mode="tournament", now=NOW, seconds=60)  # fmt: skip
    assert clock.final_countdown_at == NOW + timedelta(seconds=60)
    assert clock.expires_at == NOW + timedelta(seconds=70)  # then a final 10 s
    assert not clock_expired(clock, NOW + timedelta(seconds=69))
    assert clock_expired(clock, NOW + timedelta(seconds=70))
    with pytest.raises(HandRuleViolation) as cash:
        call_clock(seat_to_act=3, called_by=5, caller_seated=True, caller_holds_cards=False,
                   mode="cash", now=NOW)  # fmt: skip
    assert (cash.value.code, cash.value.rule) == ("clock_caller_not_in_hand", "BET-28")
    with pytest.raises(HandRuleViolation) as away:
        call_clock(seat_to_act=3, called_by=5, caller_seated=False, caller_holds_cards=True,
                   mode="tournament", now=NOW)  # fmt: skip
    assert away.value.code == "clock_caller_not_seated"
    assert clock_expiry(to_call=0).action == "fold"  # live: the hand is dead


@pytest.mark.rule("BET-29")
def test_online_timeout_folds_facing_a_bet_and_checks_otherwise() -> None:
    assert clock_expiry(to_call=200, policy="fold_or_check").action == "fold"
    checked = clock_expiry(to_call=0, policy="fold_or_check")
    assert (checked.action, checked.dead_hand, checked.rule) == ("check", False, "BET-29")


@pytest.mark.rule("BET-30")
def test_tournament_exposure_is_passive_not_a_fold() -> None:
    ruling = exposed_cards(policy="tournament_000", cards_shown=2, opponents_in_hand=3)
    assert (ruling.folded, ruling.passive, ruling.rule) == (False, True, "BET-30")


@pytest.mark.rule("BET-31")
def test_cash_exposure_one_card_or_heads_up_allowed() -> None:
    assert not exposed_cards(policy="cash_000", cards_shown=1, opponents_in_hand=4).passive
    assert not exposed_cards(policy="cash_000", cards_shown=2, opponents_in_hand=1).passive
    multi = exposed_cards(policy="cash_000", cards_shown=2, opponents_in_hand=2)
    assert multi.passive and multi.penalty_possible


@pytest.mark.rule("BET-32")
def test_floor_rules_exposure_passive_and_deliberate_is_a_fold() -> None:
    passive = exposed_cards(policy="floor_002", cards_shown=1, opponents_in_hand=1)
    assert passive.passive and not passive.folded
    assert exposed_cards(policy="floor_002", cards_shown=1, opponents_in_hand=1,
                         deliberate_for_reaction=True).folded  # fmt: skip


@pytest.mark.rule("SEAT-12")
@pytest.mark.rule("SEAT-13")
def test_absent_at_the_last_card_has_a_dead_hand() -> None:
    assert not presence_at_last_card(seated=True, mode="cash").dead_hand
    cash = presence_at_last_card(seated=False, mode="cash")
    assert cash.dead_hand and not cash.post_forced_bets and cash.rule == "SEAT-12"
    tournament = presence_at_last_card(seated=False, mode="tournament")
    assert tournament.dead_hand and tournament.post_forced_bets and tournament.rule == "SEAT-13"


@pytest.mark.rule("SEAT-17")
def test_seat_change_further_from_the_blinds_waits() -> None:
    seats = [1, 2, 3, 4, 5, 6]
    # the last big blind on 2: the blinds move clockwise, so seat 3 pays the big blind next
    # hand and seat 1 (the last small blind) in five. From 3 to 1 he would dodge four
    # hands of blinds: he waits. From the button (6, big blind in four) to 3 he pays sooner.
    assert seat_change_entry(old_seat=3, new_seat=1, big_blind_seat=2, seats=seats) == (
        "wait_or_post"
    )
    assert seat_change_entry(old_seat=6, new_seat=3, big_blind_seat=2, seats=seats) == "play_now"
    assert seat_change_entry(old_seat=3, new_seat=6, big_blind_seat=2, seats=seats) == (
        "wait_or_post"
    )
