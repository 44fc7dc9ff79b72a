"""The push relay: tails the committed log and publishes each event to its groups.

Pushes come from the log, never from the writer's memory, so an event committed by a
process that dies before publishing (an API worker, a Celery task) is still pushed. The
relay's cursor is saved after each batch: after a restart it resumes there, so a push may
repeat but is never lost; consumers drop what they already sent (per-stream versions).

Groups: ``table-<id>`` (the table stream and its hands' streams), ``floor`` (every table
stream), ``waitlist`` (every ``waitlist-*`` stream), ``stream-<name>`` (any stream, e.g.
``stream-cage``). Production runs one relay process (``manage.py relay``, Redis channel
layer); the embedded ``up`` runs it in a thread beside the server (in-process channel layer).
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import close_old_connections, transaction

from casino.eventstore import store
from casino.eventstore.models import SubscriptionCursor
from casino.realtime.messages import event_message

logger = logging.getLogger("casino.realtime")

RELAY = "relay"
_TABLE = re.compile(r"^table-(\d+)$")
_HAND = re.compile(r"^(?:show-)?hand-([0-9a-f-]{36})$")  # hold'em/Omaha/FL and Show poker


class Relay:
    """Publishes the log to channel-layer groups, resuming from its saved cursor."""

    def __init__(self, name: str = RELAY, *, start_at_tail: bool = False) -> None:
        self.name = name
        self.layer = get_channel_layer()
        self.hand_tables: dict[str, int] = {}
        cursor, created = SubscriptionCursor.objects.get_or_create(name=name)
        if created and start_at_tail:
            cursor.transaction_id, cursor.position = store.tail_cursor()
            cursor.save()
        self.cursor = (cursor.transaction_id, cursor.position)

    def groups_for(self, recorded: store.RecordedEvent) -> list[str]:
        """The channel-layer groups that receive ``recorded``."""
        groups = [f"stream-{recorded.stream}"]
        if match := _TABLE.match(recorded.stream):
            groups += [f"table-{match.group(1)}", "floor"]
        elif match := _HAND.match(recorded.stream):
            table_id = self._table_of_hand(match.group(1), recorded)
            if table_id is not None:
                groups.append(f"table-{table_id}")
        elif recorded.stream.startswith("waitlist-"):
            groups.append("waitlist")  # every waiting list (issue #5)
        return groups

    def _table_of_hand(self, hand_id: str, recorded: store.RecordedEvent) -> int | None:
        if hand_id not in self.hand_tables:
            table_id = getattr(recorded.event, "table_id", None)
            if table_id is None:
                from tables.models import HandView

                table_id = (
                    HandView.objects.filter(hand_id=hand_id)
                    .values_list("table_id", flat=True)
                    .first()
                )
            if table_id is None:
                return None
            self.hand_tables[hand_id] = int(table_id)
        return self.hand_tables[hand_id]

    def pump(self, limit: int = 500) -> int:
        """Publish the next committed events; returns how many."""
        batch = store.read_all(self.cursor, limit=limit)
        send = async_to_sync(self.layer.group_send)
        for recorded in batch:
            message: dict[str, Any] = {"type": "log.event", "message": event_message(recorded)}
            for group in self.groups_for(recorded):
                send(group, message)
        if batch:
            self.cursor = batch[-1].cursor
            with transaction.atomic():
                SubscriptionCursor.objects.filter(name=self.name).update(
                    transaction_id=self.cursor[0], position=self.cursor[1]
                )
        return len(batch)

    def run(self, stop: threading.Event, *, idle_wait: float = 0.05) -> None:
        """Pump until ``stop`` is set, waiting ``idle_wait`` seconds when nothing is new."""
        while not stop.is_set():
            try:
                if not self.pump():
                    stop.wait(idle_wait)
            except Exception:  # keep pushing after a database hiccup
                logger.exception("relay pump failed; retrying")
                close_old_connections()
                stop.wait(1.0)


def start_in_thread(*, idle_wait: float = 0.05) -> threading.Event:
    """Run a relay in a daemon thread (embedded mode); set the returned event to stop it."""
    stop = threading.Event()

    def target() -> None:
        relay = Relay(start_at_tail=True)
        relay.run(stop, idle_wait=idle_wait)

    threading.Thread(target=target, name="casino-relay", daemon=True).start()
    return stop
