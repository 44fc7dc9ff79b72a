"""The director's console for what happens off the clock (session 22): a deal at the final
table, penalties and flags, holds on winnings, the lobby start time, a crash rollback and a
cancellation with its settlement. Before, each of these worked through the API only."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import Room, open_director


def _ok(page: Any, result: str) -> None:
    page.wait_for_selector(f"{result}.ok, {result}.error", timeout=20_000)
    assert "ok" in (page.get_attribute(result, "class") or ""), page.inner_text(result)


@pytest.mark.rule("PEN-1")
@pytest.mark.rule("PEN-16")
def test_the_director_issues_penalties_and_flags_conduct(room: Room, new_page: Any) -> None:
    tid = room.started_tournament("Penalties", entrants=3)
    page = open_director(room, new_page, tid, accept_dialogs=True)
    expect(page.locator("#penalty-card")).to_be_visible()
    expect(page.locator("#penalties")).to_contain_text("No penalties")
    offender = int(page.locator("#pen-player option").first.get_attribute("value") or 0)
    page.select_option("#pen-player", str(offender))
    page.fill("#pen-offence", "showing_cards")
    page.fill("#pen-reason", "showed his hole cards to his neighbour")
    page.click("#penalty-form button[type=submit]")
    _ok(page, "#pen-result")
    expect(page.locator("#penalties tr").first).to_contain_text("Warning")  # the ladder's 1st step
    expect(page.locator("#pen-next")).to_contain_text("Sit-out")  # and its 2nd
    # a warning again would be off the ladder: refused unless the floor says so (PEN-16)
    page.select_option("#pen-kind", "warning")
    page.fill("#pen-offence", "abusive_conduct")
    page.fill("#pen-reason", "swore at the dealer")
    page.click("#penalty-form button[type=submit]")
    page.wait_for_selector("#pen-result.error", timeout=20_000)
    assert "PEN-16" in page.inner_text("#pen-result")
    # the ladder's step: a sit-out, for two hands
    page.select_option("#pen-kind", "sit_out")
    page.fill("#pen-hands", "2")
    page.fill("#pen-reason", "swore at the dealer")
    page.click("#penalty-form button[type=submit]")
    _ok(page, "#pen-result")
    newest = page.locator("#penalties tr").first
    expect(newest).to_contain_text("Sit-out · 2 hands")
    expect(newest).to_contain_text("Hands left: 2")
    # the floor's own decision, off the ladder
    page.select_option("#pen-kind", "warning")
    page.check("#pen-override")
    page.fill("#pen-reason", "apologised at once")
    page.click("#penalty-form button[type=submit]")
    _ok(page, "#pen-result")
    expect(page.locator("#penalties tr").first).to_contain_text("off the ladder")
    # a flag for the floor to look at later
    page.fill("#pen-offence", "stalling")
    page.fill("#pen-reason", "takes two minutes on every decision")
    page.click("#pen-flag")
    _ok(page, "#pen-result")
    expect(page.locator("#penalties tr[data-flag]")).to_contain_text("stalling")
    recorded = room.api("GET", f"/api/v1/tournaments/{tid}/penalties/")
    rulings = [(r["player_id"], r["kind"], r["hands"], r["override"]) for r in recorded["rulings"]]
    assert rulings == [
        (offender, "warning", 0, False), (offender, "sit_out", 2, False),
        (offender, "warning", 0, True),
    ]  # fmt: skip
    assert [(f["player_id"], f["offence"]) for f in recorded["flags"]] == [(offender, "stalling")]
    assert recorded["sitting_out"] == [{"player_id": offender, "hands_left": 2}]


@pytest.mark.rule("DEAL-4")
@pytest.mark.rule("DEAL-5")
def test_a_deal_is_asked_for_proposed_and_confirmed_from_the_console(
    room: Room, new_page: Any
) -> None:
    tid = room.started_tournament("Deal", entrants=3)
    page = open_director(room, new_page, tid, accept_dialogs=True)
    card = page.locator("#deal-card")
    expect(card).to_be_visible()  # one table: the final table
    asks = page.locator("button[data-deal-ask]")
    expect(asks).to_have_count(3)
    expect(page.locator("#deal-form")).to_be_hidden()
    for left in (2, 1):
        asks.first.click()
        expect(asks).to_have_count(left)
    asks.first.click()
    _ok(page, "#deal-result")
    # everyone asked: the table pauses for the discussion and the console says so
    expect(page.locator("#clock-flags")).to_contain_text("Deal discussion", timeout=20_000)
    expect(page.locator("#deal-form")).to_be_visible()
    page.select_option("#deal-method", "custom")
    amounts = page.locator("#deal-amounts input[data-amount]")
    expect(amounts).to_have_count(3)
    t = room.api("GET", f"/api/v1/tournaments/{tid}/")
    pool = t["clock"]["prize_pool"]
    parts = [pool // 3, pool // 3, pool - 2 * (pool // 3)]
    for i, part in enumerate(parts):
        amounts.nth(i).fill(str(part))
    page.fill("#deal-money", "0")
    page.click("#deal-form button[type=submit]")
    _ok(page, "#deal-result")
    shares = page.locator("#deal-shares tbody tr")
    expect(shares).to_have_count(3)
    confirms = page.locator("button[data-deal-confirm]")
    for left in (2, 1):
        confirms.first.click()
        expect(confirms).to_have_count(left)
    confirms.first.click()
    expect(page.locator("#deal-status")).to_have_text("Deal agreed", timeout=20_000)
    deal = room.api("GET", f"/api/v1/tournaments/{tid}/deal/")
    assert deal["agreed"] is not None
    assert sorted(x["amount"] for x in deal["agreed"]["shares"]) == sorted(parts)
    assert room.api("GET", f"/api/v1/tournaments/{tid}/")["status"] == "finished"


@pytest.mark.rule("DEAL-5")
def test_a_player_who_declines_ends_the_discussion(room: Room, new_page: Any) -> None:
    tid = room.started_tournament("No deal", entrants=2)
    for e in room.api("GET", f"/api/v1/tournaments/{tid}/entries/"):
        room.api("POST", f"/api/v1/tournaments/{tid}/deal/requests/", {"player_id": e["player_id"]})
    room.api("POST", f"/api/v1/tournaments/{tid}/deal/proposals/", {"method": "chip_count"})
    page = open_director(room, new_page, tid, accept_dialogs=True)
    expect(page.locator("#deal-shares tbody tr")).to_have_count(2)
    expect(page.locator("#deal-note")).to_contain_text("Chip count")
    # a look at custom amounts, then back: their empty fields never block a proposal
    page.select_option("#deal-method", "custom")
    expect(page.locator("#deal-amounts input")).to_have_count(2)
    page.select_option("#deal-method", "even_split")
    page.click("#deal-form button[type=submit]")
    _ok(page, "#deal-result")
    expect(page.locator("#deal-note")).to_contain_text("Even split")
    page.locator("button[data-deal-decline]").first.click()
    _ok(page, "#deal-result")
    expect(page.locator("#clock-flags")).not_to_contain_text("Deal discussion")
    deal = room.api("GET", f"/api/v1/tournaments/{tid}/deal/")
    assert deal["discussing"] is False and deal["proposal"] is None and deal["agreed"] is None


@pytest.mark.rule("ELIM-9")
def test_the_director_holds_and_releases_a_winners_prize(room: Room, new_page: Any) -> None:
    tid = room.started_tournament("Hold", entrants=2)
    for _ in range(10):
        if room.shove_round(tid)["status"] == "finished":
            break
    [owed] = room.api("GET", f"/api/v1/tournaments/{tid}/payments/")
    page = open_director(room, new_page, tid, accept_dialogs=True)
    row = page.locator(f"#holds tr[data-owed='{owed['player_id']}']")
    expect(row).to_be_visible()
    expect(row.locator(".flag")).to_have_count(0)
    page.select_option("#hold-player", str(owed["player_id"]))
    page.fill("#hold-reason", "chip dumping review")
    page.click("#hold-form button[data-hold='holds']")
    _ok(page, "#hold-result")
    expect(row.locator(".flag")).to_have_text("held")
    [now] = room.api("GET", f"/api/v1/tournaments/{tid}/payments/")
    assert now["held"] is True
    page.fill("#hold-reason", "review cleared")
    page.click("#hold-form button[data-hold='holds/release']")
    _ok(page, "#hold-result")
    expect(row.locator(".flag")).to_have_count(0)
    [now] = room.api("GET", f"/api/v1/tournaments/{tid}/payments/")
    assert now["held"] is False


@pytest.mark.rule("TREG-5")
@pytest.mark.rule("CXL-2")
def test_the_lobby_time_is_set_in_room_time_and_a_cancellation_is_settled(
    room: Room, new_page: Any
) -> None:
    body = {"name": "Lobby", "buy_in": 100, "fee": 10, "starting_stack": 1000,
            "min_entrants": 2, "levels": [{"small_blind": 25, "big_blind": 50}]}  # fmt: skip
    tid = int(room.api("POST", "/api/v1/tournaments/", body)["tournament_id"])
    players = [room.player(f"Lobby {n}") for n in range(2)]
    for pid in players:
        room.api("POST", f"/api/v1/tournaments/{tid}/registrations/", {"player_id": pid})
    page = open_director(room, new_page, tid, accept_dialogs=True)
    expect(page.locator("#schedule-form")).to_be_visible()
    expect(page.locator("#rollback-form")).to_be_hidden()
    # the console is in Prague's time: 19:30 on 1 December is 18:30 UTC (CET)
    page.fill("#sch-at", "2030-12-01T19:30")
    page.click("#schedule-form button[type=submit]")
    _ok(page, "#event-result")
    t = room.api("GET", f"/api/v1/tournaments/{tid}/")
    assert t["scheduled_start"] is not None
    assert t["scheduled_start"].startswith("2030-12-01T18:30:00"), t["scheduled_start"]
    expect(page.locator("#sch-at")).to_have_value("2030-12-01T19:30")
    # a delay needs its reason; then the time moves
    page.check("#sch-delay")
    page.fill("#sch-at", "2030-12-01T20:00")
    page.click("#schedule-form button[type=submit]")
    page.wait_for_selector("#event-result.error", timeout=20_000)
    page.fill("#sch-reason", "the cash games are full")
    page.click("#schedule-form button[type=submit]")
    _ok(page, "#event-result")
    t = room.api("GET", f"/api/v1/tournaments/{tid}/")
    assert t["scheduled_start"].startswith("2030-12-01T19:00:00"), t["scheduled_start"]
    # cancelled before the start: every buy-in and fee back
    page.select_option("#cx-method", "rollback")
    page.fill("#cx-reason", "too few players")
    page.click("#cancel-form button[type=submit]")
    _ok(page, "#event-result")
    expect(page.locator("#settlement")).to_be_visible(timeout=20_000)
    expect(page.locator("#settlement-rows tr")).to_have_count(2)
    for row in page.locator("#settlement-rows tr").all():
        assert re.sub(r"\s", "", row.locator("td.num").inner_text()).startswith("110CZK")
    expect(page.locator("#cancel-form")).to_be_hidden()
    assert room.api("GET", f"/api/v1/tournaments/{tid}/")["status"] == "cancelled"


def _stacks(room: Room, tournament_id: int) -> dict[int, int]:
    entries = room.api("GET", f"/api/v1/tournaments/{tournament_id}/entries/")
    return {e["player_id"]: e["stack"] for e in entries}


@pytest.mark.rule("CXL-1")
def test_a_crash_rollback_puts_the_hand_in_progress_back(room: Room, new_page: Any) -> None:
    tid = room.started_tournament("Crash", entrants=2)
    [table] = room.api("GET", f"/api/v1/tournaments/{tid}/")["tables"]
    before = _stacks(room, tid)
    hand = room.api("POST", f"/api/v1/tables/{table}/hands/", {})
    room.api("POST", f"/api/v1/hands/{hand['hand_id']}/actions/",
             {"seat": hand["legal"]["seat"], "action": "call"})  # fmt: skip
    page = open_director(room, new_page, tid, accept_dialogs=True)
    expect(page.locator("#schedule-form")).to_be_hidden()
    page.fill("#rb-reason", "the server restarted mid-hand")
    page.click("#rollback-form button[type=submit]")
    _ok(page, "#event-result")
    assert _stacks(room, tid) == before
    assert room.api("GET", f"/api/v1/hands/{hand['hand_id']}/")["phase"] == "complete"


@pytest.mark.rule("ELIM-9")
def test_a_hold_on_a_player_still_playing_shows_on_the_console(room: Room, new_page: Any) -> None:
    tid = room.started_tournament("Hold early", entrants=3)
    page = open_director(room, new_page, tid, accept_dialogs=True)
    expect(page.locator("#holds")).to_contain_text("owes nobody")
    suspect = page.locator("#hold-player option").first.get_attribute("value")
    page.select_option("#hold-player", str(suspect))
    page.fill("#hold-reason", "chip dumping review")
    page.click("#hold-form button[data-hold='holds']")
    _ok(page, "#hold-result")
    expect(page.locator(f"#holds tr[data-owed='{suspect}'] .flag")).to_have_text("held")
