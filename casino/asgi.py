"""ASGI entry point: HTTP through Django, WebSockets through Channels, and the lifespan.

HTTP runs the whole middleware chain and the (synchronous) DRF view in ONE hop to a fixed
pool of threads (:class:`OneHopASGIHandler`). Django's stock ASGI handler starts a thread per
request and, given synchronous middleware, hands each request between the event loop and
that thread once per middleware hook (about 16 thread hand-offs for our chain), which cost
more CPU than the request's own work. WebSockets stay fully asynchronous. Reasoning:
``docs/realtime.md``, "Hot path".
"""

import gc
import os
import sys
import tempfile

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
django.setup(set_prefix=False)

from casino.security import require_secret_key  # noqa: E402

require_secret_key()  # no serving without DEBUG on the built-in SECRET_KEY

import asyncio  # noqa: E402
import contextvars  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from contextlib import closing  # noqa: E402
from typing import Any  # noqa: E402

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core import signals  # noqa: E402
from django.core.exceptions import RequestAborted  # noqa: E402
from django.core.handlers.asgi import ASGIHandler, get_script_prefix  # noqa: E402
from django.http import FileResponse, HttpResponseBase  # noqa: E402
from django.urls import set_script_prefix  # noqa: E402

from casino.api.fallback import too_large  # noqa: E402
from casino.api.parsers import body_limit  # noqa: E402
from casino.lifespan import lifespan  # noqa: E402
from casino.metrics import OpenSocketsMiddleware  # noqa: E402
from casino.routing import websocket_urlpatterns  # noqa: E402


class OneHopASGIHandler(ASGIHandler):
    """Django's ASGI handler that serves each HTTP request in ONE hop to a fixed thread pool.

    The event loop reads the body and sends the response; everything synchronous (the
    ``request_started`` and ``request_finished`` signals, the middleware chain, the DRF
    view, closing the response, which hands the database connection back to the pool) runs
    in a single call on one of ``HTTP_THREADS`` long-lived threads. Django's stock handler
    starts a new thread per request (``ThreadSensitiveContext``) and hops between it and the
    loop three times, and once per middleware hook given synchronous middleware; under load
    each hop waits for the GIL behind the other threads (``docs/realtime.md``, "Hot path").

    Streaming responses (PHH exports, metrics) are sent as Django sends them and closed
    after the last chunk.

    A body larger than :func:`casino.api.parsers.body_limit` answers 413
    ``request_too_large`` as soon as that is known: at once when its ``Content-Length``
    says so, else once that many bytes have come. Django reads the whole body before any
    view sees it, so a client that declared 20 MB and sent a few bytes held the connection
    with no answer, and a chunked body (no length declared) was spooled to disk to its end
    (found by fuzzing).
    """

    executor = ThreadPoolExecutor(max_workers=settings.HTTP_THREADS, thread_name_prefix="http")

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Read the body, serve it in one hop, send the response (ASGI ``http`` scope)."""
        if _declared_length(scope) > body_limit():
            await self.send_response(too_large(), send)
            return
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        except _BodyTooLarge:
            await self.send_response(too_large(), send)
            return
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        response = await loop.run_in_executor(
            self.executor, context.run, self.serve, scope, body_file
        )
        try:
            await self.send_response(response, send)
        finally:
            if response.streaming:
                await loop.run_in_executor(self.executor, context.run, response.close)

    async def read_body(self, receive: Any) -> Any:
        """Django's :meth:`ASGIHandler.read_body` that keeps no more than :func:`body_limit`
        bytes: past it the rest is read and dropped (so the client, still sending, reads the
        413 rather than a reset connection), and nothing is kept.

        Raises:
            RequestAborted: the client went away; _BodyTooLarge: the limit was passed.
        """
        limit, size = body_limit(), 0
        body_file = tempfile.SpooledTemporaryFile(  # noqa: SIM115 (returned, closed by serve)
            max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE, mode="w+b"
        )
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                body_file.close()
                raise RequestAborted()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size <= limit:
                body_file.write(chunk)  # at most body_limit() bytes: 1 MiB by default
            if not message.get("more_body", False):
                break
        if size > limit:
            body_file.close()
            raise _BodyTooLarge
        body_file.seek(0)
        return body_file

    def serve(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """The synchronous part of a request: signals, middleware, view; a non-streaming
        response comes back already closed (its content is kept)."""
        with closing(body_file):
            set_script_prefix(get_script_prefix(scope))
            signals.request_started.send(sender=self.__class__, scope=scope)
            request, response = self.create_request(scope, body_file)
            if request is not None:
                response = self.get_response(request)
                response._handler_class = self.__class__  # type: ignore[attr-defined]
                if isinstance(response, FileResponse):
                    response.block_size = self.chunk_size
            assert response is not None  # create_request gives a request or a response
            if not response.streaming:
                response.close()
            return response


class _BodyTooLarge(Exception):
    """The body passed :func:`casino.api.parsers.body_limit` while it was read."""


def _declared_length(scope: dict[str, Any]) -> int:
    """The request's ``Content-Length`` (bytes); 0 when absent or not a number (Django and
    the request guard answer those)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            return int(value) if value.isdigit() else 0
    return 0


# The event loop (sockets, responses) competes for the GIL with the request threads; at the
# default 5 ms switch interval a busy room starves it and pushes queue up behind requests.
sys.setswitchinterval(settings.GIL_SWITCH_INTERVAL)
django_asgi_app = OneHopASGIHandler()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": OpenSocketsMiddleware(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        "lifespan": lifespan,
    }
)

# What start-up built (settings, URL patterns, models, serializers, pokerkit's tables) lives
# as long as the process: out of the cyclic collector's reach, its full passes walk only
# what requests make, not the several hundred thousand objects of the loaded code.
gc.freeze()
