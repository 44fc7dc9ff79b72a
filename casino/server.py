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

import os
from typing import Any

from uvicorn_worker import UvicornWorker

__all__ = [
    "Worker",
    "bind",
    "child_exit",
    "control_socket_disable",
    "keepalive",
    "reuse_port",
    "worker_class",
]


class Worker(UvicornWorker):
    """A uvicorn worker with the service's settings: the lifespan on (``casino.lifespan``;
    it starts the relay only where ``CASINO_EMBEDDED_RELAY`` asks), no access log
    (django-structlog writes one line per request), and no WebSocket compression (small
    JSON pushes on a room's network: compressing each one cost more CPU than the request
    that caused it)."""

    CONFIG_KWARGS: dict[str, Any] = {
        "loop": "auto",
        "http": "auto",
        "lifespan": "on",
        "access_log": False,
        "ws_per_message_deflate": False,
    }


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
