"""Browser proof of the chip-count board (``/board/tournament/<id>/chips/``), Playwright
driving Debian's chromium against ``manage.py up`` (fixtures in conftest.py).

* Opened with no login before the start: the number registered, "Seats are drawn at the
  start" and the payout ladder; at the start (no reload: the clock feed's push) every
  player ranked, nicknames or initials only.
* After a bust (one hand through the dealer API): the winner leads with the chips won, the
  busted player is listed out with his place, players left drop -- without a reload.
* Many players: the chip counts do not fit one page, and the board turns to the next.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import Room


def _tournament(room: Room, name: str, players: list[tuple[str, str]], **config: Any) -> int:
    body = {"name": name, "buy_in": 100, "fee": 10, "starting_stack": 1000, "min_entrants": 2,
            "levels": [{"small_blind": 25, "big_blind": 50, "minutes": 60}], **config}  # fmt: skip
    tid = int(room.api("POST", "/api/v1/tournaments/", body)["tournament_id"])
    for full, nick in players:
        room.api("POST", f"/api/v1/tournaments/{tid}/registrations/",
                 {"player_id": room.player(full, nick)})  # fmt: skip
    return tid


def _bust_one(room: Room, table_id: int) -> tuple[int, int]:
    """One hand at ``table_id``: the first two occupied seats go all in, everyone else
    folds, the first seat wins every pot. (winner seat, loser seat)."""
    seats = sorted(s["seat"] for s in room.api("GET", f"/api/v1/tables/{table_id}/")["seats"])
    winner, loser = seats[0], seats[1]
    hand = room.api("POST", f"/api/v1/tables/{table_id}/hands/", {})
    url = f"/api/v1/hands/{hand['hand_id']}"
    boards = iter([("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")])
    while hand["phase"] != "complete":
        if hand["phase"] == "betting":
            legal = hand["legal"]
            if legal["seat"] in (winner, loser):
                shove = legal["can_bet"] or legal["can_raise"] or legal["to_call"]
                action = "all_in" if shove else "check"
            else:
                action = "fold" if legal["to_call"] else "check"
            hand = room.api("POST", f"{url}/actions/", {"seat": legal["seat"], "action": action})
        elif hand["next_street"]:
            street, cards = next(boards)
            hand = room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
        else:
            winners = [[winner] for _ in hand["pots"]]
            hand = room.api("POST", f"{url}/award/", {"winners_by_pot": winners})
    return winner, loser


def test_the_chip_board_ranks_players_shows_the_ladder_and_follows_a_bust(
    room: Room, new_page: Any
) -> None:
    people = [(f"Chipboard Fullname {n}", f"Ace{n}") for n in range(6)]
    people.append(("Karel Dvořák", ""))  # no nickname: initials
    tid = _tournament(room, "Chip Board Cup", people)
    page = new_page(1920, 1080)  # a TV, no login
    page.goto(f"{room.base}/board/tournament/{tid}/chips/")
    page.wait_for_selector("#tchips[data-status='registering']")
    expect(page.locator("#registered")).to_have_text("7")
    expect(page.locator("#before")).to_contain_text("Seats are drawn at the start")
    expect(page.locator("#payouts tr")).to_have_count(2)  # 7 entries: 2 places paid
    ladder = [
        re.sub(r"\D", "", x) for x in page.locator("#payouts td:last-child").all_inner_texts()
    ]
    assert sum(map(int, ladder)) == 700 and "CZK" in page.inner_text("#payouts")

    room.api("POST", f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 0})
    page.wait_for_selector("#tchips[data-status='running']", timeout=30_000)  # the feed's push
    expect(page.locator("#counts tr")).to_have_count(7)
    shown = page.locator("#counts td.name").all_inner_texts()
    assert sorted(shown) == sorted([nick for _, nick in people[:6]] + ["K. D."])
    expect(page.locator("#players-left")).to_have_text("7 / 7")
    expect(page.locator("#out-none")).to_be_visible()

    [table_id] = room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"]
    winner_seat, loser_seat = _bust_one(room, table_id)

    # no reload: the clock feed's push makes the board read the chip counts again
    expect(page.locator("#players-left")).to_have_text("6 / 7", timeout=30_000)
    expect(page.locator("#counts tr")).to_have_count(6)
    board = room.api("GET", f"/api/v1/tournaments/{tid}/chip-counts/")
    leader = board["players"][0]
    assert leader["seat"] == winner_seat and leader["chips"] >= 2000  # (+ blinds folded)
    first = page.locator("#counts tr").first
    expect(first.locator("td.name")).to_have_text(leader["name"])
    expect(first.locator("td.chips")).to_have_text(f"{leader['chips']:,}")
    expect(first).to_have_attribute("data-rank", "1")
    expect(page.locator("#leader")).to_contain_text(leader["name"])
    assert page.locator("#counts td.name").all_inner_texts() == [
        p["name"] for p in board["players"]
    ]
    [out] = board["finished"]
    assert out["place"] == 7
    expect(page.locator("#out tr")).to_have_count(1)
    expect(page.locator("#out tr td.name")).to_have_text(out["name"])
    expect(page.locator("#out tr td.rank")).to_have_text("7")
    expect(page.locator("#out-none")).to_be_hidden()
    assert loser_seat not in {p["seat"] for p in board["players"]}
    content = page.content()
    assert "Chipboard Fullname" not in content and "Dvořák" not in content


def test_a_long_chip_count_turns_its_pages(room: Room, new_page: Any) -> None:
    tid = _tournament(room, "Big Field", [(f"Field Player {n}", f"F{n:02d}") for n in range(30)])
    room.api("POST", f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 0})
    page = new_page(1920, 1080)
    page.goto(f"{room.base}/board/tournament/{tid}/chips/")
    page.wait_for_selector("#tchips[data-status='running']")
    page.wait_for_selector("#counts[data-pages='2'][data-page='1']")
    rows = page.locator("#counts tr").count()
    assert 15 <= rows < 30, rows  # a 1080p page holds about 19
    expect(page.locator("#counts-page")).to_have_text("1/2")
    page.wait_for_selector("#counts[data-page='2']", timeout=15_000)  # turned after 10 s
    expect(page.locator("#counts tr")).to_have_count(30 - rows)
    expect(page.locator("#counts tr").first).to_have_attribute("data-rank", "1")  # all tied
    # nothing scrolls: the list fits the screen
    box = page.locator("#counts-wrap").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 1080


def test_after_the_end_the_results_replace_the_ladder(room: Room, new_page: Any) -> None:
    """After the end the final results give each prize as paid; the published ladder
    beside them contradicted an agreed deal's amounts, and a shared place ("15-19") was
    cut to "1…" (found by QA)."""
    tid = room.started_tournament("Board After", entrants=3)
    for _ in range(20):
        if room.shove_round(tid)["status"] == "finished":
            break
    page = new_page(1280, 800)
    page.goto(f"{room.base}/board/tournament/{tid}/chips/")
    page.wait_for_selector("#tchips[data-status='finished']")
    expect(page.locator("#results tr")).to_have_count(3)
    expect(page.locator("#payouts-panel")).to_be_hidden()
    cut = page.evaluate(
        "() => [...document.querySelectorAll('#results td.rank')]"
        ".filter((td) => td.scrollWidth > td.clientWidth).length"
    )
    assert cut == 0
    page.evaluate(
        "() => document.querySelector('#results td.rank').textContent = '15\\u201319'"
    )  # the widest place the board writes
    wide = page.evaluate(
        "() => { const td = document.querySelector('#results td.rank');"
        " return td.scrollWidth <= td.clientWidth; }"
    )
    assert wide
