"""Read models of tables, seats and hands: projections of the event log, never written
outside ``tables.projections`` (rebuilt by ``manage.py rebuild_projections``)."""

from django.db import models


class TableView(models.Model):
    """A table's configuration and where it stands. Amounts in CZK (cash) or chips."""

    table_id = models.PositiveIntegerField(primary_key=True)
    name = models.CharField(max_length=200)  # a tournament table bears its name (200)
    game = models.CharField(max_length=10)
    small_blind = models.PositiveBigIntegerField()
    big_blind = models.PositiveBigIntegerField()
    ante = models.PositiveBigIntegerField()
    ante_type = models.CharField(max_length=20)
    buy_in_min = models.PositiveBigIntegerField()
    buy_in_max = models.PositiveBigIntegerField()
    rake_percent_bp = models.PositiveIntegerField()
    rake_cap = models.PositiveBigIntegerField()
    no_flop_no_drop = models.BooleanField()
    min_raise_rule = models.CharField(max_length=30)
    max_seats = models.PositiveSmallIntegerField()
    returning_player_rule = models.BooleanField(default=True)
    button_rule = models.CharField(max_length=20, default="forward")
    cash_new_player_entry = models.CharField(max_length=20, default="immediate_no_post")
    missed_blind_sb_dead = models.BooleanField(default=True)
    mode = models.CharField(max_length=12, default="cash")  # or "tournament"
    tournament_id = models.PositiveIntegerField(null=True, db_index=True)
    status = models.CharField(max_length=10, default="open")
    button_seat = models.PositiveSmallIntegerField(null=True)
    current_hand_id = models.CharField(max_length=36, null=True)
    hands_played = models.PositiveIntegerField(default=0)
    rake_total = models.PositiveBigIntegerField(default=0)
    version = models.PositiveIntegerField()
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["table_id"]


class SeatView(models.Model):
    """An occupied seat and the stack in front of it (updated after every hand).

    The database itself keeps a player at one cash table at a time (BI-10) and at one
    table of a tournament: two seatings racing at two tables cannot both commit, since
    the seat row is written in the seating's own transaction (guarantee 4).
    """

    table = models.ForeignKey(TableView, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player_id = models.PositiveIntegerField(db_index=True)
    stack = models.PositiveBigIntegerField()
    seated_at = models.DateTimeField()
    tournament_id = models.PositiveIntegerField(null=True)  # None: a cash table

    class Meta:
        ordering = ["table_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="seat_once_per_table"),
            models.UniqueConstraint(
                fields=["player_id"],
                condition=models.Q(tournament_id__isnull=True),
                name="one_cash_seat_per_player",
            ),
            models.UniqueConstraint(
                fields=["player_id", "tournament_id"],
                condition=models.Q(tournament_id__isnull=False),
                name="one_seat_per_player_per_tournament",
            ),
        ]


class HandView(models.Model):
    """One hand: where it was played and how it ended."""

    hand_id = models.CharField(max_length=36, primary_key=True)
    table = models.ForeignKey(TableView, on_delete=models.CASCADE, related_name="hands")
    hand_number = models.PositiveIntegerField()
    button_seat = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, default="running")
    pot = models.PositiveBigIntegerField(default=0)
    rake = models.PositiveBigIntegerField(default=0)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["table_id", "hand_number"]
