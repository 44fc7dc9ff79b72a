"""``manage.py relay``: push committed events to WebSocket clients.

Run two per deployment: one pushes, the other stands by and takes over within
``--standby-poll`` seconds when the first dies (PostgreSQL advisory lock, see
:mod:`casino.realtime.relay`). SIGTERM or SIGINT stops it after the batch in flight.
"""

import asyncio
import signal
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from casino.realtime.relay import RELAY, Relay
from casino.security import require_secret_key


class Command(BaseCommand):
    help = "Tail the event log and publish every committed event to the channel layer."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", default=RELAY, help="cursor and lock name")
        parser.add_argument("--batch-size", type=int, default=5000, help="events per read")
        parser.add_argument(
            "--standby-poll", type=float, default=0.5, help="seconds between takeover tries"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from casino.schema import require_schema

        require_secret_key()
        require_schema(migrate=False)  # runs as the restricted role: it may not migrate
        relay = Relay(
            options["name"],
            batch_size=options["batch_size"],
            standby_poll=options["standby_poll"],
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
