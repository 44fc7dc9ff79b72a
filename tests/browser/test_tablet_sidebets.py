"""Sidebets on the dealer tablet (RAKE-5): the dealer records a sidebet between two seated
players in the "Sidebets" dialog, settles it as the players say (the loser's chips to the
winner, only between hands) or calls it off (no chips move). Staff do not rule on it: the
server refuses a settlement while a hand runs and a sidebet a stack does not cover, and the
dialog shows the refusal. Cash tables only: a tournament table's tablet has no such control.

Every table is NLH 10/20 with its own players (the room is shared by the module); stacks
are read back through the API (``GET /api/v1/tables/<id>/``), never from the page.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Room, pair_tablet

pytestmark = pytest.mark.rule("RAKE-5")


def _table(room: Room, stacks: list[int]) -> tuple[int, str, list[int]]:
    """A cash table with one player per stack in seats 1, 2, ...: its id, a tablet's token
    and the players' ids, in seat order."""
    tag = uuid.uuid4().hex[:4]
    table = room.open_table(name=f"Sidebets {tag}", buy_in_min=100, buy_in_max=10_000)
    players = []
    for seat, stack in enumerate(stacks, start=1):
        player = room.player(f"Side {tag} Player{seat}", nickname=f"S{seat}{tag}")
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": player, "seat": seat, "buy_in": stack})  # fmt: skip
        players.append(player)
    return table, room.tablet(table), players


def _read(room: Room, table: int) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """The table as the API has it: stacks by player, and the open sidebets."""
    t = room.api("GET", f"/api/v1/tables/{table}/")
    return {s["player_id"]: s["stack"] for s in t["seats"]}, t["sidebets"]


def _open_dialog(room: Room, new_page: Any, token: str) -> Any:
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    tablet.click("#more summary")
    tablet.click("#open-sidebets")
    expect(tablet.locator("#sidebets-dialog")).to_be_visible()
    return tablet


def _record(tablet: Any, a: int, b: int, amount: int, description: str = "") -> None:
    tablet.select_option("#sidebet-a", str(a))
    tablet.select_option("#sidebet-b", str(b))
    tablet.fill("#sidebet-amount", str(amount))
    tablet.fill("#sidebet-description", description)
    tablet.click("#sidebet-submit")


def _row(tablet: Any, sidebet_id: str) -> Any:
    return tablet.locator(f"#sidebets-list [data-sidebet='{sidebet_id}']")


def test_a_sidebet_is_recorded_in_the_dialog_and_settled_between_hands(
    room: Room, new_page: Any
) -> None:
    table, token, (ann, bob) = _table(room, [1_000, 1_000])
    tablet = _open_dialog(room, new_page, token)
    expect(tablet.locator("#sidebets-none")).to_be_visible()
    # the players offered are the seated ones, by the tablet's usual label
    options = tablet.locator("#sidebet-a option").all_inner_texts()
    assert len(options) == 2 and f"#{ann}" in options[0] and f"#{bob}" in options[1], options
    _record(tablet, ann, bob, 300, "Who wins the next flush")
    rows = tablet.locator("#sidebets-list li.sidebet")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(f"#{ann}")
    expect(rows.first).to_contain_text(f"#{bob}")
    expect(rows.first).to_contain_text("300")
    expect(tablet.locator("#sidebets-error")).to_be_hidden()
    expect(tablet.locator("#sidebets-count")).to_have_text("1")
    expect(tablet.locator("#sidebet-amount")).to_have_value("")  # the form starts blank again
    stacks, open_bets = _read(room, table)
    assert stacks == {ann: 1_000, bob: 1_000}
    assert [(b["player_a"], b["player_b"], b["amount"]) for b in open_bets] == [(ann, bob, 300)]
    # Bob won it: 300 from Ann's stack to Bob's, and the sidebet is over
    row = _row(tablet, open_bets[0]["sidebet_id"])
    row.locator(f"[data-winner='{bob}']").click()
    expect(tablet.locator("#sidebets-none")).to_be_visible()
    expect(tablet.locator("#sidebets-error")).to_be_hidden()
    expect(tablet.locator("#sidebets-count")).to_be_hidden()
    assert _read(room, table) == ({ann: 700, bob: 1_300}, [])
    # the felt shows the new stacks too
    expect(tablet.locator("#seats [data-seat='1'] .stack")).to_have_attribute("data-stack", "700")
    expect(tablet.locator("#seats [data-seat='2'] .stack")).to_have_attribute("data-stack", "1300")


def test_a_settlement_while_a_hand_runs_is_refused_and_moves_nothing(
    room: Room, new_page: Any
) -> None:
    table, token, (ann, bob) = _table(room, [1_000, 1_000])
    sidebet = room.api("POST", f"/api/v1/tables/{table}/sidebets/",
                       {"player_a": ann, "player_b": bob, "amount": 200})["sidebet_id"]  # fmt: skip
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    before = _read(room, table)
    tablet = _open_dialog(room, new_page, token)
    expect(tablet.locator("#turn")).to_contain_text("seat")  # the hand runs on the tablet
    _row(tablet, sidebet).locator(f"[data-winner='{ann}']").click()
    error = tablet.locator("#sidebets-dialog #sidebets-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("RAKE-5")
    expect(error).to_contain_text("only after the hand has ended")
    expect(_row(tablet, sidebet)).to_be_visible()  # still open
    assert _read(room, table) == before
    # the hand ends (the player to act folds): now the same settlement goes through
    room.api("POST", f"/api/v1/hands/{hand['hand_id']}/actions/",
             {"seat": hand["to_act"], "action": "fold"})  # fmt: skip
    expect(tablet.locator("#turn")).to_have_text("Between hands")
    after_hand, _ = _read(room, table)
    _row(tablet, sidebet).locator(f"[data-winner='{ann}']").click()
    expect(tablet.locator("#sidebets-none")).to_be_visible()
    expect(tablet.locator("#sidebets-error")).to_be_hidden()
    assert _read(room, table) == ({ann: after_hand[ann] + 200, bob: after_hand[bob] - 200}, [])


def test_a_called_off_sidebet_is_gone_and_no_chips_move(room: Room, new_page: Any) -> None:
    table, token, (ann, bob, cid) = _table(room, [1_000, 800, 600])
    tablet = _open_dialog(room, new_page, token)
    _record(tablet, ann, bob, 150)
    expect(tablet.locator("#sidebets-list li.sidebet")).to_have_count(1)
    _record(tablet, bob, cid, 250, "Heads or tails")
    expect(tablet.locator("#sidebets-list li.sidebet")).to_have_count(2)
    stacks, open_bets = _read(room, table)
    assert stacks == {ann: 1_000, bob: 800, cid: 600}
    first = next(b["sidebet_id"] for b in open_bets if b["player_a"] == ann)
    second = next(b["sidebet_id"] for b in open_bets if b["player_a"] == bob)
    call_off = _row(tablet, first).locator("[data-call-off]")
    # the dealer is asked first: a "no" leaves the sidebet open
    asked: list[str] = []

    def answer(accept: bool) -> Any:
        def handle(dialog: Any) -> None:
            asked.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        return handle

    tablet.once("dialog", answer(False))
    call_off.click()
    assert asked and f"#{ann}" in asked[0] and "No chips move" in asked[0], asked
    assert len(_read(room, table)[1]) == 2
    tablet.once("dialog", answer(True))
    call_off.click()
    expect(tablet.locator("#sidebets-list li.sidebet")).to_have_count(1)
    expect(_row(tablet, second)).to_be_visible()
    expect(tablet.locator("#sidebets-error")).to_be_hidden()
    stacks, open_bets = _read(room, table)
    assert stacks == {ann: 1_000, bob: 800, cid: 600}  # no chips moved
    assert [b["sidebet_id"] for b in open_bets] == [second]


def test_a_sidebet_larger_than_a_stack_is_refused_in_the_form(room: Room, new_page: Any) -> None:
    table, token, (ann, bob) = _table(room, [1_000, 400])
    tablet = _open_dialog(room, new_page, token)
    _record(tablet, ann, bob, 500)
    error = tablet.locator("#sidebets-dialog #sidebets-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("RAKE-5")
    expect(error).to_contain_text("stack must cover it")
    expect(tablet.locator("#sidebets-dialog")).to_be_visible()
    expect(tablet.locator("#sidebets-none")).to_be_visible()
    expect(tablet.locator("#sidebet-amount")).to_have_value("500")  # kept, to correct it
    assert _read(room, table) == ({ann: 1_000, bob: 400}, [])
    # a sidebet both stacks cover is recorded, and the error goes
    tablet.fill("#sidebet-amount", "400")
    tablet.click("#sidebet-submit")
    expect(tablet.locator("#sidebets-list li.sidebet")).to_have_count(1)
    expect(error).to_be_hidden()
    assert [b["amount"] for b in _read(room, table)[1]] == [400]


def test_a_tournament_table_has_no_sidebets_control(room: Room, new_page: Any) -> None:
    tournament = room.started_tournament(f"Sidebets {uuid.uuid4().hex[:4]}")
    table = room.api("GET", f"/api/v1/tournaments/{tournament}/")["tables"][0]
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, room.tablet(table))
    tablet.click("#more summary")
    expect(tablet.locator("#open-rabbit")).to_be_visible()
    expect(tablet.locator("#open-sidebets")).to_be_hidden()
