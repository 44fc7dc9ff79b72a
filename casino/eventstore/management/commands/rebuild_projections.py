"""``manage.py rebuild_projections [--since POSITION|TIME] [--stream PATTERN] [--quiet]``:
empty every read model and replay the log (fast path: :mod:`casino.eventstore.rebuild`)."""

import sys
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from casino.eventstore.rebuild import Scope, count_events
from casino.eventstore.rebuild import rebuild as fast_rebuild


def rebuild(batch_size: int = 5000) -> int:
    """Drop and rebuild every registered projection from the log in one transaction.

    Appends wait while it runs (PostgreSQL: ``EXCLUSIVE`` lock on the log, reads go on);
    readers see the old tables until it commits. Returns the number of events replayed.
    """
    return fast_rebuild(batch_size=batch_size)


class Command(BaseCommand):
    help = "Drop and rebuild every projection (read model) from the event log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--since",
            help="log position or ISO time (UTC): apply only the events from there on, to the "
            "current read models (no clearing)",
        )
        parser.add_argument(
            "--stream",
            help="glob of stream names (table-7, waitlist-*): only their events, no clearing",
        )
        parser.add_argument("--batch-size", type=int, default=5000)
        parser.add_argument("--quiet", action="store_true", help="no progress bar")

    def handle(self, *args: Any, **options: Any) -> None:
        from casino.schema import require_schema

        require_schema(migrate=False)
        try:
            scope = Scope.parse(options["since"], options["stream"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        bar = tqdm(
            total=count_events(scope), unit="event", disable=options["quiet"], file=sys.stderr
        )
        started = time.perf_counter()
        count = fast_rebuild(scope, batch_size=options["batch_size"], progress=bar.update)
        bar.close()
        elapsed = time.perf_counter() - started
        what = "rebuilt projections" if scope.clear else "applied to the projections"
        self.stdout.write(
            self.style.SUCCESS(
                f"{what} from {count} events ({count / elapsed if elapsed else 0:.0f} events/s)"
            )
        )
