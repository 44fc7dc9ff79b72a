"""Loading an aggregate's state from its stream: snapshots and a per-process cache.

``load`` folds the events of a stream with the domain's ``evolve``:

* a per-process cache keeps the last state of each recently used stream with its version
  (at most ``CACHE_SIZE`` streams, none unused for ``IDLE_SECONDS``);
  a load asks the database only for events after that version (one indexed query), so a
  stale entry is brought up to date and another process's writes are never missed. Entries
  are stored only after the transaction commits (``transaction.on_commit``), so a rolled
  back decision can never be served.
* long-lived streams (a table runs for years) also keep a signed snapshot written in the
  append's transaction, so a cold process folds at most ``SNAPSHOT_EVERY`` events; a snapshot
  whose signature fails is ignored (:mod:`casino.eventstore.snapshots`).

Both are caches: clearing them changes nothing but speed.

**Trusted loads** (``load(..., trust_cache=True)``, the dealer's hot path) use a cached state
without asking the database whether the stream moved on. That is safe because nothing is
ever decided on it for good: an append on a stale state collides with ``UNIQUE(stream,
version)`` (a conflict: :func:`casino.eventstore.commands.run_command` evicts and runs the
command again on fresh state), and a refusal or a stale ``If-Match`` decided on a trusted
state is checked again on fresh state before it is answered (:func:`trusted_streams`).
"""

from __future__ import annotations

import contextvars
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from casino.domain_events import DomainEvent
from casino.eventstore import snapshots, store

logger = logging.getLogger(__name__)

SNAPSHOT_EVERY = 25
CACHE_SIZE = 2048
IDLE_SECONDS = 300.0
"""A cached state unused for this long is dropped (the next load reads the log again)."""


@dataclass(frozen=True, slots=True)
class Loaded[S]:
    """An aggregate's state and the stream version it reflects (0: no events)."""

    state: S
    version: int


class _StateCache:
    """Least-recently-used map ``stream -> (version, state)``, safe across threads.

    Holds at most ``size`` entries, and none that went unused for ``idle`` seconds (by
    ``clock``, monotonic seconds). The idle limit is what bounds a worker's memory in
    practice: a hand this process only read (a screen's snapshot, a console's look at the
    hand in play) and that another worker then finished is never loaded here again.
    Without the limit every such hand stayed until 2,048 of them filled the cache (up to
    about 19 kB each: six-handed, mid-hand), and a worker's RSS climbed 0.3-0.5 MB a
    minute for over an hour at 50 busy tables (issue #11). Hands and tables in play are
    used every few seconds and stay.
    """

    def __init__(
        self, size: int, idle: float = IDLE_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.size = size
        self.idle = idle
        self.clock = clock
        self.entries: OrderedDict[str, tuple[int, Any, float]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, stream: str) -> tuple[int, Any] | None:
        """The cached ``(version, state)`` of ``stream`` (``None``: not cached)."""
        with self.lock:
            now = self.clock()
            self._expire(now)
            entry = self.entries.get(stream)
            if entry is None:
                return None
            self.entries[stream] = (entry[0], entry[1], now)
            self.entries.move_to_end(stream)
            return entry[0], entry[1]

    def put(self, stream: str, version: int, state: Any) -> None:
        """Cache ``state`` at ``version`` unless a newer version is cached already."""
        with self.lock:
            now = self.clock()
            self._expire(now)
            current = self.entries.get(stream)
            if current is not None and current[0] >= version:
                return
            self.entries[stream] = (version, state, now)
            self.entries.move_to_end(stream)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def _expire(self, now: float) -> None:
        # least recently used first: stop at the first entry used within ``idle``
        while self.entries:
            stream, entry = next(iter(self.entries.items()))
            if now - entry[2] <= self.idle:
                return
            del self.entries[stream]

    def evict(self, stream: str) -> None:
        """Forget ``stream``."""
        with self.lock:
            self.entries.pop(stream, None)

    def clear(self) -> None:
        """Forget everything (a cold process)."""
        with self.lock:
            self.entries.clear()

    def __len__(self) -> int:
        return len(self.entries)


cache = _StateCache(CACHE_SIZE)

_trusted: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar(
    "casino_trusted_loads", default=None
)


def track_trusted_loads() -> contextvars.Token[set[str] | None]:
    """Start recording which streams this command loaded from the cache unchecked."""
    return _trusted.set(set())


def trusted_streams() -> set[str]:
    """The streams loaded from the cache unchecked since :func:`track_trusted_loads`."""
    return set(_trusted.get() or ())


def stop_tracking(token: contextvars.Token[set[str] | None]) -> None:
    """End what :func:`track_trusted_loads` started."""
    _trusted.reset(token)


def load[S](
    stream: str,
    evolve: Callable[[S, DomainEvent], S],
    initial: S,
    *,
    snapshot_type: type[S] | None = None,
    trust_cache: bool = False,
    finished: Callable[[S], bool] | None = None,
) -> Loaded[S]:
    """Fold ``stream`` into a state, starting from the cache or snapshot when there is one.

    With ``trust_cache`` a cached state is returned as it is, without a query (see the
    module docstring for why that is safe); the stream is recorded as trusted.
    """
    state, version = initial, 0
    cached = cache.get(stream)
    if cached is not None and trust_cache:
        trusted = _trusted.get()
        if trusted is not None:
            trusted.add(stream)
            return Loaded(cached[1], cached[0])
    if cached is not None:
        version, state = cached
    elif snapshot_type is not None:
        snap = snapshots.read(stream, snapshot_type)  # None unless shape and signature hold
        if snap is not None:
            try:
                state = snapshots.decode(snapshot_type, snap.state)
                version = snap.version
            except Exception:  # a cache that does not fit: the log is always right
                logger.warning("snapshot of %s does not decode; folding from the log", stream)
    read_from = version
    for recorded in store.read_stream(stream, after_version=version):
        state = evolve(state, recorded.event)
        version = recorded.version
    if version > read_from or (cached is None and version):
        # the next (trusted) load of this process is free
        remember(stream, version, state, finished=finished is not None and finished(state))
    return Loaded(state, version)


def remember(stream: str, version: int, state: Any, *, finished: bool = False) -> None:
    """Cache ``state`` at ``version`` once the current transaction commits.

    A ``finished`` aggregate (a hand that ended: a command on it is rare, a ruling or a
    rabbit hunt) is dropped from the cache instead. The cache then holds the aggregates in
    play, a few per table, not the evening's last 2,048 hands: those cost a worker tens of
    megabytes and the garbage collector's full passes over them stalled every request."""
    if finished:
        transaction.on_commit(lambda: cache.evict(stream))
    else:
        transaction.on_commit(lambda: cache.put(stream, version, state))


def save_snapshot(stream: str, version: int, state: Any, *, previous_version: int) -> None:
    """Store ``state`` at ``version`` when ``SNAPSHOT_EVERY`` events passed since the last."""
    remember(stream, version, state)
    if version // SNAPSHOT_EVERY == previous_version // SNAPSHOT_EVERY:
        return
    snapshots.write(stream, version, state)
