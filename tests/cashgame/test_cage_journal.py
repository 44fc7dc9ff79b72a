"""The cage journal: every movement of money through the cage with who recorded it, the
same for every desk, adding up to the day's cage balance. Before it, a desk's journal
lived in its browser, and cash a director took for a registration was in none."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine

from casino.models import Device, Player
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 21, 11, 0, tzinfo=UTC)
DAY = "date_from=2026-11-21&date_to=2026-11-21"


def desk(name: str, role: str) -> TabletClient:
    return TabletClient(Device.objects.create(name=name, role=role))


def test_the_journal_lists_every_desks_movements_and_adds_up_to_the_balance() -> None:
    cage1, cage2 = desk("cage-1", Device.Role.CASHIER), desk("cage-2", Device.Role.CASHIER)
    director = desk("td-desk", Device.Role.DIRECTOR)
    ana, ben = (Player.objects.create(name=n) for n in ("Ana", "Ben"))
    with time_machine.travel(NOON, tick=False):
        ok(cage1.post("/api/v1/cage/sales/", {"player_id": ana.pk, "amount": 3000}))
        ok(cage2.post("/api/v1/cage/redemptions/", {"player_id": ana.pk, "amount": 1200}))
        tournament = create(director)
        ok(director.post(f"/api/v1/tournaments/{tournament}/registrations/",
                         {"player_id": ben.pk}))  # fmt: skip
        ok(cage2.post(f"/api/v1/tournaments/{tournament}/unregistrations/",
                      {"player_id": ben.pk}))  # fmt: skip
        journal = ok(cage1.get(f"/api/v1/cage/journal/?{DAY}"))
        balance = ok(cage1.get("/api/v1/cage/balance/"))
    rows = [
        (r["kind"], r["direction"], r["amount"], r["player_id"], r["tournament_id"],
         r["actor_name"])
        for r in journal["results"]
    ]  # fmt: skip
    assert rows == [
        ("sold", "in", 3000, ana.pk, None, "cage-1"),
        ("redeemed", "out", 1200, ana.pk, None, "cage-2"),
        ("buy_in", "in", 500, ben.pk, tournament, "td-desk"),  # the director took the cash
        ("fee", "in", 100, ben.pk, tournament, "td-desk"),
        ("fee", "out", 100, ben.pk, tournament, "cage-2"),  # TREG-10: the fee goes back too
        ("refund", "out", 500, ben.pk, tournament, "cage-2"),
    ]
    assert journal["count"] == 6
    assert [r["actor"] for r in journal["results"][:2]] == [
        f"device:{cage1.device.pk}",
        f"device:{cage2.device.pk}",
    ]
    assert all(r["cash"] and r["at"] == "2026-11-21T11:00:00Z" for r in journal["results"])
    # one operation, one request: the unregistration's refund and fee share it
    requests = [r["request_id"] for r in journal["results"]]
    assert requests[4] == requests[5] and requests[2] == requests[3]
    assert len({requests[0], requests[1], requests[2], requests[4]}) == 4
    cash_in = sum(r["amount"] for r in journal["results"] if r["direction"] == "in")
    cash_out = sum(r["amount"] for r in journal["results"] if r["direction"] == "out")
    assert cash_in == balance["cash_in"] + balance["tournament_cash_in"] == 3600
    assert cash_out == balance["cash_out"] + balance["tournament_cash_out"] == 1800


def test_the_journal_keeps_to_its_days_and_downloads_as_csv() -> None:
    cashier = desk("cage-1", Device.Role.CASHIER)
    ana = Player.objects.create(name="Ana")
    with time_machine.travel(NOON, tick=False):
        ok(cashier.post("/api/v1/cage/sales/", {"player_id": ana.pk, "amount": 700}))
    with time_machine.travel(datetime(2026, 11, 22, 11, 0, tzinfo=UTC), tick=False):
        ok(cashier.post("/api/v1/cage/sales/", {"player_id": ana.pk, "amount": 900}))
    day = ok(cashier.get(f"/api/v1/cage/journal/?{DAY}"))
    assert [r["amount"] for r in day["results"]] == [700]
    both = ok(cashier.get("/api/v1/cage/journal/?date_from=2026-11-21"))
    assert [r["amount"] for r in both["results"]] == [700, 900]
    csv = cashier.get(f"/api/v1/cage/journal/?format=csv&{DAY}")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    header, line = csv.content.decode().strip().splitlines()
    assert header.split(",")[:6] == ["position", "at", "kind", "direction", "cash", "amount"]
    assert ",sold,in,True,700," in line or ",sold,in,true,700," in line
    assert f",device:{cashier.device.pk},cage-1," in line


def test_the_journal_refuses_a_bad_range_and_other_roles() -> None:
    cashier = desk("cage-1", Device.Role.CASHIER)
    bad = cashier.get("/api/v1/cage/journal/?date_from=2026-11-22&date_to=2026-11-21")
    assert bad.status_code == 400
    assert cashier.get("/api/v1/cage/journal/?date_from=yesterday").status_code == 400
    assert cashier.get("/api/v1/cage/journal/?player=1").status_code == 400  # not a filter
    manager = desk("office", Device.Role.MANAGER)
    assert manager.get("/api/v1/cage/journal/").status_code == 200
    dealer = desk("tablet-9", Device.Role.DEALER)
    assert dealer.get("/api/v1/cage/journal/").status_code == 403


def test_a_download_above_the_row_limit_is_refused_not_cut_short(monkeypatch: Any) -> None:
    """A CSV used to stop at ``CSV_ROW_LIMIT`` rows with no sign of the rows left out."""
    monkeypatch.setattr("cashgame.reports.CSV_ROW_LIMIT", 2)
    cashier = desk("cage-1", Device.Role.CASHIER)
    ana = Player.objects.create(name="Ana")
    with time_machine.travel(NOON, tick=False):
        for amount in (100, 200):
            ok(cashier.post("/api/v1/cage/sales/", {"player_id": ana.pk, "amount": amount}))
        assert cashier.get(f"/api/v1/cage/journal/?format=csv&{DAY}").status_code == 200
        ok(cashier.post("/api/v1/cage/sales/", {"player_id": ana.pk, "amount": 300}))
    refused = cashier.get(f"/api/v1/cage/journal/?format=csv&{DAY}")
    assert refused.status_code == 400
    assert refused["Content-Type"].startswith("application/json")
    assert (refused.json()["code"], refused.json()["row_limit"]) == ("csv_too_large", 2)
    assert len(ok(cashier.get(f"/api/v1/cage/journal/?{DAY}"))["results"]) == 3  # JSON pages
