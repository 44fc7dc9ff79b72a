"""Typed request and response shapes of the table and hand endpoints."""

from typing import Any

from django.utils.translation import gettext
from rest_framework import serializers

from casino.api.errors import ErrorSerializer
from casino.api.serializers import (
    MAX_ID,
    UNKNOWN_FIELD,
    BoundedListField,
    RequestSerializer,
    SafeCharField,
    StrictBooleanField,
    StrictIntegerField,
)
from tables.domain.blinds import (
    BUTTON_RULES,
    DEAD_BUTTON,
    ENTRY_RULES,
    STATUSES,
    WAIT_OR_POST_BOTH,
)
from tables.domain.hand_names import CATEGORIES
from tables.domain.hand_state import ACTIONS, ANTE_TYPES, MIN_RAISE_RULES
from tables.domain.seating import MAX_SEATS
from tables.domain.table import TABLE_GAMES
from tables.domain.table_commands import HAND_CLOSED_BY

CLOCK_EXPIRIES = ["dead_hand", "fold_or_check"]
"""What a called clock does when it runs out: BET-28 (live) or BET-29 (the timeout rule)."""
FORCED_BET_KINDS = [
    "ante",
    "small_blind",
    "big_blind",
    "straddle",
    "dead_sb",
    "posted_bb",
    "posted_sb",
]
OWED_BLIND_KINDS = ["dead_sb", "posted_bb", "posted_sb"]
MISSED_BLIND_KINDS = ["small_blind", "big_blind"]
AMOUNT_ACTIONS = ("bet", "raise")
"""Actions that take ``amount_to`` (all_in, call, check and fold are what they are)."""
MAX_AMOUNT = 10**12  # CZK or chips: far above any real stake, inside a PostgreSQL bigint


class OpenTableRequest(RequestSerializer):
    name = SafeCharField(max_length=100)
    game = serializers.ChoiceField(choices=TABLE_GAMES)
    small_blind = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    big_blind = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    ante = StrictIntegerField(min_value=0, max_value=MAX_AMOUNT, default=0)
    ante_type = serializers.ChoiceField(choices=ANTE_TYPES, default="none")
    buy_in_min = StrictIntegerField(
        min_value=1,
        max_value=MAX_AMOUNT,
        required=False,
        help_text="CZK; default: the stakes' configured limits (BI-3, BI-4).",
    )
    buy_in_max = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, required=False)
    limits_reason = SafeCharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text="Why the buy-in limits differ from the stakes' configured ones (BI-5; 422 "
        "limit_change_needs_reason without it). Recorded with who opened the table.",
    )
    rake_percent_bp = StrictIntegerField(
        min_value=0,
        max_value=10_000,
        required=False,
        help_text="Rake in basis points (500 = 5 %); default: the game's rake schedule, "
        "which is also the most a table may rake (422 rake_above_schedule, RAKE-1).",
    )
    rake_cap = StrictIntegerField(
        min_value=0,
        max_value=MAX_AMOUNT,
        required=False,
        help_text="CZK per hand; default and most: the rake schedule's cap (RAKE-2..4).",
    )
    no_flop_no_drop = StrictBooleanField(required=False)
    min_raise_rule = serializers.ChoiceField(choices=MIN_RAISE_RULES, default="previous_increment")
    max_seats = StrictIntegerField(min_value=2, max_value=MAX_SEATS, default=MAX_SEATS)
    returning_player_rule = StrictBooleanField(
        default=True,
        help_text="SES-7 applies; only a private game whose players agreed turns it off.",
    )
    button_rule = serializers.ChoiceField(
        choices=BUTTON_RULES,
        default=DEAD_BUTTON,
        help_text="dead_button (SEAT-5, the live default: the big blind moves to the next "
        "player due, the small blind and button may be dead) or forward (SEAT-6).",
    )
    cash_new_player_entry = serializers.ChoiceField(
        choices=ENTRY_RULES,
        default=WAIT_OR_POST_BOTH,
        help_text="wait_or_post_both (SEAT-15: a new player between the button and the big "
        "blind waits for it or posts both blinds) or immediate_no_post (SES-1).",
    )
    missed_blind_sb_dead = StrictBooleanField(
        default=True,
        help_text="A returning player posting his missed blinds posts the small blind dead "
        "(SEAT-16); off: live.",
    )
    limit_cap_lifted_heads_up = StrictBooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Fixed limit (FLH): the cap of a bet and three raises is lifted when only "
        "two players are left (BET-6) or always kept (BET-5); default: BET-6 at cash tables.",
    )
    allin_faceup_in_cash = StrictBooleanField(
        default=False,
        help_text="SD-10: once a player is all-in and the betting is over, every live hand "
        "is turned face up at this cash table too (off: tournaments only, SD-11).",
    )
    hand_closed_by = serializers.ChoiceField(
        choices=["next_hand_started", "first_riffle", "cut"],
        default="next_hand_started",
        help_text="When a settled hand closes to disputes of its reading: the next hand "
        "starting (SD-24), the first riffle (SD-25) or the cut (SD-26) of the next shuffle.",
    )
    clock_expiry = serializers.ChoiceField(
        choices=CLOCK_EXPIRIES,
        default="dead_hand",
        help_text="When a called clock runs out: the hand is dead (BET-28, live) or it folds "
        "facing a bet and checks if not (BET-29, the timeout rule).",
    )


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField()
    stack = serializers.IntegerField(help_text="Chips in front of the player, CZK.")
    seated_at = serializers.DateTimeField()


class TablePlayerSerializer(serializers.Serializer):
    """A player seated at the table, with what the dealer calls him (never the full name)."""

    seat = serializers.IntegerField()
    player_id = serializers.IntegerField()
    nickname = serializers.CharField(allow_blank=True)
    short_name = serializers.CharField(
        allow_blank=True, help_text='First name and last initial: "Jan N."'
    )


class SeatCheckQuery(serializers.Serializer):
    player_id = serializers.IntegerField(min_value=1, max_value=MAX_ID)


class SeatCheckSerializer(serializers.Serializer):
    """Before a seat: who the player is and what he may buy in for here (never the full
    name), or the refusal the seat would get."""

    player_id = serializers.IntegerField()
    nickname = serializers.CharField(allow_blank=True)
    short_name = serializers.CharField(
        allow_blank=True, help_text='First name and last initial: "Jan N."'
    )
    buy_in_min = serializers.IntegerField(help_text="CZK: the table's minimum, or SES-7's.")
    buy_in_max = serializers.IntegerField(help_text="CZK.")
    rule = serializers.CharField(help_text="What sets the minimum: SES-7, or BI-3/4/5.")
    refusal = ErrorSerializer(
        allow_null=True,
        help_text="The refusal a seat would get (BI-10: seated elsewhere or here already;"
        " BI-11: kept apart), or null.",
    )


class SeatStatusSerializer(SeatSerializer):
    """A seat as the tablet shows it: whether the player plays the next hand."""

    status = serializers.ChoiceField(
        choices=STATUSES,
        help_text="active; new (sat down, not dealt in yet); waiting (for the big blind, "
        "SEAT-15/16); sitting_out (SEAT-16).",
    )
    missed_small_blind = StrictBooleanField(help_text="Owes a small blind (SEAT-16).")
    missed_big_blind = StrictBooleanField(help_text="Owes a big blind (SEAT-16).")
    posts_next_hand = StrictBooleanField(
        help_text="Chose to post what he owes and is dealt in at the next hand."
    )
    busted = StrictBooleanField(
        help_text="Cash table: no chips after the last hand (or a re-buy owed, BI-7); the "
        "player re-buys or cashes out before he is dealt in again. Always false at a "
        "tournament table, where a player with no chips is eliminated."
    )
    top_up_after_hand = serializers.IntegerField(
        help_text="CZK of top-ups declared during the running hand, paid and not yet on the "
        "stack: added when the hand ends (BI-6). 0 when none."
    )


class OpenSidebetSerializer(serializers.Serializer):
    """A sidebet between two players at the table, open until settled or called off;
    ``amount`` in CZK (RAKE-5)."""

    sidebet_id = serializers.UUIDField()
    player_a = serializers.IntegerField()
    player_b = serializers.IntegerField()
    amount = serializers.IntegerField()


class TableSerializer(serializers.Serializer):
    """A table: configuration, button, running hand, seats and stacks, stream version."""

    table_id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.ChoiceField(choices=TABLE_GAMES)
    small_blind = serializers.IntegerField()
    big_blind = serializers.IntegerField()
    ante = serializers.IntegerField()
    ante_type = serializers.ChoiceField(choices=ANTE_TYPES)
    buy_in_min = serializers.IntegerField()
    buy_in_max = serializers.IntegerField()
    rake_percent_bp = serializers.IntegerField()
    rake_cap = serializers.IntegerField()
    no_flop_no_drop = StrictBooleanField()
    min_raise_rule = serializers.ChoiceField(choices=MIN_RAISE_RULES)
    max_seats = serializers.IntegerField()
    returning_player_rule = StrictBooleanField()
    button_rule = serializers.ChoiceField(choices=BUTTON_RULES)
    cash_new_player_entry = serializers.ChoiceField(choices=ENTRY_RULES)
    missed_blind_sb_dead = StrictBooleanField()
    mode = serializers.ChoiceField(
        choices=["cash", "tournament"],
        help_text="tournament: chips, no rake; seats, stacks and blinds from the tournament.",
    )
    tournament_id = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(choices=["open", "closed"])
    button_seat = serializers.IntegerField(allow_null=True)
    current_hand_id = serializers.CharField(allow_null=True)
    hands_played = serializers.IntegerField(help_text="Hands played out; misdeals not counted.")
    rake_total = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Table stream version (for If-Match).")
    seats = SeatStatusSerializer(many=True)
    hand_closed_by = serializers.ChoiceField(
        choices=HAND_CLOSED_BY,
        help_text="What closes a settled hand to disputes of its reading: the next hand "
        "(SD-24), the first riffle (SD-25) or the cut (SD-26) of the next shuffle.",
    )
    sidebets = OpenSidebetSerializer(
        many=True, help_text="Sidebets recorded and not yet settled or called off (RAKE-5)."
    )


class SeatChangeRequest(RequestSerializer):
    new_seat = StrictIntegerField(min_value=1, max_value=10, help_text="An empty seat.")


class ShuffleRequest(RequestSerializer):
    step = serializers.ChoiceField(
        choices=["first_riffle", "cut"],
        help_text="first_riffle (SD-25) or cut (SD-26) of the next shuffle.",
    )


class SitInRequest(RequestSerializer):
    post = StrictBooleanField(
        default=False,
        help_text="Post what he owes and play the next hand (SEAT-15, SEAT-16); false: wait "
        "for the big blind when he owes blinds.",
    )


class NextHandQuery(serializers.Serializer):
    button_seat = serializers.IntegerField(min_value=1, max_value=MAX_SEATS, required=False)


class OwedPostSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=OWED_BLIND_KINDS,
        help_text="dead_sb: a small blind into the pot (dead); posted_bb / posted_sb: live.",
    )


class MissedBlindSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=MISSED_BLIND_KINDS)


class NextHandSerializer(serializers.Serializer):
    """The next hand as it would be dealt now (nothing is written)."""

    button_seat = serializers.IntegerField(help_text="May be a dead button (SEAT-5).")
    small_blind_seat = serializers.IntegerField(
        allow_null=True, help_text="null: the small blind is dead (SEAT-5)."
    )
    dead_small_blind_seat = serializers.IntegerField(allow_null=True)
    big_blind_seat = serializers.IntegerField()
    dealt_in = serializers.ListField(child=serializers.IntegerField())
    posts = OwedPostSerializer(many=True, help_text="Owed blinds posted (SEAT-15, SEAT-16).")
    waiting = serializers.ListField(
        child=serializers.IntegerField(), help_text="Seats waiting for the big blind."
    )
    became_waiting = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="New players between the button and the big blind: they wait unless they "
        "post both blinds (SEAT-15) -- ask them before dealing.",
    )
    missed = MissedBlindSerializer(many=True, help_text="Blinds passing players sitting out.")
    new_game = StrictBooleanField()
    heads_up = StrictBooleanField()


class SeatPlayerRequest(RequestSerializer):
    player_id = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT)
    seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    buy_in = StrictIntegerField(min_value=1, max_value=MAX_AMOUNT, help_text="CZK")
    paid_with = serializers.ChoiceField(
        choices=["cash", "chips"],
        default="cash",
        help_text="cash given at the table (drop) or chips bought at the cage",
    )


class CashOutResponse(serializers.Serializer):
    seat = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="The whole stack cashed out, CZK (SES-5).")
    table = TableSerializer()


# --- hands ---------------------------------------------------------------------------------


class StartHandRequest(RequestSerializer):
    button_seat = StrictIntegerField(
        min_value=1,
        max_value=MAX_SEATS,
        required=False,
        allow_null=True,
        help_text="Button draw outcome when a game starts (SEAT-1); afterwards the button "
        "moves clockwise by itself (SEAT-4).",
    )
    straddles = BoundedListField(
        child=StrictIntegerField(min_value=1, max_value=MAX_SEATS),
        max_length=MAX_SEATS,
        required=False,
        default=list,
        help_text="Seats posting a straddle, from under the gun on (SEAT-18..20).",
    )


class ActionRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    action = serializers.ChoiceField(choices=ACTIONS)
    amount_to = StrictIntegerField(
        min_value=1,
        max_value=MAX_AMOUNT,
        required=False,
        allow_null=True,
        help_text="For bet/raise: the player's total bet on this street after the action. "
        "Refused (unknown_field) with any other action: a call is always of what is owed.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("amount_to") is not None and attrs["action"] not in AMOUNT_ACTIONS:
            raise serializers.ValidationError(
                {
                    "amount_to": [
                        serializers.ErrorDetail(
                            gettext("%(action)s takes no amount_to (only bet and raise).")
                            % {"action": attrs["action"]},
                            code=UNKNOWN_FIELD,
                        )
                    ]
                }
            )
        return attrs


class BoardRequest(RequestSerializer):
    street = serializers.ChoiceField(choices=["flop", "turn", "river"])
    # the shape only (spaces allowed, "Qs 9c 4s"): how many cards a street takes is the
    # hand's rule, refused with it (BET-2; four on the flop is MIS-17's, QA found that the
    # field's old 6-character limit answered 400 before the rule was reached)
    cards = SafeCharField(max_length=16, help_text='e.g. "Qs9c4s" for a flop, "As" turn.')
    run = StrictIntegerField(
        min_value=1, max_value=3, default=1, help_text="Which run, when run more than once."
    )


class RunItRequest(RequestSerializer):
    times = StrictIntegerField(min_value=2, max_value=3, help_text="RAKE-10")


class ReasonRequest(RequestSerializer):
    reason = SafeCharField(max_length=500, allow_blank=True)


class RabbitHuntRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    cards = SafeCharField(max_length=6)
    fee = StrictIntegerField(
        # the shape only: "at least 1" is RAKE-8's, held by the hand's domain alone, so a
        # fee of 0 answers 422 with the rule like every other hand refusal
        min_value=0,
        max_value=MAX_AMOUNT,
        help_text="CZK, at least 1: the requester pays (RAKE-8)",
    )
    consenting_seats = BoundedListField(
        required=False, max_length=MAX_SEATS,
        child=StrictIntegerField(min_value=1, max_value=MAX_SEATS),
        help_text="The other players dealt in, who consent (RAKE-8): every one of them. "
        "Omitted: their consent was recorded before (record_rabbit_consent).",
    )  # fmt: skip


class ShowRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    cards = SafeCharField(max_length=8, help_text='e.g. "AcKd" (NLH), "AhKcQsJh" (PLO).')


class MuckRequest(RequestSerializer):
    seat = StrictIntegerField(min_value=1, max_value=MAX_SEATS)
    deliberate = StrictBooleanField(
        required=False,
        default=False,
        help_text="The player threw his hand away on purpose (may be penalised). An all-in "
        "hand is never mucked otherwise (SD-12: 422 all_in_hand_not_mucked).",
    )


class AwardRequest(RequestSerializer):
    winners_by_pot = BoundedListField(
        child=BoundedListField(
            child=StrictIntegerField(min_value=1, max_value=MAX_SEATS),
            min_length=1,
            max_length=MAX_SEATS,
        ),
        min_length=1,
        max_length=MAX_SEATS,
        help_text="Winning seats of each pot, main pot first.",
    )
    winners_by_run = BoundedListField(
        child=BoundedListField(
            child=BoundedListField(
                child=StrictIntegerField(min_value=1, max_value=MAX_SEATS), max_length=MAX_SEATS
            ),
            max_length=MAX_SEATS,
        ),
        max_length=3,  # RAKE-10: at most three runs
        required=False,
        default=list,
        help_text="When the board was run several times: per run, the winners of each pot.",
    )


class HandSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player_id = serializers.IntegerField()
    starting_stack = serializers.IntegerField()
    stack = serializers.IntegerField(help_text="Chips behind now (final stack once complete).")
    bet = serializers.IntegerField(help_text="Bet on the current street.")
    contributed = serializers.IntegerField(help_text="Total put in this hand.")
    folded = StrictBooleanField()
    all_in = StrictBooleanField()
    shown = serializers.CharField(allow_null=True)
    mucked = StrictBooleanField()


class LegalActionsSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    to_call = serializers.IntegerField()
    call_to = serializers.IntegerField()
    can_check = StrictBooleanField()
    can_fold = StrictBooleanField()
    can_bet = StrictBooleanField()
    can_raise = StrictBooleanField()
    min_raise_to = serializers.IntegerField(allow_null=True)
    max_raise_to = serializers.IntegerField(allow_null=True)
    all_in_to = serializers.IntegerField()


class AwardSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    amount = serializers.IntegerField()


class BestHandSerializer(serializers.Serializer):
    """The hand a winner won with, as the dealer announces it (SD-1)."""

    category = serializers.ChoiceField(choices=CATEGORIES)
    cards = serializers.CharField(
        help_text='The best five cards, the defining ones first ("KhKdKs7c7h").'
    )


class WinnerSerializer(AwardSerializer):
    hand = BestHandSerializer(
        allow_null=True,
        help_text="Null when the winner's cards were not shown (an uncontested pot, a"
        " manual award), and on a pot whose board ran more than once: each run's winners"
        " in ``runs`` name theirs.",
    )


class RunShareSerializer(serializers.Serializer):
    run = serializers.IntegerField(help_text="1, 2 or 3: the board in ``boards``.")
    amount = serializers.IntegerField(help_text="The run's share of the pot after rake.")
    winners = WinnerSerializer(many=True)


class PotResultSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    amount = serializers.IntegerField()
    rake = serializers.IntegerField()
    eligible_seats = serializers.ListField(child=serializers.IntegerField())
    winners = WinnerSerializer(many=True, help_text="Each winner's total over the runs.")
    runs = RunShareSerializer(
        many=True, help_text="What each run paid (RAKE-10); empty when the board ran once."
    )


class HandResultSerializer(serializers.Serializer):
    method = serializers.CharField()
    rake = serializers.IntegerField()
    uncalled = AwardSerializer(many=True)
    pots = PotResultSerializer(many=True)


class PotSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="0 is the main pot, then side pots.")
    amount = serializers.IntegerField()
    eligible_seats = serializers.ListField(child=serializers.IntegerField())


class ForcedBetSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=FORCED_BET_KINDS,
        help_text="dead_sb / posted_bb / posted_sb: blinds owed by returning or new players "
        "(SEAT-15, SEAT-16).",
    )
    amount = serializers.IntegerField(help_text="What was really posted (short stacks).")


class ShowOrderSerializer(serializers.Serializer):
    seats = serializers.ListField(child=serializers.IntegerField())
    rule = serializers.CharField(help_text="SD-10, SD-13, SD-14 or SD-15.")


class FloorClockSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="The player to act, on the clock.")
    called_by = serializers.IntegerField()
    called_at = serializers.DateTimeField()
    final_countdown_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="UTC; then BET-28 or BET-29 applies.")
    expiry = serializers.ChoiceField(choices=CLOCK_EXPIRIES)


class ExposureSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    cards = serializers.CharField()
    passive = StrictBooleanField()
    folded = StrictBooleanField()
    rule = serializers.CharField()


class BurnSerializer(serializers.Serializer):
    street = serializers.CharField()
    card = serializers.CharField()


class PendingOutOfTurnSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    action = serializers.CharField()
    amount_to = serializers.IntegerField(allow_null=True)


class FloorViewSerializer(serializers.Serializer):
    """The floor's rulings in a hand (``tables.domain.hand_rulings.FloorView``)."""

    clock = FloorClockSerializer(allow_null=True, help_text="Counting on the player to act.")
    passive_seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="May not bet or raise (BET-30..32)."
    )
    exposures = ExposureSerializer(many=True)
    burns = BurnSerializer(many=True)
    out_of_turn = PendingOutOfTurnSerializer(
        many=True, help_text="Ruled when the action reaches the seat (BET-25/26)."
    )


class HandSerializer(serializers.Serializer):
    """The hand as the dealer tablet shows it."""

    hand_id = serializers.CharField()
    table_id = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Hand stream version (for If-Match).")
    game = serializers.CharField()
    button_seat = serializers.IntegerField(help_text="May be a dead button (SEAT-5).")
    small_blind_seat = serializers.IntegerField(
        allow_null=True, help_text="null: the small blind is dead (SEAT-5)."
    )
    big_blind_seat = serializers.IntegerField()
    posts = ForcedBetSerializer(many=True)
    phase = serializers.ChoiceField(choices=["betting", "awaiting_board", "showdown", "complete"])
    street = serializers.CharField()
    next_street = serializers.CharField(allow_null=True)
    board = serializers.ListField(child=serializers.CharField())
    to_act = serializers.IntegerField(allow_null=True)
    legal = LegalActionsSerializer(allow_null=True)
    pot = serializers.IntegerField(help_text="Every chip put in so far, bets included.")
    pots = PotSerializer(many=True, help_text="Main and side pots as they stand (SD-20).")
    boards = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="One board per run (one unless the players ran it more than once).",
    )
    run_count = serializers.IntegerField()
    next_run = serializers.IntegerField(allow_null=True)
    straddles = serializers.ListField(child=serializers.IntegerField())
    show_order = ShowOrderSerializer(
        allow_null=True,
        help_text="At a showdown still to be shown: who shows first and the order after him "
        "(SD-13..15; every hand at once when a player is all-in, SD-10).",
    )
    voided = serializers.DictField(allow_null=True, help_text="Misdeal or void, if any.")
    rabbit = serializers.DictField(allow_null=True, help_text="Rabbit hunt, if any.")
    floor = FloorViewSerializer(allow_null=True, help_text="null: no ruling in this hand.")
    seats = HandSeatSerializer(many=True)
    result = HandResultSerializer(allow_null=True)


class HandListQuery(serializers.Serializer):
    limit = serializers.IntegerField(min_value=1, max_value=500, default=50)
    before = serializers.IntegerField(min_value=1, required=False)


class HandSummarySerializer(serializers.Serializer):
    """A past or running hand of a table, as the floor lists them."""

    hand_id = serializers.CharField()
    hand_number = serializers.IntegerField()
    button_seat = serializers.IntegerField()
    players = serializers.IntegerField()
    status = serializers.CharField(help_text="running, complete or voided.")
    rake = serializers.IntegerField(help_text="CZK (0 while running).")
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


class HandLogEntrySerializer(serializers.Serializer):
    """One step of a hand as recorded: the event and who recorded it, when."""

    version = serializers.IntegerField(help_text="Step number in the hand's stream (1, 2 ...).")
    event_type = serializers.CharField(help_text="e.g. tables.ActionTaken.")
    data = serializers.DictField(help_text="The event fields (tables/events.py).")  # type: ignore[assignment]
    recorded_at = serializers.DateTimeField(help_text="UTC.")
    actor = serializers.CharField(
        help_text="device:<id>, user:<id> or system:<name>: who recorded the step."
    )
    actor_name = serializers.CharField(
        allow_null=True, help_text="The device's name or the staff username, if known."
    )
    device = serializers.CharField(allow_null=True, help_text="The recording device's name.")
