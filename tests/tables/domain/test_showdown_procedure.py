"""Showdown procedure: show order, requests to see hands, show one show all, all-in face
up, and the dispute window."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tables.domain.showdown_procedure import (
    HandClosure,
    all_in_face_up,
    dispute_open,
    face_up_rule,
    first_to_show,
    may_muck_all_in_hand,
    may_request_show,
    show_one_show_all,
)

T0 = datetime(2026, 11, 23, 21, 0, tzinfo=UTC)


@pytest.mark.rule("SD-14")
def test_last_aggressor_on_the_river_shows_first() -> None:
    order = first_to_show(live_seats=[2, 5, 7], button_seat=7, final_street_aggressor=5,
                          hand_last_aggressor=2)  # fmt: skip
    assert order.seats == (5, 7, 2) and order.rule == "SD-14"


@pytest.mark.rule("SD-13")
def test_000_last_aggressor_of_the_hand_even_when_checked_through() -> None:
    order = first_to_show(live_seats=[2, 5, 7], button_seat=7, final_street_aggressor=None,
                          hand_last_aggressor=5, rule="last_aggressor")  # fmt: skip
    assert order.seats[0] == 5 and order.rule == "SD-13"


@pytest.mark.rule("SD-15")
def test_tda_first_left_of_the_button_when_no_river_bet() -> None:
    order = first_to_show(live_seats=[2, 5, 7], button_seat=3, final_street_aggressor=None,
                          hand_last_aggressor=2)  # fmt: skip
    assert order.seats == (5, 7, 2) and order.rule == "SD-15"


@pytest.mark.rule("SD-14")
@pytest.mark.rule("SD-15")
def test_an_all_in_showdown_starts_with_the_last_active_action_not_left_of_the_button() -> None:
    """SD-15 is "in a showdown with no all-in": a shove, then checks to the river, showed
    the first seat left of the button, citing SD-15 (found by QA)."""
    order = first_to_show(live_seats=[2, 3], button_seat=1, final_street_aggressor=None,
                          hand_last_aggressor=3, all_in_showdown=True)  # fmt: skip
    assert (order.seats, order.rule) == ((3, 2), "SD-14")
    nobody_bet = first_to_show(live_seats=[2, 3], button_seat=1, final_street_aggressor=None,
                               hand_last_aggressor=None, all_in_showdown=True)  # fmt: skip
    assert nobody_bet.seats == (2, 3)


@pytest.mark.rule("SD-10")
@pytest.mark.rule("SD-11")
def test_all_in_hands_face_up() -> None:
    assert first_to_show(live_seats=[1, 4], button_seat=4, final_street_aggressor=None,
                         hand_last_aggressor=4, all_in="SD-10").rule == "SD-10"  # fmt: skip
    assert first_to_show(live_seats=[1, 4], button_seat=4, final_street_aggressor=None,
                         hand_last_aggressor=4, all_in="SD-11").rule == "SD-11"  # fmt: skip
    assert face_up_rule(face_up=True, mode="tournament") == "SD-11"
    assert face_up_rule(face_up=False, mode="cash") is None
    assert all_in_face_up(mode="tournament", allin_faceup_in_cash=False) == "SD-11"
    assert all_in_face_up(mode="cash", allin_faceup_in_cash=False) is None
    assert all_in_face_up(mode="cash", allin_faceup_in_cash=True) == "SD-10"


@pytest.mark.rule("SD-12")
def test_all_in_hand_never_mucked_untabled() -> None:
    assert not may_muck_all_in_hand(all_in_hand=True, tabled=False)
    assert may_muck_all_in_hand(all_in_hand=False, tabled=False)


@pytest.mark.rule("SD-17")
def test_mucked_player_has_no_right_to_see_hands() -> None:
    granted, rule = may_request_show(requester_holds_cards=False, requester_tabled=False,
        requester_called_river_bet=True, target_is_last_aggressor=True,
        floor_suspects_collusion=False, caller_may_request_aggressor_show=True)  # fmt: skip
    assert (granted, rule) == (False, "SD-17")
    assert may_request_show(requester_holds_cards=False, requester_tabled=False,
        requester_called_river_bet=False, target_is_last_aggressor=False,
        floor_suspects_collusion=True, caller_may_request_aggressor_show=False)[0]  # fmt: skip


@pytest.mark.rule("SD-18")
def test_river_caller_may_see_the_aggressor_under_003() -> None:
    kwargs = dict(requester_holds_cards=True, requester_tabled=False,
                  requester_called_river_bet=True, target_is_last_aggressor=True,
                  floor_suspects_collusion=False)  # fmt: skip
    assert may_request_show(**kwargs, caller_may_request_aggressor_show=True) == (True, "SD-18")  # type: ignore[arg-type]
    assert not may_request_show(**kwargs, caller_may_request_aggressor_show=False)[0]  # type: ignore[arg-type]


@pytest.mark.rule("SD-19")
def test_show_one_show_all() -> None:
    assert show_one_show_all(
        shown_to=[3], requested_by=5, shower_still_in_hand=True, betting_over=False
    )[0]
    assert not show_one_show_all(
        shown_to=[], requested_by=5, shower_still_in_hand=True, betting_over=True
    )[0]
    # a folded player who showed shows everyone once the betting is over
    assert not show_one_show_all(
        shown_to=[3], requested_by=5, shower_still_in_hand=False, betting_over=False
    )[0]
    assert show_one_show_all(
        shown_to=[3], requested_by=5, shower_still_in_hand=False, betting_over=True
    )[0]


@pytest.mark.rule("SD-24")
def test_dispute_windows_003() -> None:
    closure = HandClosure(settled_at=T0, next_event_at=T0 + timedelta(minutes=2),
                          substantial_action_at=T0 + timedelta(minutes=3))  # fmt: skip
    assert dispute_open(closure, "reading", T0 + timedelta(minutes=1)) == (True, "SD-24")
    assert dispute_open(closure, "reading", T0 + timedelta(minutes=2))[0] is False
    assert dispute_open(closure, "accounting", T0 + timedelta(minutes=2, seconds=30))[0] is True
    assert dispute_open(closure, "accounting", T0 + timedelta(minutes=3))[0] is False
    brk = HandClosure(settled_at=T0, during_break=True)
    assert dispute_open(brk, "accounting", T0 + timedelta(seconds=60))[0]
    assert not dispute_open(brk, "accounting", T0 + timedelta(seconds=61))[0]


@pytest.mark.rule("SD-25")
def test_first_riffle_closes_the_hand() -> None:
    closure = HandClosure(
        settled_at=T0, closed_by="first_riffle", next_event_at=T0 + timedelta(seconds=30)
    )
    assert dispute_open(closure, "reading", T0 + timedelta(seconds=29)) == (True, "SD-25")
    assert dispute_open(closure, "reading", T0 + timedelta(seconds=30)) == (False, "SD-25")


@pytest.mark.rule("SD-26")
def test_cut_closes_mucked_winner_claims() -> None:
    closure = HandClosure(settled_at=T0, closed_by="cut", next_event_at=T0 + timedelta(seconds=45))
    assert dispute_open(closure, "mucked_winner", T0 + timedelta(seconds=44)) == (True, "SD-26")
    assert dispute_open(closure, "mucked_winner", T0 + timedelta(seconds=46)) == (False, "SD-26")


@pytest.mark.rule("SD-4")
def test_untabled_mucked_hand_loses_its_claim_unless_retrievable() -> None:
    from tables.domain.showdown_procedure import mucked_hand_keeps_claim

    assert mucked_hand_keeps_claim(fully_tabled=False, retrievable_and_identifiable=False) == (
        False,
        "SD-4",
    )
    assert mucked_hand_keeps_claim(fully_tabled=False, retrievable_and_identifiable=True)[0]


@pytest.mark.rule("SD-5")
def test_tabled_winner_killed_by_the_dealer_still_wins_if_claimed_in_time() -> None:
    from tables.domain.showdown_procedure import killed_winner_still_wins

    assert killed_winner_still_wins(
        properly_tabled=True, clearly_winning=True, claimed_before_next_hand=True
    )
    assert not killed_winner_still_wins(
        properly_tabled=True, clearly_winning=True, claimed_before_next_hand=False
    )
    assert not killed_winner_still_wins(
        properly_tabled=False, clearly_winning=True, claimed_before_next_hand=True
    )


@pytest.mark.rule("SD-6")
@pytest.mark.rule("SD-7")
def test_face_down_throw_at_showdown() -> None:
    from tables.domain.showdown_procedure import facedown_cards_dead

    assert facedown_cards_dead(facedown_muck_kills_hand=True, in_muck=False, identifiable=True) == (
        True,
        "SD-7",
    )
    assert facedown_cards_dead(
        facedown_muck_kills_hand=False, in_muck=False, identifiable=True
    ) == (False, "SD-6")
    assert facedown_cards_dead(facedown_muck_kills_hand=False, in_muck=True, identifiable=True)[0]
    assert facedown_cards_dead(facedown_muck_kills_hand=False, in_muck=False, identifiable=False)[0]


@pytest.mark.rule("SD-8")
def test_early_muck_returns_only_the_uncalled_part() -> None:
    from tables.domain.showdown_procedure import early_muck_refund

    assert early_muck_refund(called=400, uncalled=600, retrieved=False) == 600
    assert early_muck_refund(called=400, uncalled=600, retrieved=True) == 0
