"""The shared console shell: session login with CSRF, the role's navigation, the language
switch (English/Czech), log-out."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Room, login


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
