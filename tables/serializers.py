"""Typed request and response shapes of the table and hand endpoints."""

from rest_framework import serializers

from tables.domain.table import ANTE_TYPES, GAMES, MAX_SEATS, MIN_RAISE_RULES
from tables.models import SeatView, TableView


class OpenTableRequest(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    game = serializers.ChoiceField(choices=GAMES)
    small_blind = serializers.IntegerField(min_value=1)
    big_blind = serializers.IntegerField(min_value=1)
    ante = serializers.IntegerField(min_value=0, default=0)
    ante_type = serializers.ChoiceField(choices=ANTE_TYPES, default="none")
    buy_in_min = serializers.IntegerField(min_value=1)
    buy_in_max = serializers.IntegerField(min_value=1)
    rake_percent_bp = serializers.IntegerField(
        min_value=0, max_value=10_000, default=0, help_text="Rake in basis points (500 = 5 %)."
    )
    rake_cap = serializers.IntegerField(min_value=0, default=0, help_text="CZK per hand.")
    no_flop_no_drop = serializers.BooleanField(default=False)
    min_raise_rule = serializers.ChoiceField(choices=MIN_RAISE_RULES, default="previous_increment")
    max_seats = serializers.IntegerField(min_value=2, max_value=MAX_SEATS, default=MAX_SEATS)


class SeatSerializer(serializers.ModelSerializer):
    class Meta:
        model = SeatView
        fields = ["seat", "player_id", "stack", "seated_at"]


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = TableView
        fields = [
            "table_id",
            "name",
            "game",
            "small_blind",
            "big_blind",
            "ante",
            "ante_type",
            "buy_in_min",
            "buy_in_max",
            "rake_percent_bp",
            "rake_cap",
            "no_flop_no_drop",
            "min_raise_rule",
            "max_seats",
            "button_seat",
            "current_hand_id",
            "hands_played",
            "rake_total",
            "version",
            "seats",
        ]


class SeatPlayerRequest(serializers.Serializer):
    player_id = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS)
    buy_in = serializers.IntegerField(min_value=1, help_text="CZK")


class CashOutResponse(serializers.Serializer):
    seat = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="The whole stack cashed out, CZK (SES-5).")
    table = TableSerializer()
