"""Request and response shapes of the cash-game endpoints."""

from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from casino.api.serializers import (
    MAX_ID,
    BoundedListField,
    RequestSerializer,
    SafeCharField,
    StrictBooleanField,
    StrictIntegerField,
)
from tables.domain.seating import MAX_SEATS
from tables.domain.table_state import TABLE_GAMES
from tables.serializers import MAX_AMOUNT, TableSerializer


class AmountRequest(RequestSerializer):
    amount = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")


class TopUpRequest(AmountRequest):
    paid_with = serializers.ChoiceField(
        choices=["cash", "chips"],
        default="cash",
        help_text="cash given at the table (drop) or chips bought at the cage",
    )


class CageRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    amount = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")


class CageOverrideRequest(CageRequest):
    override_reason = SafeCharField(
        min_length=3,
        max_length=500,
        help_text="Why the player may redeem more than the records show he holds (audited).",
    )


class BuyInForSerializer(RequestSerializer):
    """A game and stakes as the tables name them (``NLH`` 10/20): a code the returning-
    player rule (SES-7) can match, never free text ("nlh" would match nothing)."""

    game = serializers.ChoiceField(choices=TABLE_GAMES)
    small_blind = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT)
    big_blind = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["small_blind"] > attrs["big_blind"]:
            raise serializers.ValidationError(
                {"small_blind": gettext("The small blind cannot be more than the big blind.")}
            )
        return attrs


class SaleRequest(CageRequest):
    buy_in_for = BuyInForSerializer(
        required=False,
        allow_null=True,
        default=None,
        help_text="The game and stakes the chips are a buy-in for: a returning player must "
        "buy at least what he left with (SES-7).",
    )


class CageBalanceSerializer(serializers.Serializer):
    day = serializers.DateField(help_text="Business day in the room's time zone.")
    cash_in = serializers.IntegerField(help_text="Chips sold at the cage that day, CZK.")
    cash_out = serializers.IntegerField(help_text="Chips redeemed at the cage that day, CZK.")
    table_drop = serializers.IntegerField(
        help_text="Drop: buy-ins and top-ups paid in cash at tables that day, CZK "
        "(docs/rules-coverage.md, 'Drop')."
    )
    chips_issued = serializers.IntegerField(help_text="Chips in circulation at the day's end.")
    chips_at_tables = serializers.IntegerField()
    house_chips = serializers.IntegerField(
        help_text="Rake and refreshments collected, CZK (cumulative): the house's chips."
    )
    dealer_fees = serializers.IntegerField(
        help_text="Rabbit-hunt fees paid to the dealers (RAKE-8), CZK (cumulative): the "
        "dealers' chips, not the house's."
    )
    chips_with_players = serializers.IntegerField(help_text="Chips in players' pockets.")
    reconciled = StrictBooleanField(
        allow_null=True, help_text="Ledger equals the stacks on the tables (today only)."
    )
    tournament_cash_in = serializers.IntegerField(
        help_text="Tournament buy-ins, fees, bounties, re-entries, rebuys, add-ons, CZK."
    )
    tournament_cash_out = serializers.IntegerField(
        help_text="Tournament refunds, prizes and bounties paid, CZK."
    )
    tournament_fees = serializers.IntegerField(help_text="Tournament fees taken that day, CZK.")
    tournament_money_held = serializers.IntegerField(
        help_text="Prize pools and bounties taken in and not yet paid, CZK (cumulative)."
    )
    tournament_t_money_outstanding = serializers.IntegerField(
        help_text="Satellite seats won as T-Money and not yet spent, CZK (TREG-11, cumulative)."
    )


class LimitsRequest(RequestSerializer):
    buy_in_min = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    buy_in_max = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    reason = SafeCharField(
        max_length=500, allow_blank=True, help_text="Why the floor changes them (BI-5)."
    )


class TransferRequest(RequestSerializer):
    to_table_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    to_seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)


class MoveSerializer(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    to_table_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    to_seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)


class CloseTableRequest(RequestSerializer):
    reason = SafeCharField(max_length=500)
    moves = MoveSerializer(many=True, required=False, default=list, max_length=MAX_SEATS)  # type: ignore[call-arg]


class SidebetRequest(RequestSerializer):
    player_a = StrictIntegerField(min_value=1, max_value=MAX_ID)
    player_b = StrictIntegerField(min_value=1, max_value=MAX_ID)
    amount = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    description = SafeCharField(max_length=200, required=False, default="")


class SettleSidebetRequest(RequestSerializer):
    winner = StrictIntegerField(min_value=1, max_value=MAX_ID, help_text="Player id of the winner.")


class SidebetResponse(serializers.Serializer):
    sidebet_id = serializers.CharField()
    table = TableSerializer()


class TransferResponse(serializers.Serializer):
    from_table = TableSerializer()
    to_table = TableSerializer()


class RestrictionSerializer(serializers.Serializer):
    game = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    amount_required = serializers.IntegerField(help_text="Minimum buy-in, CZK (SES-7).")
    left_at = serializers.DateTimeField()
    until = serializers.DateTimeField(help_text="When the restriction ends (UTC).")
    chips_held = serializers.IntegerField(
        help_text="CZK of chips the records say the player holds away from the tables (the "
        "same on every row): they count toward the minimum, so the cage sells at least "
        "amount_required - chips_held as a buy-in (SES-7, BI-8)."
    )


class CashSessionSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    table_id = serializers.IntegerField()
    game = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    seat = serializers.IntegerField()
    seated_at = serializers.DateTimeField()
    left_at = serializers.DateTimeField(allow_null=True)
    seconds_played = serializers.IntegerField(help_text="Time seated so far, seconds.")
    chips_in = serializers.IntegerField(help_text="Buy-in, top-ups, a stack moved in; CZK.")
    chips_out = serializers.IntegerField(
        allow_null=True, help_text="The cash-out or the stack moved away; null while seated."
    )
    refreshments = serializers.IntegerField(help_text="Paid from the stack (RAKE-6), CZK.")
    partial_cash_outs = serializers.IntegerField(
        help_text="Chips the floor let him take off the table while seated (SES-6), CZK."
    )
    result = serializers.IntegerField(
        allow_null=True,
        help_text="What he took away less what he brought: chips_out + partial_cash_outs - "
        "chips_in, CZK (negative: he lost); null while seated.",
    )
    gifts = serializers.IntegerField(
        help_text="Chips other players gave him at the table less those he gave (BI-9), CZK; "
        "inside result."
    )
    sidebets = serializers.IntegerField(
        help_text="Sidebets won less lost, settled in chips at the table (RAKE-5), CZK; "
        "inside result."
    )
    dealer_fees = serializers.IntegerField(
        help_text="Fees paid from his stack to the dealer (RAKE-8), CZK; inside result."
    )
    arrived_by_transfer = StrictBooleanField()
    left_by_transfer = StrictBooleanField()


class ChipGiftRequest(RequestSerializer):
    from_seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    to_seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    amount = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    objected_by = BoundedListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_SEATS),
        max_length=MAX_SEATS,
        default=list,
        help_text="Seats of the players who object (BI-9); empty: everybody agreed.",
    )


class ChipGiftResponse(serializers.Serializer):
    status = serializers.ChoiceField(choices=["given", "blocked"])
    table = TableSerializer()


class PartialCashOutRequest(RequestSerializer):
    amount = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    reason = SafeCharField(max_length=500, allow_blank=True)
    floor_override = StrictBooleanField(
        default=False, help_text="The floor approves the exception to SES-5 (SES-6)."
    )


class RestrictionRequest(RequestSerializer):
    other_player_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    reason = SafeCharField(max_length=200, allow_blank=True)


class PrizePaymentRequest(RequestSerializer):
    tournament_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    entry_number = StrictIntegerField(min_value=1, max_value=100_000)


class PrizePaymentSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    entry_number = serializers.IntegerField()
    player_id = serializers.IntegerField()
    place = serializers.IntegerField()
    prize = serializers.IntegerField(help_text="CZK: the entry's prize.")
    bounties = serializers.IntegerField(help_text="CZK: knockout bounties paid with it.")
    amount = serializers.IntegerField(
        help_text="CZK paid in cash with this entry: its prize and, on the first entry of a"
        " payment, what the payment paid beyond its entries' prizes (bounties, a deal or"
        " early-payout remainder). The amounts add up to the cage's cash out."
    )
    paid_at = serializers.DateTimeField(source="at")
