"""Issue 12 D: the cage pays only for chips the records say a player holds, chips in
circulation never go negative, the floor's override is audited, and the drop is one
figure (the cage balance and the drop report agree)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine

from cashgame import cage
from casino.eventstore.models import StoredEvent
from casino.models import Device
from tests.conftest import TabletClient

NOON = datetime(2026, 11, 21, 11, 0, tzinfo=UTC)


@pytest.fixture
def cashier(db: None) -> TabletClient:
    return TabletClient(Device.objects.create(name="cage-pc", role=Device.Role.CASHIER))


@pytest.fixture
def floor(db: None) -> TabletClient:
    return TabletClient(Device.objects.create(name="floor-pc", role=Device.Role.FLOOR))


def _table(tablet: TabletClient) -> int:
    body = {"name": "t", "game": "NLH", "small_blind": 10, "big_blind": 20}
    return int(tablet.post("/api/v1/tables/", body).json()["table_id"])


def _refused(response: Any, code: str) -> dict[str, Any]:
    assert response.status_code == 422, response.json()
    assert response.json()["code"] == code, response.json()
    return dict(response.json())


def test_a_player_with_nothing_redeems_nothing(
    tablet: TabletClient, cashier: TabletClient, players: list
) -> None:
    """The reported case: 50,000 CZK redeemed for a player who had nothing."""
    table_id = _table(tablet)
    tablet.post(f"/api/v1/tables/{table_id}/seats/",
                {"player_id": players[1].id, "seat": 1, "buy_in": 5000})  # fmt: skip
    before = StoredEvent.objects.count()
    body = _refused(
        cashier.post("/api/v1/cage/redemptions/", {"player_id": players[0].id, "amount": 50000}),
        "redemption_exceeds_holdings",
    )
    assert body["held"] == 0
    assert StoredEvent.objects.count() == before
    assert tablet.get("/api/v1/cage/balance/").json()["chips_with_players"] == 0


def test_redemption_up_to_the_chips_held_away_from_the_tables(
    tablet: TabletClient, cashier: TabletClient, players: list
) -> None:
    a = players[0]
    table_id = _table(tablet)
    assert (
        cashier.post("/api/v1/cage/sales/", {"player_id": a.id, "amount": 3000}).status_code == 201
    )
    tablet.post(f"/api/v1/tables/{table_id}/seats/",
                {"player_id": a.id, "seat": 1, "buy_in": 1000, "paid_with": "chips"})  # fmt: skip
    assert cage.chips_held(a.id) == 2000  # 3,000 bought, 1,000 taken to the table
    _refused(
        cashier.post("/api/v1/cage/redemptions/", {"player_id": a.id, "amount": 2001}),
        "redemption_exceeds_holdings",
    )
    tablet.post(f"/api/v1/tables/{table_id}/seats/1/cash-out/")  # 1,000 back in his pocket
    assert cage.chips_held(a.id) == 3000
    r = cashier.post("/api/v1/cage/redemptions/", {"player_id": a.id, "amount": 3000})
    assert r.status_code == 201, r.json()
    assert r.json()["chips_with_players"] == 0
    assert cage.chips_held(a.id) == 0
    _refused(
        cashier.post("/api/v1/cage/redemptions/", {"player_id": a.id, "amount": 1}),
        "redemption_exceeds_holdings",
    )


def test_only_the_floor_overrides_with_a_reason_and_the_event_records_it(
    tablet: TabletClient, cashier: TabletClient, floor: TabletClient, players: list
) -> None:
    """B cashed out 2,000 in chips and handed them to A: the records show A holding none."""
    a, b = players[0], players[1]
    table_id = _table(tablet)
    tablet.post(f"/api/v1/tables/{table_id}/seats/",
                {"player_id": b.id, "seat": 1, "buy_in": 2000})  # fmt: skip
    tablet.post(f"/api/v1/tables/{table_id}/seats/1/cash-out/")
    url = "/api/v1/cage/redemptions/override/"
    body = {"player_id": a.id, "amount": 2000, "override_reason": "chips from player B"}
    assert cashier.post(url, body).status_code == 403
    before = StoredEvent.objects.count()
    assert floor.post(url, {"player_id": a.id, "amount": 2000}).status_code == 400
    assert StoredEvent.objects.count() == before
    r = floor.post(url, body)
    assert r.status_code == 201, r.json()
    event = StoredEvent.objects.get(type="cashgame.ChipsRedeemed")
    assert event.data["override_reason"] == "chips from player B"
    assert event.data["held"] == 0 and event.data["amount"] == 2000
    # who decided: the floor's device
    assert (event.metadata["actor"], event.metadata["device"]) == (
        f"device:{floor.device.pk}", "floor-pc")  # fmt: skip
    assert r.json()["chips_with_players"] == 0


def test_chips_in_circulation_never_go_negative_even_with_an_override(
    tablet: TabletClient, floor: TabletClient, players: list
) -> None:
    a = players[0]
    table_id = _table(tablet)
    tablet.post(f"/api/v1/tables/{table_id}/seats/",
                {"player_id": players[1].id, "seat": 1, "buy_in": 2000})  # fmt: skip
    tablet.post(f"/api/v1/tables/{table_id}/seats/1/cash-out/")  # 2,000 in players' hands
    before = StoredEvent.objects.count()
    body = _refused(
        floor.post("/api/v1/cage/redemptions/override/",
                   {"player_id": a.id, "amount": 2001, "override_reason": "floor says so"}),
        "chips_in_circulation_exceeded",
    )  # fmt: skip
    assert body["chips_with_players"] == 2000
    assert StoredEvent.objects.count() == before
    assert tablet.get("/api/v1/cage/balance/").json()["chips_with_players"] == 2000


def test_cage_balance_and_drop_report_agree_on_the_drop(
    tablet: TabletClient, cashier: TabletClient, players: list
) -> None:
    """A buys chips at the cage and buys in with them (not drop: the cash came in at the
    cage); B buys in and tops up with cash at the table (drop)."""
    a, b = players[0], players[1]
    with time_machine.travel(NOON, tick=False):
        table_id = _table(tablet)
        cashier.post("/api/v1/cage/sales/", {"player_id": a.id, "amount": 3000})
        with_chips = {"player_id": a.id, "seat": 1, "buy_in": 3000, "paid_with": "chips"}
        tablet.post(f"/api/v1/tables/{table_id}/seats/", with_chips)
        tablet.post(f"/api/v1/tables/{table_id}/seats/",
                    {"player_id": b.id, "seat": 2, "buy_in": 2000})  # fmt: skip
        tablet.post(f"/api/v1/tables/{table_id}/seats/2/top-up/", {"amount": 500})
        balance = tablet.get("/api/v1/cage/balance/").json()
        [row] = tablet.get("/api/v1/reports/drop/").json()["results"]
    assert balance["table_drop"] == row["drop"] == 2500
    assert (row["buy_ins"], row["top_ups"], row["paid_with_chips"]) == (5000, 500, 3000)


@pytest.mark.rule("BI-8")
@pytest.mark.parametrize("kind", ["buy_in", "top_up"])
def test_chips_brought_to_a_table_must_be_the_players_own(
    tablet: TabletClient, cashier: TabletClient, players: list, kind: str
) -> None:
    """A buy-in or top-up "paid with chips" brings the player's own chips from the cage
    (BI-8): QA seated a player who never bought a chip "with chips" another player bought,
    and the owner could then not redeem his own. More than the player holds is refused and
    nothing is recorded; up to what he holds it is accepted."""
    a, b = players[0], players[1]
    table_id = _table(tablet)
    seats = f"/api/v1/tables/{table_id}/seats/"
    if kind == "top_up":
        tablet.post(seats, {"player_id": b.id, "seat": 2, "buy_in": 1000})
    cashier.post("/api/v1/cage/sales/", {"player_id": a.id, "amount": 1500})
    cashier.post("/api/v1/cage/sales/", {"player_id": b.id, "amount": 1200})

    def bring(amount: int) -> Any:
        if kind == "buy_in":
            return tablet.post(seats, {"player_id": b.id, "seat": 1, "buy_in": amount,
                                       "paid_with": "chips"})  # fmt: skip
        return tablet.post(f"{seats}2/top-up/", {"amount": amount, "paid_with": "chips"})

    before = StoredEvent.objects.count()
    body = _refused(bring(1500), "buy_in_exceeds_holdings")  # a's chips, not b's
    assert (body["held"], body["rule"]) == (1200, "BI-8")
    assert StoredEvent.objects.count() == before
    assert tablet.get("/api/v1/cage/balance/").json()["chips_with_players"] == 2700
    assert bring(1200).status_code in (200, 201)
    assert tablet.get("/api/v1/cage/balance/").json()["chips_with_players"] == 1500
    redeemed = cashier.post("/api/v1/cage/redemptions/", {"player_id": a.id, "amount": 1500})
    assert redeemed.status_code in (200, 201), redeemed.json()
