"""Screenshots of every console at 1280x800 and 1920x1080 under ``var/screenshots/``.

    uv run python -m tests.browser.screenshots [name ...]

Starts ``manage.py up`` on a fresh database (like the browser tests), sets up a room with
staff of every role, players, seats and a running hand, then opens each :class:`Screen`
in chromium. The entries are :data:`SCREENS` here plus ``SCREENS`` of every
``tests/browser/screens_<app>.py`` module (each console adds its own there).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, Room, chromium_missing, start_room

OUT = ROOT / "var" / "screenshots"
SIZES = [(1280, 800), (1920, 1080)]


@dataclass
class Scene:
    """What the setup made, shared by every screen (ids, tokens, logins)."""

    room: Room
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Screen:
    """One console to photograph: ``setup(scene, page)`` logs in or pairs the page and
    returns the path to open (default ``path``); ``ready`` is a selector to wait for."""

    name: str
    path: str
    setup: Callable[[Scene, Any], str | None] | None = None
    ready: str | None = None


def _login_setup(role: str) -> Callable[[Scene, Any], None]:
    def setup(scene: Scene, page: Any) -> None:
        from tests.browser.conftest import login

        username, password = scene.data["staff"][role]
        login(page, scene.room.base, username, password)

    return setup


def _tablet_setup(scene: Scene, page: Any) -> None:
    page.goto(f"{scene.room.base}/tablet/")
    page.evaluate("t => localStorage.setItem('casino.deviceToken', t)", scene.data["tablet_token"])


SCREENS: list[Screen] = [
    Screen("login", "/login/"),
    Screen("tablet-pairing", "/tablet/", ready="#pairing"),
    Screen("tablet", "/tablet/", _tablet_setup, ready="#tablet[data-ready='true']"),
    Screen("floor", "/floor/", _login_setup("floor"), ready="#floor[data-ready='true']"),
]

ROLES = ["floor", "cashier", "director", "manager", "admin"]


def build_scene(room: Room) -> Scene:
    """Staff of every role, four players seated at table 1 and a hand under way."""
    scene = Scene(room)
    scene.data["staff"] = {role: room.staff(role) for role in ROLES}
    players = [room.player(f"Player {i}", nickname=f"P{i}") for i in range(1, 7)]
    scene.data["players"] = players
    table = 1
    for seat, player in enumerate(players[:4], start=1):
        seating = {"player_id": player, "seat": seat * 2 - 1, "buy_in": 2000 + 500 * seat}
        room.api("POST", f"/api/v1/tables/{table}/seats/", seating)
    hand = room.api(
        "POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1}, token=room.dealer_token
    )
    room.api("POST", f"/api/v1/hands/{hand['hand_id']}/actions/",
             {"seat": hand["to_act"], "action": "call"}, token=room.dealer_token)  # fmt: skip
    scene.data["table_id"] = table
    scene.data["hand_id"] = hand["hand_id"]
    scene.data["tablet_token"] = room.dealer_token
    return scene


def all_screens() -> list[Screen]:
    screens = list(SCREENS)
    package = Path(__file__).parent
    for info in pkgutil.iter_modules([str(package)]):
        if info.name.startswith("screens_"):
            module = importlib.import_module(f"tests.browser.{info.name}")
            screens += list(getattr(module, "SCREENS", []))
    return screens


def main(names: list[str]) -> int:
    reason = chromium_missing()
    if reason:
        print(f"cannot take screenshots: {reason}", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    screens = [s for s in all_screens() if not names or s.name in names]
    rooms = start_room()
    room = next(rooms)
    try:
        scene = build_scene(room)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for screen in screens:
                for width, height in SIZES:
                    context = browser.new_context(viewport={"width": width, "height": height})
                    page = context.new_page()
                    path = (screen.setup(scene, page) if screen.setup else None) or screen.path
                    page.goto(f"{room.base}{path}")
                    if screen.ready:
                        page.wait_for_selector(screen.ready, timeout=10_000)
                    page.wait_for_timeout(400)
                    target = OUT / f"{screen.name}-{width}x{height}.png"
                    page.screenshot(path=str(target))
                    print(target.relative_to(ROOT))
                    context.close()
            browser.close()
    finally:
        rooms.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
