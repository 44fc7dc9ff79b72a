"""Through the API: a crash rollback in the middle of a hand (CXL-1), a penalty sit-out
during which the player is dealt in and posts his blinds with his hand killed (PEN-2), and
a cancellation rolled forward in the money, settled at the cage to the unit (CXL-5)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from casino.eventstore.models import StoredEvent
from tables.models import SeatView
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register
from tournaments.tasks import sweep_clocks

pytestmark = pytest.mark.django_db


def begin(tablet: TabletClient, players: int = 9, **changes: Any) -> tuple[int, int]:
    tournament_id = create(tablet, **changes)
    register(tablet, tournament_id, players)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    (table_id,) = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["tables"]
    return tournament_id, table_id


def shove_out(tablet: TabletClient, hand: dict[str, Any]) -> dict[str, Any]:
    """Play ``hand`` out through the dealer API: everybody all in (or calling), the board
    2c7d9h Js 3d, the lowest live seat winning each pot; the finished hand."""
    base = f"/api/v1/hands/{hand['hand_id']}"
    boards = iter([("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")])
    while hand["phase"] != "complete":
        if hand["phase"] == "betting":
            legal = hand["legal"]
            action = "all_in" if (legal["can_bet"] or legal["can_raise"]) else "call"
            hand = ok(tablet.post(f"{base}/actions/", {"seat": legal["seat"], "action": action}))
        elif hand["next_street"]:
            street, cards = next(boards)
            hand = ok(tablet.post(f"{base}/board/", {"street": street, "cards": cards}))
        else:
            live = sorted(s["seat"] for s in hand["seats"] if not s["folded"])
            winners = [[sorted(set(p["eligible_seats"]) & set(live))[0]] for p in hand["pots"]]
            hand = ok(tablet.post(f"{base}/award/", {"winners_by_pot": winners}))
    return hand


def stacks(table_id: int) -> dict[int, int]:
    return dict(SeatView.objects.filter(table_id=table_id).values_list("player_id", "stack"))


@pytest.mark.rule("CXL-1")
def test_a_crash_in_the_middle_of_a_hand_rolls_it_back_to_the_start_stacks(
    tablet: TabletClient,
) -> None:
    tournament_id, table_id = begin(tablet)
    rng = random.Random(1)
    play_hand(tablet, table_id, rng, all_in=0.0)
    before = stacks(table_id)
    hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
    for _ in range(3):  # a few actions: chips go into the pot
        legal = hand["legal"]
        action = "call" if legal["to_call"] else "check"
        hand = ok(tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/",
                              {"seat": legal["seat"], "action": action}))  # fmt: skip
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/crash-rollback/",
                   {"reason": "server crash"}))  # fmt: skip
    assert stacks(table_id) == before
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    assert {e["player_id"]: e["stack"] for e in entries if e["status"] == "playing"} == before
    assert StoredEvent.objects.filter(type="tables.HandVoided").count() == 1
    assert play_hand(tablet, table_id, rng) is not None  # play resumes


@pytest.mark.rule("PEN-2")
@pytest.mark.rule("PEN-1")
def test_a_sit_out_player_is_dealt_in_posts_his_blinds_and_his_hand_is_killed(
    tablet: TabletClient,
) -> None:
    tournament_id, table_id = begin(tablet)
    player = next(iter(stacks(table_id)))
    base = f"/api/v1/tournaments/{tournament_id}/penalties"
    ok(tablet.post(f"{base}/issue/", {"player_id": player, "offence": "abuse",
                                      "reason": "abusive language", "kind": "sit_out",
                                      "orbits": 1, "override": True}))  # fmt: skip
    sitting = ok(tablet.get(f"{base}/"))["sitting_out"]
    assert sitting == [{"player_id": player, "hands_left": 9}]
    seat = SeatView.objects.get(table_id=table_id, player_id=player).seat
    posted = 0
    for _ in range(9):
        hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
        started = StoredEvent.objects.filter(
            stream=f"hand-{hand['hand_id']}", type="tables.HandStarted"
        ).get()
        seats_in = [s["seat"] for s in started.data["seats"]]
        assert seat in seats_in  # still dealt in
        assert next(s for s in hand["seats"] if s["seat"] == seat)["folded"]  # killed at once
        posted += sum(1 for p in started.data["posts"] if p["seat"] == seat and p["amount"])
        base_hand = f"/api/v1/hands/{hand['hand_id']}"
        while hand["phase"] != "complete":
            if hand["phase"] == "betting":
                legal = hand["legal"]
                if legal["seat"] == seat:  # his hand is killed
                    body = {"seat": seat, "action": "fold" if legal["can_fold"] else "check"}
                else:
                    body = {"seat": legal["seat"], "action": "fold" if legal["to_call"]
                            else "check"}  # fmt: skip
                hand = ok(tablet.post(f"{base_hand}/actions/", body))
            elif hand["next_street"]:
                street, cards = {"flop": ("flop", "2c7d9h"), "turn": ("turn", "Js"),
                                 "river": ("river", "3d")}[hand["next_street"]]  # fmt: skip
                hand = ok(tablet.post(f"{base_hand}/board/", {"street": street, "cards": cards}))
            else:
                live = [s["seat"] for s in hand["seats"] if not s["folded"]]
                winners = [[live[0]] for _ in hand["pots"]]
                hand = ok(tablet.post(f"{base_hand}/award/", {"winners_by_pot": winners}))
    assert posted >= 2  # small and big blind during the orbit
    assert ok(tablet.get(f"{base}/"))["sitting_out"] == []


@pytest.mark.rule("CXL-5")
@pytest.mark.rule("CXL-2")
def test_a_cancellation_rolled_forward_in_the_money_is_settled_at_the_cage(
    tablet: TabletClient,
) -> None:
    tournament_id, table_id = begin(tablet, bounty={"kind": "knockout", "amount": 100})
    rng = random.Random(4)
    for _ in range(300):
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
        if t["clock"]["players_left"] <= t["clock"]["places_paid"] or t["status"] != "running":
            break
        play_hand(tablet, table_id, rng)
    assert t["status"] == "running" and t["clock"]["players_left"] == 2
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/cancel/",
                   {"method": "roll_forward", "reason": "power cut"}))  # fmt: skip
    # the event is over: its players leave their seats and its tables close
    table = ok(tablet.get(f"/api/v1/tables/{table_id}/"))
    assert (table["status"], table["seats"]) == ("closed", [])
    settlement = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/settlement/"))
    assert settlement["in_the_money"] is True and settlement["policy_version"] == "2026-11-v1"
    assert sum(x["prize"] for x in settlement["shares"]) == 9 * 500
    # the cage pays exactly the players the tournament lists as owed (settlement shares,
    # bounties won); once paid, nothing is owed and no money is left held
    payments = f"/api/v1/tournaments/{tournament_id}/payments/"
    owed = ok(tablet.get(payments))
    assert sum(o["prize"] for o in owed) == sum(
        x["refund"] + x["prize"] - x["t_money"] for x in settlement["shares"]
    )
    for o in owed:
        r = tablet.post(payments, {"player_id": o["player_id"]})
        assert ok(r)["paid"] == o["prize"] + o["bounties"]
    assert ok(tablet.get(payments)) == []
    cage = ok(tablet.get("/api/v1/cage/balance/"))
    assert cage["tournament_money_held"] == 0  # every koruna paid in is paid out or kept
    assert cage["tournament_cash_in"] - cage["tournament_cash_out"] == cage["tournament_fees"]
    assert cage["tournament_fees"] == 9 * 100 - 2 * 100  # the two remaining got fees back


@pytest.mark.rule("TREG-14")
def test_a_busted_players_rebuy_before_the_next_deal_through_the_api(
    tablet: TabletClient,
) -> None:
    rebuy = {"allowed": True, "max_per_player": 3, "until_level": 3, "price": 500, "fee": 0}
    tournament_id, table_id = begin(tablet, rebuy=rebuy)
    players = set(stacks(table_id))
    hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
    for player in players:  # each says: "if I lose this one, I rebuy"
        answer = ok(
            tablet.post(f"/api/v1/tournaments/{tournament_id}/rebuys/", {"player_id": player})
        )
        assert player in answer["pending_rebuys"]  # conditional: nothing taken yet (QA)
    shove_out(tablet, hand)
    stream = f"tournament-{tournament_id}"
    rebuys = StoredEvent.objects.filter(stream=stream, type="tournaments.RebuyTaken")
    assert rebuys.count() >= 1  # the busted players bought back in
    assert not StoredEvent.objects.filter(stream=stream, type="tournaments.PlayerEliminated")
    assert set(stacks(table_id)) == players and all(v > 0 for v in stacks(table_id).values())
    assert ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["pending_rebuys"] == []


@pytest.mark.rule("TREG-14")
def test_a_busted_player_rebuys_at_the_cage_after_the_hand_before_the_next_deal(
    tablet: TabletClient,
) -> None:
    """The cashier sells the rebuy after the dealer recorded the hand that busted him:
    he is back in his seat with the rebuy's chips and is dealt the next hand. It was
    refused as "not in play" (found by QA); once the table deals again it is. Two busted
    with equal stacks shared 8th-9th: the one who did not rebuy finishes 9th alone."""
    rebuy = {"allowed": True, "max_per_player": 3, "until_level": 3, "price": 500, "fee": 50}
    tournament_id, table_id = begin(tablet, rebuy=rebuy)
    url = f"/api/v1/tournaments/{tournament_id}"
    before = dict(SeatView.objects.filter(table_id=table_id).values_list("player_id", "seat"))
    hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
    late = sorted(before, key=before.__getitem__)[-2:]  # the two highest seats lose all
    for player in set(before) - set(late):  # the others rebuy during the hand, if busted
        ok(tablet.post(f"{url}/rebuys/", {"player_id": player}))
    shove_out(tablet, hand)
    out = {e["player_id"]: e for e in ok(tablet.get(f"{url}/entries/"))
           if e["status"] == "eliminated"}  # fmt: skip
    assert set(out) == set(late)
    assert {(e["place"], e["place_to"]) for e in out.values()} == {(8, 9)}
    assert set(ok(tablet.get(f"{url}/"))["rebuy_after_bust"]) == set(late)
    first, second = late
    cash_in = ok(tablet.get("/api/v1/cage/balance/"))["tournament_cash_in"]
    ok(tablet.post(f"{url}/rebuys/", {"player_id": first}))
    entries = {e["player_id"]: e for e in ok(tablet.get(f"{url}/entries/"))}
    mine = entries[first]
    assert (mine["status"], mine["stack"], mine["rebuys"]) == ("playing", 5000, 1)
    assert (mine["place"], mine["table_id"], mine["seat"]) == (None, table_id, before[first])
    assert (entries[second]["place"], entries[second]["place_to"]) == (9, 9)
    seat = SeatView.objects.get(table_id=table_id, player_id=first)
    assert (seat.seat, seat.stack) == (before[first], 5000)
    assert ok(tablet.get("/api/v1/cage/balance/"))["tournament_cash_in"] == cash_in + 550
    assert ok(tablet.get(f"{url}/"))["rebuy_after_bust"] == [second]
    nxt = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))  # he is dealt in
    assert before[first] in {s["seat"] for s in nxt["seats"]}
    events = StoredEvent.objects.count()
    closed = tablet.post(f"{url}/rebuys/", {"player_id": second})  # his table dealt again
    assert (closed.status_code, closed.json()["code"]) == (422, "player_not_playing")
    assert StoredEvent.objects.count() == events


@pytest.mark.rule("TSEAT-2")
def test_a_player_found_in_the_wrong_seat_moves_stack_and_all_to_the_right_one(
    tablet: TabletClient,
) -> None:
    tournament_id, table_id = begin(tablet, players=7, min_entrants=7)
    rng = random.Random(7)
    play_hand(tablet, table_id, rng, all_in=0.0)
    seats = dict(SeatView.objects.filter(table_id=table_id).values_list("seat", "player_id"))
    empty = min(set(range(1, 10)) - set(seats))
    seat, player = min(seats.items())
    stack = stacks(table_id)[player]
    url = f"/api/v1/tournaments/{tournament_id}/seat-corrections/"
    events = StoredEvent.objects.count()
    other = max(seats)
    taken = tablet.post(url, {"player_id": player, "table_id": table_id, "seat": other})
    assert (taken.status_code, taken.json()["code"]) == (422, "seat_taken")
    extra = tablet.post(url, {"player_id": player, "table_id": table_id, "seat": empty,
                              "stack": 1})  # fmt: skip
    assert extra.status_code == 400  # a field the operation does not take
    assert StoredEvent.objects.count() == events  # refusals append nothing

    ok(tablet.post(url, {"player_id": player, "table_id": table_id, "seat": empty}))
    after = dict(SeatView.objects.filter(table_id=table_id).values_list("seat", "player_id"))
    assert after == {**{s: p for s, p in seats.items() if s != seat}, empty: player}
    assert stacks(table_id)[player] == stack  # stack and all
    moved = StoredEvent.objects.get(stream=f"tournament-{tournament_id}",
                                    type="tournaments.PlayerMoved")  # fmt: skip
    assert (moved.data["reason"], moved.data["to_seat"]) == ("wrong_seat", empty)
    entry = next(e for e in ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
                 if e["player_id"] == player)  # fmt: skip
    assert (entry["table_id"], entry["seat"]) == (table_id, empty)
    again = tablet.post(url, {"player_id": player, "table_id": table_id, "seat": empty})
    assert again.json()["code"] == "already_in_that_seat"
    assert play_hand(tablet, table_id, rng) is not None  # play goes on with him in it


@pytest.mark.rule("TREG-5")
def test_the_event_starts_by_itself_at_its_lobby_time(tablet: TabletClient) -> None:
    t0 = datetime(2026, 3, 6, 17, 0, tzinfo=UTC)
    with time_machine.travel(t0, tick=False) as clock:
        tournament_id = create(tablet)
        base = f"/api/v1/tournaments/{tournament_id}"
        register(tablet, tournament_id, 5)
        ok(tablet.post(f"{base}/schedule/", {"start_at": (t0 + timedelta(minutes=10)).isoformat()}))
        missed = StoredEvent.objects.filter(type="tournaments.ScheduledStartMissed")
        clock.move_to(t0 + timedelta(minutes=9))
        sweep_clocks()
        assert not missed.exists()
        clock.move_to(t0 + timedelta(minutes=10))
        sweep_clocks()  # 5 entries, 9 needed (TREG-3): recorded once, not started
        sweep_clocks()
        assert missed.count() == 1
        assert ok(tablet.get(f"{base}/"))["status"] == "registering"

        later = t0 + timedelta(minutes=40)
        ok(tablet.post(f"{base}/schedule/", {"start_at": later.isoformat(), "delay": True,
                                             "reason": "waiting for players"}))  # fmt: skip
        register(tablet, tournament_id, 4, prefix="Q")
        clock.move_to(later - timedelta(seconds=1))
        sweep_clocks()
        assert ok(tablet.get(f"{base}/"))["status"] == "registering"
        clock.move_to(later)
        sweep_clocks()
        started = ok(tablet.get(f"{base}/"))
        assert started["status"] == "running" and started["tables"]
        assert SeatView.objects.filter(tournament_id=tournament_id).count() == 9
        assert missed.count() == 1


@pytest.mark.rule("SD-24")
def test_a_hand_finished_before_a_break_can_be_disputed_for_one_minute(
    tablet: TabletClient,
) -> None:
    t0 = datetime(2026, 3, 6, 19, 0, tzinfo=UTC)
    with time_machine.travel(t0, tick=False) as clock:
        tournament_id, table_id = begin(tablet)
        hand = play_hand(tablet, table_id, random.Random(5), all_in=0.0)
        assert hand is not None
        winner = hand["result"]["pots"][-1]["winners"][0]["seat"]  # gives 1 back (SD-24)
        still_in = stacks(table_id)  # a player the hand eliminated gets nothing back
        other = next(s["seat"] for s in hand["seats"]
                     if s["seat"] != winner and int(s["player_id"]) in still_in)  # fmt: skip
        moves = [{"seat": other, "amount": 1}, {"seat": winner, "amount": -1}]
        # an accounting error: any dealt-in seat (a mucked winner must have reached the
        # showdown, and this hand may have been won by a fold)
        reading = {"kind": "accounting", "detail": "pot miscounted", "adjustments": moves}
        url = f"/api/v1/hands/{hand['hand_id']}/corrections/"
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/breaks/", {"minutes": 10}))
        clock.shift(timedelta(seconds=50))
        r = tablet.post(url, reading)
        assert r.status_code == 200, r.json()  # within the minute
        clock.shift(timedelta(seconds=20))
        late = tablet.post(url, reading)  # 70 s after the pot: closed, though no hand began
        assert (late.status_code, late.json()["code"], late.json()["rule"]) == (
            422, "dispute_window_closed", "SD-24",
        )  # fmt: skip


@pytest.mark.rule("SD-24")
def test_an_upheld_dispute_at_a_tournament_table_moves_the_chips_in_both_records(
    tablet: TabletClient,
) -> None:
    """A correction was recorded (200) and moved nothing at a tournament table (QA)."""
    tournament_id, table_id = begin(tablet)
    hand = play_hand(tablet, table_id, random.Random(5), all_in=0.0)
    assert hand is not None
    winner = hand["result"]["pots"][-1]["winners"][0]["seat"]
    still_in = stacks(table_id)
    other = next(s["seat"] for s in hand["seats"]
                 if s["seat"] != winner and int(s["player_id"]) in still_in)  # fmt: skip
    by_seat = {s["seat"]: int(s["player_id"]) for s in hand["seats"]}
    before = stacks(table_id)
    moves = [{"seat": other, "amount": 5}, {"seat": winner, "amount": -5}]
    body = {"kind": "accounting", "detail": "pot miscounted", "adjustments": moves}
    ok(tablet.post(f"/api/v1/hands/{hand['hand_id']}/corrections/", body))
    after = stacks(table_id)
    assert after[by_seat[other]] == before[by_seat[other]] + 5
    assert after[by_seat[winner]] == before[by_seat[winner]] - 5
    counts = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    entries = counts["results"] if isinstance(counts, dict) else counts
    recorded = {e["player_id"]: e["stack"] for e in entries if e["status"] == "playing"}
    assert recorded == after  # the tournament's record moved the same chips
    assert play_hand(tablet, table_id, random.Random(6), all_in=0.0) is not None  # no mismatch


@pytest.mark.rule("SD-24")
def test_a_correction_that_would_bring_back_an_eliminated_player_appends_nothing(
    tablet: TabletClient,
) -> None:
    _, table_id = begin(tablet)
    rng = random.Random(11)
    for _ in range(40):
        hand = play_hand(tablet, table_id, rng, all_in=1.0)
        assert hand is not None
        out = [s for s in hand["seats"] if int(s["player_id"]) not in stacks(table_id)]
        if out:
            break
    else:
        pytest.fail("nobody busted")
    loser = out[0]["seat"]
    winner = hand["result"]["pots"][0]["winners"][0]["seat"]
    versions = StoredEvent.objects.count()
    body = {"kind": "reading", "detail": "misread", "adjustments": [
        {"seat": loser, "amount": 10}, {"seat": winner, "amount": -10}]}  # fmt: skip
    refused = tablet.post(f"/api/v1/hands/{hand['hand_id']}/corrections/", body)
    assert refused.status_code == 422, refused.json()
    assert (refused.json()["code"], refused.json()["rule"]) == ("player_not_playing", "SD-24")
    assert StoredEvent.objects.count() == versions


@pytest.mark.rule("PEN-8")
def test_an_out_of_turn_action_at_a_tournament_table_is_flagged_for_the_floor(
    tablet: TabletClient,
) -> None:
    tournament_id, table_id = begin(tablet)
    hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
    to_act = hand["legal"]["seat"]
    early = next(s["seat"] for s in hand["seats"] if s["seat"] != to_act and not s["folded"])
    player = next(p for p in hand["seats"] if p["seat"] == early)["player_id"]
    base = f"/api/v1/hands/{hand['hand_id']}"
    ok(tablet.post(f"{base}/out-of-turn/", {"seat": early, "action": "fold"}))
    while hand["phase"] == "betting":  # everyone folds in turn to the big blind
        legal = hand["legal"]
        action = "fold" if legal["can_fold"] and legal["to_call"] else "check"
        hand = ok(tablet.post(f"{base}/actions/", {"seat": legal["seat"], "action": action}))
    assert hand["phase"] == "complete"
    flags = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/penalties/"))["flags"]
    flagged = [f for f in flags if f["offence"] == "out_of_turn"]
    assert [str(f["player_id"]) for f in flagged] == [str(player)]
