"""Starting the service's own processes in tests and benchmarks: a free port to bind, and
waiting until a server answers."""

from __future__ import annotations

import socket
import time

import httpx


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(base: str, *, seconds: float = 120.0) -> None:
    """Wait until the server at ``base`` answers ``/api/v1/auth/csrf/`` with 200.

    Raises:
        AssertionError: it did not within ``seconds``.
    """
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/api/v1/auth/csrf/", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"{base} did not start")
