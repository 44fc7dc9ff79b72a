"""The push relay: tails the committed log and publishes each event to its groups.

Pushes come from the log, never from the writer's memory, so an event committed by a
process that dies before publishing (an API worker, a Celery task) is still pushed.

How it runs (docs/realtime.md, "Where pushes come from"):

* **One asyncio loop.** The relay is a coroutine (:meth:`Relay.run`): the channel layer's
  ``group_send`` is awaited on the loop's persistent connection pool, never through
  ``async_to_sync`` (which built a loop and a Redis connection per send). Database reads
  run on one dedicated thread (Django's connection for that thread), one hop per batch.
* **Batches.** Up to ``batch_size`` committed events are read at once (``(transaction_id,
  position)`` order, :func:`casino.eventstore.store.read_entries`); each group gets one
  ``log.events`` message per batch holding its events in log order (at most
  ``MESSAGE_EVENTS`` per message). Consumers handle them one by one.
* **Woken by the database.** On PostgreSQL an ``AFTER INSERT`` statement trigger on the log
  sends ``NOTIFY casino_log`` at commit; the relay ``LISTEN``s on its own psycopg
  connection and reads as soon as one arrives (and every ``poll`` seconds regardless, so a
  transaction held open elsewhere only delays, never loses). SQLite (the embedded mode) has
  no ``NOTIFY``: a commit in the relay's own process wakes it (``up`` serves the API, the
  timers and the relay in one process), and it reads every ``poll`` seconds regardless
  (``RELAY_SQLITE_POLL_SECONDS``: 0.5 s, 0.05 s under ``up --workers 2`` and more).
* **Stored cursor.** After a batch is published the cursor is saved (``SubscriptionCursor``),
  so after a crash (kill -9 at any moment) the relay resumes there: a push may repeat (the
  consumers drop repeats by stream version) but is never lost.
* **One active, any number standing by.** On PostgreSQL a relay pushes only while it holds
  a session advisory lock on its listening connection. A standby retries the lock every
  ``standby_poll`` seconds; when the active relay dies its connection closes, the lock is
  released and a standby takes over from the stored cursor.

Routing (which groups see which event) is :mod:`casino.realtime.groups`, filled in by the
apps. ``manage.py relay`` runs :meth:`Relay.run` under ``asyncio.run``; the embedded
``manage.py up`` runs the same coroutine in the server's own event loop (ASGI lifespan,
:mod:`casino.asgi`), beside the in-process channel layer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.db import close_old_connections, connection, connections, transaction

from casino import metrics
from casino.eventstore import rows, store
from casino.eventstore.models import SubscriptionCursor
from casino.realtime import groups
from casino.realtime.messages import entry_message

logger = logging.getLogger("casino.realtime")

RELAY = "relay"
NOTIFY_CHANNEL = "casino_log"
"""The PostgreSQL ``NOTIFY`` channel the log's insert trigger signals (migration 0003)."""
MESSAGE_EVENTS = 200
"""At most this many events in one channel-layer message."""
SEQUENCE_GROUPS = 50_000
"""Groups whose message numbers the relay keeps (the most recently sent to): groups come and
go with hands and players, so the map is bounded. A group forgotten and sent to again starts
at 1, which its feeds take as a possible loss and answer by reading the log (harmless)."""
SEND_CONCURRENCY = 64
"""Group sends in flight at once (each is a couple of Redis round trips)."""

Publish = dict[str, list[dict[str, Any]]]


class Relay:
    """Publishes the committed log to channel-layer groups from a stored cursor.

    Args:
        name: the cursor's (and the advisory lock's) name; one active relay per name.
        batch_size: events read per batch.
        poll: seconds between reads when nothing wakes the relay.
        standby_poll: seconds between a standby's attempts to take the lock.
        gather: seconds a woken relay waits before it reads, so that the commits of a busy
            room are read and published together (one read, one send per group and one
            cursor save for all of them) rather than one batch per commit.
        start_at_tail: a relay with no stored cursor starts at the log's current tail
            (what was committed before it first ran is not pushed again).
        layer: the channel layer (default: Django's ``CHANNEL_LAYERS["default"]``).
    """

    def __init__(
        self,
        name: str = RELAY,
        *,
        batch_size: int = 5000,
        poll: float | None = None,
        standby_poll: float = 0.5,
        gather: float = 0.01,
        start_at_tail: bool = True,
        layer: BaseChannelLayer | None = None,
    ) -> None:
        self.name = name
        self.batch_size = batch_size
        self.postgres = connection.vendor == "postgresql"
        self.poll = (
            poll
            if poll is not None
            else (0.5 if self.postgres else settings.RELAY_SQLITE_POLL_SECONDS)
        )
        self.standby_poll = standby_poll
        self.gather = gather
        self.start_at_tail = start_at_tail
        self.layer = layer or get_channel_layer()
        self.cursor: tuple[int, int] = store.TAIL_START
        self.loaded = False
        self.active = False
        self.pushed = 0
        self.last_lag: float = 0.0
        self._db_thread = ThreadPoolExecutor(1, thread_name_prefix=f"relay-{name}-db")
        # Each group's messages are numbered within this relay's term (``epoch``), so a
        # feed can tell that one never reached it (Redis pub/sub delivers at most once)
        # and read what it missed from the log (casino.realtime.consumers.LogEventsMixin).
        self.epoch = uuid.uuid4().hex[:12]
        self._sequence: OrderedDict[str, int] = OrderedDict()
        self._send_slots = asyncio.Semaphore(SEND_CONCURRENCY)

    # -- database work, on the relay's own thread ------------------------------------------

    async def _db[T](self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db_thread, fn, *args)

    def load_cursor(self) -> tuple[int, int]:
        """Read (or create) the stored cursor and start from it (synchronous: call it on a
        thread that may use the database). A new cursor starts at the log's tail when
        ``start_at_tail``."""
        close_old_connections()
        row, created = SubscriptionCursor.objects.get_or_create(name=self.name)
        if created and self.start_at_tail:
            row.transaction_id, row.position = store.tail_cursor()
            row.save()
        self.cursor = (row.transaction_id, row.position)
        self.loaded = True
        return self.cursor

    def _read(self, cursor: tuple[int, int]) -> tuple[int, tuple[int, int], Publish, float]:
        """The next batch after ``cursor``: ``(count, new cursor, messages per group,
        oldest recorded_at as a UNIX time or 0)``."""
        try:
            entries = store.read_entries(cursor, limit=self.batch_size)
        except Exception:
            close_old_connections()
            raise
        publish: Publish = defaultdict(list)
        for entry in entries:
            message = entry_message(entry)
            for group in groups.groups_for(entry.stream, entry.type, entry.data):
                publish[group].append(message)
        if not entries:
            return 0, cursor, {}, 0.0
        return len(entries), entries[-1].cursor, publish, entries[0].recorded_at.timestamp()

    def _save_cursor(self, cursor: tuple[int, int]) -> None:
        """Store the cursor. On PostgreSQL in one message, committed without waiting for
        the WAL flush (``SET LOCAL synchronous_commit``, this transaction only): only a crash
        of the database server itself can lose the last few saves, and then the relay
        pushes those events again, which the consumers drop as repeats. A relay killed at
        any moment loses nothing: the commit is done before the next batch is read."""
        if not self.postgres:
            SubscriptionCursor.objects.filter(name=self.name).update(
                transaction_id=cursor[0], position=cursor[1]
            )
            return
        rows.execute_then_commit(
            connection,
            [
                ("SET LOCAL synchronous_commit TO off", []),
                (
                    f"UPDATE {SubscriptionCursor._meta.db_table} SET transaction_id = %s, "
                    "position = %s WHERE name = %s",
                    [cursor[0], cursor[1], self.name],
                ),
            ],
        )

    # -- publishing ---------------------------------------------------------------------------

    async def _send(self, group: str, events: list[dict[str, Any]]) -> None:
        async with self._send_slots:
            for start in range(0, len(events), MESSAGE_EVENTS):
                chunk = events[start : start + MESSAGE_EVENTS]
                message = {"type": "log.events", "events": chunk, "group": group,
                           "relay": self.epoch, "seq": self.next_seq(group)}  # fmt: skip
                await self.layer.group_send(group, message)

    def next_seq(self, group: str) -> int:
        """The number of the relay's next message to ``group`` (1, 2, ... in this relay's
        term), keeping at most ``SEQUENCE_GROUPS`` groups' numbers."""
        seq = self._sequence.pop(group, 0) + 1
        self._sequence[group] = seq
        if len(self._sequence) > SEQUENCE_GROUPS:
            self._sequence.popitem(last=False)
        return seq

    async def pump(self) -> int:
        """Publish the next batch of committed events and save the cursor; returns how
        many events were published (0: nothing new)."""
        if not self.loaded:
            await self._db(self.load_cursor)
        count, cursor, publish, oldest = await self._db(self._read, self.cursor)
        if not count:
            return 0
        await asyncio.gather(*(self._send(g, events) for g, events in publish.items()))
        await self._db(self._save_cursor, cursor)
        self.cursor = cursor
        self.pushed += count
        self.last_lag = max(0.0, time.time() - oldest)
        logger.debug("relay %s: %s events, lag %.3f s", self.name, count, self.last_lag)
        metrics.observe_push_lag(datetime.fromtimestamp(oldest, UTC), relay=self.name)
        return count

    # -- the loop -----------------------------------------------------------------------------

    async def run(self, stop: asyncio.Event) -> None:
        """Push until ``stop`` is set: take the lead (PostgreSQL: the advisory lock), load
        the cursor, then pump whenever woken. A database error steps down and starts over."""
        try:
            while not stop.is_set():
                try:
                    if self.postgres:
                        await self._run_postgres(stop)
                    else:
                        await self._run_polling(stop)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    logger.exception("relay %s: stepping down after an error", self.name)
                    self.active = False
                    await _wait(stop, 1.0)
        finally:
            self.active = False
            await self.close()

    async def close(self) -> None:
        """Close the relay's database connection and its thread."""
        await self._db(connections.close_all)
        self._db_thread.shutdown(wait=False)

    async def _run_polling(self, stop: asyncio.Event) -> None:
        await self._db(self.load_cursor)
        self.active = True
        # Woken at once by a commit in this process (the embedded ``up``: API requests and
        # Celery timers write in this process's threads), by the poll for any other writer.
        wake = asyncio.Event()
        listener = _wake_on_commit(asyncio.get_running_loop(), wake)
        # copy on write: writers' threads may be iterating over the list right now
        store.appended_listeners = [*store.appended_listeners, listener]
        try:
            while not stop.is_set():
                if await self.pump() < self.batch_size:
                    await _wait_for(stop, wake, self.poll)
                    wake.clear()
        finally:
            store.appended_listeners = [x for x in store.appended_listeners if x is not listener]

    async def _run_postgres(self, stop: asyncio.Event) -> None:
        import psycopg

        params = {
            key: value
            for key, value in connection.get_connection_params().items()
            if key not in {"cursor_factory", "context", "prepare_threshold"}
        }
        async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as lead:
            while not stop.is_set():
                cur = await lead.execute(
                    "SELECT pg_try_advisory_lock(hashtext(%s))", [f"casino-relay:{self.name}"]
                )
                row = await cur.fetchone()
                if row and row[0]:
                    break
                await _wait(stop, self.standby_poll)
            if stop.is_set():
                return
            await lead.execute(f"LISTEN {NOTIFY_CHANNEL}")
            await self._db(self.load_cursor)
            self.active = True
            logger.info("relay %s: active from cursor %s", self.name, self.cursor)
            # After a wake-up, look again at 5 ms, 10 ms, 20 ms ... up to ``poll``: a commit
            # can be held back below an older transaction that is still open, and that one
            # need not write events (so need not notify) when it ends.
            backoff = self.poll
            while not stop.is_set():
                if await self.pump() >= self.batch_size:
                    continue
                if await _notified(lead, stop, backoff):
                    await _drain(lead, stop, self.gather)
                    backoff = 0.005
                else:
                    backoff = min(backoff * 2, self.poll)


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)


def _wake_on_commit(
    loop: asyncio.AbstractEventLoop, wake: asyncio.Event
) -> Callable[[list[Any]], None]:
    """A :data:`casino.eventstore.store.appended_listeners` entry that sets ``wake`` (an
    event of ``loop``) once the appending transaction commits, from the writer's thread."""

    def set_wake() -> None:
        with contextlib.suppress(RuntimeError):  # the relay's loop has closed
            loop.call_soon_threadsafe(wake.set)

    def listener(recorded: list[Any]) -> None:
        transaction.on_commit(set_wake)

    return listener


async def _wait_for(stop: asyncio.Event, wake: asyncio.Event, seconds: float) -> None:
    """Wait until ``stop`` or ``wake`` is set, or ``seconds`` have passed."""
    waiters = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(wake.wait())]
    try:
        await asyncio.wait(waiters, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for waiter in waiters:
            waiter.cancel()


async def _notified(lead: Any, stop: asyncio.Event, seconds: float) -> bool:
    """Wait up to ``seconds`` for a ``NOTIFY`` on ``lead``; whether one came."""
    if stop.is_set():
        return False
    async for _ in lead.notifies(timeout=seconds, stop_after=1):
        return True
    return False


async def _drain(lead: Any, stop: asyncio.Event, seconds: float) -> None:
    """Let ``seconds`` pass, taking the ``NOTIFY``s that arrive meanwhile."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0 and not stop.is_set():
        async for _ in lead.notifies(timeout=left):
            pass


async def run_forever(relay: Relay | None = None) -> None:
    """Run a relay until cancelled (the ASGI lifespan of the embedded server)."""
    stop = asyncio.Event()
    try:
        await (relay or Relay()).run(stop)
    finally:
        stop.set()
