"""Starting the service's own processes in tests and benchmarks: a free port to bind,
waiting until a server answers, and which worker holds which connection (from /proc)."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

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


def unreadable_handshakes(host: str) -> list[tuple[bytes, int, str]]:
    """WebSocket handshakes to a table feed that websockets cannot read, with the status
    and ``code`` the server answers each with (``casino.server.WebSocketProtocol``): a
    request line over 8,192 bytes (a ``?resume=`` naming hundreds of streams), and more
    than 128 headers."""
    upgrade = (
        f"Host: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    )
    resume = ",".join(f"hand-{n:036d}:9" for n in range(250))
    many = "".join(f"X-Extra-{n}: {n}\r\n" for n in range(130))
    return [
        (f"GET /ws/tables/1/?resume={resume} HTTP/1.1\r\n{upgrade}\r\n".encode(), 414,
         "uri_too_long"),
        (f"GET /ws/tables/1/ HTTP/1.1\r\n{upgrade}{many}\r\n".encode(), 431,
         "headers_too_large"),
    ]  # fmt: skip


def oversized_bodies(host: str) -> list[tuple[bytes, int, str]]:
    """POSTs whose body passes the 1 MiB limit before it has come, with the status and
    ``code`` the server must answer at once (``casino.asgi.OneHopASGIHandler``): a
    ``Content-Length`` of 20 MB with a few bytes sent, and a chunked body of 2 MB (no
    length declared). The server read the whole body before refusing it, and answered
    the first not at all (found by fuzzing)."""
    head = (
        f"POST /api/v1/players/ HTTP/1.1\r\nHost: {host}\r\n"
        "Content-Type: application/json\r\nConnection: close\r\n"
    )
    chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
    return [
        ((head + "Content-Length: 20000000\r\n\r\n").encode() + b'{"name": "x"', 413,
         "request_too_large"),
        ((head + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunk * 32 + b"0\r\n\r\n",
         413, "request_too_large"),
    ]  # fmt: skip


def exchange(base: str, request: bytes, *, seconds: float = 5.0) -> tuple[int, bytes, float]:
    """Send raw ``request`` bytes to the server at ``base`` (``http://host:port``) and read
    until it closes the connection: ``(status, body, seconds it took)``.

    Raises:
        TimeoutError: the server had not answered and closed within ``seconds``.
    """
    host, port = base.removeprefix("http://").rsplit(":", 1)
    began = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=seconds) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
            if time.monotonic() - began > seconds:
                raise TimeoutError("the server kept the connection open")
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body, time.monotonic() - began


def family(pid: int) -> list[int]:
    """A process and its children (pids, from /proc)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return [pid]
    return [pid, *(int(c) for c in children)]


def _socket_inodes(pid: int) -> set[int]:
    """The inodes of a process's open sockets (from /proc; empty when it is gone)."""
    inodes = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(int(target[8:-1]))
    except OSError:
        pass
    return inodes


def _tcp_sockets(state: str) -> list[tuple[int, int, int]]:
    """TCP sockets on this host in ``state`` (``"01"`` established, ``"0A"`` listening) as
    ``(local port, remote port, inode)``, from /proc/net/tcp and tcp6."""
    rows = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == state:
                local, remote = fields[1].rsplit(":", 1)[1], fields[2].rsplit(":", 1)[1]
                rows.append((int(local, 16), int(remote, 16), int(fields[9])))
    return rows


def _workers(server: int) -> list[int]:
    """The worker processes of the server whose main process is ``server`` (uvicorn's or
    gunicorn's; uvicorn with one worker serves in its own process)."""
    workers = []
    for child in family(server)[1:]:
        try:
            if b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes():
                workers.append(child)  # not multiprocessing's resource tracker
        except OSError:
            continue
    return workers or [server]


def connections_per_worker(server: int, port: int) -> list[int]:
    """How this process's TCP connections to the server on ``port`` (a benchmark's tablets'
    keep-alive connections) are spread over the server's worker processes, fullest first.
    A connection stays on the worker that accepted it, so an uneven split loads one
    worker's GIL more than the other's (``casino/server.py``, docs/realtime.md "Hot path").
    ``server`` is the pid of the server's main process (uvicorn or gunicorn)."""
    rows = _tcp_sockets("01")
    mine = _socket_inodes(os.getpid())
    tablets = {local for local, remote, inode in rows if remote == port and inode in mine}
    counts = []
    for worker in _workers(server):
        theirs = _socket_inodes(worker)
        counts.append(sum(1 for local, remote, inode in rows
                          if local == port and remote in tablets and inode in theirs))  # fmt: skip
    return sorted(counts, reverse=True)


def listeners_per_worker(server: int, port: int) -> list[set[int]]:
    """The listening sockets on ``port`` (their inodes) that each worker of the server holds:
    one shared socket appears in every worker's set (``uvicorn --workers``), a socket per
    worker (``SO_REUSEPORT``, ``casino/server.py``) in one set each."""
    listening = {inode for local, _, inode in _tcp_sockets("0A") if local == port}
    return [listening & _socket_inodes(worker) for worker in _workers(server)]
