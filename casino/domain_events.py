"""Base class for domain events: pure standard library, importable from any ``domain/``.

Every event is a frozen dataclass that subclasses :class:`DomainEvent` and sets two class
attributes:

* ``TYPE``: the stable name stored in the log (``"tables.PlayerSeated"``); never change it.
* ``SCHEMA_VERSION``: bumped when the payload's shape changes. Old payloads are converted on
  read by an upcaster registered in ``casino.eventstore.upcasting`` (never rewritten).

Fields hold JSON-friendly values only: ``int`` (CZK or chips, never floats), ``str``,
``bool``, ``None``, ``tuple`` of those, or nested frozen dataclasses of the same kind. The
event store's codec turns them into JSON (``dataclasses.asdict``) and back (cattrs).
"""

from __future__ import annotations

from typing import ClassVar

EVENT_TYPES: dict[str, type[DomainEvent]] = {}


class DomainEvent:
    """Marker base for event dataclasses; registers each subclass by its ``TYPE``.

    Raises:
        ValueError: when two event classes declare the same ``TYPE``.
    """

    TYPE: ClassVar[str] = ""
    SCHEMA_VERSION: ClassVar[int] = 1

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.TYPE:
            return  # abstract intermediate class
        existing = EVENT_TYPES.get(cls.TYPE)
        if existing is not None and existing.__qualname__ != cls.__qualname__:
            raise ValueError(f"event type {cls.TYPE!r} declared twice")
        EVENT_TYPES[cls.TYPE] = cls
