"""Who and what caused the events being appended: metadata for the audit trail.

A request (or task) opens a :func:`command_context`; every ``append`` inside it stamps the
metadata on its events and puts the ``command_id`` on the first event only, so the unique
``command_id`` column makes a retried command unable to append twice.
"""

import contextlib
import uuid
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from casino import logs


@dataclass
class CommandContext:
    """Metadata of the command being handled.

    ``actor`` is ``"device:<id>"``, ``"user:<id>"`` or ``"system:<name>"``.
    """

    actor: str = "system"
    device: str | None = None
    request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    command_id: str | None = None
    correlation_id: str | None = None
    causation_id: str | None = None
    command_id_used: bool = False

    def metadata(self) -> dict[str, Any]:
        """The metadata stored with each event."""
        meta: dict[str, Any] = {"actor": self.actor, "request_id": self.request_id}
        if self.device:
            meta["device"] = self.device
        meta["correlation_id"] = self.correlation_id or self.command_id or self.request_id
        if self.causation_id:
            meta["causation_id"] = self.causation_id
        if self.command_id:
            meta["command_id"] = self.command_id
        return meta

    def take_command_id(self) -> str | None:
        """The command id for the first append of this command, then ``None``."""
        if self.command_id is None or self.command_id_used:
            return None
        self.command_id_used = True
        return self.command_id


_current: ContextVar[CommandContext | None] = ContextVar("casino_command", default=None)


def current() -> CommandContext:
    """The active command context, or a fresh system one outside any command."""
    ctx = _current.get()
    return ctx if ctx is not None else CommandContext()


@contextlib.contextmanager
def command_context(ctx: CommandContext) -> Iterator[CommandContext]:
    """Make ``ctx`` current for the appends inside the block."""
    token = _current.set(ctx)
    logs.bind(
        actor=ctx.actor, device=ctx.device, request_id=ctx.request_id, command_id=ctx.command_id
    )
    try:
        yield ctx
    finally:
        _current.reset(token)
