"""Satellites and T-Money through the API (TREG-11): a satellite pays seats in its target
event (each worth the target's buy-in + fee), the leftover in cash; its winners are
registered straight into the target (seated in during late registration); a seat given
back, or one that cannot be used, is T-Money, never cash; T-Money buys other entries. The
cage balances to the koruna throughout."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine

from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)
SATELLITE = {"name": "Satellite to the Main", "buy_in": 100, "fee": 20, "min_entrants": 2}


def _play_to_the_end(tablet: TabletClient, tournament_id: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    for _ in range(3000):
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
        if t["status"] == "finished":
            return dict(t)
        for table_id in t["tables"]:
            play_hand(tablet, table_id, rng, all_in=1.0)
    pytest.fail("the satellite did not finish")


def _cage(tablet: TabletClient) -> dict[str, Any]:
    return dict(ok(tablet.get("/api/v1/cage/balance/")))


def _assert_cage_balances(cage: dict[str, Any]) -> None:
    assert cage["tournament_cash_in"] == (
        cage["tournament_fees"] + cage["tournament_cash_out"] + cage["tournament_money_held"]
        + cage["tournament_t_money_outstanding"]
    ), cage  # fmt: skip


def _t_money(tablet: TabletClient, player_id: int) -> int:
    return int(ok(tablet.get(f"/api/v1/players/{player_id}/t-money/"))["balance"])


@pytest.mark.rule("TREG-11")
def test_satellite_seats_register_their_winners_and_a_seat_given_back_is_t_money(
    tablet: TabletClient,
) -> None:
    with time_machine.travel(T0, tick=False):
        main = create(tablet, name="Main 500", min_entrants=2)  # seat = 500 + 100
        other = create(tablet, name="Side 300", buy_in=300, fee=50, min_entrants=2)
        satellite = create(tablet, **SATELLITE, satellite_target=main)
        t = ok(tablet.get(f"/api/v1/tournaments/{satellite}/"))
        assert t["config"]["satellite_seat_value"] == 600
        players = register(tablet, satellite, 13)  # pool 1,300: 2 seats, 100 in cash
        ok(tablet.post(f"/api/v1/tournaments/{satellite}/start/", {}))
        done = _play_to_the_end(tablet, satellite, seed=11)
        entries = ok(tablet.get(f"/api/v1/tournaments/{satellite}/entries/"))
        prizes = {e["player_id"]: e["prize"] for e in entries}
        assert sum(prizes.values()) == 1300
        # 600 a seat, the leftover in cash; players tied on the bubble share (ELIM-3/4)
        seats = {pid: p // 600 for pid, p in prizes.items() if p >= 600}
        cash = {pid: p % 600 for pid, p in prizes.items() if p % 600}
        assert done["winner_player_id"] in seats and sum(seats.values()) >= 1
        if sum(seats.values()) == 2:  # the leftover 100 to 3rd (split if 3rd-4th tied)
            ranked = sorted(prizes.values(), reverse=True)
            assert ranked[:2] == [600, 600] and sum(ranked[2:]) == 100 and ranked[2] > 0
        winners = sorted(seats)

        main_entries = ok(tablet.get(f"/api/v1/tournaments/{main}/entries/"))
        assert sorted(e["player_id"] for e in main_entries) == winners
        assert all(e["status"] == "registered" for e in main_entries)
        # what the cage owes: the cash part only, the seats beside it (the cashier's list)
        owed = {
            o["player_id"]: o for o in ok(tablet.get(f"/api/v1/tournaments/{satellite}/payments/"))
        }
        assert {pid: o["prize"] for pid, o in owed.items() if o["prize"]} == cash
        assert {pid: o["seats_won"] for pid, o in owed.items() if o["seats_won"]} == {
            pid: n * 600 for pid, n in seats.items()
        }
        for pid in prizes:  # a seat is paid by the seat: only the cash part at the cage
            r = tablet.post(f"/api/v1/tournaments/{satellite}/payments/", {"player_id": pid})
            if pid in cash:
                assert r.status_code == 200 and ok(r)["paid"] == cash[pid], r.json()
            else:
                assert r.status_code == 422, r.json()
        cage = _cage(tablet)
        used = len(main_entries)
        assert cage["tournament_cash_in"] == 13 * 120
        assert cage["tournament_cash_out"] == sum(cash.values())
        assert cage["tournament_fees"] == 13 * 20 + used * 100  # the main's fees, by seats
        assert cage["tournament_money_held"] == used * 500  # the main's pool
        assert cage["tournament_t_money_outstanding"] == 600 * (sum(seats.values()) - used)
        _assert_cage_balances(cage)
        outstanding = cage["tournament_t_money_outstanding"]

        # a seat won is given back: T-Money, not cash (TREG-11)
        seated = winners[0]
        r = ok(tablet.post(f"/api/v1/tournaments/{main}/unregistrations/", {"player_id": seated}))
        assert r["refund"] == 600
        assert _t_money(tablet, seated) == 600 * seats[seated]
        cage = _cage(tablet)
        assert cage["tournament_cash_out"] == sum(cash.values())  # no cash left the cage
        assert cage["tournament_t_money_outstanding"] == outstanding + 600
        _assert_cage_balances(cage)

        # T-Money buys another entry; not enough of it buys nothing
        ok(tablet.post(f"/api/v1/tournaments/{other}/registrations/",
                       {"player_id": seated, "pay_with": "t_money"}))  # fmt: skip
        assert _t_money(tablet, seated) == 600 * seats[seated] - 350
        poor = next(pid for pid in players if pid not in winners)
        before = ok(tablet.get(f"/api/v1/tournaments/{other}/"))["version"]
        r = tablet.post(f"/api/v1/tournaments/{other}/registrations/",
                        {"player_id": poor, "pay_with": "t_money"})  # fmt: skip
        assert r.status_code == 422 and r.json()["code"] == "insufficient_t_money", r.json()
        assert ok(tablet.get(f"/api/v1/tournaments/{other}/"))["version"] == before  # nothing
        cage = _cage(tablet)
        assert cage["tournament_t_money_outstanding"] == outstanding + 250
        assert cage["tournament_cash_in"] == 13 * 120  # still no new cash
        _assert_cage_balances(cage)
        moves = ok(tablet.get(f"/api/v1/players/{seated}/t-money/"))["moves"]
        assert [(m["kind"], m["amount"]) for m in moves][-2:] == [("credit", 600), ("spend", 350)]
        assert moves[-1]["balance"] == _t_money(tablet, seated)


@pytest.mark.rule("TREG-11")
def test_a_satellite_ending_in_late_registration_seats_its_winners_straight_in(
    tablet: TabletClient,
) -> None:
    with time_machine.travel(T0, tick=False):
        main = create(tablet, name="Main 500", min_entrants=2, late_reg_until_level=3)
        register(tablet, main, 4, prefix="M")
        satellite = create(tablet, **SATELLITE, satellite_target=main)
        players = register(tablet, satellite, 6)  # pool 600: one seat, nothing left over
        ok(tablet.post(f"/api/v1/tournaments/{main}/start/", {}))
        ok(tablet.post(f"/api/v1/tournaments/{satellite}/start/", {}))
        done = _play_to_the_end(tablet, satellite, seed=3)
        winner = done["winner_player_id"]
        assert winner in players
        entry = next(e for e in ok(tablet.get(f"/api/v1/tournaments/{main}/entries/"))
                     if e["player_id"] == winner)  # fmt: skip
        assert entry["status"] == "playing" and entry["table_id"] is not None
        assert entry["stack"] == 5000
        assert _t_money(tablet, winner) == 0
        _assert_cage_balances(_cage(tablet))


@pytest.mark.rule("TREG-11")
def test_a_seat_that_cannot_be_used_becomes_t_money(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False):
        main = create(tablet, name="Main 500", min_entrants=2)
        satellite = create(tablet, **SATELLITE, satellite_target=main)
        players = register(tablet, satellite, 6)
        for pid in players:  # everyone holds a main entry already (TREG-9: one each)
            ok(tablet.post(f"/api/v1/tournaments/{main}/registrations/", {"player_id": pid}))
        ok(tablet.post(f"/api/v1/tournaments/{satellite}/start/", {}))
        done = _play_to_the_end(tablet, satellite, seed=5)
        assert _t_money(tablet, done["winner_player_id"]) == 600
        assert len(ok(tablet.get(f"/api/v1/tournaments/{main}/entries/"))) == 6
        cage = _cage(tablet)
        assert cage["tournament_t_money_outstanding"] == 600
        _assert_cage_balances(cage)


def test_a_satellite_needs_an_event_still_to_play(tablet: TabletClient) -> None:
    r = tablet.post("/api/v1/tournaments/", {
        **_structure(), **SATELLITE, "satellite_target": 999,
    })  # fmt: skip
    assert r.status_code == 422 and r.json()["code"] == "invalid_satellite_target", r.json()
    r = tablet.post("/api/v1/tournaments/", {**_structure(), "satellite_seat_value": 1})
    assert r.status_code == 400  # the seat value is the target's, never given


def _structure() -> dict[str, Any]:
    from tests.tournaments.play import STRUCTURE

    return dict(STRUCTURE)


@pytest.mark.rule("CXL-3")
@pytest.mark.rule("TREG-11")
def test_a_rollback_refunds_in_the_mix_of_funds_paid(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False):
        main = create(tablet, name="Main 500", min_entrants=2)
        other = create(tablet, name="Side 300", buy_in=300, fee=50, min_entrants=2)
        satellite = create(tablet, **SATELLITE, satellite_target=main)
        players = register(tablet, satellite, 6)
        for pid in players:  # so the seat becomes T-Money
            ok(tablet.post(f"/api/v1/tournaments/{main}/registrations/", {"player_id": pid}))
        ok(tablet.post(f"/api/v1/tournaments/{satellite}/start/", {}))
        winner = _play_to_the_end(tablet, satellite, seed=5)["winner_player_id"]
        ok(tablet.post(f"/api/v1/tournaments/{other}/registrations/",
                       {"player_id": winner, "pay_with": "t_money"}))  # fmt: skip
        register(tablet, other, 2, prefix="S")  # cash entries
        assert _t_money(tablet, winner) == 250
        ok(tablet.post(f"/api/v1/tournaments/{other}/cancel/",
                       {"method": "rollback", "reason": "power cut"}))  # fmt: skip
        shares = ok(tablet.get(f"/api/v1/tournaments/{other}/settlement/"))["shares"]
        mine = next(x for x in shares if x["player_id"] == winner)
        assert (mine["refund"], mine["t_money"], mine["t_money_fees"]) == (350, 350, 50)
        assert _t_money(tablet, winner) == 600  # back as T-Money, not cash
        r = tablet.post(f"/api/v1/tournaments/{other}/payments/", {"player_id": winner})
        assert r.status_code == 422 and r.json()["code"] == "nothing_owed", r.json()
        cash = [x for x in shares if x["player_id"] != winner]
        assert all(x["refund"] == 350 and x["t_money"] == 0 for x in cash)
        for x in cash:
            ok(tablet.post(f"/api/v1/tournaments/{other}/payments/",
                           {"player_id": x["player_id"]}))  # fmt: skip
        cage = _cage(tablet)
        assert cage["tournament_t_money_outstanding"] == 600
        _assert_cage_balances(cage)
