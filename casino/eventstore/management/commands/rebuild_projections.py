"""``manage.py rebuild_projections``: empty every read model and replay the whole log."""

from typing import Any

from django.core.management.base import BaseCommand
from django.db import connection, transaction

from casino.eventstore import projections, store


def rebuild(batch_size: int = 2000) -> int:
    """Drop and rebuild every registered projection from the log in one transaction.

    Appends wait while it runs (PostgreSQL: ``EXCLUSIVE`` lock on the log, reads go on);
    readers see the old tables until it commits. Returns the number of events replayed.
    """
    count = 0
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cur:
                cur.execute("LOCK TABLE eventstore_event IN EXCLUSIVE MODE")
        for projection in projections.registry():
            for model in reversed(projection.models):
                model._default_manager.all().delete()
        after = 0
        while batch := store.read_log(after_position=after, limit=batch_size):
            projections.dispatch(batch)
            after = batch[-1].position
            count += len(batch)
    return count


class Command(BaseCommand):
    help = "Drop and rebuild every projection (read model) from the event log."

    def handle(self, *args: Any, **options: Any) -> None:
        from casino.management.schema import require_schema

        require_schema(migrate=False)
        count = rebuild()
        self.stdout.write(self.style.SUCCESS(f"rebuilt projections from {count} events"))
