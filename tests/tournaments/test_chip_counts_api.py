"""The public chip-count board's endpoint (``GET /api/v1/tournaments/<id>/chip-counts/``,
``tournament_chip_counts``): anyone may read it; players still in ranked by chips with
their table and seat, nicknames or initials only (no full names, no player ids); the chips
add up to the chips in play; the payout ladder; the places taken with their prizes, while
the event runs and at its end (as the entries endpoint says)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.models import Player, display_name
from tests.conftest import TabletClient
from tests.tournaments.bust import bust
from tests.tournaments.play import create, ok, register

pytestmark = pytest.mark.django_db


def board(tournament_id: int) -> dict[str, Any]:
    """The board as an anonymous TV reads it, after checking it names nobody."""
    r = APIClient().get(f"/api/v1/tournaments/{tournament_id}/chip-counts/")
    assert r.status_code == 200, r.content
    text = r.content.decode()
    assert "player_id" not in text and "entry_number" not in text
    assert "Jana" not in text and "Nováková" not in text  # the full name of "J. N."
    for name in Player.objects.values_list("name", flat=True):
        assert f'"{name}"' not in text, name  # "P 3" is a full name; "P3" the nickname
    return dict(r.json())


def expected_players(tablet: TabletClient, tournament_id: int) -> list[tuple[str, int, int, int]]:
    """(name, chips, table, seat) of every player still in, by the entries endpoint."""
    people = {p.pk: p for p in Player.objects.all()}
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    return sorted(
        (display_name(people[e["player_id"]]), e["stack"], e["table_id"], e["seat"])
        for e in entries
        if e["status"] == "playing" and e["stack"] > 0
    )


def check_ranking(tablet: TabletClient, tournament_id: int) -> dict[str, Any]:
    b = board(tournament_id)
    t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
    players = b["players"]
    shown = sorted((p["name"], p["chips"], p["table_id"], p["seat"]) for p in players)
    assert shown == expected_players(tablet, tournament_id)
    chips = [p["chips"] for p in players]
    assert chips == sorted(chips, reverse=True)
    for i, p in enumerate(players):  # equal stacks share a rank: 1, 2, 2, 4
        assert p["rank"] == (players[i - 1]["rank"] if i and p["chips"] == chips[i - 1] else i + 1)
    assert sum(chips) == b["chips_in_play"] == t["chips_issued"]
    assert b["players_left"] == len(players) == t["clock"]["players_left"]
    assert b["average_stack"] == t["clock"]["average_stack"]
    assert b["chip_leader"] == (players[0] if players else None)
    assert b["prize_pool"] == t["clock"]["prize_pool"]
    assert sum(x["prize"] for x in b["payouts"]) == b["prize_pool"]
    assert [x["place"] for x in b["payouts"]] == list(range(1, b["places_paid"] + 1))
    return b


def test_unknown_tournament_is_404() -> None:
    r = APIClient().get("/api/v1/tournaments/999999/chip-counts/")
    assert (r.status_code, r.json()["code"]) == (404, "tournament_not_found")


def test_the_chip_board_ranks_players_and_shows_places_and_prizes(tablet: TabletClient) -> None:
    tid = create(tablet, table_size=6, min_entrants=2)
    register(tablet, tid, 11)
    jana = Player.objects.create(name="Jana Nováková")  # no nickname: initials
    ok(tablet.post(f"/api/v1/tournaments/{tid}/registrations/", {"player_id": jana.pk}))

    before = board(tid)
    assert (before["status"], before["registered"], before["entries"]) == ("registering", 12, 12)
    assert before["players"] == [] and before["chip_leader"] is None
    assert before["finished"] == [] and before["prize_pool_provisional"] is True
    assert before["places_paid"] == 3 and sum(x["prize"] for x in before["payouts"]) == 6000

    ok(tablet.post(f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 0}))
    b = check_ranking(tablet, tid)
    assert b["status"] == "running" and b["registered"] == 0
    assert len(b["players"]) == 12 and {p["rank"] for p in b["players"]} == {1}  # all tied
    assert "J. N." in {p["name"] for p in b["players"]}
    assert b["prize_pool_provisional"] is False  # no late registration, rebuys or add-ons

    # knock players out one by one until three are left: the last one out (3rd) is paid
    for _ in range(40):
        t = ok(tablet.get(f"/api/v1/tournaments/{tid}/"))
        if t["clock"]["players_left"] <= 3:
            break
        counts = {
            tbl: len(ok(tablet.get(f"/api/v1/tables/{tbl}/"))["seats"]) for tbl in t["tables"]
        }
        bust(tablet, max(counts, key=lambda tbl: counts[tbl]))
        b = check_ranking(tablet, tid)
        assert len({p["chips"] for p in b["players"]}) > 1
        assert b["players"][0]["rank"] == 1 and b["players"][-1]["rank"] > 1
    assert b["players_left"] == 3 and b["status"] == "running"
    places = [(f["place"], f["place_to"]) for f in b["finished"]]
    assert places == sorted(places) and places[0] == (4, 4) and places[-1][1] == 12
    assert all(f["prize"] == 0 for f in b["finished"])  # 4th and below: out of the money

    bust(tablet, ok(tablet.get(f"/api/v1/tournaments/{tid}/"))["tables"][0])
    b = check_ranking(tablet, tid)
    third = b["finished"][0]
    assert (third["place"], third["prize"]) == (3, b["payouts"][2]["prize"])
    assert third["prize"] > 0

    while ok(tablet.get(f"/api/v1/tournaments/{tid}/"))["status"] != "finished":
        bust(tablet, ok(tablet.get(f"/api/v1/tournaments/{tid}/"))["tables"][0])
    final = board(tid)
    assert final["status"] == "finished" and final["players"] == [] and final["chip_leader"] is None
    people = {p.pk: p for p in Player.objects.all()}
    entries = ok(tablet.get(f"/api/v1/tournaments/{tid}/entries/"))
    assert [(f["place"], f["name"], f["prize"]) for f in final["finished"]] == sorted(
        (e["place"], display_name(people[e["player_id"]]), e["prize"]) for e in entries
    )
    assert [f["place"] for f in final["finished"]][:3] == [1, 2, 3]
    assert third in final["finished"]  # the prize shown while running was the result
    assert sum(f["prize"] for f in final["finished"]) == final["prize_pool"] == 6000
    assert [f["prize"] for f in final["finished"][:3]] == [x["prize"] for x in final["payouts"]]
