"""Upcasters turn an old event payload into the current ``schema_version`` on read.

Stored rows are never rewritten (guarantee 7). Register one function per step::

    @upcaster("tables.PlayerSeated", from_version=1)
    def _seated_v1_to_v2(data: dict) -> dict:
        return {**data, "buy_in": data["stack"]}

Reading applies the steps in order until the event class's ``SCHEMA_VERSION`` is reached.
"""

from collections.abc import Callable
from typing import Any

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]

_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


class MissingUpcaster(LookupError):
    """An event's stored schema version has no path to the current one."""


def upcaster(event_type: str, *, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register ``fn`` as the step from ``from_version`` to ``from_version + 1``."""

    def register(fn: Upcaster) -> Upcaster:
        key = (event_type, from_version)
        if key in _UPCASTERS:
            raise ValueError(f"upcaster for {event_type} v{from_version} registered twice")
        _UPCASTERS[key] = fn
        return fn

    return register


def upcast(event_type: str, schema_version: int, target: int, data: Payload) -> Payload:
    """Return ``data`` converted from ``schema_version`` to ``target``.

    Raises:
        MissingUpcaster: a step on the way is not registered.
    """
    version = schema_version
    while version < target:
        step = _UPCASTERS.get((event_type, version))
        if step is None:
            raise MissingUpcaster(f"no upcaster for {event_type} v{version} -> v{version + 1}")
        data = step(dict(data))
        version += 1
    return data
