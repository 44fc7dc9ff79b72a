"""Loading an aggregate's state from its stream, with snapshots for long-lived streams.

``load`` folds the events of a stream with the domain's ``evolve``. For long-lived streams
(a table runs for years) pass a ``snapshot_type``: the latest :class:`StreamSnapshot` is read
and only newer events are folded; ``save_snapshot`` writes one in the append's transaction.
Snapshots are a cache: deleting them all changes nothing but speed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import dacite

from casino.domain_events import DomainEvent
from casino.eventstore import store
from casino.eventstore.models import StreamSnapshot

_DACITE = dacite.Config(cast=[tuple], strict=True)

SNAPSHOT_EVERY = 25


@dataclass(frozen=True, slots=True)
class Loaded[S]:
    """An aggregate's state and the stream version it reflects (0: no events)."""

    state: S
    version: int


def load[S](
    stream: str,
    evolve: Callable[[S, DomainEvent], S],
    initial: S,
    *,
    snapshot_type: type[S] | None = None,
) -> Loaded[S]:
    """Fold ``stream`` into a state, starting from its snapshot when there is one."""
    state, version = initial, 0
    if snapshot_type is not None:
        snap = StreamSnapshot.objects.filter(stream=stream).first()
        if snap is not None:
            state = dacite.from_dict(cast(Any, snapshot_type), snap.state, config=_DACITE)
            version = snap.version
    for recorded in store.read_stream(stream, after_version=version):
        state = evolve(state, recorded.event)
        version = recorded.version
    return Loaded(state, version)


def save_snapshot(stream: str, version: int, state: Any, *, previous_version: int) -> None:
    """Store ``state`` at ``version`` when ``SNAPSHOT_EVERY`` events passed since the last."""
    if version // SNAPSHOT_EVERY == previous_version // SNAPSHOT_EVERY:
        return
    StreamSnapshot.objects.update_or_create(
        stream=stream, defaults={"version": version, "state": dataclasses.asdict(state)}
    )
