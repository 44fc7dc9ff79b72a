"""Browser tests of the consoles (issue #13): Playwright for Python driving Debian's
``chromium`` (``/usr/bin/chromium``; ``.ci/run`` installs it, ``playwright install`` is
never used) against a real server (``manage.py up``) in a subprocess.

Fixtures:

* ``room`` (session): ``manage.py up`` on a fresh database (a temporary SQLite file like
  ``up`` on a fresh machine; ``BROWSER_DATABASE_URL=postgres://...`` for PostgreSQL), the
  Redis channel layer when ``REDIS_URL`` is set (else the in-process one), a free port
  (``BROWSER_PORT_RANGE=8300-8399`` picks one in a range). A
  :class:`Room` with the base URL, the demo tokens and an admin API client to set up
  staff, players, tables and devices through the public API.
* ``browser`` (session): chromium, headless; skipped with the reason when chromium or
  playwright is missing.
* ``new_page``: a factory of pages, each in its own context (its own cookies and
  localStorage, like a second device), closed after the test.
* ``proxy``: a TCP proxy in front of the server that can cut every connection and refuse
  new ones (:meth:`Proxy.cut` / :meth:`Proxy.restore`): a tablet losing its network.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    """A free TCP port: in ``BROWSER_PORT_RANGE`` ("8300-8399") if set, else any."""
    wanted = os.environ.get("BROWSER_PORT_RANGE", "")
    candidates: list[int] = []
    if re.fullmatch(r"\d+-\d+", wanted):
        low, high = map(int, wanted.split("-"))
        candidates = list(range(low, high + 1))
        import random

        random.shuffle(candidates)
    for port in [*candidates, 0]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise RuntimeError("no free port")


class Room:
    """A running server and an admin client of its public API."""

    def __init__(self, base: str, dealer_token: str, admin_token: str, process: Any) -> None:
        self.base = base
        self.dealer_token = dealer_token
        self.admin_token = admin_token
        self.process = process
        self.http = httpx.Client(
            base_url=base, headers={"Authorization": f"Token {admin_token}"}, timeout=20
        )

    def api(self, method: str, path: str, body: Any = None, *, token: str | None = None) -> Any:
        """Call the API as the demo admin device (or ``token``); a write gets a fresh
        Idempotency-Key. Raises AssertionError on an error answer."""
        headers = {"Idempotency-Key": str(uuid.uuid4())} if method != "GET" else {}
        if token:
            headers["Authorization"] = f"Token {token}"
        response = self.http.request(method, path, json=body, headers=headers)
        assert response.status_code < 400, (method, path, response.status_code, response.text)
        return response.json()

    def staff(self, role: str, username: str | None = None) -> tuple[str, str]:
        """A new staff account with ``role``: (username, password)."""
        username = username or f"{role}-{uuid.uuid4().hex[:6]}"
        # letters no role name or hex digit has: Django refused a password "too similar
        # to the username" now and then (both had hex digits, and "green" shares letters)
        password = "Vyx-Wqz-" + "".join(random.choice("uvwxyz") for _ in range(10))
        self.api(
            "POST", "/api/v1/staff/", {"username": username, "password": password, "role": role}
        )
        return username, password

    def player(self, name: str, nickname: str = "") -> int:
        return int(self.api("POST", "/api/v1/players/", {"name": name, "nickname": nickname})["id"])

    def open_table(self, **config: Any) -> int:
        body = {"name": f"NLH 10/20 #{uuid.uuid4().hex[:4]}", "game": "NLH",
                "small_blind": 10, "big_blind": 20, **config}  # fmt: skip
        if "buy_in_min" in config or "buy_in_max" in config:  # BI-5: agreed limits, say why
            body.setdefault("limits_reason", "agreed by the players")
        return int(self.api("POST", "/api/v1/tables/", body)["table_id"])

    def started_tournament(self, name: str, *, entrants: int = 2, **config: Any) -> int:
        """A one-level tournament (``config`` overrides the defaults) with ``entrants`` new
        players registered, started with no reserve table; its id."""
        body = {"name": name, "buy_in": 100, "fee": 10, "starting_stack": 1000,
                "min_entrants": 2, "levels": [{"small_blind": 25, "big_blind": 50}],
                **config}  # fmt: skip
        tid = int(self.api("POST", "/api/v1/tournaments/", body)["tournament_id"])
        for n in range(entrants):
            self.api("POST", f"/api/v1/tournaments/{tid}/registrations/",
                     {"player_id": self.player(f"{name} {n}")})  # fmt: skip
        self.api("POST", f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 0})
        return tid

    def shove_round(self, tournament_id: int) -> dict[str, Any]:
        """One hand at each of the tournament's tables through the dealer API, everybody
        all in, the lowest live seat winning each pot; the tournament after it."""
        t = self.api("GET", f"/api/v1/tournaments/{tournament_id}/")
        for table_id in t["tables"]:
            hand = self.api("POST", f"/api/v1/tables/{table_id}/hands/", {})
            url = f"/api/v1/hands/{hand['hand_id']}"
            boards = iter([("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")])
            while hand["phase"] != "complete":
                if hand["phase"] == "betting":
                    legal = hand["legal"]
                    shove = legal["can_bet"] or legal["can_raise"] or legal["to_call"]
                    body = {"seat": legal["seat"], "action": "all_in" if shove else "check"}
                    hand = self.api("POST", f"{url}/actions/", body)
                elif hand["next_street"]:
                    street, cards = next(boards)
                    hand = self.api("POST", f"{url}/board/", {"street": street, "cards": cards})
                else:
                    live = {s["seat"] for s in hand["seats"] if not s["folded"]}
                    winners = [[min(set(p["eligible_seats"]) & live)] for p in hand["pots"]]
                    hand = self.api("POST", f"{url}/award/", {"winners_by_pot": winners})
        return dict(self.api("GET", f"/api/v1/tournaments/{tournament_id}/"))

    def tablet(self, table_id: int) -> str:
        """Register a dealer tablet for a table; its token (shown once)."""
        name = f"tablet-{table_id}-{uuid.uuid4().hex[:6]}"
        answer = self.api("POST", "/api/v1/devices/", {"name": name, "table_id": table_id})
        return str(answer["token"])


def _server_database() -> tuple[str, Callable[[], None]]:
    """A fresh database for the server, and how to drop it: a temporary SQLite file, as
    ``manage.py up`` uses on a fresh machine, unless ``BROWSER_DATABASE_URL`` names a
    PostgreSQL server (a fresh database is created there). Not PostgreSQL by default: the
    relay reads below the oldest transaction of the whole server (docs/realtime.md), so on
    a server shared with other test runs an idle transaction elsewhere delays the pushes
    these tests time."""
    url = os.environ.get("BROWSER_DATABASE_URL", "sqlite")
    if url.startswith("sqlite"):
        folder = tempfile.mkdtemp(prefix="casino-browser-")
        return f"sqlite:///{folder}/room.sqlite3", lambda: shutil.rmtree(folder, True)
    parts = urlsplit(url)
    name = f"casino_browser_{uuid.uuid4().hex[:8]}"
    admin = parts._replace(path="/postgres").geturl()
    subprocess.run(["psql", admin, "-qc", f"CREATE DATABASE {name}"], check=True)

    def drop() -> None:
        subprocess.run(["psql", admin, "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])

    return parts._replace(path=f"/{name}").geturl(), drop


def start_room(
    port: int | None = None, extra_env: dict[str, str] | None = None
) -> Generator[Room, None, None]:
    """``manage.py up`` in a subprocess until the generator is closed (for fixtures and the
    screenshots command)."""
    database, drop = _server_database()
    port = port or free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TEST_DATABASE_NAME")}
    env |= {"DATABASE_URL": database, **(extra_env or {})}
    if redis := os.environ.get("REDIS_URL"):
        # The Redis channel layer, as in production, when REDIS_URL is set (else the
        # embedded in-process layer, as `up` on a fresh machine). A prefix of its own per run.
        env |= {"REDIS_URL": redis, "CHANNEL_LAYER_PREFIX": f"browser-{uuid.uuid4().hex[:8]}"}
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (the server writes to it until the end)
        prefix="casino-browser-server-", suffix=".log", delete=False
    )
    process = subprocess.Popen(
        [sys.executable, "manage.py", "up", "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(4)]
        text = "".join(lines)
        dealer = re.search(r"Demo dealer token: +(\S+)", text)
        admin = re.search(r"Demo admin token: +(\S+)", text)
        assert dealer and admin, (text, Path(log.name).read_text()[-2000:])
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                if httpx.get(f"{base}/login/", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield Room(base, dealer.group(1), admin.group(1), process)
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
        drop()


@pytest.fixture(scope="module")  # one room per module: tests of one console never see another's
def room() -> Iterator[Room]:
    yield from start_room()


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"chromium is not installed at {CHROMIUM} (apt-get install -y chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright (Python) is not installed (uv sync)"
    return None


@pytest.fixture(scope="package")  # its event loop must not outlive the package
def browser() -> Iterator[Any]:
    reason = chromium_missing()
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 800, locale: str = "en-GB") -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def lose_answers(page: Any, pattern: str) -> dict[str, int]:
    """Let every request matching ``pattern`` reach the server, then drop its answer, as a
    dropped Wi-Fi link does; ``["n"]`` of the returned dict counts the answers lost. Undo
    with ``page.unroute(pattern)``."""
    lost = {"n": 0}

    def lose_the_answer(route: Any) -> None:
        route.fetch()  # the server records the write
        lost["n"] += 1
        route.abort()  # its answer never arrives

    page.route(pattern, lose_the_answer)
    return lost


def login(page: Any, base: str, username: str, password: str, target: str = "/") -> None:
    """Log in through the login page (session + CSRF), then open ``target``."""
    page.goto(f"{base}/login/?next={target}")
    page.fill("#username", username)
    page.fill("#password", password)
    page.click("#login-submit")
    page.wait_for_url(lambda url: "/login/" not in url)


def open_director(
    room: Room, new_page: Any, tournament_id: int, *, accept_dialogs: bool = False
) -> Any:
    """Log in as a director and open ``tournament_id`` on /director/, ready to read.

    ``accept_dialogs`` answers yes to every ``confirm()`` the console asks before a drastic
    step (a cancellation, a rollback)."""
    username, password = room.staff("director")
    page = new_page()
    if accept_dialogs:
        page.on("dialog", lambda dialog: dialog.accept())
    login(page, room.base, username, password, f"/director/?t={tournament_id}")
    page.wait_for_selector("#tournament:not([hidden])")
    page.wait_for_function("document.getElementById('t-status').textContent.length > 0")
    return page


def open_floor_replay(
    room: Room, new_page: Any, table: int, hand_id: str, *, height: int = 800
) -> Any:
    """Log in as a floor person and load ``hand_id`` of ``table`` in the replay tab of
    /floor/ (the hand's steps and, for a settled hand, its rulings' forms)."""
    page = new_page(1280, height)
    login(page, room.base, *room.staff("floor"), target="/floor/")
    page.goto(f"{room.base}/floor/")
    page.wait_for_selector("#floor[data-ready='true']")
    page.click(".tab[data-tab=replay]")
    page.wait_for_selector(f"#replay-table option[value='{table}']", state="attached")
    page.select_option("#replay-table", str(table))
    page.wait_for_selector(f"#replay-hand option[value='{hand_id}']", state="attached")
    page.select_option("#replay-hand", hand_id)
    page.click("#replay-load")
    return page


def pair_tablet(page: Any, base: str, token: str) -> None:
    """Open /tablet/ and enter the device token once (stored in localStorage)."""
    page.goto(f"{base}/tablet/")
    page.fill("#device-token", token)
    page.click("#pair-submit")
    page.wait_for_selector("#tablet[data-ready='true']")


class Proxy:
    """A TCP proxy to the server that can cut every connection (a lost network)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.up = True
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Close every open connection and refuse new ones."""
        self.up = False
        with self._lock:
            conns, self._conns = self._conns, []
        for s in conns:
            try:
                s.shutdown(socket.SHUT_RDWR)
                s.close()
            except OSError:
                pass

    def restore(self) -> None:
        self.up = True

    def close(self) -> None:
        self.cut()
        self._listener.close()


@pytest.fixture
def proxy(room: Room) -> Iterator[Proxy]:
    port = int(room.base.rsplit(":", 1)[1])
    p = Proxy(port)
    yield p
    p.close()
