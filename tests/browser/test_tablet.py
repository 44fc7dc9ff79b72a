"""The dealer tablet and the floor console in a real browser (issue #13).

* A dealer plays a full hand on /tablet/ with an all-in and a side pot; a second browser
  on /floor/ sees the stacks change within a second.
* A refused action shows its rule in words.
* The tablet loses its connection, shows it, and comes back with the server's state.
* Measured: the tablet's first render, and dealer action -> other screen latency (p95).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ROOT, Proxy, Room, login, pair_tablet

METRICS = ROOT / "var" / "browser-metrics.json"
LAST_ACTION_POST_MS = """() => {
  const r = performance.getEntriesByType('resource')
    .filter(e => e.name.includes('/actions/')).pop();
  return r.responseEnd - r.startTime; }"""


def _record_metric(name: str, value: Any) -> None:
    METRICS.parent.mkdir(exist_ok=True)
    data = json.loads(METRICS.read_text()) if METRICS.exists() else {}
    data[name] = value
    METRICS.write_text(json.dumps(data, indent=2))
    print(f"METRIC {name} = {value}")


def _table_with_players(room: Room, stacks: dict[int, int]) -> tuple[int, str]:
    table = room.open_table(buy_in_min=100, buy_in_max=10_000)
    for seat, stack in stacks.items():
        player = room.player(f"Player {seat}", nickname=f"P{seat}")
        room.api("POST", f"/api/v1/tables/{table}/seats/",
                 {"player_id": player, "seat": seat, "buy_in": stack})  # fmt: skip
    return table, room.tablet(table)


def _act(page: Any, action: str) -> None:
    page.click(f"#actions [data-action={action}]")


def _pick(page: Any, cards: str) -> None:
    for i in range(0, len(cards), 2):
        page.click(f"#card-picker [data-card='{cards[i : i + 2]}']")


def _deal(page: Any, street: str, cards: str) -> None:
    expect(page.locator("#board-title")).to_contain_text(street, ignore_case=True)
    _pick(page, cards)
    page.click("#board-submit")


def _floor_stacks(page: Any, table: int) -> dict[int, int]:
    rows = page.locator(f".tcard[data-table='{table}'] tr[data-seat]")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[int(row.get_attribute("data-seat"))] = int(
            row.locator(".stack").get_attribute("data-stack")
        )
    return out


def test_a_dealer_plays_a_hand_with_an_all_in_and_a_side_pot_and_the_floor_sees_it(
    room: Room, new_page: Any
) -> None:
    table, token = _table_with_players(room, {1: 1000, 2: 2000, 3: 3000})
    floor_user = room.staff("floor")
    floor = new_page(1920, 1080)
    login(floor, room.base, *floor_user, target="/floor/")
    floor.goto(f"{room.base}/floor/")
    floor.wait_for_selector(f".tcard[data-table='{table}']")
    assert _floor_stacks(floor, table) == {1: 1000, 2: 2000, 3: 3000}

    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    expect(tablet.locator("#feed-status")).to_have_attribute("data-state", "live")
    # the dealer sees whom he deals to by nickname (list_table_players; feeds carry ids)
    expect(tablet.locator("#seats [data-seat='2'] .who")).to_contain_text("P2")
    tablet.select_option("#button-draw", "1")
    tablet.click("#start-hand")
    expect(tablet.locator("#turn")).to_contain_text("seat 1")  # UTG after SB 2, BB 3

    # a refused action shows its rule in words: no cash-out during his hand (BI-6)
    tablet.click("#seats [data-seat='1']")
    tablet.fill("#topup-amount", "500")
    tablet.select_option("#topup-paid", index=1)
    tablet.once("dialog", lambda d: d.accept())
    tablet.click("#cash-out")
    expect(tablet.locator("#seat-error")).to_contain_text("BI-6")
    expect(tablet.locator("#seat-error")).to_contain_text("only the chips on the table")
    expect(tablet.locator("#notice")).to_contain_text("Rule BI-6")
    tablet.click("#seat-dialog button[value=close]")
    # the next seat's dialog is blank: the 500 stayed, one tap from a top-up (found by QA)
    tablet.click("#seats [data-seat='2']")
    expect(tablet.locator("#topup-amount")).to_have_value("")
    assert tablet.eval_on_selector("#topup-paid", "s => s.selectedIndex") == 0
    tablet.click("#seat-dialog button[value=close]")

    # only the legal actions: UTG facing the big blind may fold, call, raise, all-in
    actions = tablet.locator("#actions [data-action]")
    expect(actions).to_have_count(4)
    assert [actions.nth(i).get_attribute("data-action") for i in range(4)] == [
        "fold", "call", "raise", "all_in",
    ]  # fmt: skip
    amount = tablet.locator("#amount")
    assert (amount.get_attribute("min"), amount.get_attribute("max")) == ("40", "1000")
    # what the dealer typed is sent as typed or not at all: 99999 was recorded as an all-in
    # of 1,000 and 1500.5 as a raise to 1,501 (found by QA)
    posts: list[str] = []
    tablet.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    amount.fill("99999")
    amount.dispatch_event("change")
    expect(amount).to_have_value("99999")
    tablet.click("#actions [data-action='raise']")
    expect(tablet.locator("#notice")).to_contain_text("at most 1,000")  # the server's refusal
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    amount.fill("")
    amount.press_sequentially("1500.5")
    tablet.click("#actions [data-action='raise']")
    tablet.wait_for_timeout(300)
    assert len(posts) == 1  # the refused 99999 only: 1500.5 was never sent
    assert "digits" in amount.evaluate("f => f.validationMessage")
    for typed in ("-500", "1e3", ""):  # no sign (the field's minimum is the legal raise),
        amount.fill("")  # no exponent, and an empty field sends nothing either
        if typed:
            amount.press_sequentially(typed)
        tablet.click("#actions [data-action='raise']")
        tablet.wait_for_timeout(200)
        assert len(posts) == 1, typed
        said = amount.evaluate("f => f.validationMessage")
        assert ("digits" in said) if typed else said, typed  # empty: the browser's own
    expect(tablet.locator("#turn")).to_contain_text("seat 1")

    _act(tablet, "all_in")  # seat 1: all-in 1000
    expect(tablet.locator("#turn")).to_contain_text("seat 2")
    _act(tablet, "all_in")  # seat 2: all-in 2000
    expect(tablet.locator("#turn")).to_contain_text("seat 3")
    _act(tablet, "call")  # seat 3 calls 2000: main pot 3000 (1, 2, 3), side pot 2000 (2, 3)
    expect(tablet.locator("#pots [data-pot='1']")).to_contain_text("2,000")
    expect(tablet.locator("#pots [data-pot='0']")).to_contain_text("3,000")

    _deal(tablet, "Flop", "Qs9c4d")
    # the card picker refuses used cards
    expect(tablet.locator("#card-picker [data-card='Qs']")).to_be_disabled()
    _deal(tablet, "Turn", "2h")
    _deal(tablet, "River", "7c")

    expect(tablet.locator("#turn")).to_contain_text("Showdown")
    # a cash table of the room's 000 rule (allin_faceup_in_cash off): not SD-10's all face
    # up; no river bet, but an all-in showdown: seat 2's shove was the last active action
    # (SD-14), where it cited SD-15, the rule for a showdown with no all-in (QA)
    expect(tablet.locator("#show-first")).to_contain_text("seat 2 (rule SD-14)")
    for seat, cards in ((1, "AsAh"), (2, "KsKh"), (3, "JdTd")):
        tablet.click(f"#showdown [data-show='{seat}']")
        _pick(tablet, cards)
        tablet.click("#show-submit")
        expect(tablet.locator(f"#seats [data-seat='{seat}'] .shown")).to_be_visible()
    started = time.monotonic()
    expect(tablet.locator("#complete")).to_be_visible()
    floor.wait_for_function(
        f"() => document.querySelector(\".tcard[data-table='{table}'] tr[data-seat='3'] .stack\")"
        ".dataset.stack === '1000'",
        timeout=1000,
    )
    seen_after = time.monotonic() - started
    stacks = _floor_stacks(floor, table)
    server = {s["seat"]: s["stack"] for s in room.api("GET", f"/api/v1/tables/{table}/")["seats"]}
    assert stacks == server
    # seat 3 keeps his uncontested 1000; aces win the main pot, kings the side pot (less
    # 5 % rake each: 2850 and 1900)
    assert stacks == {1: 2850, 2: 1900, 3: 1000}
    assert seen_after < 1.0
    expect(tablet.locator("#result")).to_contain_text("Side pot 1")
    # a reload (or the language switch) keeps the last hand's result on screen (found by QA)
    tablet.reload()
    expect(tablet.locator("#result")).to_contain_text("Side pot 1")

    # SD-25: the dealer reports the first riffle of the next shuffle from the tablet
    tablet.click("#shuffle [data-shuffle='first_riffle']")
    expect(tablet.locator("#shuffle [data-shuffle='first_riffle']")).to_have_attribute(
        "aria-pressed", "true"
    )  # set only when the server accepted it


def test_the_tablet_loses_its_connection_and_comes_back_with_the_same_state(
    room: Room, new_page: Any, proxy: Proxy
) -> None:
    _table, token = _table_with_players(room, {1: 1000, 2: 1000, 3: 1000})
    base = f"http://127.0.0.1:{proxy.port}"
    tablet = new_page(1280, 800)
    pair_tablet(tablet, base, token)
    tablet.select_option("#button-draw", "1")
    tablet.click("#start-hand")
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    hand_id = tablet.evaluate("() => window.__tablet.hand.hand_id")

    proxy.cut()
    expect(tablet.locator("#feed-status")).to_have_attribute("data-state", "offline")
    expect(tablet.locator("#feed-status")).to_contain_text("offline — reconnecting")
    # meanwhile the hand goes on from another device (the floor's admin tablet)
    room.api("POST", f"/api/v1/hands/{hand_id}/actions/", {"seat": 1, "action": "call"})
    room.api("POST", f"/api/v1/hands/{hand_id}/actions/", {"seat": 2, "action": "fold"})
    tablet.wait_for_timeout(500)
    expect(tablet.locator("#turn")).to_contain_text("seat 1")  # it never guesses
    proxy.restore()
    expect(tablet.locator("#feed-status")).to_have_attribute("data-state", "live", timeout=15_000)
    expect(tablet.locator("#turn")).to_contain_text("seat 3")
    server = room.api("GET", f"/api/v1/hands/{hand_id}/")
    shown = tablet.evaluate("() => window.__tablet.hand")
    assert (shown["version"], shown["to_act"], shown["pot"]) == (
        server["version"], server["to_act"], server["pot"],
    )  # fmt: skip
    assert [s["stack"] for s in shown["seats"]] == [s["stack"] for s in server["seats"]]
    expect(tablet.locator("#seats [data-seat='2']")).to_have_class("seat folded")


def test_a_tablet_that_saw_hundreds_of_hands_still_comes_back(room: Room, new_page: Any) -> None:
    """A tablet names the streams it has seen when it resumes; it used to name every hand
    of the evening, and past 8 kB of URL the server's WebSocket handshake never answered,
    so the tablet stayed "connecting" for good. It names the 20 most recent now."""
    table, token = _table_with_players(room, {1: 1000, 2: 1000})
    version = room.api("GET", f"/api/v1/tables/{table}/")["version"]
    page = new_page(1280, 800)
    page.goto(f"{room.base}/tablet/")  # a page of the service: the module's origin
    seen = page.evaluate(
        """async ([table, token, version]) => {
            const { Feed } = await import("/static/casino/feed.js");
            const feed = new Feed(`/ws/tables/${table}/`, { token, badge: "none" });
            for (let i = 0; i < 400; i++) feed.adopt(`hand-${crypto.randomUUID()}`, 9);
            feed.adopt(`table-${table}`, version);
            const url = feed.url();
            feed.start();
            for (let i = 0; i < 100 && feed.state !== "live"; i++) {
                await new Promise((done) => setTimeout(done, 100));
            }
            feed.stop();
            return { length: url.length, state: feed.state, url };
        }""",
        [table, token, version],
    )
    assert seen["state"] == "live", seen["state"]
    assert seen["length"] < 2_000, seen["length"]
    assert f"table-{table}%3A{version}" in seen["url"]  # the most recent stream is named


def test_first_render_and_action_latency_to_another_screen(room: Room, new_page: Any) -> None:
    _table, token = _table_with_players(room, {1: 5000, 2: 5000})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    # first render of a paired tablet: navigation start -> the table drawn from the API
    renders = []
    for _ in range(3):
        tablet.goto(f"{room.base}/tablet/")
        tablet.wait_for_selector("#tablet[data-ready='true']")
        renders.append(
            tablet.evaluate("() => performance.getEntriesByName('tablet-ready')[0].startTime")
        )
    _record_metric("tablet_first_render_ms", {"runs": [round(r) for r in renders]})
    assert max(renders[1:]) < 1000  # the first run also warms the server's caches
    assert renders[0] < 1000

    other = new_page(1280, 800)  # a second screen following the same table
    pair_tablet(other, room.base, token)
    other.evaluate(
        """() => { window.__changes = [];
        new MutationObserver(() =>
            window.__changes.push(performance.timeOrigin + performance.now()))
          .observe(document.getElementById('seats'), {subtree: true, childList: true,
                                                       characterData: true, attributes: true}); }"""
    )
    tablet.evaluate(  # room for every request's timing (the default buffer holds 250)
        "() => performance.setResourceTimingBufferSize(100000)"
    )
    tablet.evaluate(
        """() => { window.__clicks = [];
        document.addEventListener('click', () =>
          window.__clicks.push(performance.timeOrigin + performance.now()), true); }"""
    )
    latencies: list[float] = []
    posts: list[float] = []
    tablet.select_option("#button-draw", "1")
    for _ in range(12):  # heads-up hands: the button calls, the big blind checks, ...
        tablet.click("#start-hand")
        expect(tablet.locator("#betting")).to_be_visible()
        for action in ("call", "check"):
            _act(tablet, action)
            clicked = tablet.evaluate("() => window.__clicks[window.__clicks.length - 1]")
            other.wait_for_function(f"() => window.__changes.some(t => t >= {clicked})")
            changed = other.evaluate(f"() => window.__changes.find(t => t >= {clicked})")
            latencies.append(changed - clicked)
            posts.append(tablet.evaluate(LAST_ACTION_POST_MS))
        expect(tablet.locator("#board-entry")).to_be_visible()
        if tablet.get_attribute("#more", "open") is None:
            tablet.click("#more summary")
        tablet.click("#open-misdeal")
        tablet.select_option("#misdeal-kind", "void")
        tablet.fill("#misdeal-reason", "latency test: duplicate card")
        tablet.click("#misdeal-submit")
        expect(tablet.locator("#between")).to_be_visible()
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    _record_metric(
        "action_to_other_screen_ms",
        {"samples": len(latencies), "median": round(statistics.median(latencies), 1),
         "p95": round(p95, 1), "max": round(latencies[-1], 1),
         "dealer_post_median": round(statistics.median(posts), 1),
         "load_average": os.getloadavg()[0]},
    )  # fmt: skip
    # The target is 150 ms p95 (issue #13); on a shared, loaded CI machine the relay's
    # polling and the CPU make it vary, so the test enforces it only when asked
    # (BROWSER_STRICT_LATENCY=1) and otherwise guards against a regression.
    assert p95 < (150 if os.environ.get("BROWSER_STRICT_LATENCY") else 400)


@pytest.mark.rule("SD-1")
def test_seat_sit_out_and_in_cash_out_run_it_twice_and_a_rabbit_hunt(
    room: Room, new_page: Any
) -> None:
    _table, token = _table_with_players(room, {1: 1000, 2: 1500})
    newcomer = room.player("Nina New", nickname="Nina")
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)

    # seat a player from the tablet: the buy-in limits are shown for the player
    tablet.click("#seats [data-seat='5']")
    tablet.fill("#seat-player", str(newcomer))
    tablet.dispatch_event("#seat-player", "change")
    expect(tablet.locator("#seat-restriction")).to_contain_text("Buy-in from 100")
    expect(tablet.locator("#seat-restriction")).to_contain_text("Nina · Nina N.")  # who it is
    expect(tablet.locator("#seat-restriction")).not_to_contain_text("New")  # no full name
    tablet.fill("#seat-buyin", "800")
    tablet.click("#seat-submit")
    expect(tablet.locator("#seats [data-seat='5'] .stack")).to_have_attribute("data-stack", "800")
    # sit out, then cash out the whole stack
    tablet.click("#seats [data-seat='5']")
    tablet.click("#sit-out")
    expect(tablet.locator("#seats [data-seat='5']")).to_contain_text("sitting out")
    tablet.click("#seats [data-seat='5']")
    tablet.once("dialog", lambda d: d.accept())
    tablet.click("#cash-out")
    expect(tablet.locator("#seats [data-seat='5']")).to_contain_text("empty")

    # heads-up all-in, run twice, each run dealt with the picker, then the showdown
    tablet.select_option("#button-draw", "1")
    tablet.click("#start-hand")
    _act(tablet, "all_in")
    _act(tablet, "call")
    expect(tablet.locator("#run-it")).to_be_visible()
    tablet.click("#run-it [data-times='2']")
    for street, cards in (("flop", "2c3c4c"), ("turn", "5d"), ("river", "9h")):
        _deal(tablet, street, cards)
    expect(tablet.locator("#board-title")).to_contain_text("run 2")
    for street, cards in (("flop", "JcJhTc"), ("turn", "Kd"), ("river", "Kh")):
        _deal(tablet, street, cards)
    for seat, cards in ((1, "AsAd"), (2, "KsQs")):
        tablet.click(f"#showdown [data-show='{seat}']")
        _pick(tablet, cards)
        tablet.click("#show-submit")
    expect(tablet.locator("#complete")).to_be_visible()
    expect(tablet.locator("#board .board-run")).to_have_count(2)
    # the result reads each run to the table (SD-1, RAKE-10): run 1 to seat 1's wheel, run 2
    # to seat 2's full house, each with its five cards; the felt names both winners' hands
    run_1 = tablet.locator("#result [data-run='1'] [data-winner-seat='1']")
    expect(run_1).to_contain_text("straight")
    expect(run_1.locator(".pcard")).to_have_count(5)
    expect(run_1.locator(".pcard").first).to_have_attribute("aria-label", "5d")  # five-high
    run_2 = tablet.locator("#result [data-run='2'] [data-winner-seat='2']")
    expect(run_2).to_contain_text("full house")
    expect(run_2.locator(".pcard")).to_have_count(5)
    expect(tablet.locator("#result [data-run] [data-winner-seat]")).to_have_count(2)
    expect(tablet.locator("#pots [data-won='1'] .hand-name")).to_have_text("straight")
    expect(tablet.locator("#pots [data-won='2'] .hand-name")).to_have_text("full house")

    # the next hand ends preflop; a rabbit hunt after it refuses a card already in play
    tablet.click("#start-hand")
    _act(tablet, "fold")
    expect(tablet.locator("#complete")).to_be_visible()
    tablet.click("#more summary")
    tablet.click("#open-rabbit")
    # a card already in play (as if seat 1 had shown it; this folded hand showed none)
    tablet.evaluate("() => { window.__tablet.lastHand.seats[0].shown = 'As2d'; }")
    tablet.fill("#rabbit-cards", "As")
    tablet.click("#rabbit-submit")
    expect(tablet.locator("#rabbit-error")).to_contain_text("already in play")
    tablet.fill("#rabbit-cards", "7s8s9s")
    tablet.fill("#rabbit-fee", "20")
    tablet.click("#rabbit-submit")  # nobody's consent ticked: refused (RAKE-8)
    expect(tablet.locator("#rabbit-error")).to_contain_text("RAKE-8")
    hunter = tablet.input_value("#rabbit-seat")
    others = tablet.locator("#rabbit-consent-seats input")
    assert others.count() == 1 and others.first.get_attribute("value") != hunter
    others.first.check()
    tablet.click("#rabbit-submit")
    expect(tablet.locator("#result")).to_contain_text("Rabbit hunt")


def test_a_tablet_switched_to_czech_reads_the_servers_refusals_in_czech(
    room: Room, new_page: Any
) -> None:
    """A tablet sends its token, not the session's cookies, so the language switch did not
    reach the server: its refusals came in the browser's language (English here). Found by
    QA when a Czech tablet lost a race to another tablet and read the refusal in English."""
    table, token = _table_with_players(room, {1: 1000, 2: 1000})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    tablet.click("form.lang button[value=cs]")
    tablet.wait_for_selector("html[lang=cs]")
    tablet.wait_for_selector("#tablet[data-ready='true']")
    room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    expect(tablet.locator("#actions [data-action]").first).to_be_visible()
    tablet.click("#seats [data-seat='1']")
    tablet.once("dialog", lambda d: d.accept())
    tablet.click("#cash-out")  # no cash-out during his hand (BI-6), said by the server
    expect(tablet.locator("#seat-error")).to_contain_text("Během handy žetony na místo")


@pytest.mark.rule("BI-6")
def test_a_top_up_declared_during_the_hand_waits_beside_the_stack(
    room: Room, new_page: Any
) -> None:
    """The tablet refused a top-up the player declared during his hand; the dealer had to
    remember it and type it again after the hand (found by QA). It is now paid at once and
    shown beside the stack until the hand ends, then played."""
    table, token = _table_with_players(room, {1: 1000, 2: 1000})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    expect(tablet.locator("#actions [data-action]").first).to_be_visible()
    tablet.click("#seats [data-seat='2']")
    tablet.fill("#topup-amount", "500")
    tablet.click("#topup-submit")
    expect(tablet.locator("#notice")).to_contain_text("when the hand ends")
    expect(tablet.locator("#seat-dialog")).to_be_hidden()
    expect(tablet.locator("#seats [data-seat='2'] .topup")).to_have_text("+500")
    expect(tablet.locator("#seats [data-seat='2'] .stack")).to_have_attribute("data-stack", "980")
    url = f"/api/v1/hands/{hand['hand_id']}/actions/"
    room.api("POST", url, {"seat": 1, "action": "fold"})  # the button folds his small blind
    expect(tablet.locator("#seats [data-seat='2'] .topup")).to_have_count(0)
    expect(tablet.locator("#seats [data-seat='2'] .stack")).to_have_attribute("data-stack", "1510")
    # between hands: an empty amount is the field's check, not the server's validator
    # sentence; a top-up and a cash-out each say their amount (found by QA)
    tablet.click("#seats [data-seat='1']")
    tablet.click("#topup-submit")
    assert tablet.eval_on_selector("#topup-amount", "f => f.validationMessage") != ""
    expect(tablet.locator("#seat-error")).to_be_hidden()
    tablet.fill("#topup-amount", "300")
    tablet.click("#topup-submit")
    expect(tablet.locator("#notice")).to_contain_text("Seat 1 topped up 300.")
    tablet.click("#seats [data-seat='1']")
    tablet.once("dialog", lambda d: d.accept())
    tablet.click("#cash-out")
    expect(tablet.locator("#notice")).to_contain_text("Seat 1 cashed out 1,290.")  # 990 + 300


def test_a_stale_tap_lands_on_no_street_the_dealer_never_saw(room: Room, new_page: Any) -> None:
    """The tablet sends the hand version it drew on (If-Match). Heads-up, the big blind's
    "check" is on screen preflop; another screen checks for him and deals the flop while
    this tablet's feed is down; the stale tap then answers 409 and records nothing, where
    before it was recorded as his first check on the flop (QA)."""
    _table, token = _table_with_players(room, {1: 1000, 2: 1000})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    tablet.select_option("#button-draw", "1")
    tablet.click("#start-hand")
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    _act(tablet, "call")
    expect(tablet.locator("#turn")).to_contain_text("seat 2")
    expect(tablet.locator("#actions [data-action=check]")).to_be_visible()
    hand_id = tablet.evaluate("() => window.__tablet.hand.hand_id")
    tablet.evaluate("() => window.__tablet.feed.stop()")  # its pushes are lost from here

    room.api("POST", f"/api/v1/hands/{hand_id}/actions/", {"seat": 2, "action": "check"})
    room.api("POST", f"/api/v1/hands/{hand_id}/board/", {"street": "flop", "cards": "2c7d9h"})
    before = room.api("GET", f"/api/v1/hands/{hand_id}/")
    assert (before["to_act"], before["board"]) == (2, ["2c", "7d", "9h"])

    _act(tablet, "check")  # drawn preflop: the server is on the flop
    expect(tablet.locator("#notice")).to_contain_text("Another screen changed this first")
    after = room.api("GET", f"/api/v1/hands/{hand_id}/")
    assert after["version"] == before["version"]  # nothing appended
    # the tablet read the hand again: the flop is on screen, and a tap now is the flop's
    expect(tablet.locator("#board")).to_contain_text("9")
    assert tablet.evaluate("() => window.__tablet.hand.version") == before["version"]
    _act(tablet, "check")
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    assert room.api("GET", f"/api/v1/hands/{hand_id}/")["version"] == before["version"] + 1


@pytest.mark.rule("SD-3")
def test_the_award_dialog_shows_who_tabled_and_no_pot_goes_to_a_seat_that_did_not(
    room: Room, new_page: Any
) -> None:
    """Seat 2 tabled his cards; the dealer's manual award to seat 1, who never showed, is
    refused in the dialog with its rule (QA: the pot went to him), and seat 2 takes it."""
    table, token = _table_with_players(room, {1: 1000, 2: 1000})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, room.base, token)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    url = f"/api/v1/hands/{hand['hand_id']}"
    room.api("POST", f"{url}/actions/", {"seat": 1, "action": "call"})
    room.api("POST", f"{url}/actions/", {"seat": 2, "action": "check"})
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
        for seat in (2, 1):
            room.api("POST", f"{url}/actions/", {"seat": seat, "action": "check"})
    room.api("POST", f"{url}/show/", {"seat": 2, "cards": "AsKs"})
    expect(tablet.locator("#open-award")).to_be_visible()
    tablet.click("#open-award")
    expect(tablet.locator("#award-pots label:has(input[value='2']) .pcard")).to_have_count(2)
    expect(tablet.locator("#award-pots label:has(input[value='1']) .pcard")).to_have_count(0)
    tablet.check("#award-pots input[value='1']")
    tablet.click("#award-submit")
    expect(tablet.locator("#award-error")).to_contain_text("SD-3")
    assert room.api("GET", f"{url}/")["phase"] == "showdown"  # nothing was awarded
    tablet.uncheck("#award-pots input[value='1']")
    tablet.check("#award-pots input[value='2']")
    tablet.click("#award-submit")
    expect(tablet.locator("#award-dialog")).not_to_be_visible()
    assert room.api("GET", f"{url}/")["result"]["pots"][0]["winners"][0]["seat"] == 2


@pytest.mark.rule("SEAT-1")
@pytest.mark.rule("TSEAT-1")
def test_a_tournament_tables_tablet_deals_on_the_drawn_button_and_offers_no_cash_controls(
    room: Room, new_page: Any
) -> None:
    """At a tournament table the tablet showed its own button draw, set to the first seat,
    and dealt the first hand's blinds to the wrong players; its seat dialog offered top-up,
    sit-out and cash-out, each refused (found by QA)."""
    for attempt in range(6):  # a draw that seat 1 (the list's first seat) did not win
        tid = room.started_tournament(f"Draw {attempt} {time.time_ns() % 10**6}", entrants=6)
        (table,) = room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"]
        drawn = room.api("GET", f"/api/v1/tables/{table}/next-hand/")["button_seat"]
        seats = sorted(s["seat"] for s in room.api("GET", f"/api/v1/tables/{table}/")["seats"])
        if drawn != seats[0]:
            break
    assert drawn != seats[0]
    page = new_page(1280, 800)
    pair_tablet(page, room.base, room.tablet(table))
    expect(page.locator("#preview")).to_contain_text(f"seat {drawn}")
    expect(page.locator("#new-game")).to_be_hidden()
    page.click(f"#seats [data-seat='{seats[0]}']")
    expect(page.locator("#seat-tournament")).to_be_visible()
    expect(page.locator("#seat-cash")).to_be_hidden()
    page.click("#seat-dialog button[value=close]")
    page.click("#start-hand")
    expect(page.locator("#actions [data-action]").first).to_be_visible()
    (hand,) = [h for h in room.api("GET", f"/api/v1/tables/{table}/hands/")["results"]]
    assert hand["button_seat"] == drawn


@pytest.mark.rule("CLK-2")
def test_a_tournament_tables_tablet_shows_the_new_levels_blinds_between_hands(
    room: Room, new_page: Any
) -> None:
    """The level change is the tournament's, not an event of the table: the header kept
    25/50 after the clock went to 50/100, until the next hand (found by QA)."""
    levels = [{"small_blind": 25, "big_blind": 50, "minutes": 20},
              {"small_blind": 50, "big_blind": 100, "minutes": 20}]  # fmt: skip
    tid = room.started_tournament(f"Levels {time.time_ns() % 10**6}", levels=levels)
    (table,) = room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"]
    page = new_page(1280, 800)
    pair_tablet(page, room.base, room.tablet(table))
    expect(page.locator("#table-name")).to_contain_text("25/50")
    left = room.api("GET", f"/api/v1/tournaments/{tid}/clock/")["seconds_left"]
    room.api("POST", f"/api/v1/tournaments/{tid}/clock/adjustments/", {"seconds": 1 - left})
    expect(page.locator("#table-name")).to_contain_text("50/100", timeout=25_000)


@pytest.mark.rule("SD-12")
def test_the_tablet_mucks_an_all_in_hand_only_when_the_dealer_says_it_was_on_purpose(
    room: Room, new_page: Any
) -> None:
    """A tap on "Muck" gave up an all-in player's claim at once (found by QA): the tablet
    asks first, sends nothing on "no", and records a deliberate discard on "yes"."""
    table, token = _table_with_players(room, {1: 1000, 2: 3000})
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    url = f"/api/v1/hands/{hand['hand_id']}"
    room.api("POST", f"{url}/actions/", {"seat": 1, "action": "all_in"})
    room.api("POST", f"{url}/actions/", {"seat": 2, "action": "call"})
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
    page = new_page(1280, 800)
    pair_tablet(page, room.base, token)
    muck = page.locator("#showdown [data-muck='1']")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    muck.click()
    assert asked and "SD-12" in asked[0]
    time.sleep(0.5)
    assert room.api("GET", f"{url}/")["phase"] == "showdown"  # "no": nothing was sent
    page.once("dialog", lambda d: d.accept())
    muck.click()
    expect(page.locator("#showdown")).to_be_hidden()
    assert room.api("GET", f"{url}/")["phase"] == "complete"  # seat 2 wins: seat 1 threw it


@pytest.mark.rule("SD-11")
def test_a_tournament_tablet_offers_no_muck_once_a_player_is_all_in(
    room: Room, new_page: Any
) -> None:
    """At a tournament table every live hand is turned face up once a player is all in:
    the tablet offered "Muck", and the server refused it (found by QA)."""
    tid = room.started_tournament(f"Face up {time.time_ns() % 10**6}", entrants=2)
    (table,) = room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"]
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {})
    url = f"/api/v1/hands/{hand['hand_id']}"
    hand = room.api("POST", f"{url}/actions/", {"seat": hand["to_act"], "action": "all_in"})
    room.api("POST", f"{url}/actions/", {"seat": hand["to_act"], "action": "call"})
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
    page = new_page(1280, 800)
    pair_tablet(page, room.base, room.tablet(table))
    expect(page.locator("#showdown [data-show]")).to_have_count(2)
    expect(page.locator("#showdown [data-muck]")).to_have_count(0)


@pytest.mark.rule("SD-10")
def test_a_cash_table_that_turns_all_in_hands_up_offers_no_muck(room: Room, new_page: Any) -> None:
    """A cash table of the SD-10 rule (``allin_faceup_in_cash``) turns every live hand up
    at an all-in, as a tournament does: the tablet still offered "Muck" there, and the
    server refused it (found by QA). The same all-in at a table without the rule keeps it."""
    for faceup, mucks in ((True, 0), (False, 2)):
        table = room.open_table(allin_faceup_in_cash=faceup)
        for seat in (1, 2, 3):
            player = room.player(f"Face up {seat}", nickname=f"F{seat}")
            room.api("POST", f"/api/v1/tables/{table}/seats/",
                     {"player_id": player, "seat": seat, "buy_in": 1000})  # fmt: skip
        hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
        url = f"/api/v1/hands/{hand['hand_id']}"
        room.api("POST", f"{url}/actions/", {"seat": 1, "action": "all_in"})
        room.api("POST", f"{url}/actions/", {"seat": 2, "action": "fold"})
        room.api("POST", f"{url}/actions/", {"seat": 3, "action": "call"})
        for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
            room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
        page = new_page(1280, 800)
        pair_tablet(page, room.base, room.tablet(table))
        expect(page.locator("#showdown [data-show]")).to_have_count(2)
        # without the rule either hand may be given up (the all-in one only on the dealer's
        # word, SD-12); with it neither
        expect(page.locator("#showdown [data-muck]")).to_have_count(mucks)
        page.close()


@pytest.mark.rule("TSEAT-8")
def test_the_last_hands_cards_leave_a_seat_that_someone_else_takes(
    room: Room, new_page: Any
) -> None:
    """After the final-table redraw the tablet showed the last hand's cards and result
    against the seats' new players (found by QA)."""
    table, token = _table_with_players(room, {1: 1000, 2: 1000, 3: 1000})
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    url = f"/api/v1/hands/{hand['hand_id']}"
    for seat, action in ((1, "call"), (2, "call"), (3, "check")):
        room.api("POST", f"{url}/actions/", {"seat": seat, "action": action})
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
        for seat in (2, 3, 1):
            room.api("POST", f"{url}/actions/", {"seat": seat, "action": "check"})
    for seat, cards in ((2, "AsAd"), (3, "KsKd"), (1, "QsQd")):
        room.api("POST", f"{url}/show/", {"seat": seat, "cards": cards})
    page = new_page(1280, 800)
    pair_tablet(page, room.base, token)
    expect(page.locator("#seats [data-seat='2'] .shown")).to_be_visible()
    room.api("POST", f"/api/v1/tables/{table}/seats/2/cash-out/")
    newcomer = room.player("Newcomer Nela", "Nela")
    room.api("POST", f"/api/v1/tables/{table}/seats/",
             {"player_id": newcomer, "seat": 2, "buy_in": 1000})  # fmt: skip
    expect(page.locator("#seats [data-seat='2'] .who")).to_contain_text("Nela")
    expect(page.locator("#seats [data-seat='2'] .shown")).to_have_count(0)
    expect(page.locator("#seats [data-seat='3'] .shown")).to_have_count(0)
    expect(page.locator("#result [data-pot-result]")).to_have_count(0)


@pytest.mark.rule("BET-4")
def test_a_call_for_his_whole_stack_is_one_button_and_the_uncalled_bet_is_shown(
    room: Room, new_page: Any
) -> None:
    """QA: "Call 980" beside "All-in 1,000" did the same thing; "Pot 6,000" beside
    "Main pot 2,000" did not add up (the uncalled 4,000 goes back); a manual award with a
    pot left unticked answered the API's field path."""
    table, token = _table_with_players(room, {1: 1000, 2: 5000})
    page = new_page(1280, 800)
    pair_tablet(page, room.base, token)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {"button_seat": 1})
    url = f"/api/v1/hands/{hand['hand_id']}"
    room.api("POST", f"{url}/actions/", {"seat": 1, "action": "call"})  # the button limps
    room.api("POST", f"{url}/actions/", {"seat": 2, "action": "all_in"})  # 5,000
    call = page.locator("#actions [data-action=call]")
    expect(call).to_contain_text("980")
    expect(call).to_contain_text("All-in")
    expect(page.locator("#actions [data-action=all_in]")).to_have_count(0)
    call.click()
    expect(page.locator("#pots [data-pot='0']")).to_contain_text("2,000")
    expect(page.locator("#pot-uncalled")).to_contain_text("4,000")
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        room.api("POST", f"{url}/board/", {"street": street, "cards": cards})
    page.click("#open-award")
    page.click("#award-submit")
    expect(page.locator("#award-error")).to_have_text("Tick a winner for Main pot.")
    assert room.api("GET", f"{url}/")["phase"] == "showdown"


def test_an_unanswered_tap_is_followed_by_back_online_once_the_feed_returns(
    room: Room, new_page: Any, proxy: Proxy
) -> None:
    """ "No answer from the server (offline?) ... retry" stayed on screen after the tablet
    was back and the hand had moved on (found by QA): back online, the tablet says that
    the screen shows what the server recorded."""
    _table, token = _table_with_players(room, {1: 1000, 2: 1000, 3: 1000})
    tablet = new_page(1280, 800)
    pair_tablet(tablet, f"http://127.0.0.1:{proxy.port}", token)
    tablet.select_option("#button-draw", "1")
    tablet.click("#start-hand")
    expect(tablet.locator("#turn")).to_contain_text("seat 1")
    hand_id = tablet.evaluate("() => window.__tablet.hand.hand_id")
    tablet.route("**/actions/", lambda route: route.abort())  # never reaches the server
    _act(tablet, "call")
    expect(tablet.locator("#notice")).to_contain_text("No answer", timeout=10_000)
    tablet.unroute("**/actions/")
    proxy.cut()
    expect(tablet.locator("#feed-status")).to_have_attribute("data-state", "offline")
    room.api("POST", f"/api/v1/hands/{hand_id}/actions/", {"seat": 1, "action": "call"})
    proxy.restore()
    expect(tablet.locator("#feed-status")).to_have_attribute("data-state", "live", timeout=15_000)
    expect(tablet.locator("#notice")).to_contain_text("Back online")
    expect(tablet.locator("#turn")).to_contain_text("seat 2")
