"""Which channel-layer groups receive an event: a registry the apps fill in.

``casino`` is the ground floor and knows no app, so each app registers, in its
``AppConfig.ready``, a router for the streams it owns::

    from casino.realtime import groups

    groups.register(route_table_streams)  # (stream, event type, payload) -> groups or None

A router answers ``None`` for a stream that is not its own. A stream no router claims goes to
the group ``stream-<stream>`` (e.g. ``stream-tournament-3``, ``stream-cage``). The relay
(:mod:`casino.realtime.relay`) and the feeds' resume (:mod:`casino.realtime.catchup`) both
ask :func:`groups_for`, so "which feed sees which event" is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

Router = Callable[[str, str, Mapping[str, Any]], Sequence[str] | None]
"""``(stream, event type, upcast payload) -> group names``, or ``None``: not my stream."""

_routers: list[Router] = []


def register(router: Router) -> Router:
    """Add ``router`` (idempotent: registering the same function twice keeps one)."""
    if router not in _routers:
        _routers.append(router)
    return router


def stream_group(stream: str) -> str:
    """The group of one stream, for a stream no app routes itself."""
    return f"stream-{stream}"


def groups_for(stream: str, event_type: str, data: Mapping[str, Any]) -> list[str]:
    """The groups that receive one event of ``stream`` (never empty)."""
    for router in _routers:
        found = router(stream, event_type, data)
        if found is not None:
            return list(found)
    return [stream_group(stream)]
