"""``manage.py up`` runs the timers itself (issue #12 E): a real Celery worker and beat in
its process, so a tournament level ends and a waiting-list call expires on time -- also
after a restart, when the ETA tasks queued by the previous process are gone -- with no
request at all after the fixtures were made.

The server runs as a subprocess on a fresh SQLite file; what happened is read from the
event log in that file (no request that could import a tasks module by chance).
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.test_up import ROOT
from tests.servers import free_port

pytestmark = pytest.mark.slow

CALL_SECONDS = 25  # the call deadline falls after the restart
LEVEL_MINUTES = 1  # the shortest level the API takes
# How late a timer may fire after a restart: its ETA task is gone, so the embedded beat's
# sweep (every 1 s, casino.celery.EMBEDDED_SWEEP_SECONDS) catches it, plus the time the
# sweep itself takes on a loaded machine (1.0096 s was seen once in a full CI run). The
# production sweep interval (15 s) would fail this.
LATE_LIMIT_SECONDS = 2.0


class Up:
    """One ``manage.py up`` subprocess."""

    def __init__(self, database: Path, port: int, **settings: str) -> None:
        env = {
            k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DEBUG")
        }
        env |= {
            "DATABASE_URL": f"sqlite:///{database}",
            "WAITLIST_CALL_SECONDS": str(CALL_SECONDS),
            **settings,
        }
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [sys.executable, "manage.py", "up", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        lines = [self.proc.stdout.readline() for _ in range(4)]
        found = re.search(r"Demo admin token:  (\S+)", lines[3])
        assert found, lines
        self.token = found.group(1)

    def wait_until_serving(self) -> None:
        """Waits for the port to accept connections (a TCP connect: not an HTTP request)."""
        import socket

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        raise AssertionError("up did not start serving")

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        try:
            out, _ = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, _ = self.proc.communicate()
        return out or ""


def _post(up: Up, path: str, body: dict[str, Any], n: list[int]) -> dict[str, Any]:
    n[0] += 1
    response = httpx.post(
        f"{up.base}{path}",
        json=body,
        headers={"Authorization": f"Token {up.token}", "Idempotency-Key": f"fixture-{n[0]}"},
        timeout=10,
    )
    assert response.status_code in (200, 201), (path, response.status_code, response.text)
    return dict(response.json())


def _events(database: Path, event_type: str) -> list[tuple[dict[str, Any], datetime]]:
    with sqlite3.connect(database) as db:
        rows = db.execute(
            "SELECT data, recorded_at FROM eventstore_event WHERE type = ? ORDER BY position",
            (event_type,),
        ).fetchall()
    return [(json.loads(data), _utc(at)) for data, at in rows]


def _utc(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace(" ", "T"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def test_up_fires_level_ends_and_call_deadlines_on_time_after_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "room.sqlite3"
    first = Up(database, free_port())
    n = [0]
    try:
        first.wait_until_serving()
        time.sleep(0.5)
        players = [
            _post(first, "/api/v1/players/", {"name": f"Player {i}", "nickname": f"P{i}"}, n)
            for i in range(10)
        ]
        tournament = _post(
            first,
            "/api/v1/tournaments/",
            {
                "name": "Timer test",
                "buy_in": 100,
                "fee": 10,
                "starting_stack": 1000,
                "levels": [
                    {"small_blind": 5, "big_blind": 10, "minutes": LEVEL_MINUTES},
                    {"small_blind": 10, "big_blind": 20, "minutes": LEVEL_MINUTES},
                ],
            },
            n,
        )
        tid = tournament["tournament_id"]
        for player in players[:9]:
            _post(
                first, f"/api/v1/tournaments/{tid}/registrations/", {"player_id": player["id"]}, n
            )
        _post(first, f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 0}, n)
        listed = _post(
            first,
            "/api/v1/waitlists/",
            {"game": "NLH", "small_blind": 10, "big_blind": 20, "list_kind": "waiting"},
            n,
        )
        list_id = listed["list_id"]
        _post(
            first,
            f"/api/v1/waitlists/{list_id}/entries/",
            {"player_id": players[9]["id"], "channel": "in_person"},
            n,
        )
        _post(first, f"/api/v1/waitlists/{list_id}/calls/", {"table_id": 1, "seat": 1}, n)
    finally:
        first_log = first.stop()

    # restart: the ETA tasks of the first process are gone with its in-memory broker
    second = Up(database, free_port())
    try:
        [(called, _)] = _events(database, "waitlist.PlayerCalled")
        deadline = datetime.fromisoformat(called["deadline"])
        [(level_1, _)] = _events(database, "tournaments.LevelStarted")
        level_ends = datetime.fromisoformat(level_1["ends_at"])
        assert datetime.now(tz=deadline.tzinfo) < deadline, "the call expired before restart"
        wait = max(deadline, level_ends) - datetime.now(tz=deadline.tzinfo)
        time.sleep(wait.total_seconds() + 2.5)

        missed = _events(database, "waitlist.CallMissed")
        assert len(missed) == 1, (missed, first_log)
        assert missed[0][0]["reason"] == "deadline"
        late = (missed[0][1] - deadline).total_seconds()
        assert 0 <= late < LATE_LIMIT_SECONDS, late

        levels = _events(database, "tournaments.LevelStarted")
        assert [data["level"] for data, _ in levels] == [1, 2], levels
        late = (levels[1][1] - level_ends).total_seconds()
        assert 0 <= late < LATE_LIMIT_SECONDS, late
    finally:
        log = second.stop()
    assert "NotRegistered" not in first_log + log, first_log + log
    assert "Traceback" not in log, log


@pytest.mark.rule("WL-2")
def test_a_call_whose_deadline_passed_while_up_was_down_is_renewed_not_missed(
    tmp_path: Path,
) -> None:
    """The server was stopped across a call's deadline: nobody could answer the call at
    the floor's screen, so the restarted server does not charge the player a miss. It
    renews the call for the full response time from the restart, and then enforces that
    deadline on time."""
    database = tmp_path / "room.sqlite3"
    times = {"WAITLIST_CALL_SECONDS": "6", "WAITLIST_LATE_TIMER_SECONDS": "2"}
    first = Up(database, free_port(), **times)
    n = [0]
    try:
        first.wait_until_serving()
        time.sleep(0.5)
        player = _post(first, "/api/v1/players/", {"name": "Called", "nickname": "C"}, n)
        listed = _post(
            first,
            "/api/v1/waitlists/",
            {"game": "NLH", "small_blind": 10, "big_blind": 20, "list_kind": "waiting"},
            n,
        )
        list_id = listed["list_id"]
        _post(
            first,
            f"/api/v1/waitlists/{list_id}/entries/",
            {"player_id": player["id"], "channel": "in_person"},
            n,
        )
        _post(first, f"/api/v1/waitlists/{list_id}/calls/", {"table_id": 1, "seat": 1}, n)
    finally:
        first_log = first.stop()
    [(called, _)] = _events(database, "waitlist.PlayerCalled")
    deadline = datetime.fromisoformat(called["deadline"])
    down_until = deadline.timestamp() + 4  # past the deadline and the late limit
    time.sleep(max(0.0, down_until - time.time()))

    second = Up(database, free_port(), **times)
    try:
        second.wait_until_serving()
        started = time.monotonic()
        while not _events(database, "waitlist.CallRenewed") and time.monotonic() < started + 15:
            time.sleep(0.2)
        [(renewed, renewed_at)] = _events(database, "waitlist.CallRenewed")
        assert renewed["missed_deadline"] == called["deadline"]
        assert renewed["late_seconds"] >= 4
        fresh = datetime.fromisoformat(renewed["deadline"])
        assert 5.5 <= (fresh - renewed_at).total_seconds() <= 6.5
        assert _events(database, "waitlist.CallMissed") == []
        floor = httpx.get(
            f"{second.base}/api/v1/waitlists/{list_id}/",
            headers={"Authorization": f"Token {second.token}"},
            timeout=10,
        ).json()
        [shown] = floor["calls"]
        assert datetime.fromisoformat(shown["deadline"]) == fresh, floor
        time.sleep(max(0.0, fresh.timestamp() - time.time()) + 2.5)
        [(missed, missed_at)] = _events(database, "waitlist.CallMissed")
        assert missed["reason"] == "deadline"
        assert 0 <= (missed_at - fresh).total_seconds() < LATE_LIMIT_SECONDS
    finally:
        log = second.stop()
    assert "Traceback" not in first_log + log, first_log + log
