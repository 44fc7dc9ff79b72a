"""``manage.py relay``: push committed events to WebSocket clients.

Run two per deployment: one pushes, the other stands by and takes over within
``--standby-poll`` seconds when the first dies (PostgreSQL advisory lock, see
:mod:`casino.realtime.relay`). SIGTERM or SIGINT stops it after the batch in flight.
``--gather`` trades push latency for CPU (``docs/realtime.md``, "Hot path").
"""

import asyncio
import signal
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from casino.realtime.relay import RELAY, Relay
from casino.security import require_secret_key

MAX_GATHER = 1.0
"""Longest ``--gather`` accepted, seconds: a push later than that is no longer live."""


class Command(BaseCommand):
    help = "Tail the event log and publish every committed event to the channel layer."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", default=RELAY, help="cursor and lock name")
        parser.add_argument("--batch-size", type=int, default=5000, help="events per read")
        parser.add_argument(
            "--standby-poll", type=float, default=0.5, help="seconds between takeover tries"
        )
        parser.add_argument(
            "--gather",
            type=float,
            default=0.01,
            help="seconds a woken relay waits to read the commits of a busy room together "
            "(more: less CPU per event, later pushes; docs/realtime.md)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from casino.schema import require_schema

        if not 0 <= options["gather"] <= MAX_GATHER:
            raise CommandError(f"--gather is 0 to {MAX_GATHER} seconds.")
        require_secret_key()
        require_schema(migrate=False)  # runs as the restricted role: it may not migrate
        relay = Relay(
            options["name"],
            batch_size=options["batch_size"],
            standby_poll=options["standby_poll"],
            gather=options["gather"],
        )
        self.stdout.write(f"relay {relay.name}: starting (standby until it holds the lock)")
        self.stdout.flush()
        asyncio.run(self._serve(relay))

    async def _serve(self, relay: Relay) -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await relay.run(stop)
