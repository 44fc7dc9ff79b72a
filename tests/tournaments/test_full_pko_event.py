"""One whole progressive-knockout event through the API (issue #14 proof): a crash
rollback in the middle of a hand, a penalty sit-out with blinds posted, a chip race at the
colour-up break, an ICM deal at the final table confirmed by everyone, and the cage
balancing to the unit once every player is paid."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from casino.eventstore.commands import run_command
from casino.eventstore.models import StoredEvent
from tables.models import SeatView
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register
from tournaments import services

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


def count(tournament_id: int, event_type: str) -> int:
    return StoredEvent.objects.filter(
        stream=f"tournament-{tournament_id}", type=f"tournaments.{event_type}"
    ).count()


@pytest.mark.rule("DEAL-5")
@pytest.mark.rule("CR-1")
@pytest.mark.rule("CXL-1")
@pytest.mark.rule("PEN-2")
@pytest.mark.rule("BNTY-1")
def test_a_pko_event_from_registration_to_the_paid_deal(tablet: TabletClient) -> None:
    rng = random.Random(21)
    with time_machine.travel(T0, tick=False) as clock:
        tournament_id = create(
            tablet, denominations=[25, 100, 500, 1000], starting_stack=5025,
            bounty={"kind": "progressive", "amount": 200, "progressive_cash_bp": 5000},
        )  # fmt: skip
        register(tablet, tournament_id, 18)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
        base = f"/api/v1/tournaments/{tournament_id}"

        def tables() -> list[int]:
            return list(ok(tablet.get(f"{base}/"))["tables"])

        # a hand in progress when the server crashes goes back to its start stacks
        first = tables()[0]
        before = dict(SeatView.objects.filter(table_id=first).values_list("player_id", "stack"))
        hand = ok(tablet.post(f"/api/v1/tables/{first}/hands/", {}))
        legal = hand["legal"]
        ok(tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/",
                       {"seat": legal["seat"], "action": "call"}))  # fmt: skip
        ok(tablet.post(f"{base}/crash-rollback/", {"reason": "server crash"}))
        after = dict(SeatView.objects.filter(table_id=first).values_list("player_id", "stack"))
        assert after == before

        # a sit-out: dealt in and posting, his hand killed by the dealer
        offender = next(iter(before))
        ok(tablet.post(f"{base}/penalties/issue/", {
            "player_id": offender, "offence": "abuse", "reason": "abusive language",
            "kind": "sit_out", "hands": 2, "override": True,
        }))  # fmt: skip
        for table_id in tables():
            play_hand(tablet, table_id, rng, all_in=0.1)
        clock.shift(timedelta(minutes=20))
        run_command(lambda: services.run_clock(tournament_id=tournament_id))
        for table_id in tables():
            play_hand(tablet, table_id, rng, all_in=0.1)
        clock.shift(timedelta(minutes=20))
        run_command(lambda: services.run_clock(tournament_id=tournament_id))  # the break
        assert count(tournament_id, "ChipRaceRun") >= 1
        stacks = SeatView.objects.filter(tournament_id=tournament_id).values_list("stack")
        assert all(s % 100 == 0 for (s,) in stacks)
        ok(tablet.post(f"{base}/breaks/end/", {}))

        # play down to five players or fewer at the final table
        for _ in range(400):
            t = ok(tablet.get(f"{base}/"))
            if t["clock"]["players_left"] <= 5 or t["status"] != "running":
                break
            for table_id in t["tables"]:
                play_hand(tablet, table_id, rng, all_in=0.15)
        assert t["status"] == "running" and len(t["tables"]) == 1
        entries = ok(tablet.get(f"{base}/entries/"))
        left = [e["player_id"] for e in entries if e["status"] == "playing" and e["stack"]]
        for pid in left:
            ok(tablet.post(f"{base}/deal/requests/", {"player_id": pid}))
        deal = ok(tablet.post(f"{base}/deal/proposals/", {"method": "icm"}))
        for pid in left:
            deal = ok(tablet.post(f"{base}/deal/confirmations/", {"player_id": pid}))
        assert deal["agreed"] is not None
        t = ok(tablet.get(f"{base}/"))
        assert t["status"] == "finished"
    assert count(tournament_id, "HandsRolledBack") == 1
    assert count(tournament_id, "PenaltyStarted") == 1
    assert count(tournament_id, "BountyCollected") >= 14  # every bust, and the winner's own

    # the cashier pays everyone the same evening; the cage balances to the unit
    with time_machine.travel(T0 + timedelta(hours=3), tick=False):
        paid = 0
        for e in ok(tablet.get(f"{base}/entries/")):
            r = tablet.post(f"{base}/payments/", {"player_id": e["player_id"]})
            assert r.status_code in (200, 422), r.json()
            if r.status_code == 200:
                paid += r.json()["paid"]
        pool, bounties = t["clock"]["prize_pool"], 18 * 200
        assert paid == pool + bounties
        cage = ok(tablet.get("/api/v1/cage/balance/?day=2026-11-20"))
        assert cage["tournament_cash_in"] == 18 * (500 + 100 + 200)
        assert cage["tournament_cash_out"] == pool + bounties
        assert cage["tournament_money_held"] == 0
        assert cage["tournament_cash_in"] - cage["tournament_cash_out"] == cage["tournament_fees"]
