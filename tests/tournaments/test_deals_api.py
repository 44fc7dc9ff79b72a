"""Deals through the API (DEAL-1..11): the players ask at the final table, the table
pauses and the director's feed gets the alert, the director proposes by ICM, each
confirmation is recorded and the deal replaces the remaining payouts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from casino.eventstore.models import StoredEvent
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register

pytestmark = pytest.mark.django_db


def refused(response: Any, code: str, rule: str | None = None) -> dict[str, Any]:
    assert response.status_code == 422, (response.status_code, response.json())
    body = response.json()
    assert body["code"] == code and (rule is None or body["rule"] == rule), body
    return dict(body)


def down_to(tablet: TabletClient, tournament_id: int, left: int, seed: int = 3) -> list[int]:
    """Play hands until at most ``left`` players remain; their ids."""
    rng = random.Random(seed)
    for _ in range(300):
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
        if t["clock"]["players_left"] <= left:
            break
        for table_id in t["tables"]:
            play_hand(tablet, table_id, rng, all_in=0.2)
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    return [e["player_id"] for e in entries if e["status"] == "playing" and e["stack"] > 0]


@pytest.mark.rule("DEAL-2")
@pytest.mark.rule("DEAL-4")
@pytest.mark.rule("DEAL-5")
@pytest.mark.rule("DEAL-7")
def test_icm_deal_at_the_final_table_confirmed_by_everyone(tablet: TabletClient) -> None:
    tournament_id = create(tablet)
    register(tablet, tournament_id, 9)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    left = down_to(tablet, tournament_id, 4)
    assert 2 <= len(left) <= 4
    base = f"/api/v1/tournaments/{tournament_id}/deal"
    for pid in left:
        deal = ok(tablet.post(f"{base}/requests/", {"player_id": pid}))
    assert deal["discussing"] is True and deal["requests"] == sorted(left)
    alert = StoredEvent.objects.filter(
        stream=f"tournament-{tournament_id}", type="tournaments.DealDiscussionStarted"
    )
    assert alert.count() == 1  # the director's console feed relays it
    t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
    (table_id,) = t["tables"]
    refused(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}), "deal_in_discussion", "DEAL-4")
    # a custom deal that leaves a player out is refused (DEAL-2)
    refused(
        tablet.post(f"{base}/proposals/", {"method": "custom", "amounts": [
            {"player_id": left[0], "amount": 1}]}),
        "deal_must_include_everyone", "DEAL-2",
    )  # fmt: skip
    r = tablet.post(f"{base}/proposals/", {"method": "icm", "points": 100})
    assert r.status_code == 400  # DEAL-11: no leaderboard points in a deal
    deal = ok(tablet.post(f"{base}/proposals/", {"method": "icm"}))
    shares = {s["player_id"]: s["amount"] for s in deal["proposal"]["shares"]}
    assert set(shares) == set(left)
    assert sum(shares.values()) == sum(deal["proposal"]["remaining_prizes"])
    for pid in left[:-1]:
        deal = ok(tablet.post(f"{base}/confirmations/", {"player_id": pid}))
        assert deal["agreed"] is None
    deal = ok(tablet.post(f"{base}/confirmations/", {"player_id": left[-1]}))
    assert deal["agreed"] is not None and deal["confirmations"] == sorted(left)
    t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
    assert t["status"] == "finished"
    # the clock board: nobody is left playing (it read "Players left 3" beside "Finished")
    assert (t["clock"]["players_left"], t["clock"]["average_stack"]) == (0, 0)
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    prizes = {e["player_id"]: e["prize"] for e in entries}
    assert all(prizes[pid] == shares[pid] for pid in left)
    # those the deal placed below 1st no longer read "playing", nor sit at a table
    ended = sorted(
        (e["place"], e["status"], e["table_id"]) for e in entries if e["player_id"] in left
    )
    assert ended == [(1, "winner", None)] + [(p, "placed", None) for p in range(2, len(left) + 1)]
    assert sum(prizes.values()) == t["clock"]["prize_pool"]


@pytest.mark.rule("DEAL-3")
def test_no_deal_before_the_final_table(tablet: TabletClient) -> None:
    tournament_id = create(tablet)
    ids = register(tablet, tournament_id, 12)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    refused(
        tablet.post(f"/api/v1/tournaments/{tournament_id}/deal/requests/",
                    {"player_id": ids[0]}),
        "deal_not_at_final_table", "DEAL-3",
    )  # fmt: skip


@pytest.mark.rule("DEAL-5")
@pytest.mark.rule("DEAL-6")
def test_the_chip_board_shows_an_agreed_deal_instead_of_the_ladder(tablet: TabletClient) -> None:
    """A deal with money left to play for keeps the event running; the public chip board
    went on showing the published prizes of the places the deal had replaced (QA)."""
    from rest_framework.test import APIClient

    tournament_id = create(tablet)
    register(tablet, tournament_id, 9)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    left = down_to(tablet, tournament_id, 4)
    base = f"/api/v1/tournaments/{tournament_id}/deal"
    for pid in left:
        ok(tablet.post(f"{base}/requests/", {"player_id": pid}))
    before = APIClient().get(f"/api/v1/tournaments/{tournament_id}/chip-counts/").json()
    assert before["deal"] is None and before["payouts"][0]["place"] == 1
    proposal = {"method": "chip_count", "money_on_table": 100}
    deal = ok(tablet.post(f"{base}/proposals/", proposal))
    for pid in left:
        deal = ok(tablet.post(f"{base}/confirmations/", {"player_id": pid}))
    assert deal["agreed"] is not None
    board = APIClient().get(f"/api/v1/tournaments/{tournament_id}/chip-counts/").json()
    assert board["status"] == "running"
    assert board["deal"]["money_on_table"] == 100
    amounts = sorted((s["amount"] for s in deal["agreed"]["shares"]), reverse=True)
    assert [s["amount"] for s in board["deal"]["shares"]] == amounts
    assert all(p["place"] > len(left) for p in board["payouts"])  # the deal's places are gone
    assert "player_id" not in str(board["deal"])  # a public board: names only
