"""``manage.py relay``: push committed events to WebSocket clients (one per deployment)."""

import signal
import threading
from typing import Any

from django.core.management.base import BaseCommand

from casino.realtime.relay import Relay


class Command(BaseCommand):
    help = "Tail the event log and publish every committed event to the channel layer."

    def handle(self, *args: Any, **options: Any) -> None:
        from casino.schema import require_schema

        require_schema(migrate=False)  # runs as the restricted role: it may not migrate
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        relay = Relay(start_at_tail=True)
        self.stdout.write(f"relay: publishing from {relay.cursor}")
        relay.run(stop)
