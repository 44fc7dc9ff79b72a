"""The production web server: gunicorn supervising uvicorn workers, each worker on a listening
socket of its own (``SO_REUSEPORT``), so that the kernel spreads the tablets' keep-alive
connections over the workers.

Run it as ``gunicorn -c python:casino.server casino.asgi:application`` (``deploy/Dockerfile``);
``--workers`` (or ``WEB_CONCURRENCY``), ``--bind`` and ``FORWARDED_ALLOW_IPS`` (the proxies
whose ``X-Forwarded-*`` headers are trusted) as usual for gunicorn.

Why not ``uvicorn --workers N``: its workers share one listening socket, and a connection
goes to whichever worker's ``accept`` wins. Tablets connect one by one while the server is
idle, and the same worker tends to win every time (9 of 10 tablets on one worker was common
in the benchmark), so one worker's GIL carries most of the room while another core idles.
With ``reuse_port`` gunicorn opens the socket in each worker after the fork (since
benoitc/gunicorn#2938; the project asks for 27.0.1 or later), and Linux hashes each new
connection to one of them: an even spread on average (``docs/realtime.md``, "Hot path").
"""

from __future__ import annotations

import json
import os
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn_worker import UvicornWorker
from websockets.exceptions import HeaderLineTooLong, RequestLineTooLong, TooManyHeaders

from casino.errors import DomainError

__all__ = [
    "SERVER_SETTINGS",
    "WebSocketProtocol",
    "Worker",
    "bind",
    "child_exit",
    "control_socket_disable",
    "keepalive",
    "reuse_port",
    "worker_class",
]


HANDSHAKE_REFUSALS: dict[type[Exception], tuple[HTTPStatus, str]] = {
    RequestLineTooLong: (HTTPStatus.REQUEST_URI_TOO_LONG, "uri_too_long"),
    HeaderLineTooLong: (HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large"),
    TooManyHeaders: (HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "headers_too_large"),
}
"""The answer to a WebSocket handshake the protocol could not read, by the error websockets
raised: its status and the stable ``code``; anything else is 400 ``malformed_request``."""


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol (websockets' sans-I/O ``ServerProtocol``) that
    also answers a handshake it cannot read.

    websockets refuses a request line or header line over 8,192 bytes, or more than 128
    headers (``websockets.http11``), and queues a 414 or 431 answer; uvicorn 0.54 neither
    sends it nor closes the connection, so the client waited for good (a console that named
    every stream it had seen in ``?resume=`` stayed "connecting" all evening). This sends
    the API's error shape (``{"code", "rule", "detail"}``) with websockets' status (414
    ``uri_too_long``, 431 ``headers_too_large``, else 400 ``malformed_request``) and closes.
    """

    def data_received(self, data: bytes) -> None:
        """Feed the handshake or frames to websockets; refuse a handshake it could not read."""
        super().data_received(data)
        failed = self.conn.handshake_exc
        if failed is not None and not self.handshake_initiated and not self.transport.is_closing():
            self.refuse_handshake(failed)

    def refuse_handshake(self, failed: Exception) -> None:
        """Answer ``failed`` (the unreadable handshake's error) as HTTP and close."""
        status, code = HANDSHAKE_REFUSALS.get(
            type(failed), (HTTPStatus.BAD_REQUEST, "malformed_request")
        )
        refusal = DomainError(code, f"WebSocket handshake refused: {failed}.")
        body = json.dumps(refusal.as_dict()).encode()
        head = (
            f"HTTP/1.1 {status.value} {status.phrase}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode()
        self.transport.write(head + body)
        self.transport.close()


SERVER_SETTINGS: dict[str, Any] = {
    "lifespan": "on",
    "access_log": False,
    "ws": WebSocketProtocol,
    "ws_per_message_deflate": False,
    "ws_max_size": 64 * 1024,
}
"""The uvicorn settings of every server of the service, production workers and ``manage.py
up`` alike: the lifespan on (``casino.lifespan``; it starts the relay only where
``CASINO_EMBEDDED_RELAY`` asks), no access log (django-structlog writes one line per
request), the WebSocket protocol above, and no WebSocket compression (small JSON pushes on
a room's network: compressing each one cost more CPU than the request that caused it). A
client frame is at most 64 KiB (close 1009 past it): every feed is read-only and ignores
what a client sends, and uvicorn's 16 MiB let anyone, with no login, make a server read
16 MiB per frame on a public board's socket (found by fuzzing)."""


class Worker(UvicornWorker):
    """A uvicorn worker with the service's settings (:data:`SERVER_SETTINGS`)."""

    CONFIG_KWARGS: dict[str, Any] = {"loop": "auto", "http": "auto", **SERVER_SETTINGS}


# gunicorn reads these names from this module (``-c python:casino.server``).
worker_class = "casino.server.Worker"
reuse_port = True
bind = ["0.0.0.0:8000"]
"""Where to listen (in a container); ``--bind`` on the command line wins."""
keepalive = 5
"""Seconds an idle keep-alive connection stays open (uvicorn's default; gunicorn's is 2)."""
control_socket_disable = True
"""No ``gunicornc`` control socket in ``$HOME`` (the image's user has no home to write to;
operators signal the main process as usual: HUP reloads, TERM stops gracefully)."""


def child_exit(server: Any, worker: Any) -> None:
    """A worker ended: its files in ``PROMETHEUS_MULTIPROC_DIR`` stop counting as live
    (the gauges of a dead process must not be summed with the living ones)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
