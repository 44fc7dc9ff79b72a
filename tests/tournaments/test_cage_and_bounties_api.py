"""Tournament money in the cage (issue #14): buy-ins, fees, bounties, rebuys and add-ons
are cage transactions, prizes and bounties are paid at the cage, and at the end of a
progressive-knockout tournament the cage balances to the unit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cashgame.models import TournamentCageTransaction
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register

pytestmark = pytest.mark.django_db


def run_to_the_end(tablet: TabletClient, tournament_id: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    for _ in range(500):
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
        if t["status"] == "finished":
            return dict(t)
        for table_id in t["tables"]:
            play_hand(tablet, table_id, rng)
    raise AssertionError("the tournament did not finish")


@pytest.mark.rule("BNTY-1")
@pytest.mark.rule("BNTY-2")
@pytest.mark.rule("BNTY-5")
@pytest.mark.rule("ELIM-6")
def test_a_progressive_knockout_event_balances_the_cage_to_the_unit(
    tablet: TabletClient,
) -> None:
    bounty = {"kind": "progressive", "amount": 200, "progressive_cash_bp": 5000}
    tournament_id = create(tablet, bounty=bounty)
    ids = register(tablet, tournament_id, 10)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/unregistrations/",
                   {"player_id": ids[-1]}))  # fmt: skip
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    t = run_to_the_end(tablet, tournament_id, seed=5)
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    paid_total = 0
    for player in sorted({e["player_id"] for e in entries if e["status"] != "unregistered"}):
        r = tablet.post(f"/api/v1/tournaments/{tournament_id}/payments/", {"player_id": player})
        if r.status_code == 422:
            assert r.json()["code"] == "nothing_owed"
            continue
        paid_total += ok(r)["paid"]
    # every player paid: a second payment finds nothing owed
    r = tablet.post(f"/api/v1/tournaments/{tournament_id}/payments/", {"player_id": ids[0]})
    assert r.status_code == 422 and r.json()["code"] == "nothing_owed"
    rows = TournamentCageTransaction.objects.filter(tournament_id=tournament_id)
    by_kind: dict[str, int] = {}
    for row in rows:
        by_kind[row.kind] = by_kind.get(row.kind, 0) + row.amount
    assert by_kind["buy_in"] == 10 * 500 and by_kind["fee"] == 10 * 100 + 100
    assert by_kind["bounty_in"] == 10 * 200 and by_kind["refund"] == 500 + 200
    fee_back = rows.filter(kind="fee", direction="out").values_list("amount", flat=True)
    assert list(fee_back) == [100]
    # bounty money is conserved: all 9 bounties paid out, the winner's own included
    assert by_kind["bounty_paid"] == 9 * 200
    assert by_kind["prize"] == t["clock"]["prize_pool"] == 9 * 500
    assert paid_total == 9 * 500 + 9 * 200
    cage = ok(tablet.get("/api/v1/cage/balance/"))
    assert cage["tournament_cash_in"] == 10 * (500 + 100 + 200)
    assert cage["tournament_cash_out"] == 800 + 9 * 500 + 9 * 200  # refund 800 with its fee
    assert cage["tournament_fees"] == 9 * 100
    # to the unit: what came in minus what went out is exactly the house's fees
    assert cage["tournament_cash_in"] - cage["tournament_cash_out"] == cage["tournament_fees"]
    assert cage["tournament_money_held"] == 0
    assert cage["reconciled"] is True  # tournament chips are not cash chips


@pytest.mark.rule("ELIM-9")
def test_held_winnings_are_refused_at_the_cage_until_released(tablet: TabletClient) -> None:
    tournament_id = create(tablet)
    register(tablet, tournament_id, 9)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    t = run_to_the_end(tablet, tournament_id, seed=8)
    winner = t["winner_player_id"]
    base = f"/api/v1/tournaments/{tournament_id}"
    ok(tablet.post(f"{base}/holds/", {"player_id": winner, "reason": "integrity review"}))
    r = tablet.post(f"{base}/payments/", {"player_id": winner})
    assert r.status_code == 422 and r.json()["code"] == "winnings_held", r.json()
    assert r.json()["rule"] == "ELIM-9"
    ok(tablet.post(f"{base}/holds/release/", {"player_id": winner, "reason": "cleared"}))
    entries = ok(tablet.get(f"{base}/entries/"))
    prize = next(e["prize"] for e in entries if e["player_id"] == winner and e["place"] == 1)
    assert ok(tablet.post(f"{base}/payments/", {"player_id": winner}))["paid"] == prize
    # paid, the event over: nothing is left to hold (it was held and listed, QA)
    late = tablet.post(f"{base}/holds/", {"player_id": winner, "reason": "after paid"})
    assert (late.status_code, late.json()["code"], late.json()["rule"]) == (
        422, "nothing_owed", "ELIM-9",
    )  # fmt: skip
    assert all(o["player_id"] != winner for o in ok(tablet.get(f"{base}/payments/")))


@pytest.mark.rule("ELIM-9")
def test_a_hold_on_a_player_owed_nothing_yet_is_listed_and_a_release_needs_a_hold(
    tablet: TabletClient,
) -> None:
    """The director holds a player under review before he has won anything: the owed list
    (what the director's console shows) says so, and releasing a player never held is
    refused."""
    tournament_id = create(tablet)
    players = register(tablet, tournament_id, 9)
    base = f"/api/v1/tournaments/{tournament_id}"
    ok(tablet.post(f"{base}/start/", {"reserve_tables": 0}))
    suspect, other = players[0], players[1]
    ok(tablet.post(f"{base}/holds/", {"player_id": suspect, "reason": "chip dumping review"}))
    owed = ok(tablet.get(f"{base}/payments/"))
    assert [(o["player_id"], o["prize"], o["held"]) for o in owed] == [(suspect, 0, True)]
    r = tablet.post(f"{base}/holds/release/", {"player_id": other, "reason": "cleared"})
    assert (r.status_code, r.json()["code"]) == (422, "not_held")
