"""The director's console and the clock board as a director uses them (session 21): the
final-table redraw is on the list of moves to make, a paused break stays frozen on every
screen, and "Close late registration" is offered only while it is open."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Room, open_director


@pytest.mark.rule("TSEAT-8")
def test_the_final_table_redraw_is_on_the_list_of_moves(room: Room, new_page: Any) -> None:
    tid = room.started_tournament("Redraw", entrants=12, table_size=6)
    page = open_director(room, new_page, tid)
    t = room.api("GET", f"/api/v1/tournaments/{tid}/")
    assert len(t["tables"]) == 2
    for _ in range(10):
        t = room.shove_round(tid)
        if len(t["tables"]) <= 1 or t["status"] == "finished":
            break
    assert t["status"] == "running" and len(t["tables"]) == 1, t
    entries = room.api("GET", f"/api/v1/tournaments/{tid}/entries/")
    final_seats = {(e["table_id"], e["seat"]) for e in entries if e["status"] == "playing"}
    lines = page.locator("#moves li", has_text="final table draw")
    expect(lines.first).to_be_visible(timeout=20_000)
    assert ": ?" not in page.inner_text("#moves")  # every line says where he comes from
    for i in range(lines.count()):
        text = " ".join(lines.nth(i).inner_text().split())
        found = re.search(r"Table (\d+) seat (\d+) → Table (\d+) seat (\d+)", text)
        assert found, text
        origin, to = found.group(1, 2), found.group(3, 4)
        assert origin != to and (int(to[0]), int(to[1])) in final_seats, text
    # each tick box sits before its move, on the same line (it was stretched across the
    # card, the move pushed below it)
    box = lines.first.locator("input[type=checkbox]").bounding_box()
    line = lines.first.bounding_box()
    assert box and line and box["width"] <= 30 and box["y"] < line["y"] + 30, (box, line)


@pytest.mark.rule("CLK-8")
def test_a_paused_break_is_frozen_on_the_director_and_the_board(room: Room, new_page: Any) -> None:
    tid = room.started_tournament("Paused break")
    room.api("POST", f"/api/v1/tournaments/{tid}/breaks/", {"minutes": 5})
    room.api("POST", f"/api/v1/tournaments/{tid}/clock/pause/", {})
    page = open_director(room, new_page, tid)
    board = new_page(1920, 1080)
    board.goto(f"{room.base}/board/tournament/{tid}/")
    expect(page.locator("#clock-flags")).to_contain_text("Paused")
    expect(board.locator("#time")).not_to_have_text("--:--")
    shown, on_board = page.inner_text("#clock-time"), board.inner_text("#time")
    time.sleep(2.2)
    assert page.inner_text("#clock-time") == shown
    assert board.inner_text("#time") == on_board


@pytest.mark.rule("TREG-7")
def test_close_late_registration_is_offered_only_while_it_is_open(
    room: Room, new_page: Any
) -> None:
    tid = room.started_tournament("Late close", late_reg_until_level=3)
    page = open_director(room, new_page, tid)
    close = page.locator("button[data-op='late-registration/close']")
    expect(close).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())  # it cannot be undone: asked first
    close.click()
    expect(page.locator("#c-late")).to_have_text("closed")
    expect(close).to_be_hidden()


@pytest.mark.rule("TREG-9")
def test_the_director_re_enters_an_eliminated_player(room: Room, new_page: Any) -> None:
    """The director may take re-entries, rebuys and add-ons (docs/tournaments.md, "Who
    does what"); his console only offered "Register", which a busted player is refused."""
    reentry = {"allowed": True, "max_per_player": 2, "price": 100, "fee": 10}
    tid = room.started_tournament("Re-entry", entrants=3, reentry=reentry, late_reg_until_level=1)
    [table] = room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"]
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {})
    url = f"/api/v1/hands/{hand['hand_id']}"
    for action in ("all_in", "call", "fold"):  # two all in, the third folds
        hand = room.api(
            "POST", f"{url}/actions/", {"seat": hand["legal"]["seat"], "action": action}
        )
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        hand = room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
    live = sorted(s["seat"] for s in hand["seats"] if not s["folded"])
    winners = [[min(set(p["eligible_seats"]) & set(live))] for p in hand["pots"]]
    room.api("POST", f"{url}/award/", {"winners_by_pot": winners})
    entries = room.api("GET", f"/api/v1/tournaments/{tid}/entries/")
    [busted] = [e["player_id"] for e in entries if e["status"] == "eliminated"]
    page = open_director(room, new_page, tid)
    page.fill("#player-q", str(busted))
    page.press("#player-q", "Enter")
    page.click(f"button[data-buy='re-entries'][data-player='{busted}']")
    page.wait_for_selector("#reg-result.ok, #reg-result.error", timeout=20_000)
    assert "ok" in (page.get_attribute("#reg-result", "class") or ""), page.inner_text(
        "#reg-result"
    )
    entries = room.api("GET", f"/api/v1/tournaments/{tid}/entries/")
    assert [e["status"] for e in entries if e["player_id"] == busted] == ["eliminated", "playing"]


@pytest.mark.rule("CXL-2")
def test_the_clock_board_says_a_cancelled_tournament_is_cancelled(
    room: Room, new_page: Any
) -> None:
    tid = room.started_tournament("Fire alarm")
    room.api("POST", f"/api/v1/tournaments/{tid}/cancel/", {"method": "rollback", "reason": "fire"})
    board = new_page(1920, 1080)
    board.goto(f"{room.base}/board/tournament/{tid}/")
    expect(board.locator("#level")).to_have_text("Cancelled")
    expect(board.locator("#next")).to_be_empty()
    shown = board.inner_text("#time")
    time.sleep(1.2)
    assert board.inner_text("#time") == shown  # its clock stands still


@pytest.mark.rule("ELIM-2")
def test_before_the_start_and_while_places_may_still_move(room: Room, new_page: Any) -> None:
    """Before the start the clock card says registration is open (not "Level 0"); while late
    registration is open a bust-out's place is marked provisional, since a late entry
    moves it down (ELIM-2)."""
    body = {"name": "Lobby card", "buy_in": 100, "fee": 10, "starting_stack": 1000,
            "min_entrants": 2, "levels": [{"small_blind": 25, "big_blind": 50}]}  # fmt: skip
    waiting = int(room.api("POST", "/api/v1/tournaments/", body)["tournament_id"])
    page = open_director(room, new_page, waiting)
    expect(page.locator("#clock-level")).to_have_text("Registration open")
    tid = room.started_tournament("Provisional", entrants=8, table_size=6, late_reg_until_level=3)
    table = room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"][0]
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {})
    url = f"/api/v1/hands/{hand['hand_id']}"
    actions = iter(["all_in", "call"])  # two all in, the rest fold: one player busts
    while hand["phase"] == "betting":
        body = {"seat": hand["legal"]["seat"], "action": next(actions, "fold")}
        hand = room.api("POST", f"{url}/actions/", body)
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        hand = room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
    live = {s["seat"] for s in hand["seats"] if not s["folded"]}
    winners = [[min(set(p["eligible_seats"]) & live)] for p in hand["pots"]]
    room.api("POST", f"{url}/award/", {"winners_by_pot": winners})
    t = room.api("GET", f"/api/v1/tournaments/{tid}/")
    assert t["clock"]["players_left"] == 7 and t["clock"]["late_registration_open"], t["clock"]
    page.goto(f"{room.base}/director/?t={tid}")
    expect(page.locator("#eliminations tr").first).to_contain_text("provisional")


def test_a_tournament_published_elsewhere_joins_the_list(room: Room, new_page: Any) -> None:
    """The list was read once at load: a tournament published on another console (or by
    the API) appeared only after a reload."""
    tid = room.started_tournament("Already open")
    page = open_director(room, new_page, tid)
    body = {"name": "Published elsewhere", "buy_in": 100, "fee": 10, "starting_stack": 1000,
            "levels": [{"small_blind": 25, "big_blind": 50}]}  # fmt: skip
    new = room.api("POST", "/api/v1/tournaments/", body)["tournament_id"]
    option = page.locator(f"#t-select option[value='{new}']")
    expect(option).to_have_count(1, timeout=40_000)
    assert page.input_value("#t-select") == str(tid)  # the open tournament stays open


def test_the_list_follows_the_start_and_a_finished_tournament_shows_no_clock(
    room: Room, new_page: Any
) -> None:
    """Found by QA: the list still said "registering" after the start until a reload, and a
    finished tournament kept its last level's time and blinds on the director's console and
    the TV board, as if the clock had stopped by mistake."""
    body = {"name": "Ends tonight", "buy_in": 100, "fee": 10, "starting_stack": 1000,
            "min_entrants": 2, "levels": [{"small_blind": 25, "big_blind": 50}]}  # fmt: skip
    tid = int(room.api("POST", "/api/v1/tournaments/", body)["tournament_id"])
    for n in range(2):
        room.api("POST", f"/api/v1/tournaments/{tid}/registrations/",
                 {"player_id": room.player(f"Ends tonight {n}")})  # fmt: skip
    page = open_director(room, new_page, tid)
    option = page.locator(f"#t-select option[value='{tid}']")
    expect(option).to_have_text("Ends tonight · registering")
    room.api("POST", f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 0})
    expect(option).to_have_text("Ends tonight · running", timeout=20_000)
    board = new_page(1920, 1080)
    board.goto(f"{room.base}/board/tournament/{tid}/")
    expect(board.locator("#level")).to_have_text("Level 1")
    for _ in range(10):
        if room.shove_round(tid)["status"] == "finished":
            break
    expect(option).to_have_text("Ends tonight · finished", timeout=20_000)
    expect(page.locator("#clock-level")).to_have_text("finished")
    expect(page.locator("#clock-time")).to_have_text("—")
    expect(page.locator("#clock-blinds")).to_have_text("")
    expect(board.locator("#level")).to_have_text("Finished", timeout=20_000)
    expect(board.locator("#time")).to_have_text("—")
    expect(board.locator("#blinds")).to_have_text("")


@pytest.mark.rule("TSEAT-9")
@pytest.mark.rule("CLK-8")
def test_the_console_offers_no_break_while_paused_and_no_hand_for_hand_at_one_table(
    room: Room, new_page: Any
) -> None:
    """Both were offered and refused by the server ("The clock must be running",
    "Hand-for-hand needs more than one table"; found by QA)."""
    tid = room.started_tournament("One table", entrants=3)
    assert len(room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"]) == 1
    page = open_director(room, new_page, tid)
    expect(page.locator("#controls [data-op='clock/pause']")).to_be_visible()
    expect(page.locator("#controls [data-op='breaks']")).to_be_visible()
    expect(page.locator("#hfh")).to_be_hidden()
    page.click("#controls [data-op='clock/pause']")
    expect(page.locator("#controls [data-op='clock/resume']")).to_be_visible()
    expect(page.locator("#controls [data-op='breaks']")).to_be_hidden()
    page.click("#controls [data-op='clock/resume']")
    expect(page.locator("#controls [data-op='breaks']")).to_be_visible()


def _settled_count(page: Any, items: Any, quiet_seconds: float = 1.5) -> int:
    """How many ``items`` the page shows once their number has not changed for
    ``quiet_seconds`` (at most 20 s)."""
    count, since = items.count(), time.monotonic()
    deadline = since + 20
    while time.monotonic() < deadline:
        page.wait_for_timeout(200)
        now = items.count()
        if now != count:
            count, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_seconds:
            break
    return int(count)


@pytest.mark.rule("TSEAT-8")
def test_moves_made_leave_the_list_of_moves_to_make(room: Room, new_page: Any) -> None:
    """The list only grew: every move of the evening stayed under "Moves to make" (found
    by QA). A ticked move, and every move to a table that has dealt since, is done."""
    tid = room.started_tournament("Moves made", entrants=12, table_size=6)
    page = open_director(room, new_page, tid)
    for _ in range(10):
        t = room.shove_round(tid)
        if len(t["tables"]) <= 1 or t["status"] == "finished":
            break
    assert t["status"] == "running" and len(t["tables"]) == 1, t
    todo = page.locator("#moves li.todo")
    expect(todo.first).to_be_visible(timeout=20_000)
    count = _settled_count(page, todo)  # the redraw's moves reach the console one by one
    assert count >= 2
    # balancing moves before the redraw are done already: their tables dealt since
    before = int(page.locator("#moves-done-count").text_content() or 0)
    key = todo.first.locator("input[type=checkbox]").get_attribute("data-move")
    page.locator(f"#moves input[data-move='{key}']").click()  # the director saw him sit down
    expect(todo).to_have_count(count - 1)
    expect(page.locator(f"#moves-done-list input[data-move='{key}']")).to_be_checked()
    expect(page.locator("#moves-done-count")).to_have_text(str(before + 1))
    # the final table deals: everybody has taken his new seat
    (table_id,) = t["tables"]
    hand = room.api("POST", f"/api/v1/tables/{table_id}/hands/", {})
    while hand["phase"] == "betting":
        body = {"seat": hand["legal"]["seat"], "action": "fold"}
        hand = room.api("POST", f"/api/v1/hands/{hand['hand_id']}/actions/", body)
    expect(page.locator("#moves")).to_contain_text("No moves to make.", timeout=20_000)
    expect(page.locator("#moves-done-count")).to_have_text(str(before + count))
    page.locator("#moves-done summary").click()
    expect(page.locator("#moves-done-list li")).to_have_count(min(before + count, 20))


@pytest.mark.rule("TREG-6")
def test_the_director_adds_a_level_after_the_last(room: Room, new_page: Any) -> None:
    """Past its last level the clock stayed at the last stakes, and the console had no way
    to continue or change the structure (found by QA)."""
    tid = room.started_tournament("More levels")
    page = open_director(room, new_page, tid)
    expect(page.locator("#levels tr")).to_have_count(1)
    expect(page.locator("#levels tr.current")).to_contain_text("25/50")
    expect(page.locator("#lv-number")).to_have_value("2")  # after the last, by default
    page.fill("#lv-bb", "20")  # below the last level's big blind: refused (CLK-1)
    page.fill("#lv-reason", "the field is deep")
    page.click("#level-form button[type=submit]")
    expect(page.locator("#level-result")).to_contain_text("TREG-6")
    expect(page.locator("#levels tr")).to_have_count(1)
    page.fill("#lv-sb", "50")
    page.fill("#lv-bb", "100")
    page.fill("#lv-minutes", "15")
    page.click("#level-form button[type=submit]")
    expect(page.locator("#levels tr")).to_have_count(2)
    expect(page.locator("#levels tr").nth(1)).to_contain_text("50/100")
    levels = room.api("GET", f"/api/v1/tournaments/{tid}/")["config"]["levels"]
    assert levels[1] == {"small_blind": 50, "big_blind": 100, "ante": 0, "ante_type": "none",
                         "minutes": 15}  # fmt: skip


def test_the_level_form_follows_the_tournament_chosen(room: Room, new_page: Any) -> None:
    """Choosing another tournament left the level form with the first one's level and
    stakes, ready to be set on the second (found by QA)."""
    small = room.started_tournament("Turbo", levels=[{"small_blind": 25, "big_blind": 50,
                                                       "minutes": 10}])  # fmt: skip
    big = room.started_tournament("Grand Prix", levels=[
        {"small_blind": 100, "big_blind": 200, "minutes": 20},
        {"small_blind": 200, "big_blind": 400, "ante": 400, "ante_type": "big_blind_ante",
         "minutes": 20}])  # fmt: skip
    page = open_director(room, new_page, small)
    expect(page.locator("#lv-bb")).to_have_value("50")
    page.select_option("#t-select", str(big))
    expect(page.locator("#levels tr")).to_have_count(2)
    expect(page.locator("#lv-number")).to_have_value("3")  # after its own last level
    expect(page.locator("#lv-bb")).to_have_value("400")
    expect(page.locator("#lv-ante")).to_have_value("400")
    expect(page.locator("#lv-minutes")).to_have_value("20")
    # the language switch comes back to the tournament chosen, not the one first loaded
    page.click("form.lang button[value=cs]")
    page.wait_for_selector("html[lang=cs]")
    expect(page.locator("#t-select")).to_have_value(str(big))
    expect(page.locator("#lv-bb")).to_have_value("400")


@pytest.mark.rule("CR-1")
@pytest.mark.rule("TSEAT-2")
def test_the_chip_race_and_a_seat_moved_by_hand_on_the_console(room: Room, new_page: Any) -> None:
    """The chip race was shown on no screen, and the console could not move a player (the
    API could: seat-corrections/). Levels of a minute: the break after level 1 colours up
    the 25s (nothing later needs them), every player holding one."""
    tid = room.started_tournament(
        "Colour-up", entrants=3, starting_stack=1025, denominations=[25, 100, 500],
        levels=[{"small_blind": 25, "big_blind": 50, "minutes": 1},
                {"small_blind": 100, "big_blind": 200, "minutes": 1}],
        breaks=[{"after_level": 1, "minutes": 5}],
    )  # fmt: skip
    page = open_director(room, new_page, tid)
    t = room.api("GET", f"/api/v1/tournaments/{tid}/")
    (table_id,) = t["tables"]
    entries = room.api("GET", f"/api/v1/tournaments/{tid}/entries/")
    taken = {e["seat"] for e in entries if e["status"] == "playing"}
    mover = next(e for e in entries if e["status"] == "playing")
    free = min(set(range(1, 10)) - taken)
    expect(page.locator("#seat-fix")).to_be_visible()
    page.select_option("#fix-player", str(mover["player_id"]))
    page.select_option("#fix-table", str(table_id))
    page.fill("#fix-seat", str(free))
    page.click("#seat-fix button[type=submit]")
    expect(page.locator(f"#plan .tbl[data-table='{table_id}']")).to_contain_text(f"{free}. ")
    moved = room.api("GET", f"/api/v1/tournaments/{tid}/entries/")
    assert next(e["seat"] for e in moved if e["player_id"] == mover["player_id"]) == free
    # the level ends within a minute; the break starts and the race runs at the table
    race = page.locator("#races li")
    expect(race.first).to_be_visible(timeout=100_000)
    expect(race.first).to_contain_text(f"Table {table_id}: 25 → 100")
    expect(race.first.locator("strong")).not_to_have_count(0)  # somebody won a chip


@pytest.mark.rule("BI-10")
def test_the_table_plan_flags_an_entrant_still_seated_at_cash(room: Room, new_page: Any) -> None:
    """The draw seated a player who still held a cash seat without a word (found by QA)."""
    cash = room.open_table(buy_in_min=100, buy_in_max=10_000)
    body = {"name": f"Cash first {time.time_ns() % 10**6}", "buy_in": 100, "fee": 10,
            "starting_stack": 1000, "min_entrants": 2,
            "levels": [{"small_blind": 25, "big_blind": 50}]}  # fmt: skip
    tid = int(room.api("POST", "/api/v1/tournaments/", body)["tournament_id"])
    grinder = room.player("Cash Grinder", "Grinder")
    room.api("POST", f"/api/v1/tables/{cash}/seats/",
             {"player_id": grinder, "seat": 5, "buy_in": 1000})  # fmt: skip
    for pid in (grinder, room.player("Punctual One"), room.player("Punctual Two")):
        room.api("POST", f"/api/v1/tournaments/{tid}/registrations/", {"player_id": pid})
    room.api("POST", f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 0})
    page = open_director(room, new_page, tid)
    flag = page.locator(f"#plan [data-also-seated='{cash}']")
    expect(flag).to_have_count(1)
    expect(flag).to_contain_text(f"table {cash}, seat 5")
    mark = page.locator(f"[data-also-seated='{cash}']")
    expect(page.locator("#plan li", has=mark)).to_contain_text("Grinder")


def test_the_structure_lists_each_break_after_its_level(room: Room, new_page: Any) -> None:
    """The director's structure listed the levels only (found by QA)."""
    levels = [{"small_blind": 25, "big_blind": 50, "minutes": 20},
              {"small_blind": 50, "big_blind": 100, "minutes": 20}]  # fmt: skip
    breaks = [{"after_level": 1, "minutes": 15, "chip_up_denomination": 25}]
    tid = room.started_tournament(f"Breaks {time.time_ns() % 10**6}", levels=levels,
                                  breaks=breaks)  # fmt: skip
    page = open_director(room, new_page, tid)
    row = page.locator("#levels tr.break")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-break-after", "1")
    expect(row).to_contain_text("15")
    expect(row).to_contain_text("25")
    rows = page.locator("#levels tr")
    assert [rows.nth(i).get_attribute("class") or "" for i in range(3)][1] == "break"


@pytest.mark.rule("CLK-5")
def test_the_structure_lists_the_add_on_break(room: Room, new_page: Any) -> None:
    """The clock took the add-on break after its level, and the published structure left it
    out (found by QA)."""
    levels = [{"small_blind": 25, "big_blind": 50, "minutes": 20}] * 3
    add_on = {"allowed": True, "at_level": 2, "price": 100, "stack": 1000, "break_minutes": 3}
    tid = room.started_tournament(f"Add-on {time.time_ns() % 10**6}", levels=levels,
                                  add_on=add_on)  # fmt: skip
    page = open_director(room, new_page, tid)
    row = page.locator("#levels tr.break")
    expect(row).to_have_count(1)
    expect(row).to_have_attribute("data-break-after", "2")
    expect(row).to_contain_text("Add-on break")
    expect(row).to_contain_text("3")
