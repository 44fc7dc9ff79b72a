"""Misdeal causes and irregularity procedures: each cause a named ruling (section 7)."""

from __future__ import annotations

import random

import pytest

from tables.domain.errors import HandRuleViolation
from tables.domain.irregularities import deck_change_allowed, rule_irregularity


@pytest.mark.rule("MIS-4")
def test_exposure_causes_are_misdeals() -> None:
    for cause in ("first_or_second_card_exposed", "several_cards_exposed_by_dealer",
                  "several_cards_face_up_in_deck"):  # fmt: skip
        ruling = rule_irregularity(cause)  # type: ignore[arg-type]
        assert (ruling.consequence, ruling.rule) == ("misdeal", "MIS-4")


@pytest.mark.rule("MIS-5")
def test_dealing_causes_are_misdeals() -> None:
    for cause in ("several_cards_off_table", "extra_cards_dealt", "card_out_of_order",
                  "first_card_wrong_seat"):  # fmt: skip
        assert rule_irregularity(cause).rule == "MIS-5"  # type: ignore[arg-type]
    assert rule_irregularity("extra_cards_dealt").consequence == "misdeal"


@pytest.mark.rule("MIS-6")
def test_seat_causes_are_misdeals() -> None:
    for cause in (
        "button_misplaced",
        "cards_to_empty_or_ineligible_seat",
        "eligible_player_skipped",
    ):
        ruling = rule_irregularity(cause, post_threshold_deal_error_action="kill_affected_hand")  # type: ignore[arg-type]
        assert (ruling.consequence, ruling.rule, ruling.post_threshold) == (
            "misdeal", "MIS-6", "kill_affected_hand")  # fmt: skip


@pytest.mark.rule("MIS-7")
def test_wrong_card_count_later_is_a_dead_hand() -> None:
    ruling = rule_irregularity("wrong_card_count_found_later", seat=4)
    assert (ruling.consequence, ruling.seat, ruling.rule) == ("dead_hand", 4, "MIS-7")
    with pytest.raises(HandRuleViolation) as caught:
        rule_irregularity("wrong_card_count_found_later")
    assert caught.value.code == "seat_required"


@pytest.mark.rule("MIS-8")
def test_deal_procedure_two_hole_cards_from_a_52_card_deck() -> None:
    from tables.domain.engine import HOLE_CARD_COUNT

    assert HOLE_CARD_COUNT["NLH"] == HOLE_CARD_COUNT["FLH"] == 2


@pytest.mark.rule("MIS-9")
def test_single_exposed_hole_card_is_replaced_and_burned() -> None:
    ruling = rule_irregularity("single_hole_card_exposed", seat=2)
    assert (ruling.consequence, ruling.rule) == ("replace_card", "MIS-9")
    assert "burn" in ruling.detail


@pytest.mark.rule("MIS-10")
def test_card_face_up_in_deck_is_replaced() -> None:
    assert rule_irregularity("card_face_up_in_deck").consequence == "replace_card"


@pytest.mark.rule("MIS-14")
def test_folding_by_contact_is_a_dead_hand_logged() -> None:
    ruling = rule_irregularity("folded_by_contact", seat=6)
    assert (ruling.consequence, ruling.needs_log, ruling.rule) == ("dead_hand", True, "MIS-14")


@pytest.mark.rule("MIS-15")
def test_unprotected_hand_has_no_claim() -> None:
    assert rule_irregularity("unprotected_hand_collected", seat=1).consequence == "no_claim"


@pytest.mark.rule("MIS-16")
def test_burn_error_corrected_only_before_the_betting() -> None:
    assert rule_irregularity("missed_or_double_burn").consequence == "correct_board"
    assert (
        rule_irregularity("missed_or_double_burn", betting_started=True).consequence
        == "board_stands"
    )


@pytest.mark.rule("MIS-17")
def test_four_card_flop_picks_a_random_burn_once() -> None:
    picks = {
        rule_irregularity("four_card_flop", rng=random.Random(i)).burn_index for i in range(40)
    }
    assert picks == {0, 1, 2, 3}


@pytest.mark.rule("MIS-18")
@pytest.mark.rule("MIS-19")
@pytest.mark.rule("MIS-20")
def test_premature_board_procedures() -> None:
    for cause, rule in (("flop_dealt_early", "MIS-18"), ("turn_dealt_early", "MIS-19"),
                        ("river_dealt_early", "MIS-20")):  # fmt: skip
        ruling = rule_irregularity(cause)  # type: ignore[arg-type]
        assert (ruling.consequence, ruling.rule) == ("premature_board", rule)
        assert "no burn" in ruling.detail


@pytest.mark.rule("MIS-21")
def test_stub_damage_and_deck_changes_are_logged() -> None:
    assert rule_irregularity("stub_damaged").needs_log
    assert rule_irregularity("deck_changed").consequence == "deck_change"
    assert not deck_change_allowed(requested_by="player", damaged=False)
    assert deck_change_allowed(requested_by="floor", damaged=False)
    assert deck_change_allowed(requested_by="player", damaged=True)
