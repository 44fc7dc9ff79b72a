"""Read models of tournaments: projections of the ``tournament-<id>`` streams, written only
by ``tournaments.projections`` (rebuilt by ``manage.py rebuild_projections``). The live
clock (time left, next break) is computed from the aggregate when read."""

from django.db import models


class TournamentView(models.Model):
    """A tournament: its published configuration and where it stands. CZK and chips."""

    tournament_id = models.PositiveIntegerField(primary_key=True)
    name = models.CharField(max_length=200)
    status = models.CharField(max_length=12, default="registering")
    config = models.JSONField()
    buy_in = models.PositiveBigIntegerField()
    fee = models.PositiveBigIntegerField()
    starting_stack = models.PositiveBigIntegerField()
    guarantee = models.PositiveBigIntegerField(default=0)
    entries = models.PositiveIntegerField(default=0)
    contributions = models.PositiveBigIntegerField(default=0)
    fees = models.PositiveBigIntegerField(default=0)
    chips_issued = models.PositiveBigIntegerField(default=0)
    level = models.PositiveIntegerField(default=0)
    clock_version = models.PositiveIntegerField(default=0)
    hand_for_hand = models.BooleanField(default=False)
    late_registration_open = models.BooleanField(default=False)
    winner_player_id = models.PositiveIntegerField(null=True)
    prize_pool_final = models.PositiveBigIntegerField(null=True)
    overlay = models.PositiveBigIntegerField(null=True)
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True)
    finished_at = models.DateTimeField(null=True)
    version = models.PositiveIntegerField()

    class Meta:
        ordering = ["tournament_id"]


class EntryView(models.Model):
    """One entry (a registration or a re-entry) and how it ended: place (``place`` ..
    ``place_to`` when tied) and prize, CZK."""

    tournament = models.ForeignKey(
        TournamentView, on_delete=models.CASCADE, related_name="entry_rows"
    )
    entry_number = models.PositiveIntegerField()
    player_id = models.PositiveIntegerField(db_index=True)
    status = models.CharField(
        max_length=12
    )  # registered, playing, eliminated, unregistered, winner
    stack = models.PositiveBigIntegerField(default=0)
    table_id = models.PositiveIntegerField(null=True)
    seat = models.PositiveSmallIntegerField(null=True)
    rebuys = models.PositiveIntegerField(default=0)
    add_ons = models.PositiveIntegerField(default=0)
    place = models.PositiveIntegerField(null=True)
    place_to = models.PositiveIntegerField(null=True)
    prize = models.PositiveBigIntegerField(null=True)
    registered_at = models.DateTimeField()

    class Meta:
        ordering = ["tournament_id", "entry_number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "entry_number"], name="entry_once"),
        ]
