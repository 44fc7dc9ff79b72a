"""Chip reading on the dealer tablet (catalogue section 6): the dealer taps the chips the
player to act pushed, motion by motion, says what he announced, and the server rules what
the wager is (``POST /api/v1/hands/<id>/chips/``); the tablet shows the ruling in words
with its rule ID and the hand moves on. A refusal shows in the control. And the floor's
state of a hand (a called clock, a passive seat, an out-of-turn action) is shown again
after the tablet reloads the page.

Every table: NLH 50/100, three seats of 50,000, button on seat 1, so seat 1 (under the
gun) is first to act, facing the big blind of 100.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Room, pair_tablet

STACK = 50_000


def _hand(room: Room, name: str) -> tuple[str, str]:
    """A three-handed 50/100 table with a hand started; the tablet's token and the hand."""
    table = room.open_table(name=f"Chips {name}", small_blind=50, big_blind=100,
                            buy_in_min=100, buy_in_max=100_000)  # fmt: skip
    for seat in (1, 2, 3):
        player = room.player(f"Chips {name} {seat}")
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": player, "seat": seat, "buy_in": STACK})  # fmt: skip
    token = room.tablet(table)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    assert hand["to_act"] == 1
    return token, str(hand["hand_id"])


def _tablet(room: Room, new_page: Any, token: str) -> Any:
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    return tablet


def _push(tablet: Any, *motions: list[int]) -> None:
    """Open the "Chips pushed" control and tap the chips of each motion."""
    if not tablet.locator("#chips-box").evaluate("d => d.open"):
        tablet.click("#chips-box summary")
    for i, motion in enumerate(motions):
        if i:
            tablet.click("#chips-next-motion")
        for chip in motion:
            tablet.click(f"#chip-values [data-chip='{chip}']")


def _events(room: Room, hand_id: str, kind: str) -> list[dict[str, Any]]:
    log = room.api("GET", f"/api/v1/hands/{hand_id}/log/")
    return [e["data"] for e in log if e["event_type"] == f"tables.{kind}"]


def _read(data: dict[str, Any]) -> tuple[Any, ...]:
    keys = ("seat", "chips", "announced", "kind", "amount_to", "rule", "returned", "completed")
    return tuple(data[k] for k in keys)


def _action(data: dict[str, Any]) -> tuple[Any, ...]:
    return data["seat"], data["action"], data["amount_to"], data["added"]


@pytest.mark.rule("BET-21")
def test_a_single_oversized_chip_without_a_word_is_a_call(room: Room, new_page: Any) -> None:
    token, hand_id = _hand(room, "oversized")
    tablet = _tablet(room, new_page, token)
    _push(tablet, [500])
    # the chips offered: from the small blind's chip up to the stack of the player to act
    offered = tablet.locator("#chip-values [data-chip]").evaluate_all(
        "bs => bs.map(b => Number(b.dataset.chip))"
    )
    assert 25 in offered and 500 in offered and max(offered) <= STACK, offered
    expect(tablet.locator("#chip-motions")).to_contain_text("500")
    assert tablet.input_value("#chips-said") == "none"
    tablet.click("#chips-submit")
    ruling = tablet.locator("#chips-ruling")
    expect(ruling).to_have_text(
        "Call — a single oversized chip is a call unless “raise” was said first (BET-21) "
        "· 400 back to the player"
    )
    expect(tablet.locator("#turn")).to_contain_text("seat 2")  # the hand moved on
    # recorded: the reading and the call it amounts to, 100 out of seat 1's stack
    assert [_read(d) for d in _events(room, hand_id, "ChipsRead")] == [
        (1, [[500]], "none", "call", 100, "BET-21", 400, False)
    ]
    assert [_action(d) for d in _events(room, hand_id, "ActionTaken")] == [(1, "call", 100, 100)]
    seat1 = room.api("GET", f"/api/v1/hands/{hand_id}/")["seats"][0]
    assert (seat1["bet"], seat1["stack"]) == (100, STACK - 100)
    # the control starts blank for seat 2, and the ruling goes once the hand moves past it
    _push(tablet)
    expect(tablet.locator("#chip-motions li")).to_have_count(1)
    expect(tablet.locator("#chip-motions")).not_to_contain_text("500")
    tablet.click("#actions [data-action='fold']")
    expect(tablet.locator("#turn")).to_contain_text("seat 3")
    expect(ruling).to_be_hidden()


@pytest.mark.rule("BET-17")
def test_a_second_motion_is_a_string_bet_and_only_the_first_counts(
    room: Room, new_page: Any
) -> None:
    token, hand_id = _hand(room, "string")
    tablet = _tablet(room, new_page, token)
    expect(tablet.locator("#chips-next-motion")).to_be_disabled()  # nothing in motion 1 yet
    _push(tablet, [100, 100, 25])
    tablet.click("#chips-undo")  # the 25 was a mistake
    _push(tablet, [], [500])
    motions = tablet.locator("#chip-motions li")
    expect(motions).to_have_count(2)
    expect(motions.nth(0)).to_contain_text("100 + 100 = 200")
    expect(motions.nth(1)).to_contain_text("500")
    tablet.click("#chips-submit")
    expect(tablet.locator("#chips-ruling")).to_have_text(
        "Raise to 200 — string bet: only the first motion counts; “call and raise” is a call "
        "(BET-17) · 500 back to the player"
    )
    expect(tablet.locator("#turn")).to_contain_text("seat 2")
    # the 500 of the second motion went back: a raise to 200, not to 700
    assert [_read(d) for d in _events(room, hand_id, "ChipsRead")] == [
        (1, [[100, 100], [500]], "none", "raise", 200, "BET-17", 500, False)
    ]
    assert [_action(d) for d in _events(room, hand_id, "ActionTaken")] == [(1, "raise", 200, 200)]
    assert room.api("GET", f"/api/v1/hands/{hand_id}/")["seats"][0]["stack"] == STACK - 200


@pytest.mark.rule("BET-18")
@pytest.mark.rule("BET-21")
def test_an_announced_raise_is_a_raise(room: Room, new_page: Any) -> None:
    token, hand_id = _hand(room, "raise")
    tablet = _tablet(room, new_page, token)
    # seat 1 says "raise" and pushes one 500 chip: the whole chip is the raise (BET-21)
    _push(tablet, [500])
    expect(tablet.locator("#chips-amount-box")).to_be_hidden()
    tablet.select_option("#chips-said", "raise")
    expect(tablet.locator("#chips-amount-box")).to_be_visible()
    tablet.click("#chips-submit")
    expect(tablet.locator("#chips-ruling")).to_have_text(
        "Raise to 500 — a single oversized chip is a call unless “raise” was said first (BET-21)"
    )
    expect(tablet.locator("#turn")).to_contain_text("seat 2")
    # seat 2 (the small blind, 50 in) says "raise to 1,500" and pushes the chips (BET-18 b)
    _push(tablet, [1000, 500])
    assert tablet.input_value("#chips-said") == "none"  # each turn starts blank
    tablet.select_option("#chips-said", "raise")
    tablet.fill("#chips-amount", "1500")
    tablet.click("#chips-submit")
    expect(tablet.locator("#chips-ruling")).to_have_text(
        "Raise to 1,500 — a raise is made in one move or announced (BET-18)"
    )
    expect(tablet.locator("#turn")).to_contain_text("seat 3")
    reads = [_read(d) for d in _events(room, hand_id, "ChipsRead")]
    assert reads == [
        (1, [[500]], "raise", "raise", 500, "BET-21", 0, False),
        (2, [[1000, 500]], "raise", "raise", 1500, "BET-18", 0, False),
    ]
    assert [_action(d) for d in _events(room, hand_id, "ActionTaken")] == [
        (1, "raise", 500, 500),
        (2, "raise", 1500, 1450),
    ]
    hand = room.api("GET", f"/api/v1/hands/{hand_id}/")
    assert [s["bet"] for s in hand["seats"]] == [500, 1500, 100]


@pytest.mark.rule("BET-27")
def test_an_insufficient_call_records_no_action(room: Room, new_page: Any) -> None:
    token, hand_id = _hand(room, "short")
    tablet = _tablet(room, new_page, token)
    _push(tablet, [25, 25])  # 50 against a bet of 100
    tablet.click("#chips-submit")
    ruling = tablet.locator("#chips-ruling")
    expect(ruling).to_have_text(
        "Insufficient call — an insufficient call is completed or folded, never raised (BET-27)"
    )
    # no action: seat 1 completes the call or folds, and may not raise
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    expect(tablet.locator("#actions [data-action='call']")).to_be_visible()
    expect(tablet.locator("#actions [data-action='raise']")).to_have_count(0)
    assert room.api("GET", f"/api/v1/hands/{hand_id}/")["legal"]["can_raise"] is False
    assert [_read(d) for d in _events(room, hand_id, "ChipsRead")] == [
        (1, [[25, 25]], "none", "insufficient_call", 100, "BET-27", 0, False)
    ]
    assert _events(room, hand_id, "ActionTaken") == []
    tablet.click("#actions [data-action='call']")
    expect(tablet.locator("#turn")).to_contain_text("seat 2")
    expect(ruling).to_be_hidden()
    assert [_action(d) for d in _events(room, hand_id, "ActionTaken")] == [(1, "call", 100, 100)]


@pytest.mark.rule("BET-23")
def test_a_refused_reading_shows_its_rule_in_the_control(room: Room, new_page: Any) -> None:
    token, hand_id = _hand(room, "refused")
    tablet = _tablet(room, new_page, token)
    _push(tablet, [1000])
    tablet.select_option("#chips-said", "pot")  # in no limit "pot" names no amount
    tablet.click("#chips-submit")
    error = tablet.locator("#chips-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("BET-23")
    expect(tablet.locator("#chips-ruling")).to_be_hidden()
    # nothing recorded, and the chips stay for the dealer to correct
    assert _events(room, hand_id, "ChipsRead") == []
    assert _events(room, hand_id, "ActionTaken") == []
    expect(tablet.locator("#chip-motions")).to_contain_text("1,000")
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    tablet.select_option("#chips-said", "none")
    tablet.click("#chips-submit")
    expect(error).to_be_hidden()
    expect(tablet.locator("#chips-ruling")).to_contain_text("(BET-21)")
    assert [_action(d) for d in _events(room, hand_id, "ActionTaken")] == [(1, "call", 100, 100)]


def _seconds(text: str) -> int:
    minutes, secs = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()  # type: ignore[union-attr]
    return int(minutes) * 60 + int(secs)


@pytest.mark.rule("BET-28")
@pytest.mark.rule("BET-30")
@pytest.mark.rule("BET-25")
def test_the_floor_state_of_a_hand_is_shown_again_after_a_reload(room: Room, new_page: Any) -> None:
    token, hand_id = _hand(room, "reload")
    tablet = _tablet(room, new_page, token)
    # the clock on seat 1 from the tablet's dialog, an exposure and an out-of-turn call by API
    tablet.click("#more summary")
    tablet.click("#open-ruling")
    tablet.select_option("#ruling-kind", "clock")
    tablet.select_option("#ruling-by", "3")
    tablet.fill("#ruling-seconds", "60")
    tablet.click("#ruling-submit")
    expect(tablet.locator("#ruling-dialog")).not_to_be_visible()
    url = f"/api/v1/hands/{hand_id}"
    room.api("POST", f"{url}/exposures/", {"seat": 3, "cards": "As", "policy": "tournament_000"})
    room.api("POST", f"{url}/out-of-turn/", {"seat": 2, "action": "call"})
    seat2 = tablet.locator("#seats [data-seat='2']")
    seat3 = tablet.locator("#seats [data-seat='3']")
    expect(tablet.locator("#hand-clock")).to_be_visible()
    expect(seat3.locator(".tag.passive")).to_be_visible()
    expect(seat2).to_contain_text("out of turn: call")
    floor = room.api("GET", f"/api/v1/hands/{hand_id}/")["floor"]
    assert (floor["clock"]["seat"], floor["passive_seats"]) == (1, [3])
    assert floor["out_of_turn"] == [{"seat": 2, "action": "call", "amount_to": None}]

    tablet.wait_for_timeout(2_500)
    tablet.reload()
    tablet.wait_for_selector("#tablet[data-ready='true']")
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    expect(tablet.locator("#hand-clock")).to_be_visible()
    # the countdown goes on from the call (60 s + the 10 s final countdown), not from 1:10
    expect(tablet.locator("#hand-clock-left")).to_have_text(re.compile(r"\d+:\d\d"))
    left = _seconds(tablet.inner_text("#hand-clock-left"))
    assert 50 <= left <= 68, left
    tablet.wait_for_timeout(1_200)
    assert _seconds(tablet.inner_text("#hand-clock-left")) < left  # and it counts down
    expect(seat3.locator(".tag.passive")).to_be_visible()
    expect(seat2).to_contain_text("out of turn: call")
