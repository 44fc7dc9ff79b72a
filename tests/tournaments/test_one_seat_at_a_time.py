"""BI-10 (one active seat at a time) across a cash game and a tournament: the draw seats a
registered player who still plays cash (players wait in cash games for an event to
start), and the entry says where else he sits, so that the floor calls him over; from then
on the cash table deals him no hand."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, register
from tests.waitlist.helpers import join, open_list, waitlist


@pytest.mark.rule("BI-10")
def test_an_entrant_still_seated_at_cash_is_flagged_until_he_leaves_it(
    tablet: TabletClient, nlh_table: int, players: list[Any]
) -> None:
    cash_player = players[0].pk
    ok(tablet.post(f"/api/v1/tables/{nlh_table}/seats/",
                   {"seat": 4, "player_id": cash_player, "buy_in": 2000}))  # fmt: skip
    for seat, player in ((1, players[1]), (2, players[2])):  # the game goes on without him
        ok(tablet.post(f"/api/v1/tables/{nlh_table}/seats/",
                       {"seat": seat, "player_id": player.pk, "buy_in": 2000}))  # fmt: skip
    tournament = create(tablet, min_entrants=2)
    url = f"/api/v1/tournaments/{tournament}"
    ok(tablet.post(f"{url}/registrations/", {"player_id": cash_player}))
    register(tablet, tournament, 3)
    before = {e["player_id"]: e for e in ok(tablet.get(f"{url}/entries/"))}
    cash_seat = [{"table_id": nlh_table, "seat": 4, "tournament_id": None}]
    assert before[cash_player]["also_seated"] == cash_seat  # registered, still at cash
    assert all(e["also_seated"] == [] for p, e in before.items() if p != cash_player)
    ok(tablet.post(f"{url}/start/", {"reserve_tables": 0}))
    entries = {e["player_id"]: e for e in ok(tablet.get(f"{url}/entries/"))}
    assert entries[cash_player]["status"] == "playing" and entries[cash_player]["table_id"]
    assert entries[cash_player]["also_seated"] == cash_seat  # two seats: the floor is told
    # ... and the cash table deals him no more: he played both tables at once (found by QA)
    deal = tablet.post(f"/api/v1/tables/{nlh_table}/hands/", {"button_seat": 1})
    body = deal.json()
    assert (deal.status_code, body["code"], body["rule"]) == (422, "player_in_tournament", "BI-10")
    assert (body["seat"], body["table_id"]) == (4, entries[cash_player]["table_id"])
    preview = tablet.get(f"/api/v1/tables/{nlh_table}/next-hand/")  # said before the tap
    assert (preview.status_code, preview.json()["code"]) == (422, "player_in_tournament")
    ok(tablet.post(f"/api/v1/tables/{nlh_table}/seats/4/sit-out/", {}))
    hand = ok(tablet.post(f"/api/v1/tables/{nlh_table}/hands/", {"button_seat": 1}))
    assert sorted(s["seat"] for s in hand["seats"]) == [1, 2]  # sitting out: not dealt in
    ok(tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/", {"seat": 1, "action": "fold"}))
    ok(tablet.post(f"/api/v1/tables/{nlh_table}/seats/4/cash-out/", {}))
    entries = {e["player_id"]: e for e in ok(tablet.get(f"{url}/entries/"))}
    assert entries[cash_player]["also_seated"] == []
    # on the cash list meanwhile: the floor's offer says it is a tournament seat, which is
    # not cashed out (it said "cash him out there first", found by QA)
    nlh = open_list(tablet)
    join(tablet, nlh, players[0])  # back on the list for after the event
    offers = [s["offer"] for t in waitlist(tablet, nlh)["tables"] for s in t["open_seats"]]
    assert {(o["seated_at_table_id"], o["seated_in_tournament_id"]) for o in offers} == {
        (entries[cash_player]["table_id"], tournament)
    }
