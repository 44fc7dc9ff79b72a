"""The shared console shell: session login with CSRF, the role's navigation, the language
switch (English/Czech), log-out."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Room, login, pair_tablet


def test_staff_log_in_switch_to_czech_and_log_out(room: Room, new_page: Any) -> None:
    username, password = room.staff("floor")
    page = new_page()
    page.goto(f"{room.base}/floor/")
    page.wait_for_url(f"{room.base}/login/?next=/floor/")  # not logged in: the login page
    page.fill("#username", username)
    page.fill("#password", "wrong")
    page.click("#login-submit")
    expect(page.locator("#login-error")).to_contain_text("Wrong username or password")
    login(page, room.base, username, password, target="/floor/")
    expect(page.locator("nav a[aria-current=page]")).to_have_text("Floor")
    page.click("form.lang button[value=cs]")
    page.wait_for_selector("html[lang=cs]")
    expect(page.locator("nav a[aria-current=page]")).to_have_text("Sál")
    page.click("#logout")
    page.wait_for_url(f"{room.base}/login/")
    page.goto(f"{room.base}/floor/")
    page.wait_for_url(f"{room.base}/login/?next=/floor/")


def test_a_role_without_the_console_is_refused(room: Room, new_page: Any) -> None:
    username, password = room.staff("cashier")
    page = new_page()
    login(page, room.base, username, password, target="/")
    response = page.goto(f"{room.base}/floor/")
    assert response is not None and response.status == 403


def test_every_screen_loads_without_a_script_error_or_a_failed_request(
    room: Room, new_page: Any
) -> None:
    """Each console, the paired tablet and both TV boards, opened as staff meet them, with a
    table in play and a tournament published: no script error, no console error, and no
    request of the page's own (scripts, styles, the API, the icon) answered 4xx/5xx or
    failed. (A board once asked for ``/favicon.ico`` on every load and logged a 404.)"""
    table_id = room.open_table()
    for seat in (1, 2, 3):
        player_id = room.player(f"Screen {seat}")
        room.api("POST", f"/api/v1/tables/{table_id}/seats/",
                 {"player_id": player_id, "seat": seat, "buy_in": 1000})  # fmt: skip
    room.api("POST", f"/api/v1/tables/{table_id}/hands/", {})
    tournament = room.api("POST", "/api/v1/tournaments/", {
        "name": "Screens", "buy_in": 1000, "fee": 100, "starting_stack": 3000, "min_entrants": 2,
        "levels": [{"small_blind": 25, "big_blind": 50}]})["tournament_id"]  # fmt: skip
    username, password = room.staff("admin")
    problems: list[str] = []

    def watch(page: Any) -> Any:
        page.on("pageerror", lambda error: problems.append(f"{page.url}: script error {error}"))
        page.on("console", lambda message: message.type == "error" and problems.append(
            f"{page.url}: console error {message.text}"))  # fmt: skip
        page.on("response", lambda response: response.status >= 400 and problems.append(
            f"{page.url}: {response.status} for {response.url}"))  # fmt: skip
        # a request the browser abandons on leaving the page (a poll in flight) is no fault
        page.on("requestfailed", lambda request: request.failure != "net::ERR_ABORTED" and
                problems.append(f"{page.url}: {request.url} {request.failure}"))  # fmt: skip
        return page

    console = watch(new_page())
    login(console, room.base, username, password, target="/")
    for path in ("/", "/floor/", "/cashier/", "/director/", "/reports/",
                 "/board/waitlist/", f"/board/tournament/{tournament}/"):  # fmt: skip
        console.goto(f"{room.base}{path}")
        console.wait_for_load_state("networkidle")
    tablet = watch(new_page())
    pair_tablet(tablet, room.base, room.tablet(table_id))
    tablet.wait_for_load_state("networkidle")
    expect(tablet.locator("#turn")).to_contain_text("seat")  # the hand in play is on it
    assert problems == []
