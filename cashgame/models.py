"""Cash-game configuration (stakes limits, rake schedule) and read models (sessions,
departures for the returning-player rule). Amounts in whole CZK, times in UTC."""

from django.db import models


class StakesLimits(models.Model):
    """Buy-in limits of a game and stakes (BI-3, BI-4; other stakes by agreement, BI-5).

    Configuration, edited by the floor; a new table of these stakes takes them.
    """

    game = models.CharField(max_length=10)
    small_blind = models.PositiveBigIntegerField()
    big_blind = models.PositiveBigIntegerField()
    buy_in_min = models.PositiveBigIntegerField()
    buy_in_max = models.PositiveBigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "small_blind", "big_blind"], name="stakes_uq")
        ]

    def __str__(self) -> str:
        return f"{self.game} {self.small_blind}/{self.big_blind}"


class RakeSchedule(models.Model):
    """Rake of a game from some stakes up: ``percent_bp`` of each pot (basis points), at
    most ``cap`` CZK per hand (RAKE-1..4). The row with the highest ``from_small_blind``
    not above a table's small blind applies."""

    game = models.CharField(max_length=10)
    from_small_blind = models.PositiveBigIntegerField(default=0)
    percent_bp = models.PositiveIntegerField()
    cap = models.PositiveBigIntegerField()
    no_flop_no_drop = models.BooleanField(
        default=True, help_text="A hand won before the flop (a walk) is not raked."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "from_small_blind"], name="rake_step_uq")
        ]

    def __str__(self) -> str:
        return f"{self.game} from {self.from_small_blind}: {self.percent_bp} bp cap {self.cap}"


class CashSession(models.Model):
    """A player's time at one table: from sitting down (or arriving by transfer) to
    cashing out (or leaving by transfer). ``chips_in`` counts the buy-in, top-ups and a
    transferred stack; ``chips_out`` the cash-out or the stack transferred away;
    ``partial_cash_outs`` the chips the floor let him take off the table meanwhile (SES-6),
    CZK."""

    player_id = models.PositiveBigIntegerField(db_index=True)
    table_id = models.PositiveIntegerField(db_index=True)
    game = models.CharField(max_length=10)
    small_blind = models.PositiveBigIntegerField()
    big_blind = models.PositiveBigIntegerField()
    seat = models.PositiveSmallIntegerField()
    seated_at = models.DateTimeField()
    left_at = models.DateTimeField(null=True)
    chips_in = models.PositiveBigIntegerField(default=0)
    chips_out = models.PositiveBigIntegerField(null=True)
    refreshments = models.PositiveBigIntegerField(default=0)
    partial_cash_outs = models.PositiveBigIntegerField(default=0)
    arrived_by_transfer = models.BooleanField(default=False)
    left_by_transfer = models.BooleanField(default=False)

    class Meta:
        ordering = ["seated_at", "id"]


class Departure(models.Model):
    """When a player last cashed out of a game and stakes, and with how much (SES-7)."""

    player_id = models.PositiveBigIntegerField()
    game = models.CharField(max_length=10)
    small_blind = models.PositiveBigIntegerField()
    big_blind = models.PositiveBigIntegerField()
    left_at = models.DateTimeField()
    amount = models.PositiveBigIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player_id", "game", "small_blind", "big_blind"], name="departure_uq"
            )
        ]


class SeatingRestriction(models.Model):
    """Two players management does not let sit at the same table (BI-11)."""

    player_a = models.PositiveBigIntegerField()
    player_b = models.PositiveBigIntegerField()
    reason = models.CharField(max_length=200)
    created_by = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_a", "player_b"], name="restriction_uq"),
            models.CheckConstraint(
                condition=models.Q(player_a__lt=models.F("player_b")), name="restriction_order"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a} / {self.player_b}"


class ChipMovement(models.Model):
    """One movement of chips onto or off a seat outside a hand: the cash game's ledger.

    ``kind`` is ``buy_in``, ``top_up``, ``cash_out``, ``refreshment``, ``transfer_in``,
    ``transfer_out``, ``sidebet_won``, ``sidebet_lost``, ``gift_received``, ``gift_given``
    ``partial_cash_out`` or ``dealer_fee``; ``amount`` in CZK (>= 0).
    Drop (cash that entered the game) is buy-ins plus top-ups.
    """

    class Kind(models.TextChoices):
        BUY_IN = "buy_in"
        TOP_UP = "top_up"
        CASH_OUT = "cash_out"
        REFRESHMENT = "refreshment"
        TRANSFER_IN = "transfer_in"
        TRANSFER_OUT = "transfer_out"
        SIDEBET_WON = "sidebet_won"
        SIDEBET_LOST = "sidebet_lost"
        GIFT_RECEIVED = "gift_received"
        GIFT_GIVEN = "gift_given"
        PARTIAL_CASH_OUT = "partial_cash_out"
        DEALER_FEE = "dealer_fee"

    position = models.BigIntegerField(help_text="Log position of the event.")
    at = models.DateTimeField(db_index=True)
    table_id = models.PositiveIntegerField(db_index=True)
    game = models.CharField(max_length=10)
    small_blind = models.PositiveBigIntegerField()
    big_blind = models.PositiveBigIntegerField()
    player_id = models.PositiveBigIntegerField(db_index=True)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount = models.PositiveBigIntegerField()
    paid_with = models.CharField(
        max_length=10, blank=True, help_text="For buy-ins and top-ups: cash (drop) or chips."
    )

    class Meta:
        ordering = ["position", "kind"]


class CageTransaction(models.Model):
    """A sale or redemption of chips at the cage (cash in or cash out), CZK."""

    class Kind(models.TextChoices):
        SOLD = "sold"
        REDEEMED = "redeemed"

    position = models.BigIntegerField()
    at = models.DateTimeField(db_index=True)
    player_id = models.PositiveBigIntegerField(db_index=True)
    session_id = models.PositiveBigIntegerField(null=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    amount = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["position"]


class PrizePayment(models.Model):
    """A tournament prize the cage paid in cash (``tournaments.WinningsPaid``), CZK; at most
    one per entry. ``prize`` is the entry's prize; ``amount`` the cash handed over with this
    row: one payment settles everything the player is owed, so its first row also carries
    what the payment paid beyond its entries' prizes (``bounties`` won, a deal or early-payout
    remainder, refunded fees). The rows' ``amount`` add up to the cash the cage paid out."""

    position = models.BigIntegerField()
    at = models.DateTimeField(db_index=True)
    player_id = models.PositiveBigIntegerField(db_index=True)
    tournament_id = models.PositiveIntegerField()
    entry_number = models.PositiveIntegerField()
    place = models.PositiveIntegerField()
    prize = models.PositiveBigIntegerField(default=0)
    bounties = models.PositiveBigIntegerField(default=0)
    amount = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament_id", "entry_number"], name="prize_paid_once"
            )
        ]


class TournamentCageTransaction(models.Model):
    """Tournament money through the cage (issue #14), projected from the tournament streams:
    cash received for an entry (buy-in to the prize pool, fee to the house, knockout bounty)
    and for re-entries, rebuys and add-ons; cash paid back (unregistration refunds) and out
    (prizes, bounties). ``amount`` CZK, always positive; ``direction`` ``in`` or ``out``."""

    class Kind(models.TextChoices):
        BUY_IN = "buy_in"
        FEE = "fee"
        BOUNTY_IN = "bounty_in"
        RE_ENTRY = "re_entry"
        REBUY = "rebuy"
        ADD_ON = "add_on"
        REFUND = "refund"
        PRIZE = "prize"
        BOUNTY_PAID = "bounty_paid"
        # not cash (TREG-11): a satellite seat or T-Money, for a buy-in (and bounty) or a fee
        TICKET = "ticket"
        TICKET_FEE = "ticket_fee"

    position = models.BigIntegerField()
    at = models.DateTimeField(db_index=True)
    tournament_id = models.PositiveIntegerField(db_index=True)
    player_id = models.PositiveBigIntegerField(db_index=True)
    kind = models.CharField(max_length=12, choices=Kind.choices)
    direction = models.CharField(max_length=3)
    amount = models.PositiveBigIntegerField()

    class Meta:
        ordering = ["position", "id"]
