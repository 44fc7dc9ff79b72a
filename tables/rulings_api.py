"""Dealer-tablet and floor endpoints for the floor's rulings on a hand (issue #15): thin
views, one service call each; rules in :mod:`tables.domain.hand_rulings` and
:mod:`tables.domain.chip_reading`. Each answers with the hand as the tablet shows it
(plus the ruling for chip reading)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from casino.api.serializers import (
    MAX_ID,
    BoundedListField,
    RequestSerializer,
    SafeCharField,
    StrictBooleanField,
    StrictIntegerField,
)
from casino.api.views import write_view
from tables import rulings_services
from tables import serializers as s
from tables.api import hand_payload
from tables.domain import hand_rulings
from tables.domain.chip_reading import INCOMPLETE_RAISE_RULE, ChipReadingPolicy
from tables.domain.irregularities import MISDEAL_CAUSES, PREMATURE_PROCEDURE
from tables.domain.seating import MAX_SEATS

CAUSES = sorted(
    {*MISDEAL_CAUSES, *PREMATURE_PROCEDURE, "wrong_card_count_found_later",
     "single_hole_card_exposed", "card_face_up_in_deck", "folded_by_contact",
     "unprotected_hand_collected", "missed_or_double_burn", "four_card_flop", "stub_damaged",
     "deck_changed"}
)  # fmt: skip


class ChipsRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10)
    chips = BoundedListField(
        max_length=100,
        child=BoundedListField(
            max_length=100, child=StrictIntegerField(min_value=1, max_value=MAX_ID), min_length=0
        ),
        default=list,
        help_text="The chip values pushed, one list per motion (BET-17: a second motion is "
        "a string bet).",
    )
    announced = serializers.ChoiceField(
        choices=["none", "call", "raise", "pot", "all_in", "call_and_raise"], default="none"
    )
    announced_amount_to = StrictIntegerField(
        min_value=0, required=False, allow_null=True, max_value=MAX_ID
    )
    incomplete_raise_base = serializers.ChoiceField(
        choices=sorted(INCOMPLETE_RAISE_RULE), default="previous_raise"
    )
    bb_single_chip_unraised_is_raise = StrictBooleanField(default=True)
    raise_methods_allowed = StrictBooleanField(default=False)


class ChipRulingSerializer(serializers.Serializer):
    kind = serializers.CharField()
    amount_to = serializers.IntegerField()
    rule = serializers.CharField()
    detail = serializers.CharField()
    completed = StrictBooleanField()
    returned = serializers.IntegerField()


class ChipsResponse(serializers.Serializer):
    ruling = ChipRulingSerializer()
    hand = s.HandSerializer()


class ClockRequest(RequestSerializer):
    called_by = StrictIntegerField(min_value=1, max_value=10)
    caller_seated = StrictBooleanField(default=True)
    seconds = StrictIntegerField(min_value=1, max_value=600, default=60)
    final_countdown = StrictIntegerField(min_value=0, max_value=60, default=10)
    expiry = serializers.ChoiceField(
        choices=s.CLOCK_EXPIRIES,
        required=False,
        allow_null=True,
        default=None,
        help_text="dead_hand (BET-28, live) or fold_or_check (BET-29, the online timeout); "
        "default: the table's clock_expiry.",
    )


class ExposureRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10)
    cards = SafeCharField(max_length=20)
    policy = serializers.ChoiceField(choices=["tournament_000", "cash_000", "floor_002"])
    deliberate_for_reaction = StrictBooleanField(default=False)


class BurnRequest(RequestSerializer):
    street = serializers.ChoiceField(choices=["flop", "turn", "river"])
    card = SafeCharField(max_length=4)


class OutOfTurnRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10)
    action = serializers.ChoiceField(choices=["fold", "check", "call", "bet", "raise"])
    amount_to = StrictIntegerField(min_value=0, required=False, allow_null=True, max_value=MAX_ID)


class SeeHandRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10, help_text="Whose cards.")
    requested_by = StrictIntegerField(
        min_value=1, max_value=10, required=False, allow_null=True, default=None,
        help_text="The seat asking (none: the floor's order).",
    )  # fmt: skip
    floor_order = StrictBooleanField(
        default=False, help_text="The floor orders it on suspicion of collusion (SD-17)."
    )
    shown_to = BoundedListField(
        child=StrictIntegerField(min_value=1, max_value=10), max_length=10, default=list,
        help_text="Seats he showed his cards to during the hand (SD-19).",
    )  # fmt: skip
    caller_may_request_aggressor_show = StrictBooleanField(
        default=True,
        help_text="003: a river caller may see the last aggressor's hand (SD-18); off: 000, "
        "only the floor may order it (SD-17).",
    )


class AbsenceRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10)


class IrregularityRequest(RequestSerializer):
    cause = serializers.ChoiceField(choices=CAUSES)
    seat = StrictIntegerField(min_value=1, max_value=10, required=False, allow_null=True)
    note = SafeCharField(max_length=500, required=False, allow_blank=True, default="")
    post_threshold_deal_error_action = serializers.ChoiceField(
        choices=["play_on", "kill_affected_hand"], default="play_on"
    )


def _hand(loaded: Any) -> dict[str, Any]:
    return hand_payload(loaded.state, loaded.version)


def _chips(data: dict[str, Any], *, hand_id: Any, if_match: int | None) -> dict[str, Any]:
    policy = ChipReadingPolicy(
        incomplete_raise_base=data.pop("incomplete_raise_base"),
        bb_single_chip_unraised_is_raise=data.pop("bb_single_chip_unraised_is_raise"),
        raise_methods_allowed=data.pop("raise_methods_allowed"),
    )
    ruling, loaded = rulings_services.read_pushed_chips(
        hand_id=str(hand_id), if_match=if_match, policy=policy, **data
    )
    return {
        "ruling": {
            "kind": ruling.kind,
            "amount_to": ruling.amount_to,
            "rule": ruling.rule,
            "detail": ruling.detail,
            "completed": ruling.completed,
            "returned": ruling.returned,
        },
        "hand": _hand(loaded),
    }


def _ruling(factory: Any) -> Any:
    def perform(data: dict[str, Any], *, hand_id: Any, if_match: int | None) -> dict[str, Any]:
        loaded = rulings_services.rule(
            hand_id=str(hand_id), command=factory(**data), if_match=if_match
        )
        return _hand(loaded)

    return perform


def _call_clock(data: dict[str, Any], *, hand_id: Any, if_match: int | None) -> dict[str, Any]:
    command = rulings_services.clock_command(hand_id=str(hand_id), **data)
    return _hand(rulings_services.rule(hand_id=str(hand_id), command=command, if_match=if_match))


ReadChipsView = write_view(
    operation_id="read_chips",
    request=ChipsRequest,
    response=ChipsResponse,
    perform=_chips,
    doc="The chips the player to act pushed (per motion) and what he said: the server rules "
    "call, raise, completed raise or insufficient call (BET-10..13, 17..24, 27), records "
    "the ruling with its rule ID and the action it amounts to.",
)
CallClockView = write_view(
    operation_id="call_clock",
    request=ClockRequest,
    response=s.HandSerializer,
    perform=_call_clock,
    doc="A player calls the clock on the player to act (BET-28): the countdown is an event "
    "of the hand (pushed to the tablet); when it expires the hand is dead.",
)
RecordExposureView = write_view(
    operation_id="record_exposure",
    request=ExposureRequest,
    response=s.HandSerializer,
    perform=_ruling(hand_rulings.RecordExposure),
    doc="A player showed hole cards during the hand (BET-30..32): passive, or a fold.",
)
RecordBurnView = write_view(
    operation_id="record_burn",
    request=BurnRequest,
    response=s.HandSerializer,
    perform=_ruling(hand_rulings.RecordBurn),
    doc="The card burned before a street (BET-2).",
)
RecordOutOfTurnView = write_view(
    operation_id="record_out_of_turn",
    request=OutOfTurnRequest,
    response=s.HandSerializer,
    perform=_ruling(hand_rulings.RecordOutOfTurn),
    doc="A player acted out of turn (BET-25/26); ruled binding or not when the action reaches him.",
)


def _request_show(data: dict[str, Any], *, hand_id: Any, if_match: int | None) -> Any:
    command = hand_rulings.RequestShow(**{**data, "shown_to": tuple(data["shown_to"])})
    return _hand(rulings_services.rule(hand_id=str(hand_id), command=command, if_match=if_match))


RequestShowView = write_view(
    operation_id="request_show",
    request=SeeHandRequest,
    response=s.HandSerializer,
    perform=_request_show,
    doc="A request to see a player's cards: granted and recorded (``ShowOrdered``) for a "
    "river caller asking for the last aggressor's hand (SD-18), on the floor's order "
    "(SD-17) or when he showed them to someone (show one, show all: SD-19); otherwise "
    "refused with the rule.",
)
RecordAbsenceView = write_view(
    operation_id="record_absence",
    request=AbsenceRequest,
    response=s.HandSerializer,
    perform=_ruling(hand_rulings.RecordAbsence),
    doc="The player was not in his seat when the last hole card reached the button: his hand "
    "is dead (SEAT-12; in a tournament his blinds were posted first, SEAT-13). Refused after "
    "the flop or once he has acted.",
)
RuleIrregularityView = write_view(
    operation_id="rule_irregularity",
    request=IrregularityRequest,
    response=s.HandSerializer,
    perform=_ruling(hand_rulings.RuleIrregularity),
    doc="A named misdeal cause or irregularity (MIS-4..21) and its consequence: a misdeal "
    "within the window, a dead hand, or a recorded procedure.",
)


class AdjustmentSerializer(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10)
    amount = StrictIntegerField(
        help_text="Chips/CZK to the seat (negative: from it).", min_value=-MAX_ID, max_value=MAX_ID
    )


class CorrectionRequest(RequestSerializer):
    kind = serializers.ChoiceField(choices=["reading", "accounting", "mucked_winner"])
    detail = SafeCharField(max_length=500)
    adjustments = AdjustmentSerializer(many=True, max_length=10)  # type: ignore[call-arg]


class RabbitConsentRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=10)
    consenting_seats = BoundedListField(
        max_length=MAX_SEATS, child=StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    )


class ChopExceptionRequest(RequestSerializer):
    floor = SafeCharField(max_length=100)
    reason = SafeCharField(max_length=500)
    seats = BoundedListField(
        max_length=100, child=StrictIntegerField(min_value=1, max_value=MAX_ID)
    )


def _correct(data: dict[str, Any], *, hand_id: Any, if_match: int | None) -> dict[str, Any]:
    adjustments = [dict(a) for a in data.pop("adjustments")]
    loaded = rulings_services.correct_result(
        hand_id=str(hand_id), if_match=if_match, adjustments=adjustments, **data
    )
    return _hand(loaded)


def _rabbit(**data: Any) -> hand_rulings.RecordRabbitConsent:
    return hand_rulings.RecordRabbitConsent(data["seat"], tuple(data["consenting_seats"]))


def _chop(**data: Any) -> hand_rulings.RecordChopException:
    return hand_rulings.RecordChopException(data["floor"], data["reason"], tuple(data["seats"]))


CorrectResultView = write_view(
    operation_id="correct_hand_result",
    request=CorrectionRequest,
    response=s.HandSerializer,
    perform=_correct,
    doc="A dispute upheld inside its window (SD-24): the correction is appended to the "
    "settled hand, never a rewrite; refused once the next hand has begun (reading) or had "
    "substantial action (accounting).",
)
RecordRabbitConsentView = write_view(
    operation_id="record_rabbit_consent",
    request=RabbitConsentRequest,
    response=s.HandSerializer,
    perform=_ruling(_rabbit),
    doc="The other players consented to a rabbit hunt (RAKE-8); its cards never count for "
    "the jackpot.",
)
RecordChopExceptionView = write_view(
    operation_id="record_chop_exception",
    request=ChopExceptionRequest,
    response=s.HandSerializer,
    perform=_ruling(_chop),
    doc="The floor allowed an exception to the no-chop rule of a cash all-in pot (RAKE-9).",
)
