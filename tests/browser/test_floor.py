"""The floor console in a real browser (issue #13): a past hand replayed step by step with
who recorded each step; a dealer tablet registered (its token shown once) and revoked; a
waiting-list call whose deadline counts down; a limit override with its reason."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Room, login, lose_answers, open_floor_replay


def open_floor(room: Room, new_page: Any) -> Any:
    """A new floor person logged in on /floor/ (1280x800), the console ready."""
    page = new_page(1280, 800)
    login(page, room.base, *room.staff("floor"), target="/floor/")
    page.goto(f"{room.base}/floor/")
    page.wait_for_selector("#floor[data-ready='true']")
    return page


def test_the_floor_names_the_players_already_seated_when_it_opens(
    room: Room, new_page: Any
) -> None:
    """The snapshot that opens the floor carries player ids only: the floor looks their
    names up at once, not only when something next happens at their table."""
    table = room.open_table(buy_in_min=100, buy_in_max=10_000)
    for seat, name in ((2, "Alena Quiet"), (5, "Bohus Still")):
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": room.player(name), "seat": seat, "buy_in": 1000})  # fmt: skip
    page = open_floor(room, new_page)
    card = page.locator(f".tcard[data-table='{table}']")
    expect(card.locator("tr[data-seat='2']")).to_contain_text("Alena Quiet")
    expect(card.locator("tr[data-seat='5']")).to_contain_text("Bohus Still")


@pytest.mark.rule("BI-7")
def test_a_busted_cash_player_reads_busted_on_the_floor_not_active(
    room: Room, new_page: Any
) -> None:
    """QA: a player who lost his whole stack sat on the floor's card as an active seat
    with 0; the tablet said "busted: re-buy or cash out", the floor did not."""
    table = room.open_table(buy_in_min=100, buy_in_max=10_000)
    for seat, name in ((1, "Karel Kingsfull"), (2, "Lada Lost")):
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": room.player(name), "seat": seat, "buy_in": 1000})  # fmt: skip
    page = open_floor(room, new_page)
    card = page.locator(f".tcard[data-table='{table}']")
    expect(card.locator("tr[data-seat='2']")).to_contain_text("Lada Lost")
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    url = f"/api/v1/hands/{hand['hand_id']}"
    room.api("POST", f"{url}/actions/", {"seat": 1, "action": "all_in"})
    room.api("POST", f"{url}/actions/", {"seat": 2, "action": "call"})
    expect(card.locator("tr[data-seat='1']")).not_to_contain_text("busted")  # all-in, in play
    for street, cards in (("flop", "Ks7c7h"), ("turn", "2d"), ("river", "3s")):
        room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
    room.api("POST", f"{url}/show/", {"seat": 1, "cards": "KhKd"})
    room.api("POST", f"{url}/show/", {"seat": 2, "cards": "AhAd"})
    expect(card.locator("tr[data-seat='2']")).to_contain_text("busted: re-buy or cash out")
    expect(card.locator("tr[data-seat='1']")).not_to_contain_text("busted")


def test_a_tournament_table_shows_its_tournament_and_is_not_managed_as_a_cash_table(
    room: Room, new_page: Any
) -> None:
    """A tournament's table has no buy-in or rake and the director runs it: the floor
    shows which tournament it is, offers no "Manage", and never offers it as the table to
    transfer a cash player to."""
    tid = room.started_tournament("Floor view")
    [t_table] = room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"]
    cash = room.open_table(buy_in_min=100, buy_in_max=10_000)
    page = open_floor(room, new_page)
    card = page.locator(f".tcard[data-table='{t_table}']")
    expect(card.locator(".meta").last).to_contain_text(f"tournament #{tid}")
    expect(card).not_to_contain_text("buy-in")
    assert card.locator("[data-manage]").count() == 0
    page.click(f".tcard[data-table='{cash}'] [data-manage]")
    targets = page.locator("#tr-table option").evaluate_all("os => os.map(o => Number(o.value))")
    assert t_table not in targets


@pytest.mark.rule("SES-3")
@pytest.mark.rule("SES-4")
def test_a_transfer_is_offered_only_to_a_table_of_the_same_game_and_stakes(
    room: Room, new_page: Any
) -> None:
    """A transfer keeps the whole stack only between tables of the same game and stakes:
    the floor offered every open cash table, and the server then refused the others."""
    here = room.open_table(buy_in_min=100, buy_in_max=10_000)
    same = room.open_table(buy_in_min=100, buy_in_max=10_000)
    plo = room.open_table(game="PLO", buy_in_min=100, buy_in_max=10_000)
    bigger = room.open_table(small_blind=25, big_blind=50, buy_in_min=100, buy_in_max=10_000)
    page = open_floor(room, new_page)
    page.click(f".tcard[data-table='{here}'] [data-manage]")
    targets = page.locator("#tr-table option").evaluate_all("os => os.map(o => Number(o.value))")
    assert same in targets and plo not in targets and bigger not in targets and here not in targets


def test_the_floor_replays_a_past_hand_with_who_recorded_each_step(
    room: Room, new_page: Any
) -> None:
    table = room.open_table(buy_in_min=100, buy_in_max=10_000)
    for seat in (1, 2):
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": room.player(f"R{seat}"), "seat": seat, "buy_in": 1000})  # fmt: skip
    token = room.tablet(table)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1}, token=token)
    room.api("POST", f"/api/v1/hands/{hand['hand_id']}/actions/",
             {"seat": hand["to_act"], "action": "fold"}, token=token)  # fmt: skip
    device = next(d for d in room.api("GET", "/api/v1/devices/") if d["table_id"] == table)

    page = open_floor_replay(room, new_page, table, hand["hand_id"])
    rows = page.locator("#replay-steps tbody tr")
    expect(rows).to_have_count(3)  # started, the fold, settled
    expect(page.locator("#replay-pos")).to_have_text("Step 1 / 3")
    expect(rows.nth(0)).to_have_class("current")
    page.click("#replay-next")
    expect(page.locator("#replay-pos")).to_have_text("Step 2 / 3")
    expect(rows.nth(1)).to_contain_text(f"Seat {hand['to_act']}: fold")
    expect(rows.nth(1)).to_contain_text(device["name"])  # who recorded it
    expect(rows.nth(2)).to_have_class("future")


@pytest.mark.rule("SD-1")
def test_the_replay_names_the_hand_that_won(room: Room, new_page: Any) -> None:
    table = room.open_table(buy_in_min=100, buy_in_max=10_000)
    for seat in (1, 2):
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": room.player(f"W{seat}"), "seat": seat, "buy_in": 1000})  # fmt: skip
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    url = f"/api/v1/hands/{hand['hand_id']}"
    room.api("POST", f"{url}/actions/", {"seat": 1, "action": "all_in"})
    room.api("POST", f"{url}/actions/", {"seat": 2, "action": "call"})
    for street, cards in (("flop", "Ks7c7h"), ("turn", "2d"), ("river", "3s")):
        room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
    room.api("POST", f"{url}/show/", {"seat": 1, "cards": "KhKd"})  # kings full
    room.api("POST", f"{url}/show/", {"seat": 2, "cards": "AhAd"})  # two pair
    page = open_floor_replay(room, new_page, table, hand["hand_id"])
    settled = page.locator("#replay-steps tbody tr").last
    expect(settled).to_contain_text("→ 1 +1,900 (full house)")  # 2,000 less 100 rake


def test_the_replay_says_each_ruling_in_words(room: Room, new_page: Any) -> None:
    """The floor's rulings on a hand (out of turn, a burn, a clock) were shown in the replay
    as raw event JSON."""
    table = room.open_table(buy_in_min=100, buy_in_max=10_000)
    for seat in (1, 2, 3):
        body = {"player_id": room.player(f"Ruled {seat}"), "seat": seat, "buy_in": 1000}
        room.api("POST", f"/api/v1/tables/{table}/seats/", body)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    url = f"/api/v1/hands/{hand['hand_id']}"
    to_act = hand["to_act"]
    early = next(s for s in (1, 2, 3) if s != to_act)
    room.api("POST", f"{url}/out-of-turn/", {"seat": early, "action": "call"})
    room.api("POST", f"{url}/clock/", {"called_by": early})
    page = open_floor_replay(room, new_page, table, hand["hand_id"])
    steps = page.locator("#replay-steps tbody")
    expect(steps).to_contain_text(f"Seat {early} out of turn: call")
    expect(steps).to_contain_text(f"Clock called on seat {to_act}")
    assert "{" not in steps.inner_text()


def test_a_tablet_is_registered_with_its_token_shown_once_then_revoked(
    room: Room, new_page: Any
) -> None:
    page = new_page(1280, 800)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    login(page, room.base, *room.staff("floor"), target="/floor/")
    page.goto(f"{room.base}/floor/")
    page.wait_for_selector("#floor[data-ready='true']")
    page.click(".tab[data-tab=devices]")
    expect(page.locator("#staff-denied")).to_be_visible()  # staff accounts: admin only
    expect(page.locator("#devices")).to_be_visible()
    # found by QA: the console asked for the staff list anyway, got 403 and logged errors
    assert not [url for url in asked if "/api/v1/staff/" in url], asked
    page.fill("#rd-name", "tablet-window")
    page.select_option("#rd-table", "1")
    page.click("#register-device button[type=submit]")
    token = page.locator("#new-token-value")
    expect(token).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
    value = token.inner_text()
    assert httpx.get(f"{room.base}/api/v1/tables/1/",
                     headers={"Authorization": f"Token {value}"}).status_code == 200  # fmt: skip
    page.click("#new-token-hide")
    expect(page.locator("#new-token")).to_be_hidden()
    assert value not in page.content()  # shown once: gone from the page
    row = page.locator("#devices tbody tr", has_text="tablet-window")
    page.once("dialog", lambda d: d.accept())
    row.locator("[data-revoke]").click()
    expect(row).to_contain_text("revoked")
    page.wait_for_timeout(2100)  # other processes: within DEVICE_TOKEN_CACHE_SECONDS
    assert httpx.get(f"{room.base}/api/v1/tables/1/",
                     headers={"Authorization": f"Token {value}"}).status_code == 401  # fmt: skip


@pytest.mark.rule("SES-4")
def test_an_open_seat_at_a_main_table_offers_the_must_move_player(
    room: Room, new_page: Any
) -> None:
    """A main table fed by a must-move table: its open seat is the must-move player's. The
    floor offered it as 'Call player', which the server refused (must_move_first). Stakes of
    its own: the room is shared with the other tests, one list per game and stakes."""
    main = room.open_table(buy_in_min=100, buy_in_max=10_000, small_blind=15, big_blind=30)
    must = room.open_table(buy_in_min=100, buy_in_max=10_000, small_blind=15, big_blind=30)
    mover = room.player("Milan Must", nickname="Milan")
    room.api("POST", f"/api/v1/tables/{main}/seats/",
             {"player_id": room.player("Otto Main"), "seat": 1, "buy_in": 1000})  # fmt: skip
    room.api("POST", f"/api/v1/tables/{must}/seats/",
             {"player_id": mover, "seat": 4, "buy_in": 700})  # fmt: skip
    listed = room.api("POST", "/api/v1/waitlists/",
                      {"game": "NLH", "small_blind": 15, "big_blind": 30})  # fmt: skip
    room.api("POST", f"/api/v1/waitlists/{listed['list_id']}/must-move/",
             {"main_table_id": main, "must_move_table_id": must})  # fmt: skip
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    box = page.locator(f"[data-list='{listed['list_id']}']")
    assert box.locator(f"[data-call^='{listed['list_id']}:{main}:']").count() == 0
    box.locator("[data-mustmove-seat]").first.click()
    expect(page.locator(f".tcard[data-table='{main}']")).to_contain_text("Milan", timeout=10_000)
    seats = {s["player_id"]: s for s in room.api("GET", f"/api/v1/tables/{main}/")["seats"]}
    assert seats[mover]["stack"] == 700  # with his whole stack


@pytest.mark.rule("WL-1")
def test_a_refusal_stays_up_when_another_screen_changes_the_list(room: Room, new_page: Any) -> None:
    """The losing floor screen's refusal was hidden 0.1 s later, when the other screen's
    change refreshed the lists (found by QA): a read no longer clears it."""
    listed = room.api("POST", "/api/v1/waitlists/",
                      {"game": "NLH", "small_blind": 9, "big_blind": 18})  # fmt: skip
    list_id = listed["list_id"]
    first = room.player("Rita Repeat", nickname="Rita")
    second = room.player("Sam Second", nickname="Sam")
    room.api("POST", f"/api/v1/waitlists/{list_id}/entries/",
             {"player_id": first, "channel": "in_person"})  # fmt: skip
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    expect(page.locator("#lists-feed-status")).to_have_attribute("data-state", "live")
    form = page.locator(f"form[data-join='{list_id}']")
    form.locator("input[name=player]").fill(str(first))
    form.locator("button[type=submit]").click()  # on the list already: refused (WL-1)
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    refusal = notice.inner_text()
    room.api("POST", f"/api/v1/waitlists/{list_id}/entries/",
             {"player_id": second, "channel": "in_person"})  # another screen's change  # fmt: skip
    expect(page.locator(f"[data-list='{list_id}']")).to_contain_text("Sam")  # refreshed
    page.wait_for_timeout(500)
    expect(notice).to_be_visible()
    assert notice.inner_text() == refusal


def test_a_waiting_list_call_counts_down_and_a_limit_override_needs_the_floor(
    room: Room, new_page: Any
) -> None:
    table = room.open_table(buy_in_min=100, buy_in_max=10_000, small_blind=5, big_blind=10)
    listed = room.api("POST", "/api/v1/waitlists/",
                      {"game": "NLH", "small_blind": 5, "big_blind": 10})  # fmt: skip
    player = room.player("Wanda Waiting", nickname="Wanda")
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    # each feed shows its own state: the lists' badge in the panel, the tables' in the bar
    expect(page.locator("#lists-feed-status")).to_have_attribute("data-state", "live")
    expect(page.locator("#feed-status")).to_have_attribute("data-state", "live")
    form = page.locator(f"form[data-join='{listed['list_id']}']")
    form.locator("input[name=player]").fill(str(player))
    form.locator("select[name=channel]").select_option("phone")
    form.locator("button[type=submit]").click()
    call = page.locator(f"[data-call^='{listed['list_id']}:{table}:1:']")
    expect(call).to_be_visible()
    # one offer per table, on its first open seat, not a button per open seat (found by QA)
    expect(page.locator(f"[data-call^='{listed['list_id']}:{table}:']")).to_have_count(1)
    call.click()
    countdown = page.locator(f"[data-list='{listed['list_id']}'] .countdown")
    expect(countdown).to_have_text(re.compile(r"^[45]:\d\d$"))
    first = countdown.inner_text()
    page.wait_for_timeout(2100)
    assert countdown.inner_text() != first  # counting down locally
    page.click(f"[data-list='{listed['list_id']}'] [data-noshow]")
    expect(countdown).to_have_count(0)

    # must-move: the new table feeds the main table (the floor links them)
    main = room.open_table(buy_in_min=100, buy_in_max=10_000, small_blind=5, big_blind=10)
    page.reload()
    page.wait_for_selector("#floor[data-ready='true']")
    page.click(".tab[data-tab=lists]")
    box = page.locator(f"[data-list='{listed['list_id']}']")
    box.locator("summary", has_text="Must-move").click()
    link = box.locator("form[data-link]")
    link.locator("select[name=main]").select_option(str(main))
    link.locator("select[name=must]").select_option(str(table))
    link.locator("button[type=submit]").click()
    expect(box.locator("form[data-must-move]")).to_be_attached()
    linked = room.api("GET", f"/api/v1/waitlists/{listed['list_id']}/")
    assert (linked["main_table_id"], linked["must_move_table_id"]) == (main, table)

    page.click(".tab[data-tab=tables]")
    page.click(f"[data-manage='{table}']")
    page.fill("#td-min", "200")
    page.fill("#td-max", "100")  # below the minimum: refused
    page.fill("#td-limits-reason", "players asked")
    page.click("#td-limits")
    expect(page.locator("#td-error")).to_be_visible()
    # a minimum typed "-100" was sent as 100 (found by QA): nothing is sent now, and a
    # transfer "from seat -1" moved the player of seat 1; neither button sends anything
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.fill("#td-min", "")
    page.click("#td-min")
    page.keyboard.type("-100")
    page.fill("#td-max", "3000")
    page.click("#td-limits")
    page.click("#tr-seat")
    page.keyboard.type("-1")
    page.fill("#tr-to-seat", "2")
    page.click("#td-transfer")
    page.wait_for_timeout(300)
    assert posts == []
    assert "digits" in page.eval_on_selector("#td-min", "f => f.validationMessage")
    page.fill("#tr-seat", "")
    page.fill("#td-min", "200")
    page.click("#td-limits")
    limits = "200\u20133,000"  # min en dash max
    expect(page.locator(f".tcard[data-table='{table}']")).to_contain_text(limits)


@pytest.mark.rule("BI-5")
def test_the_floor_opens_a_show_poker_table_with_its_agreed_limits(
    room: Room, new_page: Any
) -> None:
    """The form offered NLH and PLO only and no buy-in limits, so a fixed-limit or Show
    poker table (stakes with no configured limits, BI-5) could not be opened from it."""
    page = open_floor(room, new_page)
    page.click("#tab-tables details summary")
    assert set(page.locator("#ot-game option").all_inner_texts()) >= {"NLH", "PLO", "FLH", "SHOW"}
    page.fill("#ot-name", "Show corner")
    page.select_option("#ot-game", "SHOW")
    page.fill("#ot-sb", "7")
    page.fill("#ot-bb", "14")
    page.click("#open-table button[type=submit]")  # no limits: the server asks for them
    expect(page.locator("#notice")).to_contain_text("BI-5")
    page.fill("#ot-min", "200")
    page.fill("#ot-max", "2000")
    page.click("#open-table button[type=submit]")
    expect(page.locator(".tcard", has_text="Show corner")).to_be_visible()
    [opened] = [t for t in room.api("GET", "/api/v1/tables/") if t["name"] == "Show corner"]
    assert (opened["game"], opened["buy_in_min"], opened["buy_in_max"]) == ("SHOW", 200, 2000)


@pytest.mark.rule("BET-9")
def test_a_double_click_opens_one_table_at_the_house_minimum_raise(
    room: Room, new_page: Any
) -> None:
    """A double click on "Open table" opened two; the table played the tournament minimum
    raise (the last raise's size) where the house's cash rule is double the last bet or
    raise (BET-9); an earlier refusal stayed in the banner over later successes (QA)."""
    page = open_floor(room, new_page)
    page.click("#tab-tables details summary")
    page.fill("#ot-name", "Twice clicked")
    page.select_option("#ot-game", "SHOW")
    page.click("#open-table button[type=submit]")  # no limits: refused (BI-5)
    expect(page.locator("#notice")).to_contain_text("BI-5")
    page.select_option("#ot-game", "NLH")
    page.dblclick("#open-table button[type=submit]")
    expect(page.locator(".tcard", has_text="Twice clicked")).to_have_count(1)
    expect(page.locator("#notice")).not_to_contain_text("BI-5")
    page.wait_for_timeout(500)  # a second request would have landed by now
    opened = [t for t in room.api("GET", "/api/v1/tables/") if t["name"] == "Twice clicked"]
    assert [t["min_raise_rule"] for t in opened] == ["double_last"]
    # a reason typed for one table is not another's, and closing asks first
    page.click(f".tcard[data-table='{opened[0]['table_id']}'] [data-manage]")
    page.fill("#td-close-reason", "opened by mistake")
    page.on("dialog", lambda dialog: dialog.dismiss())
    page.click("#td-close")
    page.wait_for_timeout(300)
    assert room.api("GET", f"/api/v1/tables/{opened[0]['table_id']}/")["status"] == "open"
    page.click("#table-dialog button[value=close]")
    page.click(".tcard [data-manage] >> nth=0")
    expect(page.locator("#td-close-reason")).to_have_value("")


@pytest.mark.rule("SHOW-20")
def test_the_floor_records_a_show_poker_penalty_from_the_table(room: Room, new_page: Any) -> None:
    table = room.open_table(game="SHOW", small_blind=9, big_blind=18, buy_in_min=100,
                            buy_in_max=1000)  # fmt: skip
    offender = room.player("Declares For Others")
    room.api("POST", f"/api/v1/tables/{table}/seats/",
             {"player_id": offender, "seat": 4, "buy_in": 500})  # fmt: skip
    page = open_floor(room, new_page)
    page.click(f".tcard[data-table='{table}'] [data-manage]")
    expect(page.locator("#td-show")).to_be_visible()
    page.select_option("#sp-seat", str(offender))
    page.select_option("#sp-offence", "declare_other_hand")
    page.click("#sp-record")
    # the first time: a sit-out of at least two hands, blinds paid (SHOW-20)
    expect(page.locator("#sp-result")).to_contain_text("Sits out 2 hands")
    page.click("#sp-record")
    expect(page.locator("#sp-result")).to_contain_text("Sits out 8 hands")  # the second time


@pytest.mark.rule("SD-24")
def test_the_floor_is_told_when_a_correction_must_be_settled_at_the_cage(
    room: Room, new_page: Any
) -> None:
    """An accounting correction upheld during the next hand waits for its end; if a player
    of the disputed hand has left his seat by then, nothing moves at the table and the floor
    is told to settle it at the cage."""
    table = room.open_table(small_blind=3, big_blind=6, buy_in_min=100, buy_in_max=10_000)
    for seat in (1, 2, 3):
        player = room.player(f"Dispute {seat}")
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": player, "seat": seat, "buy_in": 1000})  # fmt: skip
    page = open_floor(room, new_page)
    first = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    while first["phase"] != "complete":  # everybody folds to the big blind, seat 3
        first = room.api("POST", f"/api/v1/hands/{first['hand_id']}/actions/",
                         {"seat": first["to_act"], "action": "fold"})  # fmt: skip
    room.api("POST", f"/api/v1/tables/{table}/seats/3/sit-out/", {})
    second = room.api("POST", f"/api/v1/tables/{table}/hands/", {})
    body = {"kind": "accounting", "detail": "seat 3 was paid 3 too much",
            "adjustments": [{"seat": 3, "amount": -3}, {"seat": 1, "amount": 3}]}  # fmt: skip
    room.api("POST", f"/api/v1/hands/{first['hand_id']}/corrections/", body)
    expect(page.locator("#notice")).to_contain_text("when this hand ends")
    room.api("POST", f"/api/v1/tables/{table}/seats/3/cash-out/", {})
    while second["phase"] != "complete":
        second = room.api("POST", f"/api/v1/hands/{second['hand_id']}/actions/",
                          {"seat": second["to_act"], "action": "fold"})  # fmt: skip
    expect(page.locator("#notice")).to_contain_text("Settle it at the cage")
    expect(page.locator("#notice")).to_contain_text("seat 3 -3, seat 1 +3")


@pytest.mark.rule("BI-2")
@pytest.mark.rule("WL-2")
def test_seating_from_the_list_takes_chips_bought_at_the_cage(room: Room, new_page: Any) -> None:
    """Found by QA: the floor's "Seat" asked for the buy-in only, so it was always booked as
    cash paid at the table; a player bringing chips from the cage was counted in the drop
    and in the chips issued a second time."""
    table = room.open_table(buy_in_min=100, buy_in_max=10_000, small_blind=3, big_blind=6)
    listed = room.api("POST", "/api/v1/waitlists/", {"game": "NLH", "small_blind": 3,
                                                    "big_blind": 6})  # fmt: skip
    player = room.player("Cage Chips")
    room.api("POST", "/api/v1/cage/sales/", {"player_id": player, "amount": 2000})
    room.api("POST", f"/api/v1/waitlists/{listed['list_id']}/entries/",
             {"player_id": player, "channel": "in_person"})  # fmt: skip
    room.api(
        "POST", f"/api/v1/waitlists/{listed['list_id']}/calls/", {"table_id": table, "seat": 4}
    )
    before = room.api("GET", "/api/v1/cage/balance/")
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    page.click(f"[data-list='{listed['list_id']}'] [data-seatcall]")
    dialog = page.locator("#seat-call-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#sc-who")).to_contain_text("seat 4")
    # the buy-in is typed, never filled in with the table's minimum; the range is a hint
    expect(page.locator("#sc-buyin")).to_have_value("")
    expect(page.locator("#sc-range")).to_contain_text("100 to 10,000")
    page.fill("#sc-buyin", "50")  # below the table's minimum: refused in the dialog
    page.select_option("#sc-paid", "chips")
    page.click("#sc-submit")
    expect(page.locator("#sc-error")).to_contain_text("BI-5")
    page.fill("#sc-buyin", "1500")
    page.dblclick("#sc-submit")  # one seating, and no "Seat 4 is taken." over it (QA)
    expect(dialog).to_be_hidden()
    expect(page.locator("#notice")).to_be_hidden()
    seats = room.api("GET", f"/api/v1/tables/{table}/")["seats"]
    assert [(s["seat"], s["player_id"], s["stack"]) for s in seats] == [(4, player, 1500)]
    after = room.api("GET", "/api/v1/cage/balance/")
    assert after["table_drop"] == before["table_drop"]  # no cash at the table
    assert after["chips_issued"] == before["chips_issued"]  # the cage's chips, not new ones


@pytest.mark.rule("WL-2")
def test_a_call_cancelled_on_another_screen_seats_nobody(room: Room, new_page: Any) -> None:
    """The seat dialog seated a player whose call another floor screen had just cancelled,
    with no word of it (found by QA)."""
    table = room.open_table(buy_in_min=100, buy_in_max=10_000, small_blind=7, big_blind=14)
    listed = room.api("POST", "/api/v1/waitlists/", {"game": "NLH", "small_blind": 7,
                                                    "big_blind": 14})  # fmt: skip
    list_id = listed["list_id"]
    player = room.player("Judy Cancelled", "Judy")
    room.api("POST", f"/api/v1/waitlists/{list_id}/entries/",
             {"player_id": player, "channel": "in_person"})  # fmt: skip
    call = room.api("POST", f"/api/v1/waitlists/{list_id}/calls/", {"table_id": table, "seat": 1})
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    page.click(f"[data-list='{list_id}'] [data-seatcall]")
    expect(page.locator("#seat-call-dialog")).to_be_visible()
    room.api("POST", f"/api/v1/waitlists/{list_id}/calls/{call['call_id']}/cancel/",
             {"reason": "floor"})  # another screen  # fmt: skip
    page.fill("#sc-buyin", "1000")
    page.click("#sc-submit")
    expect(page.locator("#sc-error")).to_contain_text("cancelled or answered on another screen")
    assert room.api("GET", f"/api/v1/tables/{table}/")["seats"] == []


def test_an_admin_manages_staff_accounts_from_the_floor_console(room: Room, new_page: Any) -> None:
    page = new_page(1280, 800)
    login(page, room.base, *room.staff("admin"), target="/floor/")
    page.goto(f"{room.base}/floor/")
    page.wait_for_selector("#floor[data-ready='true']")
    page.click(".tab[data-tab=devices]")
    expect(page.locator("#staff")).to_be_visible()
    expect(page.locator("#staff-denied")).to_be_hidden()
    page.fill("#cs-user", "new-cashier-1")
    page.fill("#cs-pass", "plum orchard 47 lanterns")
    page.select_option("#cs-role", "cashier")
    page.click("#create-staff button[type=submit]")
    expect(page.locator("#staff")).to_contain_text("new-cashier-1")
    accounts = room.api("GET", "/api/v1/staff/")
    assert [a["role"] for a in accounts if a["username"] == "new-cashier-1"] == ["cashier"]


def test_a_weak_password_is_refused_in_czech_words(room: Room, new_page: Any) -> None:
    """A Czech console said "password: This password is too short. ..." with the API's
    field name and Django 6's sentence in English (found by QA)."""
    page = new_page(1280, 800)
    login(page, room.base, *room.staff("admin"), target="/floor/")
    page.wait_for_selector("#floor[data-ready='true']")
    page.click(".tab[data-tab=devices]")
    # the language switch comes back to the tab open now (the page as loaded had none)
    page.click("form.lang button[value=cs]")
    page.wait_for_selector("html[lang=cs] #floor[data-ready='true']")
    expect(page.locator(".tab[data-tab=devices]")).to_have_attribute("aria-selected", "true")
    page.fill("#cs-user", "short-password")
    page.fill("#cs-pass", "abc")
    page.click("#create-staff button[type=submit]")
    expect(page.locator("#notice")).to_contain_text(
        "heslo: Heslo je příliš krátké. Musí mít délku aspoň 10 znaků."
    )
    assert "short-password" not in [a["username"] for a in room.api("GET", "/api/v1/staff/")]


def test_the_floor_puts_a_player_on_a_waiting_list_by_name(room: Room, new_page: Any) -> None:
    """The join form took only a player's number, which the floor rarely knows: it now
    takes a name or a nickname, suggests matches as the floor types, and refuses a name
    that several players share until one is picked."""
    listed = room.api("POST", "/api/v1/waitlists/",
                      {"game": "PLO", "small_blind": 25, "big_blind": 50})  # fmt: skip
    kveta = room.player("Květa Zapletalová", nickname="Zapla")
    first = room.player("Jiří Dvořák")
    second = room.player("Jiří Dvořáček")
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    form = page.locator(f"form[data-join='{listed['list_id']}']")
    field = form.locator("input[name=player]")

    field.press_sequentially("zapl")  # part of the nickname, any case
    expect(page.locator("#player-found option")).to_have_count(1)
    assert page.locator("#player-found option").get_attribute("value") == (
        f"Květa Zapletalová (Zapla) #{kveta}"
    )
    form.locator("button[type=submit]").click()
    box = page.locator(f"[data-list='{listed['list_id']}']")
    expect(box.locator("tbody")).to_contain_text(f"#{kveta}")
    expect(field).to_have_value("")

    field.fill("Jiří Dvoř")  # two players: refused, nothing joins
    form.locator("button[type=submit]").click()
    expect(page.locator("#notice")).to_contain_text("Several players match")
    entries = room.api("GET", f"/api/v1/waitlists/{listed['list_id']}/")["entries"]
    assert [e["player_id"] for e in entries] == [kveta]

    field.fill(f"Jiří Dvořáček #{second}")  # a picked suggestion names its number
    form.locator("button[type=submit]").click()
    expect(box.locator("tbody")).to_contain_text(f"#{second}")
    field.fill(str(first))  # a number alone still works
    form.locator("button[type=submit]").click()
    expect(box.locator("tbody")).to_contain_text(f"#{first}")
    entries = room.api("GET", f"/api/v1/waitlists/{listed['list_id']}/")["entries"]
    assert [e["player_id"] for e in entries] == [kveta, second, first]


def test_the_floor_approves_a_redemption_above_the_records(room: Room, new_page: Any) -> None:
    """The cage refuses to pay more than the records show a player holding; the floor's
    override (redeem_chips_override) had no screen, so chips another player handed him
    could only be paid through the raw API (found by QA)."""
    giver, taker = room.player("Gustav Giver"), room.player("Tomáš Taker", nickname="Tom")
    room.api("POST", "/api/v1/cage/sales/", {"player_id": giver, "amount": 2000})
    room.api("POST", "/api/v1/cage/sales/", {"player_id": taker, "amount": 500})
    before = room.api("GET", "/api/v1/cage/balance/")["cash_out"]
    page = open_floor(room, new_page)
    page.click("#override-box summary")
    page.fill("#ov-player", "tomas taker")  # no accents, any case
    page.fill("#ov-amount", "1500")
    page.fill("#ov-reason", "Gustav handed him chips")
    page.click("#ov-submit")
    expect(page.locator("#ov-result.ok")).to_contain_text("Tomáš Taker")
    assert room.api("GET", "/api/v1/cage/balance/")["cash_out"] - before == 1500
    page.click("#ov-submit")  # the emptied form: the browser blocks it, nothing is sent
    expect(page.locator("#ov-result")).to_have_text("")  # no stale "Recorded" beside it
    page.fill("#ov-player", "nobody at all")
    page.fill("#ov-amount", "10")
    page.fill("#ov-reason", "a mistake")
    page.click("#ov-submit")
    expect(page.locator("#ov-result.error")).to_contain_text("No player has that name")
    assert room.api("GET", "/api/v1/cage/balance/")["cash_out"] - before == 1500


def test_a_redemption_whose_answer_was_lost_is_retried_not_paid_twice(
    room: Room, new_page: Any
) -> None:
    """The floor's override form settles a lost answer the way every console does
    (casino/static/casino/intent.js): the button stays disabled, "Retry" resends the same
    Idempotency-Key, and "Discard" says where to check; the cash goes out once."""
    player = room.player("Lucie Lost", nickname="Lucka")
    room.api("POST", "/api/v1/cage/sales/", {"player_id": player, "amount": 300})
    other = room.player("Otto Other", nickname="Otto")  # the chips she holds came from him:
    room.api("POST", "/api/v1/cage/sales/", {"player_id": other, "amount": 1000})  # in play
    before = room.api("GET", "/api/v1/cage/balance/")["cash_out"]
    page = open_floor(room, new_page)
    lost = lose_answers(page, "**/api/v1/cage/redemptions/override/")
    page.click("#override-box summary")
    page.fill("#ov-player", "lucie lost")
    page.fill("#ov-amount", "800")
    page.fill("#ov-reason", "chips from another player")
    page.click("#ov-submit")
    expect(page.locator("#ov-result.error")).to_contain_text("No answer")
    assert lost["n"] >= 1
    expect(page.locator("#ov-submit")).to_be_disabled()  # no second payout with a new key
    expect(page.locator("#ov-result button:has-text('Discard')")).to_have_attribute(
        "title", re.compile("Ask the cage")
    )
    page.unroute("**/api/v1/cage/redemptions/override/")
    page.click("#ov-result button:has-text('Retry')")  # the same key: the first answer
    expect(page.locator("#ov-result.ok")).to_contain_text("Lucka")
    expect(page.locator("#ov-submit")).to_be_enabled()
    assert room.api("GET", "/api/v1/cage/balance/")["cash_out"] - before == 800


@pytest.mark.rule("WL-3")
def test_the_floor_marks_a_player_away_and_back_and_confirms_a_removal(
    room: Room, new_page: Any
) -> None:
    """Away (WL-3: he keeps his place, the offers skip him) was API-only, and one stray
    click on Remove took a player off the list with no question (found by QA)."""
    listed = room.api("POST", "/api/v1/waitlists/",
                      {"game": "NLH", "small_blind": 20, "big_blind": 40})  # fmt: skip
    list_id = listed["list_id"]
    player = room.player("Anna Away", nickname="AnnaA")
    room.api("POST", f"/api/v1/waitlists/{list_id}/entries/",
             {"player_id": player, "channel": "in_person"})  # fmt: skip
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    box = page.locator(f"[data-list='{list_id}']")
    box.locator(f"[data-away^='{list_id}:{player}:']").click()
    expect(box).to_contain_text("away")
    entry = room.api("GET", f"/api/v1/waitlists/{list_id}/")["entries"][0]
    assert entry["away"] is True
    box.locator(f"[data-away^='{list_id}:{player}:']", has_text="Back").click()
    expect(box.locator(f"[data-away^='{list_id}:{player}:']")).to_have_text("Away")
    page.once("dialog", lambda dialog: dialog.dismiss())  # "Remove ...?" No
    box.locator(f"[data-leave='{list_id}:{player}']").click()
    page.wait_for_timeout(500)
    assert len(room.api("GET", f"/api/v1/waitlists/{list_id}/")["entries"]) == 1
    page.once("dialog", lambda dialog: dialog.accept())
    box.locator(f"[data-leave='{list_id}:{player}']").click()
    expect(box.locator(f"[data-leave='{list_id}:{player}']")).to_have_count(0)
    assert room.api("GET", f"/api/v1/waitlists/{list_id}/")["entries"] == []


@pytest.mark.rule("BI-5")
def test_an_interest_list_starts_its_game_with_agreed_limits_and_long_names_fit(
    room: Room, new_page: Any
) -> None:
    """Stakes with no configured buy-in limits could not be started from the console (the
    form had no limits, BI-5), and a 100-character nickname pushed every Remove button off
    the screen (found by QA)."""
    body = {"game": "PLO", "small_blind": 35, "big_blind": 70, "list_kind": "interest"}
    listed = room.api("POST", "/api/v1/waitlists/", body)
    list_id = listed["list_id"]
    long_name = "X" * 100
    for n in range(6):  # WAITLIST_INTEREST_THRESHOLD
        who = room.player(f"Keen {n}", nickname=long_name if n == 0 else f"Keen{n}")
        room.api("POST", f"/api/v1/waitlists/{list_id}/entries/",
                 {"player_id": who, "channel": "in_person"})  # fmt: skip
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    box = page.locator(f"[data-list='{list_id}']")
    for button in box.locator("[data-leave]").all():
        right = button.bounding_box()
        assert right and right["x"] + right["width"] <= 1280, right  # on the screen
    form = box.locator(f"form[data-start-game='{list_id}']")
    form.locator("input[name=buy_in_min]").fill("2000")
    form.locator("input[name=buy_in_max]").fill("7000")
    form.locator("button[type=submit]").click()
    expect(form).to_have_count(0, timeout=10_000)  # promoted: the list waits for the table
    table_id = room.api("GET", f"/api/v1/waitlists/{list_id}/")["table_id"]
    table = room.api("GET", f"/api/v1/tables/{table_id}/")
    assert (table["buy_in_min"], table["buy_in_max"]) == (2000, 7000), table


def test_the_floor_closes_a_list_it_opened_by_mistake(room: Room, new_page: Any) -> None:
    """A list could never be closed: a typo stayed on the console and the board for good
    (found by QA)."""
    listed = room.api("POST", "/api/v1/waitlists/",
                      {"game": "FLH", "small_blind": 45, "big_blind": 90})  # fmt: skip
    list_id = listed["list_id"]
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    box = page.locator(f"[data-list='{list_id}']")
    page.once("dialog", lambda dialog: dialog.accept("opened by mistake"))
    box.locator("[data-close-list]").click()
    expect(box).to_have_count(0)
    board = room.api("GET", "/api/v1/board/waitlists/")
    assert list_id not in [w["list_id"] for w in board["lists"]]


def test_a_reload_keeps_the_floors_tab_and_an_empty_transfer_seat_is_asked_for(
    room: Room, new_page: Any
) -> None:
    """The floor always reloaded to the tables tab; a transfer with no "from seat" went out
    as seat 0 and read "There is no such path in the API" (found by QA)."""
    table = room.open_table()
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    page.reload()
    page.wait_for_selector("#floor[data-ready='true']")
    expect(page.locator("#tab-lists")).to_be_visible()
    expect(page.locator("#tab-tables")).to_be_hidden()
    page.click(".tab[data-tab=tables]")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.click(f"[data-manage='{table}']")
    page.fill("#tr-to-seat", "2")
    page.click("#td-transfer")
    page.wait_for_timeout(300)
    assert posts == []
    assert page.eval_on_selector("#tr-seat", "f => f.validity.valueMissing")
    page.click("#table-dialog button[value=close]")  # closing asks for nothing
    expect(page.locator("#table-dialog")).to_be_hidden()


@pytest.mark.rule("BI-10")
def test_the_offer_to_call_a_player_says_he_sits_in_another_game(room: Room, new_page: Any) -> None:
    """The floor was offered to call a player seated at a 10/20 table for a 25/50 seat with
    no word of it; the call then held the seat while seating him was refused (found by QA)."""
    here = room.open_table()
    there = room.open_table(small_blind=25, big_blind=50)
    player = room.player("Double Dan", "Dan")
    room.api("POST", f"/api/v1/tables/{here}/seats/",
             {"player_id": player, "seat": 2, "buy_in": 1000})  # fmt: skip
    listed = room.api("POST", "/api/v1/waitlists/",
                      {"game": "NLH", "small_blind": 25, "big_blind": 50})  # fmt: skip
    room.api("POST", f"/api/v1/waitlists/{listed['list_id']}/entries/",
             {"player_id": player, "channel": "in_person"})  # fmt: skip
    page = open_floor(room, new_page)
    page.click(".tab[data-tab=lists]")
    box = page.locator(f"[data-list='{listed['list_id']}']")
    expect(box.locator(f"[data-call^='{listed['list_id']}:{there}:']")).to_be_visible()
    expect(box.locator(f"[data-seated-elsewhere='{here}']").first).to_contain_text(f"table {here}")


@pytest.mark.rule("SES-5")
def test_the_floor_cashes_a_player_out_when_the_tablet_is_down(room: Room, new_page: Any) -> None:
    """Only the dealer tablet could cash a player out: with it down, the floor could neither
    cash out nor close the table (found by QA). The whole stack, between hands."""
    table = room.open_table()
    player = room.player("Leaving Libor", "Libor")
    room.api("POST", f"/api/v1/tables/{table}/seats/",
             {"player_id": player, "seat": 6, "buy_in": 2500})  # fmt: skip
    page = open_floor(room, new_page)
    page.on("dialog", lambda d: d.accept())
    page.click(f"[data-manage='{table}']")
    page.select_option("#co-seat", "6")
    expect(page.locator("#co-seat option[value='6']")).to_contain_text("Libor")
    page.click("#td-cash-out")
    expect(page.locator("#notice")).to_contain_text("2,500")
    seats = room.api("GET", f"/api/v1/tables/{table}/")["seats"]
    assert [s for s in seats if s["seat"] == 6] == []
