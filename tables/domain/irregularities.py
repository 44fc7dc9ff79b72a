"""Misdeal causes and irregularity procedures, each a named ruling with its consequence.
Pure.

The dealer or floor reports *what went wrong* (:data:`Cause`); :func:`rule_irregularity`
returns the :class:`IrregularityRuling`: the consequence, the catalogue rule, and what the
tablet must do next. A misdeal still needs the misdeal window of the hand (MIS-1..3,
:class:`tables.domain.commands.DeclareMisdeal`): past it a dealing error does not void the
hand (``post_threshold`` tells what happens then).

Consequences:

* ``misdeal``: the hand is voided and redealt (MIS-4, MIS-5, MIS-6), within the window;
* ``dead_hand``: one player's hand is dead (MIS-7, MIS-14);
* ``replace_card``: the card is not the player's; the next card replaces it and it is used
  as a burn (MIS-9) or ignored and replaced (MIS-10);
* ``no_claim``: the player has no claim, chips stay in the pot (MIS-15);
* ``correct_board`` / ``board_stands``: a burn error fixed before the betting round, or the
  board standing once betting started (MIS-16);
* ``random_burn``: a four-card flop, the floor picks the burn at random (MIS-17, the pick
  is decided once and recorded: ``burn_index``);
* ``premature_board``: the procedure for a flop, turn or river dealt too early (MIS-18..20);
* ``rebuild_stub`` / ``deck_change``: recorded (MIS-21).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from tables.domain.errors import HandRuleViolation

Cause = Literal[
    # MIS-4 exposure
    "first_or_second_card_exposed",
    "several_cards_exposed_by_dealer",
    "several_cards_face_up_in_deck",
    # MIS-5 dealing
    "several_cards_off_table",
    "extra_cards_dealt",
    "card_out_of_order",
    "first_card_wrong_seat",
    # MIS-6 seats
    "button_misplaced",
    "cards_to_empty_or_ineligible_seat",
    "eligible_player_skipped",
    # single-player and card procedures
    "wrong_card_count_found_later",  # MIS-7
    "single_hole_card_exposed",  # MIS-9
    "card_face_up_in_deck",  # MIS-10
    "folded_by_contact",  # MIS-14
    "unprotected_hand_collected",  # MIS-15
    "missed_or_double_burn",  # MIS-16
    "four_card_flop",  # MIS-17
    "flop_dealt_early",  # MIS-18
    "turn_dealt_early",  # MIS-19
    "river_dealt_early",  # MIS-20
    "stub_damaged",  # MIS-21
    "deck_changed",  # MIS-21
]
Consequence = Literal[
    "misdeal",
    "dead_hand",
    "replace_card",
    "no_claim",
    "correct_board",
    "board_stands",
    "random_burn",
    "premature_board",
    "rebuild_stub",
    "deck_change",
]

MISDEAL_CAUSES: dict[str, str] = {
    "first_or_second_card_exposed": "MIS-4",
    "several_cards_exposed_by_dealer": "MIS-4",
    "several_cards_face_up_in_deck": "MIS-4",
    "several_cards_off_table": "MIS-5",
    "extra_cards_dealt": "MIS-5",
    "card_out_of_order": "MIS-5",
    "first_card_wrong_seat": "MIS-5",
    "button_misplaced": "MIS-6",
    "cards_to_empty_or_ineligible_seat": "MIS-6",
    "eligible_player_skipped": "MIS-6",
}
PREMATURE_PROCEDURE: dict[str, tuple[str, str]] = {
    "flop_dealt_early": (
        "MIS-18",
        "Deal the would-be turn and river face down, shuffle the early flop into the stub "
        "(the burn stays), finish the preflop round, then deal a new flop with no burn.",
    ),
    "turn_dealt_early": (
        "MIS-19",
        "Deal the would-be river face down, mix the early turn into the stub (the burn "
        "stays), finish the betting, reshuffle and deal the turn with no burn.",
    ),
    "river_dealt_early": (
        "MIS-20",
        "Take the river out of play (the burn stays), finish the betting, mix it into the "
        "stub, reshuffle and deal the river with no burn.",
    ),
}


@dataclass(frozen=True, slots=True)
class IrregularityRuling:
    """The consequence of an irregularity. ``seat`` is the player concerned (dead hand,
    replaced card); ``burn_index`` the card of a four-card flop picked as the burn (0..3);
    ``needs_log`` whether the floor must log it (MIS-14 returns, MIS-21); ``post_threshold``
    what a misdeal cause means once the misdeal window has closed."""

    cause: str
    consequence: Consequence
    rule: str
    detail: str
    seat: int | None = None
    burn_index: int | None = None
    needs_log: bool = False
    post_threshold: Literal["play_on", "kill_affected_hand"] | None = None


def rule_irregularity(
    cause: Cause,
    *,
    seat: int | None = None,
    betting_started: bool = False,
    post_threshold_deal_error_action: Literal["play_on", "kill_affected_hand"] = "play_on",
    rng: random.Random | None = None,
) -> IrregularityRuling:
    """The ruling for ``cause``.

    ``betting_started``: the betting round after the irregular card has begun (MIS-16).
    ``post_threshold_deal_error_action``: what a dealing error means past the misdeal window
    (000: the hand is played as dealt; 002: the faulty hand is invalid). ``rng`` picks the
    burn of a four-card flop (MIS-17; the result is stored in the ruling, never re-drawn).

    Raises:
        HandRuleViolation: ``unknown_irregularity`` (MIS-1), ``seat_required`` (MIS-7,
        MIS-9, MIS-14, MIS-15: the player concerned).
    """
    if cause in MISDEAL_CAUSES:
        return IrregularityRuling(
            cause,
            "misdeal",
            MISDEAL_CAUSES[cause],
            "A misdeal: the hand is voided and redealt (if within the misdeal window).",
            seat=seat,
            post_threshold=post_threshold_deal_error_action,
        )
    per_player = {
        "wrong_card_count_found_later": (
            "dead_hand",
            "MIS-7",
            "Wrong number of cards outside the misdeal cases: his hand is dead.",
            False,
        ),
        "single_hole_card_exposed": (
            "replace_card",
            "MIS-9",
            "Not a misdeal: the player does not keep the card; after the deal it is replaced "
            "by the next card and becomes the first burn.",
            False,
        ),
        "folded_by_contact": (
            "dead_hand",
            "MIS-14",
            "Cards touched or declared folded are folded; management may return them (logged).",
            True,
        ),
        "unprotected_hand_collected": (
            "no_claim",
            "MIS-15",
            "Unprotected cards collected as folded give no claim; his chips stay in the pot.",
            False,
        ),
    }
    if cause in per_player:
        consequence, rule, detail, log = per_player[cause]
        if seat is None:
            raise HandRuleViolation("seat_required", rule, "Name the player concerned.")
        return IrregularityRuling(cause, consequence, rule, detail, seat=seat, needs_log=log)  # type: ignore[arg-type]
    if cause == "card_face_up_in_deck":
        return IrregularityRuling(
            cause,
            "replace_card",
            "MIS-10",
            "Ignored and replaced; it may still be used on the board or as a burn.",
        )
    if cause == "missed_or_double_burn":
        if betting_started:
            return IrregularityRuling(
                cause, "board_stands", "MIS-16", "Betting has started: the board cards stand."
            )
        return IrregularityRuling(
            cause, "correct_board", "MIS-16", "Noticed before the betting: correct the burn."
        )
    if cause == "four_card_flop":
        pick = (rng or random.SystemRandom()).randrange(4)
        return IrregularityRuling(
            cause,
            "random_burn",
            "MIS-17",
            "Turn all four face down; the floor's random pick is the burn, the rest the flop.",
            burn_index=pick,
        )
    if cause in PREMATURE_PROCEDURE:
        rule, detail = PREMATURE_PROCEDURE[cause]
        return IrregularityRuling(cause, "premature_board", rule, detail)
    if cause == "stub_damaged":
        return IrregularityRuling(
            cause,
            "rebuild_stub",
            "MIS-21",
            "Rebuild the stub as closely as possible and finish the hand (logged).",
            needs_log=True,
        )
    if cause == "deck_changed":
        return IrregularityRuling(
            cause,
            "deck_change",
            "MIS-21",
            "Deck changes only for damage or by floor decision, never on demand (logged).",
            needs_log=True,
        )
    raise HandRuleViolation("unknown_irregularity", "MIS-1", f"Unknown cause {cause!r}.")


def deck_change_allowed(*, requested_by: Literal["player", "floor"], damaged: bool) -> bool:
    """MIS-21: the deck is changed for damage or by the floor's decision; a player cannot
    demand it."""
    return damaged or requested_by == "floor"
