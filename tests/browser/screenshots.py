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
    after: Callable[[Scene, Any], None] | None = None
    """Runs once the page is ready (open a tab, load a hand ...), before the shot."""


def _login_setup(role: str) -> Callable[[Scene, Any], None]:
    def setup(scene: Scene, page: Any) -> None:
        from tests.browser.conftest import login

        username, password = scene.data["staff"][role]
        login(page, scene.room.base, username, password)

    return setup


def _paired(key: str) -> Callable[[Scene, Any], None]:
    def setup(scene: Scene, page: Any) -> None:
        page.goto(f"{scene.room.base}/tablet/")
        page.evaluate("t => localStorage.setItem('casino.deviceToken', t)", scene.data[key])

    return setup


_tablet_setup = _paired("tablet_token")


def _czech(setup: Callable[[Scene, Any], Any]) -> Callable[[Scene, Any], Any]:
    """The same screen in Czech (the language cookie the EN/CS switch sets)."""

    def czech(scene: Scene, page: Any) -> Any:
        page.context.add_cookies(
            [{"name": "django_language", "value": "cs", "url": scene.room.base}]
        )
        return setup(scene, page)

    return czech


def _floor_tab(tab: str, then: Callable[[Scene, Any], None] | None = None) -> Any:
    def after(scene: Scene, page: Any) -> None:
        page.click(f".tab[data-tab={tab}]")
        if then:
            then(scene, page)

    return after


def _load_replay(scene: Scene, page: Any) -> None:
    page.wait_for_selector("#replay-table option", state="attached")
    page.select_option("#replay-table", str(scene.data["replay_table"]))
    page.wait_for_function("() => document.querySelectorAll('#replay-hand option').length === 2")
    page.select_option("#replay-hand", index=1)  # the finished hand #1
    page.click("#replay-load")
    page.wait_for_selector("#replay:not([hidden]) tbody tr")
    page.click("#replay-next")
    page.click("#replay-next")


def _show_lists(scene: Scene, page: Any) -> None:
    page.wait_for_selector(".wl .countdown")


SCREENS: list[Screen] = [
    Screen("login", "/login/"),
    Screen("tablet-pairing", "/tablet/", ready="#pairing"),
    Screen("tablet", "/tablet/", _tablet_setup, ready="#tablet[data-ready='true']"),
    Screen(
        "tablet-board",
        "/tablet/",
        _paired("board_tablet_token"),
        ready="#tablet[data-ready='true']",
    ),
    Screen("tablet-cs", "/tablet/", _czech(_tablet_setup), ready="#tablet[data-ready='true']"),
    Screen("floor", "/floor/", _login_setup("floor"), ready="#floor[data-ready='true']"),
    Screen(
        "floor-replay",
        "/floor/",
        _login_setup("floor"),
        ready="#floor[data-ready='true']",
        after=_floor_tab("replay", _load_replay),
    ),
    Screen(
        "floor-lists",
        "/floor/",
        _login_setup("floor"),
        ready="#floor[data-ready='true']",
        after=_floor_tab("lists", _show_lists),
    ),
    Screen(
        "floor-devices",
        "/floor/",
        _login_setup("admin"),
        ready="#floor[data-ready='true']",
        after=_floor_tab("devices"),
    ),
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
    room.api(
        "POST",
        f"/api/v1/hands/{hand['hand_id']}/actions/",
        {"seat": hand["to_act"], "action": "call"},
        token=room.dealer_token,
    )
    scene.data["table_id"] = table
    scene.data["hand_id"] = hand["hand_id"]
    scene.data["tablet_token"] = room.dealer_token

    # table 2: a finished hand to replay, then a hand waiting for its flop
    for seat, player in ((2, players[4]), (6, players[5])):
        room.api(
            "POST", "/api/v1/tables/2/seats/", {"player_id": player, "seat": seat, "buy_in": 4000}
        )
    token = room.tablet(2)
    first = room.api("POST", "/api/v1/tables/2/hands/", {"button_seat": 2}, token=token)
    hand_path = f"/api/v1/hands/{first['hand_id']}/actions/"
    room.api(
        "POST",
        hand_path,
        {"seat": first["to_act"], "action": "raise", "amount_to": 150},
        token=token,
    )
    room.api("POST", hand_path, {"seat": 6, "action": "fold"}, token=token)
    second = room.api("POST", "/api/v1/tables/2/hands/", {}, token=token)
    hand_path = f"/api/v1/hands/{second['hand_id']}/actions/"
    room.api("POST", hand_path, {"seat": second["to_act"], "action": "call"}, token=token)
    nxt = room.api("GET", f"/api/v1/hands/{second['hand_id']}/")["to_act"]
    room.api("POST", hand_path, {"seat": nxt, "action": "check"}, token=token)
    scene.data["replay_table"] = 2
    scene.data["board_tablet_token"] = token

    # a waiting list for NLH 10/20 with a call counting down (open seat 2 at table 1)
    listed = room.api(
        "POST", "/api/v1/waitlists/", {"game": "NLH", "small_blind": 10, "big_blind": 20}
    )
    list_id = listed["list_id"]
    extra = [room.player(f"Waiting {i}", nickname=f"W{i}") for i in range(1, 4)]
    for i, player in enumerate(extra):
        room.api(
            "POST",
            f"/api/v1/waitlists/{list_id}/entries/",
            {
                "player_id": player,
                "channel": ["in_person", "phone", "console"][i],
                "phone": f"+420 600 000 00{i}",
            },
        )
    room.api("POST", f"/api/v1/waitlists/{list_id}/calls/", {"table_id": 1, "seat": 2})
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
                    if screen.after:
                        screen.after(scene, page)
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
