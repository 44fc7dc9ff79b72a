"""Storage of the event log and of aggregate snapshots.

``StoredEvent`` rows are append-only: the migration installs database triggers that refuse
``UPDATE`` and ``DELETE`` (PostgreSQL and SQLite), so no Python path can rewrite history.
On PostgreSQL each row also carries ``transaction_id`` (``xid8``, not a Django field), which
the tailing reader uses so it never skips an event whose transaction commits late.
"""

from django.db import models


class StoredEvent(models.Model):
    """One event in the log.

    ``position`` orders the whole log; ``(stream, version)`` is unique and gapless per stream;
    ``command_id`` (the device's ``Idempotency-Key``) is unique, set on the first event a
    command appends.
    """

    position = models.BigAutoField(primary_key=True)
    stream = models.CharField(max_length=200)
    version = models.PositiveIntegerField()
    type = models.CharField(max_length=100)
    schema_version = models.PositiveSmallIntegerField()
    data = models.JSONField()
    metadata = models.JSONField(default=dict)
    command_id = models.CharField(max_length=200, null=True, blank=True, unique=True)
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "eventstore_event"
        constraints = [
            models.UniqueConstraint(fields=["stream", "version"], name="event_stream_version_uq"),
        ]

    def __str__(self) -> str:
        return f"{self.stream}@{self.version} {self.type}"


class StreamSnapshot(models.Model):
    """Latest saved state of a long-lived aggregate (e.g. a table), written in the same
    transaction as its events; loading reads it and folds only the newer events.

    ``signature`` is the HMAC of :mod:`casino.eventstore.snapshots`; a snapshot without a
    valid one (empty: written before signing existed) is ignored and the log is folded.
    ``shape``: the fingerprint of the state's type when it was written; a snapshot of
    another shape (the code changed the state since) is ignored the same way."""

    stream = models.CharField(max_length=200, primary_key=True)
    version = models.PositiveIntegerField()
    state = models.JSONField()
    signature = models.CharField(max_length=64, default="", blank=True)
    shape = models.CharField(max_length=32, default="", blank=True)

    class Meta:
        db_table = "eventstore_snapshot"


class CommandRecord(models.Model):
    """The first result of an idempotent command, returned again when a device retries with
    the same ``Idempotency-Key``."""

    command_id = models.CharField(max_length=200, primary_key=True)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField()
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "eventstore_command"
        # the hourly purge finds old records without reading the table (appends at the
        # index's end: recorded_at only grows)
        indexes = [models.Index(fields=["recorded_at"], name="eventstore_command_at_idx")]


class SubscriptionCursor(models.Model):
    """Where a log reader (e.g. the push relay) resumes: ``(transaction_id, position)``."""

    name = models.CharField(max_length=100, primary_key=True)
    transaction_id = models.BigIntegerField(default=0)
    position = models.BigIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "eventstore_subscription"
