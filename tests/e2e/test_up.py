"""``manage.py up`` on embedded defaults: a fresh SQLite file, no server installed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.servers import exchange, free_port, oversized_bodies, unreadable_handshakes

ROOT = Path(__file__).resolve().parents[2]


def embedded_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a fresh machine: a new SQLite file, no Redis."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    return env | {"DATABASE_URL": f"sqlite:///{tmp_path / 'room.sqlite3'}"}


def start_up(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    """``manage.py up`` in a fresh process, its banner and log on ``stdout``."""
    return subprocess.Popen(
        [sys.executable, "manage.py", "up", *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def test_up_migrates_creates_the_demo_room_and_serves_http(tmp_path: Path) -> None:
    port = free_port()
    proc = start_up(embedded_env(tmp_path), "--port", str(port))
    try:
        assert proc.stdout is not None
        lines = [proc.stdout.readline() for _ in range(4)]
        assert lines[0].strip() == f"API docs:          http://127.0.0.1:{port}/api/docs/"
        dealer = re.search(r"Demo dealer token: (\S+)  \(tablet of table 1\)", lines[2])
        token = re.search(r"Demo admin token:  (\S+)", lines[3])
        assert token and dealer, lines
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if httpx.get(f"{base}/api/schema/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        host = f"127.0.0.1:{port}"
        for request, status, code in [*unreadable_handshakes(host), *oversized_bodies(host)]:
            answered, body, seconds = exchange(base, request)  # answered, not left hanging
            assert (answered, json.loads(body)["code"]) == (status, code)
            assert seconds < 2
        docs = httpx.get(f"{base}/api/docs/")
        assert docs.status_code == 200 and "swagger" in docs.text.lower()
        assert httpx.get(f"{base}/api/v1/tables/").status_code == 401
        stranger = httpx.get(f"{base}/api/v1/tables/", headers={"Host": "casino.example"})
        assert (stranger.status_code, stranger.json()["code"]) == (400, "disallowed_host")
        assert "SECRET_KEY" not in stranger.text  # not the debug page (up runs with DEBUG)
        admin = {"Authorization": f"Token {token.group(1)}", "Idempotency-Key": "chunked-1"}
        chunked = httpx.post(  # DRF reads a body by its Content-Length: this one ran empty
            f"{base}/api/v1/players/", headers={**admin, "Content-Type": "application/json"},
            content=iter([b'{"name": ', b'"Chunked Karel"}']),
        )  # fmt: skip
        assert (chunked.status_code, chunked.json()["code"]) == (411, "length_required")
        found = httpx.get(f"{base}/api/v1/players/search/?q=chunked", headers=admin).json()
        assert found == []  # nothing was written
        # more parameters than Django parses: a 500 after 28 s of CPU, no token needed, and
        # a form of as many fields got the debug page (found by QA)
        many = "&".join(f"p{i}=1" for i in range(1001))
        for path in ("/api/v1/reports/rake/", "/health/live/", "/api/v1/board/waitlists/"):
            started = time.monotonic()
            crowded = httpx.get(f"{base}{path}?{many}")
            assert (crowded.status_code, crowded.json()["code"]) == (
                400, "too_many_query_parameters"
            ), path  # fmt: skip
            assert time.monotonic() - started < 2
        fewer = httpx.get(f"{base}/api/v1/board/waitlists/?{many.rsplit('&', 1)[0]}")
        assert fewer.json()["code"] == "unknown_query_parameter"  # 1,000 are parsed
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        crowded = httpx.post(f"{base}/i18n/setlang/", headers=form, content=many)
        assert (crowded.status_code, crowded.json()["code"]) == (400, "too_many_fields")
        tables = httpx.get(
            f"{base}/api/v1/tables/", headers={"Authorization": f"Token {token.group(1)}"}
        ).json()
        mine = httpx.get(f"{base}/api/v1/tables/1/",
                         headers={"Authorization": f"Token {dealer.group(1)}"})  # fmt: skip
        other = httpx.get(f"{base}/api/v1/tables/2/",
                          headers={"Authorization": f"Token {dealer.group(1)}"})  # fmt: skip
        assert (mine.status_code, other.status_code) == (200, 403)  # a tablet: its table
        summary = {
            t["name"]: (t["buy_in_min"], t["buy_in_max"], t["rake_percent_bp"], t["rake_cap"])
            for t in tables
        }
        assert summary == {
            "NLH 10/20": (1000, 5000, 500, 300),  # BI-3, RAKE-1, RAKE-2
            "NLH 25/50": (2000, 10000, 500, 300),  # BI-4
            "PLO 25/50": (2000, 10000, 500, 200),  # RAKE-3
            "PLO 50/50": (2500, 15000, 500, 300),  # RAKE-4
        }
        script = httpx.get(f"{base}/static/casino/shell.js")  # a console's first load
        assert script.status_code == 200 and "plainNumber" in script.text
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    # no raw Python warning in the operator's terminal (found by QA)
    assert "StreamingHttpResponse" not in out and "Traceback" not in out, out


def test_a_second_up_on_a_busy_port_refuses_before_changing_anything(tmp_path: Path) -> None:
    """A second ``up`` on the same database minted new demo tokens (cutting off the running
    server's tablets and admin), printed its banner, and only then failed to bind. It now
    refuses first, in one line; so do a port out of range and a missing SECRET_KEY."""
    port = free_port()
    env = embedded_env(tmp_path)
    up = [sys.executable, "manage.py", "up", "--no-timers"]
    first = start_up(env, "--no-timers", "--port", str(port))
    try:
        assert first.stdout is not None
        lines = [first.stdout.readline() for _ in range(4)]
        token = re.search(r"Demo admin token:  (\S+)", lines[3])
        assert token, lines
        base, auth = f"http://127.0.0.1:{port}", {"Authorization": f"Token {token.group(1)}"}
        for _ in range(100):
            try:
                if httpx.get(f"{base}/api/v1/tables/", headers=auth, timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        second = subprocess.run([*up, "--port", str(port)], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=60)  # fmt: skip
        assert second.returncode != 0
        assert "already in use" in second.stderr and "nothing was changed" in second.stderr
        assert "Demo admin token" not in second.stdout
        assert len(second.stderr.strip().splitlines()) == 1  # a line, not a traceback
        assert httpx.get(f"{base}/api/v1/tables/", headers=auth).status_code == 200
        # a second server on the same database (replay_phh's own) keeps the tokens
        again = subprocess.run([*up, "--keep-tokens", "--no-serve"], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=60)  # fmt: skip
        assert again.returncode == 0 and "Demo admin token" not in again.stdout
        assert "unchanged" in again.stdout and "revoked" not in again.stdout
        assert httpx.get(f"{base}/api/v1/tables/", headers=auth).status_code == 200
        # a kept token of a revoked demo device works nowhere: up says so (found by QA)
        devices = httpx.get(f"{base}/api/v1/devices/", headers=auth).json()
        rows = devices["results"] if isinstance(devices, dict) else devices
        [dealer] = [d for d in rows if d["role"] == "dealer"]
        revoked = httpx.post(f"{base}/api/v1/devices/{dealer['id']}/revoke/", headers=auth
                             | {"Idempotency-Key": "revoke-demo-dealer"})  # fmt: skip
        assert revoked.status_code == 200, revoked.text
        again = subprocess.run([*up, "--keep-tokens", "--no-serve"], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=60)  # fmt: skip
        assert "The demo dealer device is revoked" in again.stdout, again.stdout
        assert "demo admin device is revoked" not in again.stdout
    finally:
        first.terminate()
        first.wait(10)
    for bad in ("99999", "0", "-5", "http"):
        refused = subprocess.run([*up, "--port", bad], cwd=ROOT, env=env,
                                 capture_output=True, text=True, timeout=60)  # fmt: skip
        assert refused.returncode != 0 and "port" in refused.stderr, bad
        assert "Demo admin token" not in refused.stdout
    nowhere = env | {"DATABASE_URL": f"sqlite:///{tmp_path / 'no' / 'such' / 'room.sqlite3'}"}
    refused = subprocess.run([*up, "--port", str(free_port())], cwd=ROOT, env=nowhere,
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert refused.returncode != 0 and "cannot use the database" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1, refused.stderr  # not a traceback
    production = env | {"DEBUG": "false"}
    production.pop("SECRET_KEY", None)
    refused = subprocess.run([*up, "--port", str(free_port())], cwd=ROOT, env=production,
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert refused.returncode != 0 and "SECRET_KEY" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "Demo admin token" not in refused.stdout


def test_up_says_in_a_line_what_database_it_cannot_use_and_shows_a_fresh_room_s_tokens(
    tmp_path: Path,
) -> None:
    """Found by QA: an in-memory SQLite URL was taken, then the relay and the timers filled
    the console with tracebacks (each thread saw an empty database); an unknown scheme gave
    a traceback; and ``--keep-tokens`` on a fresh database printed no token at all, though
    it had just made the demo devices."""
    up = [sys.executable, "manage.py", "up", "--no-timers", "--port", str(free_port())]
    for url in ("sqlite:///", "sqlite://:memory:", "bogus://x"):
        env = embedded_env(tmp_path) | {"DATABASE_URL": url}
        refused = subprocess.run(up, cwd=ROOT, env=env, capture_output=True, text=True,
                                 timeout=60)  # fmt: skip
        assert refused.returncode != 0, url
        assert len(refused.stderr.strip().splitlines()) <= 2, refused.stderr  # no traceback
        assert "Traceback" not in refused.stderr and "Demo admin token" not in refused.stdout
    fresh = subprocess.run([*up, "--keep-tokens", "--no-serve"], cwd=ROOT,
                           env=embedded_env(tmp_path), capture_output=True, text=True,
                           timeout=60)  # fmt: skip
    assert fresh.returncode == 0, fresh.stderr
    token = re.search(r"Demo admin token:  ([A-Za-z0-9_-]{20,})", fresh.stdout)
    assert token, fresh.stdout  # the new devices' first tokens, shown once


def test_a_celery_worker_refuses_the_builtin_secret_key() -> None:
    """Celery logs and swallows an exception from a ``worker_init`` handler: the worker
    said it refused the key, then ran on (found by QA)."""
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"} | {"DEBUG": "false"}
    worker = subprocess.run(
        [sys.executable, "-m", "celery", "-A", "casino", "worker", "--loglevel=warning",
         "--pool=solo"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert worker.returncode != 0
    assert "SECRET_KEY is the built-in development key" in worker.stderr
