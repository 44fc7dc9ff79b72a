"""JSON codec between domain event dataclasses and stored payloads.

Encoding is ``dataclasses.asdict``; decoding is cattrs' JSON converter (lists back to
tuples, unknown keys refused), after :mod:`casino.eventstore.upcasting` has brought the
payload to the event class's current ``SCHEMA_VERSION``. cattrs generates one structuring
function per event class, several times faster than walking the type hints per event
(every load and every rebuild decodes).
"""

import dataclasses
from typing import Any

from cattrs.preconf.json import make_converter

from casino.domain_events import EVENT_TYPES, DomainEvent
from casino.eventstore.upcasting import upcast

# detailed_validation off: the generated functions skip collecting every error of a payload
# (a fifth faster); a bad payload still raises, with the first error only
_converter = make_converter(forbid_extra_keys=True, detailed_validation=False)


class UnknownEventType(LookupError):
    """A stored ``type`` has no registered event class."""


def encode(event: DomainEvent) -> dict[str, Any]:
    """Payload of ``event`` as JSON-ready data."""
    if not dataclasses.is_dataclass(event):
        raise TypeError(f"{type(event).__name__} is not a dataclass")
    return dataclasses.asdict(event)


def event_class(event_type: str) -> type[DomainEvent]:
    """The registered event class of a stored ``type``.

    Raises:
        UnknownEventType: ``event_type`` is not registered.
    """
    cls = EVENT_TYPES.get(event_type)
    if cls is None:
        raise UnknownEventType(event_type)
    return cls


def decode(event_type: str, schema_version: int, data: dict[str, Any]) -> DomainEvent:
    """Event object for a stored row, upcast to the current schema version.

    Raises:
        UnknownEventType: ``event_type`` is not registered.
        MissingUpcaster: the stored version cannot be brought up to date.
    """
    cls = event_class(event_type)
    current = upcast(event_type, schema_version, cls.SCHEMA_VERSION, data)
    return _converter.structure(current, cls)
