"""The dealer tablet offers only what the house rules allow, found by using it as a dealer
would (session 21): the misdeal dialog of one hand never carries the last hand's ruling, the
all-in button of a pot-limit hand is only there when the stack fits the pot (BET-4), "run it
twice" only once the betting is over (RAKE-10), a dead button is shown on the empty seat
(SEAT-5), and a portrait tablet reaches every control."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Room, pair_tablet


def _table(room: Room, stacks: dict[int, int], **config: Any) -> tuple[int, str]:
    table = room.open_table(**{"buy_in_min": 100, "buy_in_max": 10_000, **config})
    for seat, stack in stacks.items():
        player = room.player(f"Hráč {seat}", nickname=f"H{seat}")
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": player, "seat": seat, "buy_in": stack})  # fmt: skip
    return table, room.tablet(table)


def _act(room: Room, hand: dict[str, Any], action: str) -> dict[str, Any]:
    body = {"seat": hand["legal"]["seat"], "action": action}
    return dict(room.api("POST", f"/api/v1/hands/{hand['hand_id']}/actions/", body))


def _open_more(tablet: Any) -> None:
    if not tablet.locator("#more").evaluate("d => d.open"):
        tablet.click("#more summary")


@pytest.mark.rule("MIS-1")
def test_the_misdeal_dialog_of_a_new_hand_starts_blank(room: Room, new_page: Any) -> None:
    table, token = _table(room, {1: 1000, 2: 1000, 3: 1000})
    room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    _open_more(tablet)
    tablet.click("#open-misdeal")
    tablet.select_option("#misdeal-kind", "void")
    tablet.fill("#misdeal-reason", "duplicate 7h found")
    tablet.click("#misdeal-submit")
    expect(tablet.locator("#misdeal-dialog")).not_to_be_visible()
    tablet.click("#start-hand")
    expect(tablet.locator("#actions [data-action]").first).to_be_visible()
    _open_more(tablet)
    tablet.click("#open-misdeal")
    assert tablet.input_value("#misdeal-kind") == "misdeal"
    assert tablet.input_value("#misdeal-reason") == ""


@pytest.mark.rule("BET-4")
def test_a_pot_limit_all_in_button_only_when_the_stack_fits_the_pot(
    room: Room, new_page: Any
) -> None:
    table, token = _table(room, {1: 1000, 2: 1000, 3: 60}, game="PLO", buy_in_min=50)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 2})
    assert hand["legal"]["seat"] == 2
    assert hand["legal"]["all_in_to"] > hand["legal"]["max_raise_to"]  # 1000 > a pot of 70
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#actions [data-action='raise']")).to_be_visible()
    expect(tablet.locator("#actions [data-action='all_in']")).to_have_count(0)
    # seat 3 (the small blind, 60 chips) is next: his whole stack fits the pot, so his
    # all-in is offered
    hand = _act(room, hand, "call")
    assert (
        hand["legal"]["seat"] == 3 and hand["legal"]["all_in_to"] <= hand["legal"]["max_raise_to"]
    )
    expect(tablet.locator("#actions [data-action='all_in']")).to_be_visible()
    tablet.click("#actions [data-action='all_in']")
    expect(tablet.locator("#seats [data-seat='3'] .tag.allin")).to_be_visible()


@pytest.mark.rule("RAKE-10")
def test_run_it_twice_is_offered_only_once_the_betting_is_over(room: Room, new_page: Any) -> None:
    table, token = _table(room, {1: 500, 2: 2000, 3: 3000})
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    hand = _act(room, hand, "all_in")  # seat 1, first to act three-handed
    hand = _act(room, hand, "call")
    hand = _act(room, hand, "call")
    assert hand["phase"] == "awaiting_board"  # seats 2 and 3 may still bet after the flop
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#board-entry")).to_be_visible()
    expect(tablet.locator("#run-it")).to_be_hidden()
    # heads-up all in with nothing left to bet: offered
    table2, token2 = _table(room, {1: 500, 2: 500})
    hand = room.api("POST", f"/api/v1/tables/{table2}/hands/", {"button_seat": 1})
    hand = _act(room, hand, "all_in")
    hand = _act(room, hand, "call")
    other = new_page(1280, 800)
    pair_tablet(other, room.base, token2)
    expect(other.locator("#run-it")).to_be_visible()


@pytest.mark.rule("SEAT-5")
def test_a_dead_button_is_shown_on_the_seat_its_player_left(room: Room, new_page: Any) -> None:
    table, token = _table(room, {1: 1000, 2: 1000, 3: 1000, 4: 1000, 5: 1000})
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    while hand["phase"] == "betting":
        hand = _act(room, hand, "fold")
    room.api("POST", f"/api/v1/tables/{table}/seats/2/cash-out/")
    preview = room.api("GET", f"/api/v1/tables/{table}/next-hand/")
    assert preview["button_seat"] == 2  # the button moves onto the empty seat (SEAT-5)
    room.api("POST", f"/api/v1/tables/{table}/hands/", {})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#seats [data-seat='2'].empty .chip-d")).to_be_visible()


def test_a_portrait_tablet_reaches_the_board_entry(room: Room, new_page: Any) -> None:
    table, token = _table(room, dict.fromkeys(range(1, 11), 1000))
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    while hand["phase"] == "betting":
        hand = _act(room, hand, "call" if hand["legal"]["to_call"] else "check")
    tablet = new_page(800, 1280)
    pair_tablet(tablet, room.base, token)
    submit = tablet.locator("#board-submit")
    expect(submit).to_be_visible()
    box = submit.bounding_box()  # nothing is pushed off the side of the screen
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 800, box
    assert tablet.evaluate("document.documentElement.scrollWidth") <= 800
    submit.scroll_into_view_if_needed()  # and the page scrolls down to it
    expect(submit).to_be_in_viewport()
    seats = tablet.locator("#seats .seat")
    boxes = [seats.nth(i).bounding_box() for i in range(seats.count())]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a and b
            side = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
            above = a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
            assert side or above, (a, b)


def test_the_tablet_of_a_closed_table_offers_no_hand(room: Room, new_page: Any) -> None:
    """Found by QA: a tablet paired to a closed table offered "Start hand" (the server
    refuses it: the screen now says so first)."""
    table, token = _table(room, {})
    room.api("POST", f"/api/v1/tables/{table}/close/", {"reason": "end of the night"})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#preview")).to_contain_text("Table closed.")
    expect(tablet.locator("#start-hand")).to_be_disabled()


@pytest.mark.rule("BI-7")
def test_a_busted_player_is_marked_on_the_tablet_until_he_rebuys(room: Room, new_page: Any) -> None:
    """Found by QA: a player at 0 stayed in his seat with nothing telling the dealer."""
    table, token = _table(room, {1: 1000, 2: 1000, 3: 1000})
    seats = room.api("GET", f"/api/v1/tables/{table}/")["seats"]
    a, b = seats[0]["player_id"], seats[1]["player_id"]
    bet = room.api("POST", f"/api/v1/tables/{table}/sidebets/",
                   {"player_a": a, "player_b": b, "amount": 1000})  # fmt: skip
    room.api("POST", f"/api/v1/tables/{table}/sidebets/{bet['sidebet_id']}/settle/", {"winner": b})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    seat1 = tablet.locator("#seats [data-seat='1']")
    expect(seat1.locator(".busted")).to_be_visible()
    expect(tablet.locator("#seats [data-seat='2'] .busted")).to_have_count(0)
    room.api("POST", f"/api/v1/tables/{table}/seats/1/top-up/", {"amount": 1000})
    expect(seat1.locator(".busted")).to_have_count(0)


def test_a_revoked_tablet_goes_back_to_pairing(room: Room, new_page: Any) -> None:
    """docs/consoles.md: a revoked token sends the tablet back to pairing. It stayed on the
    table with a refused feed and an uncaught error, its dead token kept."""
    table, token = _table(room, {1: 1000, 2: 1000})
    tablet = new_page(1280, 800)
    errors: list[str] = []
    tablet.on("pageerror", lambda e: errors.append(str(e)))
    pair_tablet(tablet, room.base, token)
    [device] = [d for d in room.api("GET", "/api/v1/devices/") if d["table_id"] == table]
    room.api("POST", f"/api/v1/devices/{device['id']}/revoke/")
    expect(tablet.locator("#pairing")).to_be_visible(timeout=10_000)
    expect(tablet.locator("#pair-error")).to_contain_text("revoked")
    assert tablet.evaluate("localStorage.getItem('casino.deviceToken')") is None
    # found by QA: the old table's name, a "live" badge and the dead token stayed on screen
    expect(tablet.locator("#table-name")).to_have_text("")
    expect(tablet.locator("#feed-status")).to_be_hidden()
    expect(tablet.locator("#device-token")).to_have_value("")
    assert errors == []


@pytest.mark.rule("SHOW-25")
@pytest.mark.rule("SHOW-26")
def test_a_dealer_runs_a_show_poker_hand_from_the_tablet(room: Room, new_page: Any) -> None:
    """A Show poker table's tablet was blank (it read the Show hand as a hold'em hand). The
    dealer now deals, enters the flop and each bought card, records declarations, checks
    and purchases, and settles the showdown with its clock, as the API test does."""
    table, token = _table(room, {1: 500, 2: 500, 3: 500}, game="SHOW", buy_in_min=100,
                          buy_in_max=1000)  # fmt: skip
    tablet = new_page(1280, 800)
    errors: list[str] = []
    tablet.on("pageerror", lambda e: errors.append(str(e)))
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#show-panel")).to_be_visible()
    tablet.select_option("#show-button-draw", "3")
    tablet.click("#show-deal")

    def hand() -> dict[str, Any]:
        return dict(room.api("GET", f"/api/v1/tables/{table}/"))

    def show() -> dict[str, Any]:
        return dict(room.api("GET", f"/api/v1/show-hands/{hand()['current_hand_id']}/"))

    def wait_for(predicate: Any) -> dict[str, Any]:
        for _ in range(100):
            state = show()
            if predicate(state):
                return state
            tablet.wait_for_timeout(100)
        raise AssertionError(show())

    expect(tablet.locator("#show-cards")).to_be_visible()
    tablet.fill("#show-card-input", "2c5d7h")
    tablet.click("#show-card-submit")
    state = wait_for(lambda h: h["phase"] == "declaring")
    assert state["to_act"] == 1 and state["pot"] == 60
    for text in ("a K", "sevens"):
        tablet.fill("#show-text", text)
        tablet.click("#show-actions [data-show-op=declare]")
        tablet.wait_for_function("() => !document.body.classList.contains('busy')")
    for _ in (3, 1):
        tablet.click("#show-actions [data-show-op=check]")
        tablet.wait_for_function("() => !document.body.classList.contains('busy')")
    state = wait_for(lambda h: h["phase"] == "buying")
    assert state["leader"]["seat"] == 2
    for card in ("9s", "Td", "Jh", "Qc", "3d"):
        for _ in range(6):
            phase = show()["phase"]
            if phase == "declaring":
                tablet.click("#show-actions [data-show-op=check]")
            elif phase == "buying":
                tablet.click("#show-actions [data-show-op=buy]")
            else:
                break
            tablet.wait_for_function("() => !document.body.classList.contains('busy')")
        expect(tablet.locator("#show-cards")).to_be_visible()
        tablet.fill("#show-card-input", card)
        tablet.click("#show-card-submit")
        tablet.wait_for_function("() => !document.body.classList.contains('busy')")
    state = wait_for(lambda h: h["phase"] == "showdown")
    assert len(state["board"]) == 8
    for seat, text, cards in ((1, "kings", "KsKd4c4h"), (2, "aces", "AsAd7s6s")):
        tablet.select_option("#show-seat", str(seat))
        tablet.fill("#show-text", text)
        tablet.fill("#show-shown", cards)
        tablet.click("#show-actions [data-show-op=declare]")
        tablet.wait_for_function("() => !document.body.classList.contains('busy')")
    expect(tablet.locator("#show-declarations")).to_contain_text("aces")
    # the felt shows the Show hand's stacks (after blinds and purchases), not the table's
    felt = tablet.locator("#seats [data-seat='1'] .stack").get_attribute("data-stack")
    assert int(felt or 0) == next(x["stack"] for x in show()["seats"] if x["seat"] == 1) < 500
    tablet.wait_for_timeout(10_500)  # 10 s with no better hand declared (SHOW-26)
    tablet.click("#show-start-clock")
    expect(tablet.locator("#show-error")).to_be_hidden()
    expect(tablet.locator("#show-clock-left")).to_have_text(re.compile(r"^0:[0-3]\d$"))
    tablet.wait_for_timeout(30_500)  # the 30 s showdown clock (SHOW-26)
    tablet.click("#show-expire-clock")
    expect(tablet.locator("#show-start")).to_be_visible(timeout=10_000)  # the hand is over
    stacks = {s["seat"]: s["stack"] for s in hand()["seats"]}
    assert sum(stacks.values()) == 1500 and stacks[2] > 500 > stacks[1]
    # the panel says who won (SHOW-25): the aces, seat 2, the whole pot
    [award] = room.api("GET", f"/api/v1/show-hands/{state['hand_id']}/")["awards"]
    assert award["winner"] == 2
    expect(tablet.locator("#show-state")).to_contain_text(f"seat 2 +{award['amount']:,}")
    assert errors == []


@pytest.mark.rule("SHOW-4")
@pytest.mark.rule("SHOW-5")
@pytest.mark.rule("SHOW-6")
@pytest.mark.rule("SHOW-7")
def test_the_show_poker_deal_records_absences_exposed_cards_and_errors(
    room: Room, new_page: Any
) -> None:
    table, token = _table(room, {1: 500, 2: 500, 3: 500, 4: 500}, game="SHOW",
                          buy_in_min=100, buy_in_max=1000)  # fmt: skip
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    tablet.select_option("#show-button-draw", "4")
    tablet.click("#show-deal")

    def show() -> dict[str, Any]:
        current = room.api("GET", f"/api/v1/tables/{table}/")["current_hand_id"]
        return dict(room.api("GET", f"/api/v1/show-hands/{current}/")) if current else {}

    # a seat dealt the wrong number of cards: a misdeal, the hand is abandoned (SHOW-5)
    expect(tablet.locator("#show-report-box")).to_be_visible()
    first = show()["hand_id"]
    tablet.click("#show-report-box summary")
    tablet.check("#show-exposed-seats input[value='2']")  # one exposed card: not a misdeal
    tablet.click("#show-report")
    expect(tablet.locator("#show-error")).to_contain_text("SHOW-7")
    tablet.uncheck("#show-exposed-seats input[value='2']")
    tablet.check("#show-wrong-seats input[value='2']")
    tablet.click("#show-report")
    expect(tablet.locator("#show-start")).to_be_visible(timeout=10_000)
    assert room.api("GET", f"/api/v1/show-hands/{first}/")["misdealt"] is True
    expect(tablet.locator("#show-state")).to_contain_text("Misdeal")
    # the redeal: seat 3 away at the flop (SHOW-4), and one card of seat 1's exposed on the
    # deal becomes the first flop card (SHOW-7)
    tablet.click("#show-deal")
    expect(tablet.locator("#show-flop-extra")).to_be_visible()
    assert tablet.locator("#show-absent-seats input:checked").count() == 0  # starts blank
    assert not tablet.locator("#show-report-box").evaluate("d => d.open")  # closed again
    tablet.check("#show-absent-seats input[value='3']")
    tablet.select_option("#show-exposed-seat", "1")
    tablet.fill("#show-exposed-card", "Kh")
    tablet.fill("#show-card-input", "Kh5d7h")
    tablet.click("#show-card-submit")
    expect(tablet.locator("#show-turn")).to_be_visible(timeout=10_000)
    state = show()
    assert state["board"][0] == "Kh", state["board"]
    assert [s["seat"] for s in state["seats"] if s["dead"]] == [3]
    expect(tablet.locator("#show-count-box")).to_be_hidden()  # counted after a declaration
    # a hand found with too many cards after his declaration is dead (SHOW-6)
    to_act = state["to_act"]
    tablet.fill("#show-text", "a K")
    tablet.click("#show-actions [data-show-op=declare]")
    expect(tablet.locator("#show-count-box")).to_be_visible(timeout=10_000)
    tablet.click("#show-count-box summary")
    tablet.select_option("#show-count-seat", str(to_act))
    tablet.fill("#show-count", "5")  # four hole cards dealt
    tablet.click("#show-count-submit")
    tablet.wait_for_function("() => !document.body.classList.contains('busy')")
    assert to_act in [s["seat"] for s in show()["seats"] if s["dead"]]
