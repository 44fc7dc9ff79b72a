"""Typed requests and answers of the waiting-list API (documented in the OpenAPI schema).
Amounts are whole CZK, times ISO 8601 UTC, positions 1-based."""

import re

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from casino.api.serializers import (
    MAX_ID,
    RequestSerializer,
    SafeCharField,
    StrictBooleanField,
    StrictIntegerField,
)
from tables.serializers import TableSerializer
from waitlist.domain.lists import CHANNELS, LEAVE_REASONS, LIST_KINDS

_PHONE = re.compile(r"\+?[0-9(][0-9 ()./-]*")  # a callback number as people write it

MAX_AMOUNT = 10**12
GAME_PATTERN = r"^[A-Za-z0-9]{1,10}$"


# --- requests -------------------------------------------------------------------------------


class OpenListRequest(RequestSerializer):
    game = serializers.RegexField(
        GAME_PATTERN,
        max_length=10,
        help_text="Game code, e.g. NLH, PLO (an interest list may name any).",
    )
    small_blind = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    big_blind = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    list_kind = serializers.ChoiceField(
        choices=LIST_KINDS,
        default="waiting",
        help_text="waiting (a game that runs), interest (no table yet), table_change.",
    )


class JoinListRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    channel = serializers.ChoiceField(
        choices=CHANNELS,
        help_text="How he asked: in person at the desk, by phone, or entered at the console "
        "(WL-1: he need not be in the room).",
    )
    phone = SafeCharField(
        max_length=30,
        required=False,
        allow_blank=True,
        default="",
        help_text="A number to call him back on: digits with an optional leading +, spaces, "
        "dashes, dots, slashes and brackets, 3 to 15 digits (ITU E.164 allows 15). Shown to "
        "the floor only, never on the board.",
    )

    def validate_phone(self, value: str) -> str:
        """A callback number the floor can dial (``invalid_phone``): "abc<>;" and forty 1s
        were stored as numbers (found by QA)."""
        digits = sum(ch.isdigit() for ch in value)
        if value and (not _PHONE.fullmatch(value) or not 3 <= digits <= 15):
            raise serializers.ValidationError(
                _("Give a phone number: digits, an optional leading +, spaces or dashes."),
                code="invalid_phone",
            )
        return value


class LeaveListRequest(RequestSerializer):
    reason = serializers.ChoiceField(
        choices=LEAVE_REASONS,
        default="player",
        help_text="player: he asked (in person or by phone, WL-3); floor: the floor took him off.",
    )


class CloseListRequest(RequestSerializer):
    reason = SafeCharField(
        max_length=200, help_text="Why the list closes (a game no longer spread, a mistake)."
    )


class ClosedListSerializer(serializers.Serializer):
    list_id = serializers.CharField()
    removed_player_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="The names still on it, in order."
    )


class AwayRequest(RequestSerializer):
    away = StrictBooleanField(help_text="true: he left the room for a while (WL-3).")


class CallRequest(RequestSerializer):
    table_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    seat = StrictIntegerField(min_value=1, max_value=10)
    player_id = StrictIntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        default=None,
        help_text="Optional check: the player the console shows as next (WL-2).",
    )


class CancelCallRequest(RequestSerializer):
    reason = SafeCharField(max_length=200, required=False, default="floor")


class NoShowRequest(RequestSerializer):
    """No body: the floor records that the called player is not there (WL-2)."""


class SeatFromListRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    table_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    seat = StrictIntegerField(min_value=1, max_value=10)
    buy_in = StrictIntegerField(
        min_value=0,
        max_value=MAX_AMOUNT,
        default=0,
        help_text="CZK; required on a waiting list (the cash-game rules apply), refused on "
        "a table-change list (the whole stack moves, SES-4).",
    )
    paid_with = serializers.ChoiceField(choices=["cash", "chips"], default="cash")


class StartGameRequest(RequestSerializer):
    """Either ``table_id`` (start at that empty open table of the game) or ``name`` and
    optionally the limits (open a new table)."""

    table_id = StrictIntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text="Start the game at this open, empty table of the list's game and stakes.",
    )
    name = SafeCharField(max_length=100, required=False, help_text="The new table's name.")
    buy_in_min = StrictIntegerField(
        min_value=1, max_value=MAX_AMOUNT, required=False, help_text="CZK"
    )
    buy_in_max = StrictIntegerField(
        min_value=1, max_value=MAX_AMOUNT, required=False, help_text="CZK"
    )
    max_seats = StrictIntegerField(min_value=2, max_value=10, default=10)
    limits_reason = SafeCharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why a new table's limits differ from the stakes' configured ones (BI-5).",
    )


class MustMoveRequest(RequestSerializer):
    main_table_id = StrictIntegerField(min_value=1, max_value=MAX_ID, allow_null=True)
    must_move_table_id = StrictIntegerField(min_value=1, max_value=MAX_ID, allow_null=True)


class MustMoveSeatRequest(RequestSerializer):
    seat = StrictIntegerField(
        min_value=1, max_value=10, help_text="The open seat at the main table."
    )


# --- answers --------------------------------------------------------------------------------


class OfferSerializer(serializers.Serializer):
    offer_kind = serializers.CharField(help_text="waiting_list, table_change or must_move.")
    player_id = serializers.IntegerField()
    display = serializers.CharField(help_text="Nickname or initials.")
    position = serializers.IntegerField(allow_null=True)
    from_table_id = serializers.IntegerField(allow_null=True)
    returning_minimum = serializers.IntegerField(
        help_text="SES-7: the least he may buy in for now, CZK (0: no restriction)."
    )
    return_until = serializers.DateTimeField(allow_null=True)
    seated_at_table_id = serializers.IntegerField(
        allow_null=True, help_text="He sits at this table now (he leaves it to be seated)."
    )
    seated_in_tournament_id = serializers.IntegerField(
        allow_null=True,
        help_text="The tournament whose table that is (BI-10: he plays there until he is "
        "out), or null for a cash table.",
    )


class OpenSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    call_id = serializers.CharField(allow_null=True, help_text="The call holding this seat.")
    offer = OfferSerializer(allow_null=True, help_text="Whom the floor should call (WL-2).")


class ListTableSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    name = serializers.CharField()
    max_seats = serializers.IntegerField()
    seated = serializers.IntegerField()
    role = serializers.CharField(allow_null=True, help_text="main, must_move or null.")
    open_seats = OpenSeatSerializer(many=True)


class EntrySerializer(serializers.Serializer):
    position = serializers.IntegerField()
    entry_id = serializers.CharField()
    player_id = serializers.IntegerField()
    display = serializers.CharField()
    channel = serializers.CharField()
    phone = serializers.CharField()
    listed_at = serializers.DateTimeField()
    misses = serializers.IntegerField(help_text="Calls missed on this list (WL-2).")
    away = StrictBooleanField(help_text="Left the room for a while (WL-3).")
    call_id = serializers.CharField(allow_null=True)
    from_table_id = serializers.IntegerField(allow_null=True)
    estimated_wait_seconds = serializers.IntegerField(allow_null=True)


class CallSerializer(serializers.Serializer):
    call_id = serializers.CharField()
    player_id = serializers.IntegerField()
    display = serializers.CharField()
    table_id = serializers.IntegerField()
    seat = serializers.IntegerField()
    called_at = serializers.DateTimeField()
    deadline = serializers.DateTimeField()
    seconds_left = serializers.IntegerField()


class ListHeadSerializer(serializers.Serializer):
    list_id = serializers.CharField()
    list_kind = serializers.CharField(help_text="waiting, interest or table_change.")
    game = serializers.CharField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    waiting = serializers.IntegerField(help_text="Names on the list.")
    interest_threshold = serializers.IntegerField(allow_null=True)
    estimated_wait_seconds = serializers.IntegerField(
        allow_null=True, help_text="For a player joining now; null: unknown."
    )


class WaitlistSerializer(ListHeadSerializer):
    version = serializers.IntegerField(help_text="Stream version of waitlist-<list_id>.")
    table_id = serializers.IntegerField(allow_null=True)
    main_table_id = serializers.IntegerField(allow_null=True)
    must_move_table_id = serializers.IntegerField(allow_null=True)
    entries = EntrySerializer(many=True)
    calls = CallSerializer(many=True)
    tables = ListTableSerializer(many=True)


class FloorSerializer(serializers.Serializer):
    now = serializers.DateTimeField()
    lists = WaitlistSerializer(many=True)


class BoardNameSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    display = serializers.CharField(help_text="Nickname or initials only.")
    called = StrictBooleanField()
    away = StrictBooleanField()
    call_deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the call in progress lapses (UTC, WL-2)."
    )
    call_seconds_left = serializers.IntegerField(
        allow_null=True, help_text="Seconds to the deadline as of ``now``; the board counts down."
    )


class BoardListSerializer(ListHeadSerializer):
    names = BoardNameSerializer(many=True)


class BoardSerializer(serializers.Serializer):
    now = serializers.DateTimeField()
    lists = BoardListSerializer(many=True)


class JoinedSerializer(serializers.Serializer):
    entry_id = serializers.CharField()
    waitlist = WaitlistSerializer()


class CalledSerializer(serializers.Serializer):
    call_id = serializers.CharField()
    player_id = serializers.IntegerField()
    deadline = serializers.DateTimeField()
    waitlist = WaitlistSerializer()


class NoShowSerializer(serializers.Serializer):
    recorded = StrictBooleanField()
    waitlist = WaitlistSerializer()


class SeatedSerializer(serializers.Serializer):
    waitlist = WaitlistSerializer()
    table = TableSerializer()


class StartedSerializer(serializers.Serializer):
    waitlist = WaitlistSerializer()
    table = TableSerializer()


class MustMoveMoveSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    from_table_id = serializers.IntegerField()
    from_seat = serializers.IntegerField()
    to_table_id = serializers.IntegerField()
    to_seat = serializers.IntegerField()
    waitlist = WaitlistSerializer()
