"""The cage: chips sold and redeemed, tied to players and sessions; the day's balance
reconciles with the tables."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connections

from cashgame.models import CageTransaction, CashSession
from casino.eventstore.models import StoredEvent
from tests.conftest import TabletClient

NOON = datetime(2026, 11, 21, 11, 0, tzinfo=UTC)


def test_cage_day_reconciles_with_the_tables(tablet: TabletClient, players: list) -> None:
    a, b = players[0], players[1]
    with time_machine.travel(NOON, tick=False):
        table_id = tablet.post("/api/v1/tables/", {"name": "t", "game": "NLH", "small_blind": 10,
                                                   "big_blind": 20}).json()["table_id"]  # fmt: skip
        sold = tablet.post("/api/v1/cage/sales/", {"player_id": a.id, "amount": 3000})
        assert sold.status_code == 201 and sold.json()["cash_in"] == 3000
        with_chips = {"player_id": a.id, "seat": 1, "buy_in": 3000, "paid_with": "chips"}
        tablet.post(f"/api/v1/tables/{table_id}/seats/", with_chips)
        tablet.post(f"/api/v1/tables/{table_id}/seats/",
                    {"player_id": b.id, "seat": 2, "buy_in": 2000})  # fmt: skip
        hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
        url = f"/api/v1/hands/{hand['hand_id']}/actions/"
        tablet.post(url, {"seat": 1, "action": "raise", "amount_to": 400})
        tablet.post(url, {"seat": 2, "action": "call"})
        board = f"/api/v1/hands/{hand['hand_id']}/board/"
        for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
            tablet.post(board, {"street": street, "cards": cards})
            tablet.post(url, {"seat": 2, "action": "check"})
            tablet.post(url, {"seat": 1, "action": "check"})
        tablet.post(f"/api/v1/hands/{hand['hand_id']}/show/", {"seat": 2, "cards": "8c8d"})
        tablet.post(f"/api/v1/hands/{hand['hand_id']}/show/", {"seat": 1, "cards": "AhKd"})
        out = tablet.post(f"/api/v1/tables/{table_id}/seats/1/cash-out/").json()["amount"]
        tablet.post("/api/v1/cage/redemptions/", {"player_id": a.id, "amount": out})
        balance = tablet.get("/api/v1/cage/balance/").json()
    rake = 40  # 5 % of the 800 pot
    assert out == 3000 - 400 - 0  # seat 2's eights win
    assert balance == {
        "day": "2026-11-21",
        "cash_in": 3000,
        "cash_out": out,
        "table_drop": 2000,  # B paid cash; A's chips came from the cage
        "chips_issued": 3000 + 2000 - out,
        "chips_at_tables": 2000 + 400 - rake,
        "house_chips": rake,
        "chips_with_players": 0,
        "reconciled": True,
        "dealer_fees": 0,
        "tournament_cash_in": 0,  # issue #14: no tournament money that day
        "tournament_cash_out": 0,
        "tournament_fees": 0,
        "tournament_money_held": 0,
        "tournament_t_money_outstanding": 0,
    }


def test_a_sale_to_a_seated_player_is_tied_to_his_session(
    tablet: TabletClient, players: list
) -> None:
    table_id = tablet.post("/api/v1/tables/", {"name": "t", "game": "NLH", "small_blind": 10,
                                               "big_blind": 20}).json()["table_id"]  # fmt: skip
    tablet.post(f"/api/v1/tables/{table_id}/seats/",
                {"player_id": players[0].id, "seat": 1, "buy_in": 1000})  # fmt: skip
    tablet.post("/api/v1/cage/sales/", {"player_id": players[0].id, "amount": 500})
    tablet.post("/api/v1/cage/sales/", {"player_id": players[1].id, "amount": 500})
    session = CashSession.objects.get(player_id=players[0].id)
    ties = dict(CageTransaction.objects.values_list("player_id", "session_id"))
    assert ties == {players[0].id: session.pk, players[1].id: None}


def test_a_past_day_is_not_compared_with_todays_stacks(tablet: TabletClient, players: list) -> None:
    with time_machine.travel(NOON, tick=False):
        tablet.post("/api/v1/cage/sales/", {"player_id": players[0].id, "amount": 700})
    with time_machine.travel(NOON + timedelta(days=2), tick=False):
        past = tablet.get("/api/v1/cage/balance/?day=2026-11-21").json()
        assert (past["cash_in"], past["reconciled"]) == (700, None)
        assert tablet.get("/api/v1/cage/balance/?day=21-11").json()["code"] == "invalid_day"
        # a day that has not begun has no books: not "ledger matches: yes" (found by QA)
        for future in ("2026-11-24", "9999-12-31"):
            ahead = tablet.get(f"/api/v1/cage/balance/?day={future}")
            assert (ahead.status_code, ahead.json()["code"]) == (400, "invalid_day")
        assert tablet.get("/api/v1/cage/balance/?day=2026-11-23").status_code == 200  # today


def test_cage_refuses_unknown_players_and_appends_nothing(tablet: TabletClient) -> None:
    before = StoredEvent.objects.count()
    r = tablet.post("/api/v1/cage/sales/", {"player_id": 999999, "amount": 100})
    assert (r.status_code, r.json()["code"]) == (404, "player_not_found")
    assert StoredEvent.objects.count() == before


@pytest.mark.rule("SES-7")
def test_the_cage_refuses_a_returning_player_a_buy_in_below_what_he_left_with(
    tablet: TabletClient, players: list
) -> None:
    a = players[0]
    with time_machine.travel(NOON, tick=False):
        table_id = tablet.post("/api/v1/tables/", {"name": "t", "game": "NLH", "small_blind": 10,
                                                   "big_blind": 20}).json()["table_id"]  # fmt: skip
        tablet.post(f"/api/v1/tables/{table_id}/seats/",
                    {"player_id": a.id, "seat": 1, "buy_in": 4000})  # fmt: skip
        tablet.post(f"/api/v1/tables/{table_id}/seats/1/cash-out/")
    stakes = {"game": "NLH", "small_blind": 10, "big_blind": 20}
    with time_machine.travel(NOON + timedelta(minutes=30), tick=False):
        # he took 1,500 of his 4,000 in cash: he holds 2,500 in chips and buys the other
        # 1,500; the sale alone was held to the 4,000 (found by QA)
        cashed = tablet.post("/api/v1/cage/redemptions/", {"player_id": a.id, "amount": 1500})
        assert cashed.status_code == 201, cashed.json()
        before = StoredEvent.objects.count()
        refused = tablet.post(
            "/api/v1/cage/sales/", {"player_id": a.id, "amount": 1499, "buy_in_for": stakes}
        )
        assert refused.status_code == 422
        body = refused.json()
        assert (body["code"], body["rule"], body["amount_required"]) == (
            "buy_in_below_returning_minimum", "SES-7", 4000)  # fmt: skip
        assert (body["held"], body["to_buy"]) == (2500, 1500)
        assert "he must buy at least 1,500" in body["detail"]
        assert StoredEvent.objects.count() == before  # a refusal appends nothing
        other_stakes = {**stakes, "small_blind": 25, "big_blind": 50}
        for allowed in (
            {"amount": 1500, "buy_in_for": stakes},
            {"amount": 500, "buy_in_for": other_stakes},
            {"amount": 500},  # not a buy-in: chips for the pocket
        ):
            sold = tablet.post("/api/v1/cage/sales/", {"player_id": a.id, **allowed})
            assert sold.status_code == 201, sold.json()
        # the game is a table's code and the stakes a real pair: "nlh" would match no
        # restriction and let the sale through below the minimum
        for wrong in ({**stakes, "game": "nlh"}, {**stakes, "game": "XYZ"},
                      {**stakes, "small_blind": 20, "big_blind": 10}):  # fmt: skip
            count = StoredEvent.objects.count()
            bad = tablet.post("/api/v1/cage/sales/",
                              {"player_id": a.id, "amount": 1000, "buy_in_for": wrong})  # fmt: skip
            assert (bad.status_code, bad.json()["code"]) == (400, "invalid_request"), bad.json()
            assert StoredEvent.objects.count() == count
    with time_machine.travel(NOON + timedelta(hours=2, minutes=1), tick=False):
        later = {"player_id": a.id, "amount": 2000, "buy_in_for": stakes}
        assert tablet.post("/api/v1/cage/sales/", later).status_code == 201  # window over


@pytest.mark.django_db(transaction=True)
def test_the_balance_is_read_at_one_moment_while_the_cage_sells(
    tablet: TabletClient, players: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sale committed by another cashier while the balance is being read is in all of its
    figures or in none (found by QA: issued below cash in + drop, "not reconciled")."""
    from cashgame import cage
    from casino.eventstore.commands import run_command
    from casino.eventstore.context import CommandContext

    tablet.post("/api/v1/cage/sales/", {"player_id": players[0].id, "amount": 3000})
    before = tablet.get("/api/v1/cage/balance/").json()
    reads, real_sum = [], cage._sum

    def other_cashier() -> None:  # his own connection, committed before the next figure
        run_command(lambda: cage.sell_chips(player_id=players[1].id, amount=700),
                    ctx=CommandContext(actor="test:cashier-2"))  # fmt: skip
        connections.close_all()

    def sum_while_selling(*args: object, **kwargs: object) -> int:
        reads.append(1)
        if len(reads) == 1:
            seller = threading.Thread(target=other_cashier)
            seller.start()
            seller.join()
        return real_sum(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cage, "_sum", sum_while_selling)
    during = tablet.get("/api/v1/cage/balance/").json()
    monkeypatch.setattr(cage, "_sum", real_sum)
    after = tablet.get("/api/v1/cage/balance/").json()
    assert len(reads) > 3 and during == before  # the sale came after this read's moment
    assert (after["cash_in"], after["chips_issued"]) == (3700, 3700)
