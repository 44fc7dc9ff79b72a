"""Typed request and response shapes of the tournament endpoints. Money in CZK, chips in
chips, minutes for level and break lengths, times ISO-8601 UTC."""

from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from casino.api.serializers import (
    MAX_ID,
    AwareDateTimeField,
    BoundedListField,
    RequestSerializer,
    SafeCharField,
    StrictBooleanField,
    StrictIntegerField,
)
from tournaments.domain.config import MAX_ENTRIES, MAX_PAID_PLACES
from tournaments.domain.tournament_clock import MAX_CLOCK_ADJUSTMENT

MAX_AMOUNT = 10**12
MAX_LEVELS = 200  # levels, and level numbers a rule may name
MAX_BREAKS = 100
MAX_PER_PLAYER = 1_000  # re-entries, rebuys, add-ons per player
MAX_BRACKETS = 50  # payout brackets (the default table has 37)
MAX_BANDS = 100  # bands of one bracket (the default table: at most 69)
MAX_TOTAL_BANDS = 2_000  # bands of the whole payout table (the default table: 1,540)
LEVEL_ANTE_TYPES = ["none", "ante", "big_blind_ante"]
BOUNTY_KINDS = ["none", "knockout", "progressive", "fixed"]
PENALTY_KINDS = ["warning", "sit_out", "disqualification"]


class LevelSerializer(RequestSerializer):
    small_blind = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT)
    big_blind = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    ante = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    ante_type = serializers.ChoiceField(
        choices=LEVEL_ANTE_TYPES,
        default="none",
        help_text="ante: every player posts it; big_blind_ante: the big blind posts it.",
    )
    minutes = StrictIntegerField(min_value=1, max_value=24 * 60, default=20)


class BreakSerializer(RequestSerializer):
    after_level = StrictIntegerField(min_value=1, max_value=MAX_LEVELS)
    minutes = StrictIntegerField(min_value=1, max_value=24 * 60)
    chip_up_denomination = StrictIntegerField(
        min_value=1, max_value=MAX_AMOUNT, required=False, allow_null=True
    )


class ReEntrySerializer(RequestSerializer):
    allowed = StrictBooleanField(default=False)
    max_per_player = StrictIntegerField(min_value=0, max_value=MAX_PER_PLAYER, default=1)
    until_level = StrictIntegerField(
        min_value=1, max_value=MAX_LEVELS, required=False, allow_null=True
    )
    price = StrictIntegerField(
        min_value=0, max_value=MAX_AMOUNT, default=0, help_text="CZK to the prize pool"
    )
    fee = StrictIntegerField(
        min_value=0, max_value=MAX_AMOUNT, default=0, help_text="CZK to the house"
    )
    stack = StrictIntegerField(
        min_value=0, max_value=MAX_AMOUNT, default=0, help_text="0: the starting stack"
    )


class RebuySerializer(RequestSerializer):
    allowed = StrictBooleanField(default=False)
    max_per_player = StrictIntegerField(
        min_value=0, max_value=MAX_PER_PLAYER, default=0, help_text="0: unlimited"
    )
    until_level = StrictIntegerField(min_value=0, max_value=MAX_LEVELS, default=0)
    price = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    fee = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    stack = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    stack_threshold = StrictIntegerField(
        min_value=0, max_value=MAX_AMOUNT, required=False, allow_null=True
    )


class AddOnSerializer(RequestSerializer):
    allowed = StrictBooleanField(default=False)
    at_level = StrictIntegerField(min_value=0, max_value=MAX_LEVELS, default=0)
    max_per_player = StrictIntegerField(min_value=1, max_value=MAX_PER_PLAYER, default=1)
    price = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    fee = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    stack = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    break_minutes = StrictIntegerField(
        min_value=0, max_value=60, default=0,
        help_text="CLK-5: an extra break (usually 3 minutes) after the add-on level for "
        "taking add-ons, when the structure has no break there (0: none).",
    )  # fmt: skip


class PayoutBandSerializer(RequestSerializer):
    count = StrictIntegerField(min_value=1, max_value=MAX_PAID_PLACES)
    bp = StrictIntegerField(min_value=0, max_value=10_000, help_text="basis points each")


class PayoutBracketSerializer(RequestSerializer):
    max_entries = StrictIntegerField(min_value=1, max_value=MAX_ENTRIES)
    bands = PayoutBandSerializer(many=True, min_length=1, max_length=MAX_BANDS)  # type: ignore[call-arg]


class BountySerializer(RequestSerializer):
    kind = serializers.ChoiceField(choices=BOUNTY_KINDS, default="none")
    amount = StrictIntegerField(
        min_value=0, max_value=MAX_AMOUNT, default=0,
        help_text="CZK per bounty (knockout/progressive: paid with each entry).",
    )  # fmt: skip
    players = BoundedListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_ID), required=False, max_length=100,
        help_text="Named players of a fixed bounty.",
    )  # fmt: skip
    progressive_cash_bp = StrictIntegerField(
        min_value=0, max_value=10_000, default=5000,
        help_text="The eliminator's cash share of a progressive bounty (basis points).",
    )  # fmt: skip


class TournamentConfigSerializer(RequestSerializer):
    """What the director publishes (TREG-6). Omitted fields take the catalogue defaults
    (see ``tournaments.domain.config.TournamentConfig``)."""

    name = SafeCharField(max_length=200)
    buy_in = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, help_text="CZK")
    fee = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, help_text="CZK")
    starting_stack = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    levels = LevelSerializer(many=True, max_length=MAX_LEVELS)  # type: ignore[call-arg]
    table_size = serializers.ChoiceField(
        choices=[9, 6, 2], required=False, help_text="2 for heads-up events only."
    )
    breaks = BreakSerializer(many=True, required=False, max_length=MAX_BREAKS)  # type: ignore[call-arg]
    breaks_mode = serializers.ChoiceField(
        choices=["scheduled", "synchronized", "interval"], required=False
    )
    interval_minutes = StrictIntegerField(
        min_value=1, max_value=24 * 60, required=False, help_text="CLK-6"
    )
    sync_minute = StrictIntegerField(min_value=0, max_value=59, required=False)
    sync_every_hours = StrictIntegerField(
        min_value=1, max_value=2, required=False, help_text="CLK-6: a break every 1 or 2 hours"
    )
    sync_break_minutes = StrictIntegerField(min_value=1, max_value=24 * 60, required=False)
    late_reg_until_level = StrictIntegerField(
        min_value=1, max_value=MAX_LEVELS, required=False, allow_null=True
    )
    late_reg_until = AwareDateTimeField(
        required=False, allow_null=True, help_text="ISO-8601 with its UTC offset."
    )
    late_reg_close_at_money = StrictBooleanField(required=False)
    late_reg_close_below_full_table = StrictBooleanField(required=False)
    unregister_allowed = StrictBooleanField(required=False)
    unregister_deadline = AwareDateTimeField(
        required=False, allow_null=True, help_text="ISO-8601 with its UTC offset."
    )
    reentry = ReEntrySerializer(required=False)
    rebuy = RebuySerializer(required=False)
    add_on = AddOnSerializer(required=False)
    guarantee = StrictIntegerField(
        min_value=0, max_value=MAX_AMOUNT, required=False, help_text="CZK"
    )
    min_entrants = StrictIntegerField(
        min_value=2, max_value=MAX_ENTRIES, required=False, allow_null=True
    )
    payout_table = PayoutBracketSerializer(many=True, required=False, max_length=MAX_BRACKETS)  # type: ignore[call-arg]
    payout_rounding_unit = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, required=False)
    initial_button = serializers.ChoiceField(choices=["seat_1", "high_card"], required=False)
    button_rule = serializers.ChoiceField(choices=["dead_button", "forward"], required=False)
    balance_placement = serializers.ChoiceField(
        choices=["worst_position", "similar_position"], required=False
    )
    broken_table_seat_filter = serializers.ChoiceField(
        choices=["not_between_button_and_big_blind", "any"], required=False
    )
    final_table_size = StrictIntegerField(
        min_value=2, max_value=10, required=False, allow_null=True
    )
    tie_remainder = serializers.ChoiceField(
        choices=["better_hand", "left_of_button"], required=False
    )
    deals_allowed = StrictBooleanField(required=False, help_text="DEAL-1")
    deal_min_stage = serializers.ChoiceField(
        choices=["final_table", "any"], required=False, help_text="DEAL-3"
    )
    deal_money_on_table = StrictIntegerField(
        min_value=0,
        max_value=MAX_AMOUNT,
        required=False,
        help_text="CZK the house requires left for 1st (DEAL-6).",
    )
    bounty = BountySerializer(required=False, help_text="BNTY-1")
    early_payout = StrictBooleanField(required=False, help_text="ELIM-7/8")
    denominations = BoundedListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_AMOUNT), required=False, max_length=30,
        help_text="Chips in play (CR-1: colour-ups are scheduled from them).",
    )  # fmt: skip
    penalty_ladder = BoundedListField(
        child=serializers.ChoiceField(choices=PENALTY_KINDS), max_length=20,
        required=False, help_text="PEN-1/9: the steps, the last repeats.",
    )  # fmt: skip
    penalty_sit_out_hands = StrictIntegerField(min_value=1, max_value=1000, required=False)
    level_hands = StrictIntegerField(
        min_value=0, max_value=1000, required=False,
        help_text="SHOW-1: a level lasts this many hands instead of its minutes (0: by time).",
    )  # fmt: skip
    level_hands_phase = serializers.ChoiceField(
        choices=["final_table", "always"], required=False,
        help_text="From when levels count hands: one table left (default), or the start.",
    )  # fmt: skip
    satellite_target = StrictIntegerField(
        min_value=1, max_value=MAX_ID, required=False, allow_null=True,
        help_text="TREG-11: this event is a satellite paying seats in that tournament (each "
        "worth its buy-in + fee + bounty; the leftover in cash).",
    )  # fmt: skip
    format = serializers.ChoiceField(
        choices=["standard", "headsup"], required=False,
        help_text="headsup: a bracket of heads-up matches (HU-1..4; table_size 2).",
    )  # fmt: skip
    headsup_inactive_hands = StrictIntegerField(
        min_value=1, max_value=10_000, required=False,
        help_text="HU-4: hands in a row with a player ruled absent that end a match "
        "(the chip leader goes through; default 250).",
    )  # fmt: skip

    def validate_payout_table(self, brackets: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if sum(len(bracket["bands"]) for bracket in brackets) > MAX_TOTAL_BANDS:
            raise serializers.ValidationError(
                gettext("At most %(bands)s bands in the whole payout table.")
                % {"bands": MAX_TOTAL_BANDS}
            )
        return brackets


class ClockSerializer(serializers.Serializer):
    """The public clock: what tablets, the director and the TV board show."""

    level = serializers.IntegerField()
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    ante_type = serializers.CharField()
    seconds_left = serializers.IntegerField(help_text="Of the level, seconds.")
    hands_left = serializers.IntegerField(
        allow_null=True, help_text="Of the level when levels count hands (SHOW-1), else null."
    )
    paused = StrictBooleanField()
    on_break = StrictBooleanField()
    break_due = StrictBooleanField(help_text="Starts when the hands in play end (CLK-7).")
    break_seconds_left = serializers.IntegerField()
    next_break_at = serializers.CharField(allow_null=True)
    players_left = serializers.IntegerField()
    entries = serializers.IntegerField()
    average_stack = serializers.IntegerField(help_text="Chips.")
    prize_pool = serializers.IntegerField(help_text="CZK (TREG-15: provisional until closed).")
    places_paid = serializers.IntegerField()
    late_registration_open = StrictBooleanField()
    late_registration_until_level = serializers.IntegerField(
        allow_null=True, help_text="Late registration runs to the end of this level (TREG-7)."
    )
    late_registration_until = serializers.CharField(
        allow_null=True, help_text="Late registration closes at this time, ISO UTC (TREG-7)."
    )
    hand_for_hand = StrictBooleanField()


class CagePricesSerializer(serializers.Serializer):
    """What a player pays at the cage (CZK, fee and entrant's bounty included;
    ``tournaments.domain.bounties.cage_prices``); null: not offered."""

    registration = serializers.IntegerField()
    re_entry = serializers.IntegerField(allow_null=True)
    rebuy = serializers.IntegerField(allow_null=True)
    add_on = serializers.IntegerField(allow_null=True)


class TournamentSerializer(serializers.Serializer):
    tournament_id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=["registering", "running", "finished", "cancelled"])
    buy_in = serializers.IntegerField()
    fee = serializers.IntegerField()
    starting_stack = serializers.IntegerField()
    guarantee = serializers.IntegerField()
    entries = serializers.IntegerField()
    contributions = serializers.IntegerField(help_text="CZK paid to the prize pool.")
    fees = serializers.IntegerField(help_text="CZK kept by the house.")
    chips_issued = serializers.IntegerField()
    winner_player_id = serializers.IntegerField(allow_null=True)
    overlay = serializers.IntegerField(allow_null=True, help_text="Guarantee top-up, CZK.")
    tables = serializers.ListField(child=serializers.IntegerField())
    clock = ClockSerializer()
    prices = CagePricesSerializer()
    config = serializers.DictField(help_text="The published configuration.")
    scheduled_start = serializers.DateTimeField(
        allow_null=True, help_text="The lobby start time (TREG-5), UTC; null: none set."
    )
    start_missed = StrictBooleanField(
        help_text="The lobby time came with too few entries (TREG-5, TREG-3)."
    )
    pending_rebuys = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Players who asked for a rebuy during their table's hand (TREG-14): it is"
        " taken before the next deal only if the hand busts them, else it lapses. Nothing is"
        " taken or paid until then.",
    )
    rebuy_after_bust = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Players the last hand at their table eliminated who may still rebuy into"
        " their seat, until that table deals again (TREG-14: ``rebuys/``).",
    )
    version = serializers.IntegerField(help_text="Tournament stream version (If-Match).")


class OtherSeatSerializer(serializers.Serializer):
    table_id = serializers.IntegerField()
    seat = serializers.IntegerField()
    tournament_id = serializers.IntegerField(allow_null=True, help_text="null: a cash table.")


class TournamentEntrySerializer(serializers.Serializer):
    entry_number = serializers.IntegerField()
    player_id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["registered", "playing", "eliminated", "unregistered", "winner", "placed"],
        help_text="placed: still in when an agreed deal ended the event (DEAL-5); see place.",
    )
    stack = serializers.IntegerField()
    table_id = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)
    rebuys = serializers.IntegerField()
    add_ons = serializers.IntegerField()
    place = serializers.IntegerField(allow_null=True)
    place_to = serializers.IntegerField(allow_null=True, help_text="> place when tied (ELIM-3/4).")
    prize = serializers.IntegerField(allow_null=True, help_text="CZK, once the event ends.")
    also_seated = serializers.ListField(
        child=OtherSeatSerializer(),
        help_text="BI-10 (one active seat at a time): the seats this player holds at other "
        "tables (a cash game, another event), for the floor to settle. The draw seats a "
        "registered player who still plays cash: it is the floor's to call him over.",
    )


class PlayerRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_ID)


class RegistrationRequest(PlayerRequest):
    pay_with = serializers.ChoiceField(
        choices=["cash", "t_money"], default="cash",
        help_text="cash at the cage, or the player's T-Money (TREG-11).",
    )  # fmt: skip


class TMoneyMoveSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["credit", "spend"])
    amount = serializers.IntegerField(help_text="CZK")
    balance = serializers.IntegerField(help_text="CZK after it")
    reason = serializers.CharField(allow_null=True, help_text="Why it was credited.")
    tournament_id = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField(help_text="UTC")


class TMoneySerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    balance = serializers.IntegerField(help_text="T-Money, CZK (TREG-11)")
    moves = TMoneyMoveSerializer(many=True)
    version = serializers.IntegerField()


class StartRequest(RequestSerializer):
    reserve_tables = StrictIntegerField(
        min_value=0, max_value=100, default=1, help_text="Extra tables for late entries."
    )
    game = serializers.ChoiceField(choices=["NLH", "PLO"], default="NLH")


class ClockAdjustmentRequest(RequestSerializer):
    seconds = StrictIntegerField(
        min_value=-MAX_CLOCK_ADJUSTMENT,
        max_value=MAX_CLOCK_ADJUSTMENT,
        help_text="Seconds more (positive) or fewer (negative) on the level or break in "
        "progress; not 0.",
    )


class AmendLevelsRequest(RequestSerializer):
    from_level = StrictIntegerField(
        min_value=1,
        max_value=MAX_LEVELS + 1,
        help_text="The first level to change: after the level in progress; the number after "
        "the last level adds to the structure.",
    )
    levels = LevelSerializer(  # type: ignore[call-arg]
        many=True, min_length=1, max_length=MAX_LEVELS, help_text="The levels from there on."
    )
    reason = SafeCharField(
        max_length=200, help_text="Why the structure changes, for the change log (TREG-6)."
    )


class BreakRequest(RequestSerializer):
    minutes = StrictIntegerField(min_value=1, max_value=240, required=False, allow_null=True)


class HandForHandRequest(RequestSerializer):
    on = StrictBooleanField()


class NoBody(RequestSerializer):
    pass


class RefundSerializer(serializers.Serializer):
    refund = serializers.IntegerField(help_text="Buy-in + fee returned, CZK (TREG-10).")
    tournament = TournamentSerializer()


# --- deals (DEAL-1..11) ---------------------------------------------------------------------


class DealAmountSerializer(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    amount = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, help_text="CZK")


class ProposeDealRequest(RequestSerializer):
    method = serializers.ChoiceField(
        choices=["icm", "chip_count", "even_split", "custom"], default="icm",
        help_text="DEAL-7 (default), DEAL-8, DEAL-9, or custom amounts (DEAL-5).",
    )  # fmt: skip
    money_on_table = StrictIntegerField(
        min_value=0, max_value=MAX_AMOUNT, required=False, allow_null=True,
        help_text="CZK left for 1st place (DEAL-6); default: the event's requirement.",
    )  # fmt: skip
    amounts = DealAmountSerializer(  # type: ignore[call-arg]
        many=True, required=False, max_length=100, help_text="Custom only."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if set(self.initial_data) & {"points", "leaderboard_points"}:
            raise serializers.ValidationError(
                {"points": gettext("Leaderboard points may not be part of a deal (DEAL-11).")}
            )
        if "amounts" in attrs:
            rows = attrs.pop("amounts")
            attrs["amounts"] = {r["player_id"]: r["amount"] for r in rows}
            if len(attrs["amounts"]) != len(rows):
                raise serializers.ValidationError({"amounts": gettext("One amount per player.")})
        return attrs


class CancelDealRequest(RequestSerializer):
    reason = SafeCharField(max_length=200, default="director")
    player_id = StrictIntegerField(
        min_value=1,
        required=False,
        allow_null=True,
        help_text="The player who declined.",
        max_value=MAX_ID,
    )


class DealShareSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    entry_number = serializers.IntegerField()
    chips = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="CZK")


class DealProposalSerializer(serializers.Serializer):
    deal_number = serializers.IntegerField()
    method = serializers.CharField()
    remaining_prizes = serializers.ListField(child=serializers.IntegerField())
    money_on_table = serializers.IntegerField()
    shares = DealShareSerializer(many=True)
    icm_method = serializers.CharField(allow_null=True)
    icm_seed = serializers.IntegerField(allow_null=True)
    icm_standard_error = serializers.FloatField(help_text="CZK; 0 when exact.")
    proposed_at = serializers.CharField()


class DealAgreedSerializer(serializers.Serializer):
    deal_number = serializers.IntegerField()
    shares = DealShareSerializer(many=True)
    money_on_table = serializers.IntegerField()
    agreed_at = serializers.CharField()


class DealSerializer(serializers.Serializer):
    requests = serializers.ListField(child=serializers.IntegerField())
    discussing = StrictBooleanField(help_text="The final table is paused (DEAL-4).")
    proposal = DealProposalSerializer(allow_null=True)
    confirmations = serializers.ListField(child=serializers.IntegerField())
    agreed = DealAgreedSerializer(allow_null=True)
    version = serializers.IntegerField()


class HoldRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    reason = SafeCharField(max_length=500)


class OwedSerializer(serializers.Serializer):
    """What the cage still owes a player in cash (``tournaments.domain.payments.Owed``)."""

    player_id = serializers.IntegerField()
    prize = serializers.IntegerField(
        help_text="CZK: prizes, a deal share, an early payout or a cancellation's settlement."
    )
    bounties = serializers.IntegerField(help_text="CZK of bounties won (BNTY-*).")
    seats_won = serializers.IntegerField(
        help_text="CZK of his prizes taken as satellite seats: never paid in cash (TREG-11)."
    )
    held = StrictBooleanField(help_text="Winnings held for a review (ELIM-9).")


class PaymentSerializer(serializers.Serializer):
    paid = serializers.IntegerField(help_text="CZK paid in cash now (prize + bounties).")
    tournament = TournamentSerializer()


# --- penalties (PEN-1..16) -------------------------------------------------------------------


class PenaltyRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    offence = SafeCharField(max_length=60, help_text="e.g. out_of_turn, soft_play")
    reason = SafeCharField(max_length=500, help_text="Why (PEN-16).")
    kind = serializers.ChoiceField(
        choices=PENALTY_KINDS, required=False, allow_null=True,
        help_text="Default: the ladder's next step.",
    )  # fmt: skip
    hands = StrictIntegerField(min_value=0, max_value=1000, default=0)
    orbits = StrictIntegerField(min_value=0, max_value=100, default=0)
    override = StrictBooleanField(default=False, help_text="Off the ladder (PEN-16).")


class FlagRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    offence = SafeCharField(max_length=60)
    detail = SafeCharField(max_length=500)


class PenaltiesSerializer(serializers.Serializer):
    rulings = serializers.ListField(child=serializers.DictField())
    flags = serializers.ListField(child=serializers.DictField())
    sitting_out = serializers.ListField(child=serializers.DictField())
    version = serializers.IntegerField()


class BracketMatchSerializer(serializers.Serializer):
    match_id = serializers.CharField(help_text="r<round>m<slot>")
    round = serializers.IntegerField()
    slot = serializers.IntegerField()
    a = serializers.IntegerField(allow_null=True, help_text="Player id; null while unknown.")
    b = serializers.IntegerField(allow_null=True)
    table_id = serializers.IntegerField(allow_null=True)
    winner = serializers.IntegerField(allow_null=True)
    ended_by = serializers.CharField(allow_null=True, help_text="result or inactivity (HU-4)")
    loser_places = serializers.ListField(child=serializers.IntegerField(), help_text=(
        "The places the loser shares with the other losers of the round (HU-1)."
    ))  # fmt: skip


class BracketSerializer(serializers.Serializer):
    headsup = StrictBooleanField()
    rounds = serializers.IntegerField()
    entrants = serializers.IntegerField()
    byes = serializers.ListField(child=serializers.IntegerField())
    matches = BracketMatchSerializer(many=True)
    champion = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()


# --- scheduling, crashes, cancellation ----------------------------------------------------------


class SeatCorrectionRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_ID)
    table_id = StrictIntegerField(min_value=1, max_value=MAX_ID, help_text="His right table.")
    seat = StrictIntegerField(min_value=1, max_value=10, help_text="His right seat.")


class ScheduleRequest(RequestSerializer):
    start_at = AwareDateTimeField(help_text="Lobby start time (TREG-5), with its UTC offset.")
    delay = StrictBooleanField(default=False)
    reason = SafeCharField(max_length=500, allow_blank=True, default="")


class RollBackRequest(RequestSerializer):
    reason = SafeCharField(max_length=500, default="server crash")


class CancelRequest(RequestSerializer):
    method = serializers.ChoiceField(choices=["rollback", "roll_forward"], help_text="CXL-2")
    reason = SafeCharField(max_length=500)


class SettlementShareSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    refund = serializers.IntegerField(help_text="CZK")
    prize = serializers.IntegerField(help_text="CZK")
    fees = serializers.IntegerField(help_text="CZK of the refund that are fees")
    t_money = serializers.IntegerField(
        help_text="CZK of the refund returned as T-Money (paid with a seat or T-Money, TREG-11)"
    )
    t_money_fees = serializers.IntegerField(help_text="CZK of that T-Money that were fees")


class SettlementSerializer(serializers.Serializer):
    cancelled = StrictBooleanField()
    method = serializers.CharField(allow_null=True)
    policy = serializers.CharField(allow_null=True)
    policy_version = serializers.CharField(allow_null=True)
    in_the_money = StrictBooleanField(allow_null=True)
    shares = SettlementShareSerializer(many=True)


# --- the public chip-count board (``tournament_chip_counts``) ------------------------------

TOURNAMENT_STATUSES = ["registering", "running", "finished", "cancelled"]
"""A tournament's ``status`` (``TournamentStatusEnum`` in the schema: settings
``ENUM_NAME_OVERRIDES``, as the chip board and the tournament share it)."""


class ChipCountSerializer(serializers.Serializer):
    """A player still in: nickname or initials only (``casino.models.display_name``)."""

    rank = serializers.IntegerField(help_text="By chips, 1 first; equal stacks share a rank.")
    name = serializers.CharField(help_text="Nickname, else initials; never the full name.")
    chips = serializers.IntegerField(help_text="Chips after the last hand finished at his table.")
    table_id = serializers.IntegerField(allow_null=True)
    seat = serializers.IntegerField(allow_null=True)


class PayoutPlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    prize = serializers.IntegerField(help_text="CZK.")


class FinisherSerializer(serializers.Serializer):
    """An entry out of the event (or placed at its end), by finishing place."""

    place = serializers.IntegerField()
    place_to = serializers.IntegerField(help_text="> place when tied (ELIM-3/4).")
    name = serializers.CharField(help_text="Nickname, else initials; never the full name.")
    player_entry = serializers.IntegerField(
        help_text="Which of the player's entries this is: 1, then 2, 3 ... for re-entries"
        " (TREG-9), so a player out twice is told apart."
    )
    prize = serializers.IntegerField(
        help_text="CZK: 0 out of the money; from the payout ladder while the event runs (may "
        "still move with the pool, see prize_pool_provisional), the result once it ends."
    )


class ChipBoardShareSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="Nickname, else initials.")
    amount = serializers.IntegerField(help_text="CZK paid instead of his place's prize.")


class ChipBoardDealSerializer(serializers.Serializer):
    shares = ChipBoardShareSerializer(many=True, help_text="Largest first.")
    money_on_table = serializers.IntegerField(help_text="CZK left to play for (DEAL-6).")


class ChipCountsSerializer(serializers.Serializer):
    """The public chip-count board of a tournament: no player ids, no full names."""

    tournament_id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=TOURNAMENT_STATUSES)
    entries = serializers.IntegerField(help_text="Entries in the field, re-entries included.")
    registered = serializers.IntegerField(help_text="Entries waiting for the seat draw.")
    players_left = serializers.IntegerField()
    chips_in_play = serializers.IntegerField(help_text="Sum of the players' chips.")
    average_stack = serializers.IntegerField(help_text="Chips; 0 with nobody left.")
    chip_leader = ChipCountSerializer(allow_null=True)
    players = ChipCountSerializer(many=True, help_text="Every player still in, by chips.")
    prize_pool = serializers.IntegerField(help_text="CZK.")
    prize_pool_provisional = StrictBooleanField(
        help_text="Entries, rebuys or add-ons can still change the pool and prizes (TREG-15)."
    )
    places_paid = serializers.IntegerField()
    payouts = PayoutPlaceSerializer(
        many=True,
        help_text="Prize per place, 1st first; after an agreed deal only the places below its "
        "players.",
    )
    deal = ChipBoardDealSerializer(
        allow_null=True, help_text="The agreed deal (DEAL-5) while the event runs, else null."
    )
    finished = FinisherSerializer(many=True, help_text="Places taken so far, best first.")
    version = serializers.IntegerField(help_text="Tournament stream version.")
