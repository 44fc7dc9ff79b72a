"""Straddles, running it more than once, misdeals, voids and rabbit hunts over the API:
the table, its stacks and the ledger follow the hand engine."""

from __future__ import annotations

from typing import Any

import pytest

from casino.eventstore.models import StoredEvent
from tables.models import HandView, SeatView, TableView
from tests.conftest import NLH_10_20, TabletClient


def table_with(tablet: TabletClient, players: list, stacks: dict[int, int], **config: Any) -> int:
    table_id = tablet.post("/api/v1/tables/", {**NLH_10_20, **config}).json()["table_id"]
    for n, (seat, stack) in enumerate(stacks.items()):
        r = tablet.post(f"/api/v1/tables/{table_id}/seats/",
                        {"player_id": players[n].id, "seat": seat, "buy_in": stack})  # fmt: skip
        assert r.status_code == 201, r.json()
    return int(table_id)


def post(tablet: TabletClient, hand: dict, what: str, body: dict, expect: int = 200) -> dict:
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/{what}/", body)
    assert r.status_code == expect, r.json()
    return dict(r.json())


def stacks(table_id: int) -> dict[int, int]:
    return dict(SeatView.objects.filter(table_id=table_id).values_list("seat", "stack"))


@pytest.mark.rule("SEAT-18")
@pytest.mark.rule("SEAT-20")
def test_straddle_from_under_the_gun_only(tablet: TabletClient, players: list) -> None:
    table_id = table_with(tablet, players, {1: 2000, 2: 2000, 3: 2000, 4: 2000})
    r = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1, "straddles": [1]})
    assert (r.status_code, r.json()["code"]) == (422, "mississippi_straddle_not_allowed")
    assert TableView.objects.get(table_id=table_id).current_hand_id is None  # nothing kept
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/",
                       {"button_seat": 1, "straddles": [4]}).json()  # fmt: skip
    assert hand["straddles"] == [4]
    assert {s["seat"]: s["bet"] for s in hand["seats"]} == {1: 0, 2: 10, 3: 20, 4: 40}
    assert hand["to_act"] == 1  # left of the straddle


@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("RAKE-9")
@pytest.mark.rule("SD-1")
def test_run_it_twice_each_run_wins_half_of_the_pot(tablet: TabletClient, players: list) -> None:
    table_id = table_with(tablet, players, {1: 1000, 2: 1000}, rake_percent_bp=0)
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "all_in"})
    hand = post(tablet, hand, "actions", {"seat": 2, "action": "call"})
    hand = post(tablet, hand, "run-it", {"times": 2})
    assert hand["run_count"] == 2
    for run, cards in ((1, ["2c7d9h", "Js", "3d"]), (2, ["AsKsQs", "Jh", "Ts"])):
        for street, card in zip(("flop", "turn", "river"), cards, strict=True):
            hand = post(tablet, hand, "board", {"street": street, "cards": card, "run": run})
    hand = post(tablet, hand, "show", {"seat": 1, "cards": "8c8d"})
    hand = post(tablet, hand, "show", {"seat": 2, "cards": "4h5h"})
    assert hand["phase"] == "complete"
    assert [len(b) for b in hand["boards"]] == [5, 5]
    # the 2,000 pot is 1,000 per run. Run 1: the eights win it; run 2: a broadway straight
    # on the board plays for both, so it is split 500/500.
    assert stacks(table_id) == {1: 1000 + 500, 2: 500}
    [pot] = hand["result"]["pots"]
    assert pot["amount"] == 2000
    assert sorted((w["seat"], w["amount"]) for w in pot["winners"]) == [(1, 1500), (2, 500)]
    # what each run paid, and with what (SD-1): the tablet reads it to the table
    straight = {"category": "straight", "cards": "AsKsQsJhTs"}
    assert pot["runs"] == [
        {"run": 1, "amount": 1000,
         "winners": [{"seat": 1, "amount": 1000,
                      "hand": {"category": "one_pair", "cards": "8c8dJs9h7d"}}]},
        {"run": 2, "amount": 1000,
         "winners": [{"seat": 2, "amount": 500, "hand": straight},
                     {"seat": 1, "amount": 500, "hand": straight}]},
    ]  # fmt: skip
    assert all(w["hand"] is None for w in pot["winners"])  # two runs: each run names its own


@pytest.mark.rule("MIS-1")
def test_misdeal_returns_every_chip_and_closes_the_hand(
    tablet: TabletClient, players: list
) -> None:
    table_id = table_with(tablet, players, {1: 1000, 2: 1000, 3: 1000})
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "call"})
    hand = post(tablet, hand, "misdeal", {"reason": "second card exposed"})
    assert hand["voided"]["kind"] == "misdeal"
    assert stacks(table_id) == {1: 1000, 2: 1000, 3: 1000}
    assert HandView.objects.get(hand_id=hand["hand_id"]).status == "voided"
    table = TableView.objects.get(table_id=table_id)
    assert table.current_hand_id is None
    assert table.hands_played == 0  # a misdeal is no hand played (the floor's count, QA)
    again = tablet.post(f"/api/v1/tables/{table_id}/hands/", {})
    assert again.status_code == 201  # the table goes on


@pytest.mark.rule("MIS-6")
@pytest.mark.rule("SEAT-16")
@pytest.mark.parametrize("kind", ["misdeal", "void"])
def test_a_misdealt_hand_is_redealt_with_the_same_button_and_owed_blinds(
    tablet: TabletClient, players: list, kind: str
) -> None:
    table_id = table_with(tablet, players, {1: 2000, 2: 2000, 3: 2000, 4: 2000})
    base = f"/api/v1/tables/{table_id}"

    def play_out() -> dict:
        hand = tablet.post(f"{base}/hands/", {}).json()
        while hand["phase"] == "betting":
            legal = hand["legal"]
            hand = post(tablet, hand, "actions", {"seat": legal["seat"], "action": "fold"})
        return hand

    first = tablet.post(f"{base}/hands/", {"button_seat": 1}).json()
    while first["phase"] == "betting":
        first = post(tablet, first, "actions", {"seat": first["legal"]["seat"], "action": "fold"})
    assert tablet.post(f"{base}/seats/4/sit-out/", {}).status_code == 200
    play_out()
    play_out()
    seat4 = next(s for s in tablet.get(f"{base}/").json()["seats"] if s["seat"] == 4)
    assert seat4["missed_small_blind"] and seat4["missed_big_blind"]
    assert tablet.post(f"{base}/seats/4/sit-in/", {"post": True}).status_code == 200
    preview = tablet.get(f"{base}/next-hand/").json()
    table_before = tablet.get(f"{base}/").json()

    dealt = tablet.post(f"{base}/hands/", {}).json()
    assert dealt["button_seat"] == preview["button_seat"]
    assert next(s for s in dealt["seats"] if s["seat"] == 4)["bet"] == 20  # his big blind
    hand = post(tablet, dealt, kind, {"reason": "second card exposed"})
    assert hand["voided"]["kind"] == kind

    table = tablet.get(f"{base}/").json()
    assert table["button_seat"] == table_before["button_seat"]
    assert table["seats"] == table_before["seats"]  # stacks, statuses, blinds owed
    assert tablet.get(f"{base}/next-hand/").json() == preview
    redealt = tablet.post(f"{base}/hands/", {}).json()
    assert redealt["button_seat"] == dealt["button_seat"]
    assert [(s["seat"], s["bet"]) for s in redealt["seats"]] == [
        (s["seat"], s["bet"]) for s in dealt["seats"]
    ]
    assert redealt["hand_number"] == dealt["hand_number"] + 1  # hand numbers stay unique


@pytest.mark.rule("MIS-1")
def test_misdeal_too_late_is_refused_and_appends_nothing(
    tablet: TabletClient, players: list
) -> None:
    table_id = table_with(tablet, players, {1: 1000, 2: 1000, 3: 1000})
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "call"})
    hand = post(tablet, hand, "actions", {"seat": 2, "action": "call"})
    before = StoredEvent.objects.count()
    body = post(tablet, hand, "misdeal", {"reason": "late"}, expect=422)
    assert (body["code"], body["rule"]) == ("misdeal_too_late", "MIS-1")
    assert StoredEvent.objects.count() == before


@pytest.mark.rule("MIS-12")
def test_duplicate_card_voids_the_hand_at_any_point(tablet: TabletClient, players: list) -> None:
    table_id = table_with(tablet, players, {1: 1000, 2: 1000})
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "raise", "amount_to": 200})
    hand = post(tablet, hand, "actions", {"seat": 2, "action": "call"})
    hand = post(tablet, hand, "board", {"street": "flop", "cards": "2c7d9h"})
    hand = post(tablet, hand, "void", {"reason": "two queens of spades"})
    assert hand["voided"]["kind"] == "void"
    assert stacks(table_id) == {1: 1000, 2: 1000}


@pytest.mark.rule("RAKE-8")
def test_rabbit_hunt_fee_leaves_the_stack_and_the_cage_still_reconciles(
    tablet: TabletClient, players: list
) -> None:
    table_id = table_with(tablet, players, {1: 1000, 2: 1000})
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "raise", "amount_to": 100})
    hand = post(tablet, hand, "actions", {"seat": 2, "action": "fold"})
    before = stacks(table_id)
    hunt = {"seat": 2, "cards": "2c7d9h", "fee": 20}
    events = StoredEvent.objects.count()
    refusal = post(tablet, hand, "rabbit-hunt", hunt, expect=422)
    assert (refusal["code"], refusal["rule"]) == ("consent_missing", "RAKE-8")
    free = post(
        tablet, hand, "rabbit-hunt", {**hunt, "fee": 0, "consenting_seats": [1]}, expect=422
    )
    assert (free["code"], free["rule"]) == ("invalid_fee", "RAKE-8")  # the requester pays
    assert StoredEvent.objects.count() == events and stacks(table_id) == before
    hand = post(tablet, hand, "rabbit-hunt", {**hunt, "consenting_seats": [1]})
    assert hand["rabbit"]["fee"] == 20
    assert stacks(table_id) == {1: before[1], 2: before[2] - 20}
    balance = tablet.get("/api/v1/cage/balance/").json()
    assert balance["reconciled"] is True
    # the fee is the dealer's, not the house's (house_chips counted it, found by QA)
    assert (balance["dealer_fees"], balance["house_chips"]) == (20, 0)
    assert (
        balance["chips_with_players"]
        == balance["chips_issued"] - sum(stacks(table_id).values()) - 20
    )
    (day,) = tablet.get("/api/v1/reports/drop/").json()["results"]
    assert (day["dealer_fees"], day["refreshments"]) == (20, 0)


@pytest.mark.rule("BI-7")
def test_a_busted_cash_seat_says_so_until_the_player_re_buys(
    tablet: TabletClient, players: list
) -> None:
    """The table's seats said ``status: active`` for a player left with no chips, and each
    screen worked "busted" out for itself from the stack (QA): the server says it."""
    table_id = table_with(tablet, players, {1: 1000, 2: 2000})

    def busted() -> dict[int, bool]:
        seats = tablet.get(f"/api/v1/tables/{table_id}/").json()["seats"]
        return {seat["seat"]: seat["busted"] for seat in seats}

    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "raise", "amount_to": 1000})
    hand = post(tablet, hand, "actions", {"seat": 2, "action": "call"})
    assert busted() == {1: False, 2: False}  # all-in, in play
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        hand = post(tablet, hand, "board", {"street": street, "cards": cards})
    hand = post(tablet, hand, "show", {"seat": 2, "cards": "AsAh"})
    hand = post(tablet, hand, "show", {"seat": 1, "cards": "KsKh"})
    assert hand["phase"] == "complete"
    assert busted() == {1: True, 2: False}
    seat = tablet.get(f"/api/v1/tables/{table_id}/").json()["seats"][0]
    assert (seat["stack"], seat["status"]) == (0, "active")  # his status; busted says why not
    r = tablet.post(f"/api/v1/tables/{table_id}/seats/1/top-up/", {"amount": 1000})
    assert r.status_code == 200, r.json()
    assert busted() == {1: False, 2: False}
