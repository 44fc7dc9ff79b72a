"""The floor's rulings during a hand, recorded from the dealer tablet (session 22): a called
clock counts down on the tablet and the hand dies when it runs out, exposed cards make the
seat passive, an out-of-turn action waits on its seat until the action reaches it, and a
burn card is recorded. Before, each of these worked through the API only."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Room, pair_tablet


def _hand(room: Room, stakes: int) -> tuple[str, str]:
    """A cash table of three (button seat 1: seat 1 is first to act), a hand started; the
    tablet's token and the hand id."""
    table = room.open_table(small_blind=stakes, big_blind=2 * stakes,
                            buy_in_min=100, buy_in_max=100_000)  # fmt: skip
    for seat in (1, 2, 3):
        player = room.player(f"Ruling {stakes} {seat}")
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": player, "seat": seat, "buy_in": 1000 * stakes})  # fmt: skip
    token = room.tablet(table)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    return token, str(hand["hand_id"])


def _ruling(tablet: Any, kind: str) -> None:
    if not tablet.locator("#more").evaluate("d => d.open"):
        tablet.click("#more summary")
    tablet.click("#open-ruling")
    tablet.select_option("#ruling-kind", kind)


def _record(tablet: Any) -> None:
    tablet.click("#ruling-submit")
    expect(tablet.locator("#ruling-dialog")).not_to_be_visible()


def _seat(tablet: Any, seat: int) -> Any:
    return tablet.locator(f"#seats [data-seat='{seat}']")


@pytest.mark.rule("BET-28")
def test_a_called_clock_counts_down_and_the_hand_dies_when_it_runs_out(
    room: Room, new_page: Any
) -> None:
    token, hand_id = _hand(room, 11)
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    _ruling(tablet, "clock")
    expect(tablet.locator("#ruling-on")).to_contain_text("seat 1")
    tablet.select_option("#ruling-by", "3")
    tablet.fill("#ruling-seconds", "2")
    _record(tablet)
    clock = tablet.locator("#hand-clock")
    expect(clock).to_be_visible()
    first = tablet.inner_text("#hand-clock-left")
    assert re.fullmatch(r"0:1[0-2]", first), first  # 2 s, then the 10-second final countdown
    expect(clock).to_have_class(re.compile(r"\bfinal\b"), timeout=5_000)
    # at 0 the server's timer rules: seat 1's hand is dead, the action moves on
    expect(_seat(tablet, 1)).to_have_class(re.compile(r"\bfolded\b"), timeout=25_000)
    expect(tablet.locator("#turn")).to_contain_text("seat 2")
    expect(tablet.locator("#hand-clock")).to_have_count(0)
    log = room.api("GET", f"/api/v1/hands/{hand_id}/log/")
    expired = [e for e in log if e["event_type"] == "tables.ClockExpired"]
    assert [(e["data"]["seat"], e["actor"].split(":")[0]) for e in expired] == [(1, "system")]


@pytest.mark.rule("BET-30")
def test_exposed_cards_make_the_seat_passive_on_the_tablet(room: Room, new_page: Any) -> None:
    token, hand_id = _hand(room, 12)
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#actions [data-action='raise']")).to_be_visible()
    _ruling(tablet, "exposure")
    assert tablet.input_value("#ruling-policy") == "cash_000"  # the table's own rule
    tablet.select_option("#ruling-seat", "1")
    tablet.select_option("#ruling-policy", "tournament_000")
    tablet.fill("#ruling-cards", "AsKd")
    _record(tablet)
    expect(_seat(tablet, 1).locator(".tag.passive")).to_be_visible()
    expect(tablet.locator("#actions [data-action='call']")).to_be_visible()
    expect(tablet.locator("#actions [data-action='raise']")).to_have_count(0)
    hand = room.api("GET", f"/api/v1/hands/{hand_id}/")
    assert hand["floor"]["passive_seats"] == [1]


@pytest.mark.rule("BET-25")
def test_an_out_of_turn_action_waits_on_its_seat_until_the_action_reaches_it(
    room: Room, new_page: Any
) -> None:
    token, hand_id = _hand(room, 13)
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    _ruling(tablet, "out_of_turn")
    tablet.select_option("#ruling-seat", "2")
    tablet.select_option("#ruling-action", "call")
    _record(tablet)
    expect(_seat(tablet, 2)).to_contain_text("out of turn: call")
    tablet.click("#actions [data-action='call']")  # seat 1 calls: the action reaches seat 2
    # nothing changed in between, so his call binds (BET-25) and the big blind is to act
    expect(tablet.locator("#turn")).to_contain_text("seat 3")
    expect(_seat(tablet, 2)).not_to_contain_text("out of turn")
    hand = room.api("GET", f"/api/v1/hands/{hand_id}/")
    assert [s["bet"] for s in hand["seats"]] == [26, 26, 26]
    assert hand["floor"]["out_of_turn"] == []


@pytest.mark.rule("BET-2")
def test_the_burn_card_is_recorded_from_the_tablet(room: Room, new_page: Any) -> None:
    token, hand_id = _hand(room, 14)
    for action in ("call", "call", "check"):
        hand = room.api("GET", f"/api/v1/hands/{hand_id}/")
        room.api("POST", f"/api/v1/hands/{hand_id}/actions/",
                 {"seat": hand["legal"]["seat"], "action": action})  # fmt: skip
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    _ruling(tablet, "burn")
    assert tablet.input_value("#ruling-street") == "flop"  # the street about to be dealt
    tablet.fill("#ruling-card", "2c")
    _record(tablet)
    hand = room.api("GET", f"/api/v1/hands/{hand_id}/")
    assert hand["floor"]["burns"] == [{"street": "flop", "card": "2c"}]
    # one burn per street
    _ruling(tablet, "burn")
    tablet.fill("#ruling-card", "3c")
    tablet.click("#ruling-submit")
    expect(tablet.locator("#ruling-error")).to_be_visible()


@pytest.mark.rule("MIS-4")
def test_an_irregularity_needs_no_seat_and_no_note(room: Room, new_page: Any) -> None:
    token, hand_id = _hand(room, 15)
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    _ruling(tablet, "irregularity")
    tablet.select_option("#ruling-seat", "")
    tablet.select_option("#ruling-cause", "deck_changed")
    _record(tablet)
    log = room.api("GET", f"/api/v1/hands/{hand_id}/log/")
    [ruled] = [e["data"] for e in log if e["event_type"] == "tables.IrregularityRuled"]
    assert (ruled["cause"], ruled["seat"], ruled["note"]) == ("deck_changed", None, "")
