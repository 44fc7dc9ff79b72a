"""Tournament prizes paid at the cage: once per entry, the amount and place from the
finished tournament's results."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings

from cashgame.models import PrizePayment
from casino.eventstore.models import StoredEvent
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register


def _finished_heads_up(tablet: TabletClient, **config: Any) -> int:
    tournament_id = create(tablet, min_entrants=2, **config)
    register(tablet, tournament_id, 2)
    t = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    rng = random.Random(7)
    for _ in range(200):
        if t["status"] == "finished":
            break
        for table_id in t["tables"]:
            play_hand(tablet, table_id, rng, all_in=1.0)
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
    assert t["status"] == "finished"
    return tournament_id


def test_the_cage_pays_each_prize_once(tablet: TabletClient) -> None:
    tournament_id = _finished_heads_up(tablet)
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    winner = next(e for e in entries if e["place"] == 1)
    loser = next(e for e in entries if e["place"] == 2)
    assert winner["prize"] == 1000 and not loser["prize"]  # 2 x 500, one place paid
    url = "/api/v1/cage/prize-payments/"

    def pay(entry_number: int) -> Any:
        return tablet.post(url, {"tournament_id": tournament_id, "entry_number": entry_number})

    paid = pay(winner["entry_number"])
    assert paid.status_code == 201, paid.json()
    body = paid.json()
    assert (body["player_id"], body["place"], body["amount"]) == (winner["player_id"], 1, 1000)
    before = StoredEvent.objects.count()
    again = pay(winner["entry_number"])
    assert (again.status_code, again.json()["code"]) == (409, "prize_already_paid")
    # when it was paid: UTC in the field, the room's clock in the sentence the cashier reads
    paid_at = datetime.fromisoformat(body["paid_at"])
    assert again.json()["paid_at"] == body["paid_at"].replace("+00:00", "Z")
    room_time = f"{paid_at.astimezone(ZoneInfo(settings.CASINO_TIME_ZONE)):%Y-%m-%d %H:%M}"
    assert again.json()["paid_at_room_time"] == room_time
    assert again.json()["detail"] == f"This prize was paid at {room_time}."
    in_czech = tablet.post(
        url,
        {"tournament_id": tournament_id, "entry_number": winner["entry_number"]},
        **{"Accept-Language": "cs"},
    )
    assert in_czech.json()["detail"] == f"Tato výhra byla vyplacena {room_time}."
    nothing = pay(loser["entry_number"])
    assert (nothing.status_code, nothing.json()["code"]) == (422, "no_prize")
    unknown = pay(99)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "entry_not_found")
    assert StoredEvent.objects.count() == before  # refusals append nothing
    listed = tablet.get(f"{url}?tournament_id={tournament_id}").json()
    assert [(p["entry_number"], p["amount"]) for p in listed] == [(winner["entry_number"], 1000)]
    assert PrizePayment.objects.count() == 1


def test_a_replayed_payment_is_not_paid_twice(tablet: TabletClient) -> None:
    tournament_id = _finished_heads_up(tablet)
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    winner = next(e for e in entries if e["place"] == 1)
    body = {"tournament_id": tournament_id, "entry_number": winner["entry_number"]}
    first = tablet.post("/api/v1/cage/prize-payments/", body, key="prize-once")
    retry = tablet.post("/api/v1/cage/prize-payments/", body, key="prize-once")
    assert first.status_code == retry.status_code == 201
    assert retry["Idempotent-Replayed"] == "true" and retry.json() == first.json()
    assert PrizePayment.objects.count() == 1


def test_one_rule_for_what_is_owed_whichever_desk_pays(tablet: TabletClient) -> None:
    """The cage's prize desk and the tournament's winnings payment are one payment: a prize
    paid through either is refused through the other, and the cage's day counts it once."""
    for first in ("cage", "winnings"):
        tournament_id = _finished_heads_up(tablet)
        entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
        winner = next(e for e in entries if e["place"] == 1)
        by_cage = {"tournament_id": tournament_id, "entry_number": winner["entry_number"]}
        winnings = f"/api/v1/tournaments/{tournament_id}/payments/"
        by_winnings = {"player_id": winner["player_id"]}
        out_before = tablet.get("/api/v1/cage/balance/").json()["tournament_cash_out"]
        if first == "cage":
            assert tablet.post("/api/v1/cage/prize-payments/", by_cage).status_code == 201
            second = tablet.post(winnings, by_winnings)
            assert second.json()["code"] == "nothing_owed", second.json()
        else:
            assert tablet.post(winnings, by_winnings).status_code in (200, 201)
            second = tablet.post("/api/v1/cage/prize-payments/", by_cage)
            assert (second.status_code, second.json()["code"]) == (409, "prize_already_paid")
        out_after = tablet.get("/api/v1/cage/balance/").json()["tournament_cash_out"]
        assert out_after - out_before == 1000  # paid once, and counted in the cage's day
        listed = tablet.get(f"/api/v1/cage/prize-payments/?tournament_id={tournament_id}").json()
        assert [(p["entry_number"], p["amount"]) for p in listed] == [
            (winner["entry_number"], 1000)
        ]


def test_a_tournament_id_that_is_not_an_id_is_refused(tablet: TabletClient) -> None:
    """Before, ``?tournament_id=abc`` was ignored and listed every tournament's payments."""
    url = "/api/v1/cage/prize-payments/"
    assert tablet.get(f"{url}?tournament_id=12").status_code == 200
    for bad in ("abc", "-1", "1.5", "²", "99999999999999999999"):
        response = tablet.get(f"{url}?tournament_id={bad}")
        assert response.status_code == 400, bad
        assert response.json()["code"] == "invalid_request", bad


@pytest.mark.rule("BNTY-1")
def test_a_prize_paid_with_bounties_lists_the_cash_handed_over(tablet: TabletClient) -> None:
    """One payment settles the prize and the knockout bounty won; the cage's answer and its
    list of prizes paid said only the prize (9,200 listed for 10,600 paid, found by QA), so
    the list did not add up to the cash out."""
    tournament_id = _finished_heads_up(tablet, bounty={"kind": "knockout", "amount": 200})
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    winner = next(e for e in entries if e["place"] == 1)
    (owed,) = [
        o
        for o in ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/payments/"))
        if o["player_id"] == winner["player_id"]
    ]
    bounties = owed["bounties"]
    assert owed["prize"] == winner["prize"] and bounties == 400  # his own, and the one he won
    out_before = tablet.get("/api/v1/cage/balance/").json()["tournament_cash_out"]
    body = {"tournament_id": tournament_id, "entry_number": winner["entry_number"]}
    paid = ok(tablet.post("/api/v1/cage/prize-payments/", body))
    out = tablet.get("/api/v1/cage/balance/").json()["tournament_cash_out"] - out_before
    assert out == winner["prize"] + bounties
    assert (paid["prize"], paid["bounties"], paid["amount"]) == (winner["prize"], bounties, out)
    listed = tablet.get(f"/api/v1/cage/prize-payments/?tournament_id={tournament_id}").json()
    assert sum(p["amount"] for p in listed) == out


@pytest.mark.rule("ELIM-6")
def test_a_player_out_in_the_money_is_paid_at_the_cage_before_the_event_ends(
    tablet: TabletClient,
) -> None:
    """QA: 4th place answered ``no_prize`` until the whole event had ended."""
    tournament_id = create(tablet)
    register(tablet, tournament_id, 30)  # five places paid: one goes out long before the end
    t = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    rng = random.Random(3)
    busted = None
    for _ in range(600):
        for table_id in t["tables"]:  # one hand at a time: busts come one or two at once
            play_hand(tablet, table_id, rng, all_in=0.5)
            entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
            busted = next((e for e in entries if e["place"] and e["prize"]), None)
            if busted is not None:
                break
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
        if busted is not None or t["status"] == "finished":
            break
    assert busted is not None and t["status"] == "running", t["status"]
    assert busted["place"] > 1 and busted["status"] == "eliminated"
    body = {"tournament_id": tournament_id, "entry_number": busted["entry_number"]}
    paid = tablet.post("/api/v1/cage/prize-payments/", body)
    assert paid.status_code == 201, paid.json()
    assert (paid.json()["place"], paid.json()["player_id"]) == (
        busted["place"], busted["player_id"])  # fmt: skip
    amount = paid.json()["amount"]
    assert amount == busted["prize"]  # the entry showed it before it was paid
    again = tablet.post("/api/v1/cage/prize-payments/", body)
    assert (again.status_code, again.json()["code"]) == (409, "prize_already_paid")
    for _ in range(400):  # the end agrees with what was paid
        if t["status"] == "finished":
            break
        for table_id in t["tables"]:
            play_hand(tablet, table_id, rng, all_in=0.6)
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    final = next(e for e in entries if e["entry_number"] == busted["entry_number"])
    assert (final["place"], final["prize"]) == (busted["place"], amount)
    winnings = f"/api/v1/tournaments/{tournament_id}/payments/"
    nothing = tablet.post(winnings, {"player_id": busted["player_id"]})
    assert (nothing.status_code, nothing.json()["code"]) == (422, "nothing_owed")
