"""ASGI lifespan of the web process: the embedded server's background work.

``manage.py up`` (one process, in-process channel layer) sets ``CASINO_EMBEDDED_RELAY``;
each server process then runs the push relay (:class:`casino.realtime.relay.Relay`, the same
code as ``manage.py relay``) as a task of its own event loop, beside the consumers it feeds.
Production runs the relay as its own process and leaves this off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from django.conf import settings

logger = logging.getLogger("casino.realtime")


async def lifespan(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI ``lifespan`` protocol: start background tasks, stop them at shutdown."""
    task: asyncio.Task[None] | None = None
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            if settings.EMBEDDED_RELAY:
                from casino.realtime.relay import run_forever

                task = asyncio.create_task(run_forever(), name="casino-relay")
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await send({"type": "lifespan.shutdown.complete"})
            return
