"""Read models of the waiting lists: projections of the ``waitlist-*`` streams, written only
by :mod:`waitlist.projections` and rebuilt by ``manage.py rebuild_projections``.
Times are UTC; amounts CZK."""

from django.db import models


class WaitingList(models.Model):
    """A list for one game and stakes: ``list_kind`` is ``waiting``, ``interest`` or
    ``table_change``. ``table_id``: the table an interest list was promoted to;
    ``main_table_id``/``must_move_table_id``: the game's must-move link, if any."""

    list_id = models.CharField(max_length=60, primary_key=True)
    list_kind = models.CharField(max_length=15)
    game = models.CharField(max_length=10)
    small_blind = models.PositiveBigIntegerField()
    big_blind = models.PositiveBigIntegerField()
    table_id = models.PositiveIntegerField(null=True)
    main_table_id = models.PositiveIntegerField(null=True)
    must_move_table_id = models.PositiveIntegerField(null=True)
    version = models.PositiveIntegerField()
    opened_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "small_blind", "big_blind", "list_kind"]

    def __str__(self) -> str:
        return self.list_id


class WaitlistEntry(models.Model):
    """A name on a list at ``position`` (1-based, contiguous). The callback number is for
    the floor only, never for the board: ``phone_ref`` keys it in the contact store
    (``casino.contacts``); ``phone`` holds it only for entries listed before that store."""

    entry_id = models.CharField(max_length=36, primary_key=True)
    waiting_list = models.ForeignKey(WaitingList, on_delete=models.CASCADE, related_name="entries")
    player_id = models.PositiveBigIntegerField(db_index=True)
    position = models.PositiveIntegerField()
    channel = models.CharField(max_length=10)
    phone = models.CharField(max_length=40, blank=True)
    phone_ref = models.CharField(max_length=36, blank=True)
    from_table_id = models.PositiveIntegerField(null=True)
    misses = models.PositiveSmallIntegerField(default=0)
    away = models.BooleanField(default=False)
    listed_at = models.DateTimeField()

    class Meta:
        ordering = ["waiting_list_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["waiting_list", "player_id"], name="waitlist_player_once_per_list"
            ),
        ]


class WaitlistCall(models.Model):
    """A call-in: ``status`` is ``open`` until the player is seated (``answered``), the call
    is ``cancelled`` or he is not there (``missed``)."""

    call_id = models.CharField(max_length=36, primary_key=True)
    waiting_list = models.ForeignKey(WaitingList, on_delete=models.CASCADE, related_name="calls")
    player_id = models.PositiveBigIntegerField()
    table_id = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    called_at = models.DateTimeField()
    deadline = models.DateTimeField()
    status = models.CharField(max_length=10, default="open")
    closed_at = models.DateTimeField(null=True)

    class Meta:
        ordering = ["called_at", "call_id"]
        indexes = [models.Index(fields=["status", "deadline"], name="waitlist_call_due_idx")]
