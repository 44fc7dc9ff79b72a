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
