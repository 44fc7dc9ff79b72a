"""Request and response shapes of the cash-game endpoints."""

from rest_framework import serializers

from tables.domain.seating import MAX_SEATS
from tables.serializers import MAX_AMOUNT, TableSerializer


class AmountRequest(serializers.Serializer):
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")


class TopUpRequest(AmountRequest):
    paid_with = serializers.ChoiceField(
        choices=["cash", "chips"],
        default="cash",
        help_text="cash given at the table (drop) or chips bought at the cage",
    )


class CageRequest(serializers.Serializer):
    player_id = serializers.IntegerField(min_value=1)
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")


class CageBalanceSerializer(serializers.Serializer):
    day = serializers.DateField(help_text="Business day in the room's time zone.")
    cash_in = serializers.IntegerField(help_text="Chips sold at the cage that day, CZK.")
    cash_out = serializers.IntegerField(help_text="Chips redeemed at the cage that day, CZK.")
    table_drop = serializers.IntegerField(help_text="Cash buy-ins and top-ups at tables.")
    chips_issued = serializers.IntegerField(help_text="Chips in circulation at the day's end.")
    chips_at_tables = serializers.IntegerField()
    house_chips = serializers.IntegerField(
        help_text="Rake, refreshments and dealer fees collected."
    )
    chips_with_players = serializers.IntegerField(help_text="Chips in players' pockets.")
    reconciled = serializers.BooleanField(
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


class LimitsRequest(serializers.Serializer):
    buy_in_min = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT)
    buy_in_max = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT)
    reason = serializers.CharField(
        max_length=500, allow_blank=True, help_text="Why the floor changes them (BI-5)."
    )


class TransferRequest(serializers.Serializer):
    to_table_id = serializers.IntegerField(min_value=1)
    to_seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)


class MoveSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)
    to_table_id = serializers.IntegerField(min_value=1)
    to_seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)


class CloseTableRequest(serializers.Serializer):
    reason = serializers.CharField(max_length=500)
    moves = MoveSerializer(many=True, required=False, default=list)


class SidebetRequest(serializers.Serializer):
    player_a = serializers.IntegerField(min_value=1)
    player_b = serializers.IntegerField(min_value=1)
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    description = serializers.CharField(max_length=200, required=False, default="")


class SettleSidebetRequest(serializers.Serializer):
    winner = serializers.IntegerField(min_value=1, help_text="Player id of the winner.")


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
    chips_in = serializers.IntegerField()
    chips_out = serializers.IntegerField(allow_null=True)
    refreshments = serializers.IntegerField()
    arrived_by_transfer = serializers.BooleanField()
    left_by_transfer = serializers.BooleanField()


class ChipGiftRequest(serializers.Serializer):
    from_seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)
    to_seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    objected_by = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_SEATS),
        default=list,
        help_text="Seats of the players who object (BI-9); empty: everybody agreed.",
    )


class ChipGiftResponse(serializers.Serializer):
    status = serializers.ChoiceField(choices=["given", "blocked"])
    table = TableSerializer()


class PartialCashOutRequest(serializers.Serializer):
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    reason = serializers.CharField(max_length=500, allow_blank=True)
    floor_override = serializers.BooleanField(
        default=False, help_text="The floor approves the exception to SES-5 (SES-6)."
    )


class RestrictionRequest(serializers.Serializer):
    other_player_id = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=200, allow_blank=True)
