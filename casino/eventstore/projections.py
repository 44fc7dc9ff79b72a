"""Projection registry: read-model updaters run in the append's transaction (guarantee 4).

An app registers a :class:`Projection` (usually in its ``projections.py``, imported from its
``AppConfig.ready``) naming the read models it owns and one handler per event type::

    tables_projection = Projection("tables", models=[SeatView, HandView])

    @tables_projection.on(PlayerSeated)
    def _(recorded: RecordedEvent) -> None: ...

``manage.py rebuild_projections`` empties every owned model and replays the whole log.

A read model that stands for one stream (a table's ``TableView``, a tournament's, a waiting
list's) carries that stream's ``version``, which clients send back as ``If-Match``. Every
event of the stream must advance it, including events no handler cares about (a sit-out):
:meth:`Projection.track_version` does that once for all of them, after the handlers ran.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from django.db import models

from casino.domain_events import DomainEvent
from casino.eventstore import rows

if TYPE_CHECKING:
    from casino.eventstore.store import RecordedEvent

Handler = Callable[["RecordedEvent"], None]

_REGISTRY: list[Projection] = []


class Projection:
    """A named group of read models and the handlers that keep them current."""

    def __init__(self, name: str, *, models: Sequence[type[models.Model]]) -> None:
        self.name = name
        self.models = list(models)
        self.handlers: dict[str, list[Handler]] = defaultdict(list)
        self.version_trackers: list[tuple[str, Handler]] = []
        _REGISTRY.append(self)

    def on(self, *event_classes: type[DomainEvent]) -> Callable[[Handler], Handler]:
        """Decorator: run the handler for each recorded event of these classes."""

        def register(fn: Handler) -> Handler:
            for cls in event_classes:
                self.handlers[cls.TYPE].append(fn)
            return fn

        return register

    def track_version(
        self,
        stream_prefix: str,
        model: type[models.Model],
        key: str,
        *,
        parse: Callable[[str], object] = str,
        unless_handled: bool = False,
    ) -> None:
        """After the handlers, every event of a stream ``<stream_prefix><id>`` sets
        ``model.version`` of the row whose ``key`` is ``parse(<id>)`` to the event's version
        (only forwards; one indexed ``UPDATE`` that writes nothing when a handler already
        did). The row is created by the stream's first event's handler.

        ``unless_handled``: only for the events no handler of this projection takes (its
        handlers set the version themselves): one statement fewer per event."""

        def bump(recorded: RecordedEvent) -> None:
            if unless_handled and recorded.type in self.handlers:
                return
            try:
                ident = parse(recorded.stream.removeprefix(stream_prefix))
            except ValueError:  # another kind of stream sharing the prefix
                return
            rows.update(model, {key: ident, "version__lt": recorded.version},
                        version=recorded.version)  # fmt: skip

        self.version_trackers.append((stream_prefix, bump))

    def apply(self, recorded: RecordedEvent) -> None:
        for handler in self.handlers.get(recorded.type, ()):
            handler(recorded)
        for prefix, bump in self.version_trackers:
            if recorded.stream.startswith(prefix):
                bump(recorded)


def registry() -> list[Projection]:
    """Every registered projection, in registration order."""
    return list(_REGISTRY)


def dispatch(events: Iterable[RecordedEvent]) -> None:
    """Apply each event to every projection, in order."""
    for recorded in events:
        for projection in _REGISTRY:
            projection.apply(recorded)
