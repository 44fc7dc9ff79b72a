"""The floor's rulings on a past hand, from the replay tab of the floor console: a settled
hand's result corrected (SD-24..26) with chip moves per seat that must balance, applied at
once or when the running hand ends; a chop exception recorded on the hand (RAKE-9).

Every test opens tables of its own (the room is shared by the module) and checks what the
server holds afterwards through the public API, not only what the page says.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Room, open_floor_replay


def _table(room: Room, name: str) -> int:
    """A cash table of its own with three players of 1000 at seats 1-3."""
    table = room.open_table(buy_in_min=100, buy_in_max=10_000)
    for seat in (1, 2, 3):
        body = {"player_id": room.player(f"{name} {seat}"), "seat": seat, "buy_in": 1000}
        room.api("POST", f"/api/v1/tables/{table}/seats/", body)
    return table


def _fold_out(room: Room, hand: dict[str, Any]) -> dict[str, Any]:
    """``hand`` played to its end: everybody folds to the big blind."""
    while hand["phase"] != "complete":
        hand = room.api("POST", f"/api/v1/hands/{hand['hand_id']}/actions/",
                        {"seat": hand["to_act"], "action": "fold"})  # fmt: skip
    return hand


def _settled_hand(room: Room, table: int) -> dict[str, Any]:
    """A hand of ``table`` started and settled (folded to the big blind)."""
    return _fold_out(room, room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1}))


def _stacks(room: Room, table: int) -> dict[int, int]:
    return {s["seat"]: s["stack"] for s in room.api("GET", f"/api/v1/tables/{table}/")["seats"]}


def _log_types(room: Room, hand_id: str) -> list[str]:
    return [e["event_type"] for e in room.api("GET", f"/api/v1/hands/{hand_id}/log/")]


def _floor_on_hand(room: Room, new_page: Any, table: int, hand_id: str) -> Any:
    """A floor person's console with ``hand_id`` of ``table`` loaded in the replay tab."""
    page = open_floor_replay(room, new_page, table, hand_id, height=900)
    expect(page.locator("#hand-rulings")).to_be_visible()
    return page


def _move(page: Any, seat: int, chips: int) -> None:
    page.fill(f"#hc-moves input[data-move='{seat}']", str(chips))


@pytest.mark.rule("SD-24")
def test_the_floor_corrects_a_settled_hand_and_the_chips_move_at_once(
    room: Room, new_page: Any
) -> None:
    """Between hands an upheld accounting error moves the chips there and then: the form
    says so, the table's stacks hold it and the replay shows the correction as a new step
    (the settlement itself is never rewritten)."""
    table = _table(room, "Paid wrongly")
    hand = _settled_hand(room, table)
    before = _stacks(room, table)
    page = _floor_on_hand(room, new_page, table, hand["hand_id"])
    expect(page.locator("#hc-moves tbody tr")).to_have_count(3)  # one row per seat of the hand
    page.select_option("#hc-kind", "accounting")
    page.fill("#hc-detail", "seat 3 was paid 10 too much")
    _move(page, 3, -10)
    expect(page.locator("#hc-submit")).to_be_disabled()  # -10 alone does not balance
    _move(page, 2, 10)
    expect(page.locator("#hc-balance")).to_have_text("Balance 0: seat 2 +10, seat 3 -10.")
    page.click("#hc-submit")
    expect(page.locator("#hc-result")).to_contain_text("the correction moved the chips")
    assert _stacks(room, table) == {**before, 2: before[2] + 10, 3: before[3] - 10}
    last = page.locator("#replay-steps tbody tr").last
    expect(last).to_have_class("current")  # the console shows the new step
    expect(last).to_contain_text("Result corrected (accounting): seat 2 +10, seat 3 -10 [SD-24]")
    expect(
        page.locator(f".tcard[data-table='{table}'] tr[data-seat='2'] .stack")
    ).to_have_attribute("data-stack", str(before[2] + 10))
    types = _log_types(room, hand["hand_id"])
    assert types.count("tables.ResultCorrected") == 1 and "tables.HandSettled" in types


@pytest.mark.rule("SD-24")
def test_a_correction_during_the_next_hand_is_deferred_until_it_ends(
    room: Room, new_page: Any
) -> None:
    """A pot-accounting error may still be raised while the next hand runs (before
    substantial action on it); its players' chips cannot move during that hand, so the
    form says the correction waits, and the chips move when the hand ends."""
    table = _table(room, "Deferred")
    first = _settled_hand(room, table)
    second = room.api("POST", f"/api/v1/tables/{table}/hands/", {})
    during = _stacks(room, table)
    page = _floor_on_hand(room, new_page, table, first["hand_id"])
    page.select_option("#hc-kind", "accounting")
    page.fill("#hc-detail", "seat 3 was paid 10 too much")
    _move(page, 3, -10)
    _move(page, 1, 10)
    page.click("#hc-submit")
    expect(page.locator("#hc-result")).to_contain_text("moves its chips when this hand ends")
    expect(page.locator("#hc-result")).to_have_class("result pending")
    assert _stacks(room, table) == during  # nothing moves during the running hand
    second = _fold_out(room, second)
    settled = {s["seat"]: s["stack"] for s in second["seats"]}
    expect(page.locator("#hc-result")).to_contain_text("the correction moved the chips")
    assert _stacks(room, table) == {**settled, 1: settled[1] + 10, 3: settled[3] - 10}


@pytest.mark.rule("SD-24")
def test_an_unbalanced_correction_is_refused_by_the_form_and_never_sent(
    room: Room, new_page: Any
) -> None:
    """A correction moves chips, and only between the hand's seats: until some move and
    they add up to 0 the form says so and sends nothing, not even on Enter."""
    table = _table(room, "Unbalanced")
    hand = _settled_hand(room, table)
    before = _stacks(room, table)
    page = _floor_on_hand(room, new_page, table, hand["hand_id"])
    page.fill("#hc-detail", "misread")
    balance = page.locator("#hc-balance")
    expect(balance).to_have_text("Enter the chips to move: to a seat, or with a minus from it.")
    expect(page.locator("#hc-submit")).to_be_disabled()  # a correction moves chips
    _move(page, 1, 200)
    expect(balance).to_contain_text("Balance +200: the moves do not add up to 0")
    expect(balance).to_contain_text("SD-24")
    expect(balance).to_have_class("balance bad")
    expect(page.locator("#hc-submit")).to_be_disabled()
    page.press("#hc-detail", "Enter")
    _move(page, 2, -150)
    expect(balance).to_contain_text("Balance +50")
    page.press("#hc-detail", "Enter")
    page.wait_for_timeout(500)
    assert "tables.ResultCorrected" not in _log_types(room, hand["hand_id"])
    assert _stacks(room, table) == before
    expect(page.locator("#hc-result")).to_have_text("")


@pytest.mark.rule("SD-24")
def test_a_reading_disputed_after_the_next_hand_began_is_refused_in_the_form(
    room: Room, new_page: Any
) -> None:
    """The reading of a hand may be disputed until the next hand starts: after that the
    server refuses (dispute_window_closed, SD-24) and the form shows its refusal. A hand
    still running has no result to correct."""
    table = _table(room, "Too late")
    first = _settled_hand(room, table)
    second = room.api("POST", f"/api/v1/tables/{table}/hands/", {})
    before = _stacks(room, table)
    page = _floor_on_hand(room, new_page, table, first["hand_id"])
    page.select_option("#hc-kind", "reading")
    page.fill("#hc-detail", "the flush was misread")
    _move(page, 2, 10)
    _move(page, 3, -10)
    page.click("#hc-submit")
    error = page.locator("#hc-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("SD-24")
    expect(error).to_contain_text("The hand is closed: no correction is accepted any more.")
    expect(page.locator("#hc-result")).to_have_text("")
    expect(page.locator("#hc-submit")).to_be_enabled()  # the floor may change it and resend
    assert "tables.ResultCorrected" not in _log_types(room, first["hand_id"])
    assert _stacks(room, table) == before
    # the running hand: nothing to correct yet
    page.select_option("#replay-hand", second["hand_id"])
    page.click("#replay-load")
    expect(page.locator("#hc-unsettled")).to_be_visible()
    expect(page.locator("#hc-fields")).to_be_hidden()
    expect(error).to_be_hidden()  # another hand: the last one's refusal is gone


@pytest.mark.rule("RAKE-9")
def test_the_floor_records_a_chop_exception_that_the_replay_shows(
    room: Room, new_page: Any
) -> None:
    """The no-chop rule of a cash all-in pot has a floor exception, recorded on the hand
    with who allowed it, why and for which seats; the server's refusal of a blank reason
    is shown in the form."""
    table = _table(room, "Chop")
    hand = _settled_hand(room, table)
    page = _floor_on_hand(room, new_page, table, hand["hand_id"])
    page.fill("#ch-floor", "Eva Floor")
    page.fill("#ch-reason", "both all in, they agreed to chop")
    page.click("#ch-submit")
    expect(page.locator("#ch-error")).to_have_text("Tick the seats concerned.")
    page.check("#ch-seats input[value='2']")
    page.check("#ch-seats input[value='3']")
    page.fill("#ch-reason", "   ")
    page.click("#ch-submit")
    expect(page.locator("#ch-error")).to_contain_text("reason")  # the server's 400
    assert "tables.ChopExceptionRecorded" not in _log_types(room, hand["hand_id"])
    page.fill("#ch-reason", "both all in, they agreed to chop")
    page.click("#ch-submit")
    expect(page.locator("#ch-result")).to_have_text("Chop exception recorded on the hand.")
    expect(page.locator("#ch-error")).to_be_hidden()
    last = page.locator("#replay-steps tbody tr").last
    expect(last).to_contain_text(
        "Chop allowed by Eva Floor (seats 2, 3): both all in, they agreed to chop"
    )
    log = room.api("GET", f"/api/v1/hands/{hand['hand_id']}/log/")
    [chop] = [e for e in log if e["event_type"] == "tables.ChopExceptionRecorded"]
    assert (chop["data"]["floor"], chop["data"]["seats"]) == ("Eva Floor", [2, 3])
