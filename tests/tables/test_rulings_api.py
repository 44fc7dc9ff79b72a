"""The floor's rulings over the dealer-tablet API (issue #15): chips read into actions,
the clock and its Celery timer, exposed cards, burns, out of turn, irregularities, and a
fixed-limit table."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine

from casino import clock
from casino.eventstore import store
from casino.eventstore.models import StoredEvent
from tables import rulings_services, tasks
from tables.ruling_events import ChipsRead, ClockCalled
from tests.conftest import TabletClient
from tests.tables.test_hand_extras_api import post, stacks, table_with


def start(tablet: TabletClient, players: list, **config: object) -> tuple[int, dict]:
    table_id = table_with(tablet, players, {1: 2000, 2: 2000, 3: 2000}, **config)
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 3}).json()
    return table_id, hand


def hand_events(hand: dict) -> list:
    return [r.event for r in store.read_stream(f"hand-{hand['hand_id']}")]


@pytest.mark.rule("BET-22")
@pytest.mark.rule("BET-27")
def test_chips_pushed_are_ruled_and_recorded(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)
    # seat 3 (under the gun at blinds 10/20) pushes a 100 chip: a single chip facing a bet
    body = post(tablet, hand, "chips", {"seat": 3, "chips": [[100]]})
    assert body["ruling"]["kind"] == "call" and body["ruling"]["rule"] == "BET-21"
    assert body["ruling"]["returned"] == 80
    assert {s["seat"]: s["bet"] for s in body["hand"]["seats"]}[3] == 20
    # seat 1 (small blind, 10 in) pushes four 25s: 110 total, removing one leaves 85 >= 10
    body = post(tablet, body["hand"], "chips", {"seat": 1, "chips": [[25, 25, 25, 25]]})
    assert (body["ruling"]["kind"], body["ruling"]["amount_to"]) == ("raise", 110)
    # seat 2 (big blind, 20 in) pushes 50: short of the 110 call
    short = post(tablet, body["hand"], "chips", {"seat": 2, "chips": [[25, 25]]})
    assert short["ruling"]["kind"] == "insufficient_call" and short["ruling"]["rule"] == "BET-27"
    assert short["hand"]["to_act"] == 2  # no action recorded: he completes or folds
    read = [e for e in hand_events(hand) if isinstance(e, ChipsRead)]
    assert [e.rule for e in read] == ["BET-21", "BET-22", "BET-27"]


def test_chips_out_of_turn_are_refused(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/chips/", {"seat": 1, "chips": [[20]]})
    assert (r.status_code, r.json()["code"]) == (422, "not_your_turn")


@pytest.mark.rule("BET-28")
def test_clock_expiry_by_the_timer_kills_the_hand(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)
    with time_machine.travel(clock.now(), tick=False) as traveller:
        called = post(tablet, hand, "clock", {"called_by": 1, "seconds": 30})
        clocks = [e for e in hand_events(hand) if isinstance(e, ClockCalled)]
        assert clocks[0].seat == 3 and called["to_act"] == 3
        assert tasks.expire_clock_task(hand["hand_id"], 1) is False  # early: nothing
        traveller.shift(timedelta(seconds=40))
        assert tasks.expire_clock_task(hand["hand_id"], 1) is True
        assert tasks.expire_clock_task(hand["hand_id"], 1) is False  # fired twice
    after = tablet.get(f"/api/v1/hands/{hand['hand_id']}/").json()
    assert {s["seat"]: s["folded"] for s in after["seats"]}[3] is True
    assert after["to_act"] == 1


@pytest.mark.rule("BET-30")
def test_exposed_cards_make_the_hand_passive(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)
    hand = post(tablet, hand, "exposures", {"seat": 3, "cards": "AsKd", "policy": "tournament_000"})
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/",
                    {"seat": 3, "action": "raise", "amount_to": 60})  # fmt: skip
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (422, "passive_hand", "BET-30")
    post(tablet, hand, "actions", {"seat": 3, "action": "call"})


@pytest.mark.rule("MIS-5")
def test_named_misdeal_cause_voids_the_hand(tablet: TabletClient, players: list) -> None:
    table_id, hand = start(tablet, players)
    hand = post(tablet, hand, "irregularities", {"cause": "first_card_wrong_seat"})
    assert hand["phase"] == "complete" and hand["voided"]["kind"] == "misdeal"
    assert stacks(table_id) == {1: 2000, 2: 2000, 3: 2000}


@pytest.mark.rule("BET-2")
@pytest.mark.rule("BET-25")
def test_burns_and_out_of_turn_are_recorded(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)
    hand = post(tablet, hand, "out-of-turn", {"seat": 2, "action": "call"})
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/out-of-turn/", {"seat": 3, "action": "call"})
    assert (r.status_code, r.json()["code"]) == (422, "not_out_of_turn")
    for seat, action in ((3, "call"), (1, "call")):
        hand = post(tablet, hand, "actions", {"seat": seat, "action": action})
    # the big blind's early "call" of nothing was his check: binding, carried out at his turn
    assert hand["phase"] == "awaiting_board"
    hand = post(tablet, hand, "burns", {"street": "flop", "card": "2c"})
    events = hand_events(hand)
    kinds = [type(e).__name__ for e in events]
    assert "OutOfTurnRecorded" in kinds and kinds[-1] == "BurnRecorded"
    [ruled] = [e for e in events if type(e).__name__ == "OutOfTurnRuled"]
    assert (ruled.seat, ruled.action, ruled.applied) == (2, "check", True)


@pytest.mark.rule("BET-6")
def test_fixed_limit_table_caps_raises_three_handed(tablet: TabletClient, players: list) -> None:
    table_id = table_with(tablet, players, {1: 2000, 2: 2000, 3: 2000},
                          game="FLH", buy_in_min=100, buy_in_max=5000)  # fmt: skip
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 3}).json()
    assert hand["game"] == "FLH"
    for seat in (3, 1, 2):
        hand = post(tablet, hand, "actions", {"seat": seat, "action": "raise"})  # no amount
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/", {"seat": 3, "action": "raise"})
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (
        422,
        "raise_cap_reached",
        "BET-6",
    )
    assert {s["seat"]: s["bet"] for s in hand["seats"]} == {1: 60, 2: 80, 3: 40}


@pytest.mark.rule("BET-28")
def test_the_clock_timer_is_queued_after_commit(
    tablet: TabletClient,
    players: list,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    scheduled: list[tuple[Any, ...]] = []
    monkeypatch.setattr(rulings_services, "schedule_clock", lambda *a: scheduled.append(a))
    _, hand = start(tablet, players)
    with django_capture_on_commit_callbacks(execute=True):
        post(tablet, hand, "clock", {"called_by": 2})
    assert len(scheduled) == 1 and scheduled[0][:2] == (hand["hand_id"], 1)
    (called,) = [e for e in hand_events(hand) if isinstance(e, ClockCalled)]
    assert scheduled[0][2].isoformat() == called.expires_at  # the ETA is the expiry


def shown_down(tablet: TabletClient, hand: dict) -> dict:
    """Checked down: seat 3 shows and wins, seats 1 and 2 muck at the showdown."""
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        hand = post(tablet, hand, "actions", {"seat": seat, "action": action})
    for street, cards in (("flop", "Qs9c4s"), ("turn", "2d"), ("river", "7h")):
        hand = post(tablet, hand, "board", {"street": street, "cards": cards})
        for seat in (1, 2, 3):
            hand = post(tablet, hand, "actions", {"seat": seat, "action": "check"})
    hand = post(tablet, hand, "show", {"seat": 3, "cards": "AsAh"})
    hand = post(tablet, hand, "muck", {"seat": 1})
    return post(tablet, hand, "muck", {"seat": 2})


def folded_around(tablet: TabletClient, hand: dict) -> dict:
    hand = post(tablet, hand, "actions", {"seat": 3, "action": "raise", "amount_to": 60})
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "fold"})
    return post(tablet, hand, "actions", {"seat": 2, "action": "fold"})


@pytest.mark.rule("SD-24")
def test_correction_inside_the_window_then_refused(tablet: TabletClient, players: list) -> None:
    table_id, hand = start(tablet, players)
    hand = folded_around(tablet, hand)
    assert hand["phase"] == "complete"
    body = {"kind": "accounting", "detail": "pot miscounted",
            "adjustments": [{"seat": 3, "amount": -10}, {"seat": 2, "amount": 10}]}  # fmt: skip
    corrected = post(tablet, hand, "corrections", body)
    assert corrected["result"] == hand["result"]  # appended, never a rewrite
    kinds = [type(e).__name__ for e in hand_events(hand)]
    assert kinds[-1] == "ResultCorrected" and "HandSettled" in kinds
    unbalanced = tablet.post(f"/api/v1/hands/{hand['hand_id']}/corrections/",
                             {**body, "adjustments": [{"seat": 3, "amount": -10}]})  # fmt: skip
    assert unbalanced.json()["code"] == "adjustments_not_balanced"
    # the next hand begins: a reading dispute closes (SD-24)
    tablet.post(f"/api/v1/tables/{table_id}/hands/", {})
    late = tablet.post(f"/api/v1/hands/{hand['hand_id']}/corrections/", {**body, "kind": "reading"})
    assert (late.status_code, late.json()["code"]) == (422, "dispute_window_closed")
    assert [type(e).__name__ for e in hand_events(hand)].count("ResultCorrected") == 1


@pytest.mark.rule("SD-24")
def test_an_upheld_correction_moves_the_chips_at_a_cash_table(
    tablet: TabletClient, players: list
) -> None:
    from casino.eventstore.models import StoredEvent
    from tables import services

    table_id, hand = start(tablet, players)
    hand = folded_around(tablet, hand)
    before = stacks(table_id)
    body = {"kind": "accounting", "detail": "seat 3 was paid 40 too much",
            "adjustments": [{"seat": 3, "amount": -40}, {"seat": 2, "amount": 40}]}  # fmt: skip
    post(tablet, hand, "corrections", body)
    assert stacks(table_id) == {**before, 3: before[3] - 40, 2: before[2] + 40}
    table = services.load_table(table_id).state
    assert table is not None
    assert {s.seat: s.stack for s in table.seats} == stacks(table_id)  # the aggregate agrees
    assert tablet.get(f"/api/v1/tables/{table_id}/").json()["seats"][1]["stack"] == before[2] + 40
    # more than the hand's pots held (and than the stack holds): refused, and nothing is
    # appended (nor the hand's record); the stack's own bound is the table's
    # (tests/tables/test_table_domain.py)
    count = StoredEvent.objects.count()
    greedy = {
        **body,
        "adjustments": [{"seat": 1, "amount": -(10**6)}, {"seat": 2, "amount": 10**6}],
    }
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/corrections/", greedy)
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (
        422, "correction_exceeds_pots", "SD-24")  # fmt: skip
    assert StoredEvent.objects.count() == count
    # a player of the hand has cashed out: the chips cannot reach him at the table
    assert tablet.post(f"/api/v1/tables/{table_id}/seats/1/cash-out/").status_code == 200
    count = StoredEvent.objects.count()
    gone = {**body, "adjustments": [{"seat": 1, "amount": 10}, {"seat": 2, "amount": -10}]}
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/corrections/", gone)
    assert (r.status_code, r.json()["code"]) == (422, "player_left_table")
    assert StoredEvent.objects.count() == count


@pytest.mark.rule("SD-24")
def test_an_accounting_correction_during_the_next_hand_moves_the_chips_when_it_ends(
    tablet: TabletClient, players: list
) -> None:
    table_id, hand = start(tablet, players)
    hand = folded_around(tablet, hand)
    before = stacks(table_id)
    running = tablet.post(f"/api/v1/tables/{table_id}/hands/", {}).json()
    body = {"kind": "accounting", "detail": "seat 3 was paid 40 too much",
            "adjustments": [{"seat": 3, "amount": -40}, {"seat": 1, "amount": 40}]}  # fmt: skip
    post(tablet, hand, "corrections", body)  # no substantial action yet: upheld (SD-24)
    assert stacks(table_id) == before  # nothing moves during the running hand
    while running["phase"] != "complete":  # everybody folds to the big blind
        running = post(tablet, running, "actions", {"seat": running["to_act"], "action": "fold"})
    settled = {s["seat"]: s["stack"] for s in running["seats"]}
    after = stacks(table_id)
    assert after == {**settled, 3: settled[3] - 40, 1: settled[1] + 40}
    assert sum(after.values()) == sum(before.values())  # chips only moved
    # substantial action on the next hand closes an accounting dispute
    third = tablet.post(f"/api/v1/tables/{table_id}/hands/", {}).json()
    post(tablet, third, "actions", {"seat": third["to_act"], "action": "call"})
    late = tablet.post(f"/api/v1/hands/{running['hand_id']}/corrections/", body)
    assert (late.status_code, late.json()["code"]) == (422, "dispute_window_closed")


@pytest.mark.rule("RAKE-8")
@pytest.mark.rule("RAKE-9")
def test_rabbit_consent_and_chop_exception_recorded(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)
    hand = folded_around(tablet, hand)
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/rabbit-consent/",
                    {"seat": 3, "consenting_seats": [1]})  # fmt: skip
    assert (r.status_code, r.json()["code"]) == (422, "consent_missing")
    before = len(hand_events(hand))
    for seats, code in (([1, 2, 2], "seat_listed_twice"), ([1, 2, 7], "seat_not_in_hand")):
        r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/rabbit-consent/",
                        {"seat": 3, "consenting_seats": seats})  # fmt: skip
        assert (r.status_code, r.json()["code"], r.json()["rule"]) == (422, code, "RAKE-8")
    assert len(hand_events(hand)) == before  # a bogus seat was dropped and 200 answered (QA)
    post(tablet, hand, "rabbit-consent", {"seat": 3, "consenting_seats": [1, 2]})
    post(tablet, hand, "chop-exception", {"floor": "Eva", "reason": "both agreed", "seats": [1, 3]})
    kinds = [type(e).__name__ for e in hand_events(hand)]
    assert kinds[-2:] == ["RabbitHuntConsented", "ChopExceptionRecorded"]


@pytest.mark.rule("MIS-9")
def test_an_irregularity_names_a_seat_dealt_in_unless_the_deal_skipped_or_served_it(
    tablet: TabletClient, players: list
) -> None:
    """Seat 9 of a three-handed hand was ruled to have a card exposed, 200 (found by QA)."""
    _, hand = start(tablet, players)
    before = len(hand_events(hand))
    url = f"/api/v1/hands/{hand['hand_id']}/irregularities/"
    r = tablet.post(url, {"cause": "single_hole_card_exposed", "seat": 9})
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (422, "seat_not_in_hand", "MIS-9")
    assert len(hand_events(hand)) == before
    post(tablet, hand, "irregularities", {"cause": "single_hole_card_exposed", "seat": 1})
    assert type(hand_events(hand)[-1]).__name__ == "IrregularityRuled"


@pytest.mark.rule("BET-29")
def test_clock_with_the_online_timeout_checks(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)
    for seat in (3, 1):
        hand = post(tablet, hand, "actions", {"seat": seat, "action": "call"})
    with time_machine.travel(clock.now(), tick=False) as traveller:
        post(tablet, hand, "clock", {"called_by": 1, "seconds": 5, "expiry": "fold_or_check"})
        traveller.shift(timedelta(seconds=20))
        assert tasks.expire_clock_task(hand["hand_id"], 1) is True
    after = tablet.get(f"/api/v1/hands/{hand['hand_id']}/").json()
    assert after["phase"] == "awaiting_board"  # the big blind checked: nothing to call


@pytest.mark.rule("BET-25")
def test_a_binding_out_of_turn_call_is_recorded_when_the_action_reaches_him(
    tablet: TabletClient, players: list
) -> None:
    _, hand = start(tablet, players)
    assert hand["to_act"] == 3
    hand = post(tablet, hand, "out-of-turn", {"seat": 1, "action": "call"})
    hand = post(tablet, hand, "actions", {"seat": 3, "action": "call"})  # nothing changed
    assert hand["to_act"] == 2  # seat 1's call was carried out in the same write
    kinds = [(type(e).__name__, getattr(e, "seat", None)) for e in hand_events(hand)]
    assert kinds[-2:] == [("OutOfTurnRuled", 1), ("ActionTaken", 1)]
    late = tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/", {"seat": 1, "action": "raise",
                                                                     "amount_to": 100})  # fmt: skip
    assert late.status_code == 422  # it is not his turn any more: the call stands


@pytest.mark.rule("BET-29")
def test_a_table_set_to_the_timeout_rule_folds_a_player_facing_a_bet(
    tablet: TabletClient, players: list
) -> None:
    _, hand = start(tablet, players, clock_expiry="fold_or_check")
    hand = post(tablet, hand, "actions", {"seat": 3, "action": "raise", "amount_to": 60})
    with time_machine.travel(clock.now(), tick=False) as traveller:
        post(tablet, hand, "clock", {"called_by": 3, "seconds": 5})  # the table's expiry
        traveller.shift(timedelta(seconds=20))
        assert tasks.expire_clock_task(hand["hand_id"], 1) is True
    events = hand_events(hand)
    (called,) = [e for e in events if isinstance(e, ClockCalled)]
    assert called.expiry == "fold_or_check"
    assert (events[-1].seat, events[-1].action) == (1, "fold")  # facing a bet: folded
    _, live = start(tablet, players[3:])  # the live default: the hand is dead (BET-28)
    post(tablet, live, "clock", {"called_by": 1})
    (live_call,) = [e for e in hand_events(live) if isinstance(e, ClockCalled)]
    assert live_call.expiry == "dead_hand"
    bad = tablet.post("/api/v1/tables/", {"name": "x", "game": "NLH", "small_blind": 10,
                                          "big_blind": 20, "clock_expiry": "never"})  # fmt: skip
    assert bad.status_code == 400


@pytest.mark.rule("SD-25")
@pytest.mark.rule("SD-26")
@pytest.mark.parametrize(("closed_by", "rule_id"), [("first_riffle", "SD-25"), ("cut", "SD-26")])
def test_the_dealers_riffle_or_cut_closes_the_last_hand(
    tablet: TabletClient, players: list, closed_by: str, rule_id: str
) -> None:
    table_id, hand = start(tablet, players, hand_closed_by=closed_by)
    assert tablet.get(f"/api/v1/tables/{table_id}/").json()["hand_closed_by"] == closed_by
    during = tablet.post(f"/api/v1/tables/{table_id}/shuffle/", {"step": "first_riffle"})
    assert (during.status_code, during.json()["code"]) == (422, "hand_in_progress")
    hand = shown_down(tablet, hand)
    assert hand["phase"] == "complete"
    moves = [{"seat": 1, "amount": 1}, {"seat": 3, "amount": -1}]  # seat 3 won: gives back
    reading = {"kind": "mucked_winner", "detail": "winner mucked", "adjustments": moves}
    url = f"/api/v1/hands/{hand['hand_id']}/corrections/"
    assert tablet.post(url, reading).status_code == 200  # still open
    riffle = tablet.post(f"/api/v1/tables/{table_id}/shuffle/", {"step": "first_riffle"})
    assert riffle.status_code == 200
    after_riffle = tablet.post(url, reading)
    if closed_by == "first_riffle":  # 000: the first riffle closes the hand
        assert (after_riffle.status_code, after_riffle.json()["rule"]) == (422, rule_id)
        return
    assert after_riffle.status_code == 200  # 002: only the cut closes it
    assert tablet.post(f"/api/v1/tables/{table_id}/shuffle/", {"step": "cut"}).status_code == 200
    after_cut = tablet.post(url, reading)
    assert (after_cut.status_code, after_cut.json()["code"]) == (422, "dispute_window_closed")
    assert after_cut.json()["rule"] == rule_id
    accounting = {**reading, "kind": "accounting"}
    assert tablet.post(url, accounting).status_code == 200  # until substantial action (SD-24)
    bad = tablet.post(f"/api/v1/tables/{table_id}/shuffle/", {"step": "wash"})
    assert bad.status_code == 400


@pytest.mark.rule("SEAT-17")
def test_a_seat_change_further_from_the_big_blind_waits_for_it(
    tablet: TabletClient, players: list
) -> None:
    table_id = table_with(tablet, players, {1: 1000, 3: 1000, 5: 1000, 7: 1000})
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    assert (hand["small_blind_seat"], hand["big_blind_seat"]) == (3, 5)
    base = f"/api/v1/tables/{table_id}/seats"
    during = tablet.post(f"{base}/7/change/", {"new_seat": 4})
    assert (during.status_code, during.json()["code"]) == (422, "hand_in_progress")
    for seat in (7, 1, 3):
        hand = post(tablet, hand, "actions", {"seat": seat, "action": "fold"})
    assert hand["phase"] == "complete"
    before = stacks(table_id)
    taken = tablet.post(f"{base}/7/change/", {"new_seat": 1})
    assert (taken.status_code, taken.json()["code"]) == (422, "seat_occupied")
    # the blinds move clockwise: after the big blind on 5 they reach 7 next, then 1, then 3.
    # Seat 7 (the next big blind) moving to 4 would play three hands without blinds: he
    # waits for the big blind (or posts)
    table = tablet.post(f"{base}/7/change/", {"new_seat": 4}).json()
    status = {s["seat"]: s["status"] for s in table["seats"]}
    assert 7 not in status and status[4] == "waiting"
    # seat 3 (the big blind in three hands) moving to 6, the next big blind: he plays on
    table = tablet.post(f"{base}/3/change/", {"new_seat": 6}).json()
    status = {s["seat"]: s["status"] for s in table["seats"]}
    assert 3 not in status and status[6] == "active"
    assert sorted(stacks(table_id).values()) == sorted(before.values())  # stacks and all
    assert stacks(table_id)[6] == before[3] and stacks(table_id)[4] == before[7]
    nxt = tablet.post(f"/api/v1/tables/{table_id}/hands/", {}).json()
    assert nxt["big_blind_seat"] == 6 and 4 not in {s["seat"] for s in nxt["seats"]}


@pytest.mark.rule("SEAT-12")
def test_a_player_away_at_the_deal_has_a_dead_hand(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)  # seat 3 to act, seat 1 small blind, seat 2 big blind
    url = f"/api/v1/hands/{hand['hand_id']}/absences/"
    hand = post(tablet, hand, "absences", {"seat": 2})  # not his turn: killed all the same
    assert hand["to_act"] == 3
    assert next(s for s in hand["seats"] if s["seat"] == 2)["folded"]
    kinds = [(type(e).__name__, getattr(e, "rule", None)) for e in hand_events(hand)][-2:]
    assert kinds == [("AbsenceRuled", "SEAT-12"), ("ActionTaken", None)]
    hand = post(tablet, hand, "actions", {"seat": 3, "action": "call"})
    acted = tablet.post(url, {"seat": 3})
    assert (acted.status_code, acted.json()["code"]) == (422, "player_has_acted")
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "call"})
    assert hand["phase"] == "awaiting_board"  # the dead big blind has no option
    hand = post(tablet, hand, "board", {"street": "flop", "cards": "2c7d9h"})
    late = tablet.post(url, {"seat": 1})
    assert (late.status_code, late.json()["code"]) == (422, "too_late_for_absence")


def _deal_out(tablet: TabletClient, hand: dict, checks: tuple[int, ...] = ()) -> dict:
    """Deal flop, turn and river; on each street the ``checks`` seats check in order."""
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        hand = post(tablet, hand, "board", {"street": street, "cards": cards})
        if street != "river":
            for seat in checks:
                hand = post(tablet, hand, "actions", {"seat": seat, "action": "check"})
    return hand


@pytest.mark.rule("SD-14")
@pytest.mark.rule("SD-15")
def test_the_tablet_is_told_who_shows_first(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)  # button 3: small blind 1, big blind 2
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        hand = post(tablet, hand, "actions", {"seat": seat, "action": action})
    assert hand["show_order"] is None  # not at a showdown
    hand = _deal_out(tablet, hand, checks=(1, 2, 3))
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "bet", "amount_to": 40})
    hand = post(tablet, hand, "actions", {"seat": 2, "action": "fold"})
    hand = post(tablet, hand, "actions", {"seat": 3, "action": "call"})
    assert hand["show_order"] == {"seats": [1, 3], "rule": "SD-14"}  # the river bettor
    _, quiet = start(tablet, players[3:])
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        quiet = post(tablet, quiet, "actions", {"seat": seat, "action": action})
    quiet = _deal_out(tablet, quiet, checks=(1, 2, 3))
    for seat in (1, 2, 3):
        quiet = post(tablet, quiet, "actions", {"seat": seat, "action": "check"})
    # no river bet: the first live seat left of the button (SD-15, the TDA default)
    assert quiet["show_order"] == {"seats": [1, 2, 3], "rule": "SD-15"}


@pytest.mark.rule("SD-10")
@pytest.mark.rule("SD-12")
def test_all_in_hands_are_turned_face_up_where_the_table_says(
    tablet: TabletClient, players: list
) -> None:
    def all_in_called(table_players: list, **config: object) -> dict:
        table_id = table_with(tablet, table_players, {1: 3000, 2: 2000, 3: 1000}, **config)
        hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 3}).json()
        hand = post(tablet, hand, "actions", {"seat": 3, "action": "all_in"})
        hand = post(tablet, hand, "actions", {"seat": 1, "action": "call"})
        hand = post(tablet, hand, "actions", {"seat": 2, "action": "fold"})
        return _deal_out(tablet, hand)

    hand = all_in_called(players, allin_faceup_in_cash=True)
    assert hand["show_order"] == {"seats": [1, 3], "rule": "SD-10"}  # all at once
    url = f"/api/v1/hands/{hand['hand_id']}/muck/"
    caller = tablet.post(url, {"seat": 1})
    assert (caller.status_code, caller.json()["rule"]) == (422, "SD-10")
    shover = tablet.post(url, {"seat": 3})
    assert (shover.status_code, shover.json()["rule"]) == (422, "SD-12")
    # the room's 000 rule (the default): face up in tournaments only, a cash caller may muck
    cash = all_in_called(players[3:])
    # ... and the show order is not SD-10's all at once (cited before, QA): the shover's
    # all-in was the last active action, so he starts (SD-14); SD-15, the first seat left
    # of the button, is for a showdown with no all-in (cited before, QA)
    assert cash["show_order"] == {"seats": [3, 1], "rule": "SD-14"}
    assert tablet.post(f"/api/v1/hands/{cash['hand_id']}/muck/", {"seat": 1}).status_code == 200


@pytest.mark.rule("SD-12")
def test_an_all_in_hand_is_mucked_only_on_purpose(tablet: TabletClient, players: list) -> None:
    """SD-12: an all-in hand can never be mucked for technical reasons; a discard on
    purpose can be penalised. A tap on "Muck" gave up a cash all-in player's claim to the
    pot at a table without all-in face up (found by QA)."""
    table_id = table_with(tablet, players, {1: 3000, 2: 2000, 3: 1000})
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 3}).json()
    hand = post(tablet, hand, "actions", {"seat": 3, "action": "all_in"})
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "call"})
    hand = post(tablet, hand, "actions", {"seat": 2, "action": "fold"})
    hand = _deal_out(tablet, hand)
    url = f"/api/v1/hands/{hand['hand_id']}/muck/"
    events = StoredEvent.objects.count()
    refused = tablet.post(url, {"seat": 3})
    assert (refused.status_code, refused.json()["code"], refused.json()["rule"]) == (
        422, "all_in_hand_not_mucked", "SD-12")  # fmt: skip
    assert StoredEvent.objects.count() == events
    assert tablet.post(url, {"seat": 3, "deliberate": "yes"}).status_code == 400
    mucked = tablet.post(url, {"seat": 3, "deliberate": True})
    assert mucked.status_code == 200, mucked.json()
    assert mucked.json()["phase"] == "complete"  # seat 1, the last live hand, wins


@pytest.mark.rule("SD-18")
@pytest.mark.rule("SD-17")
@pytest.mark.rule("SD-19")
def test_requests_to_see_a_hand(tablet: TabletClient, players: list) -> None:
    _, hand = start(tablet, players)  # button 3: small blind 1, big blind 2
    early = tablet.post(f"/api/v1/hands/{hand['hand_id']}/show-requests/",
                        {"seat": 1, "requested_by": 2, "shown_to": [3]})  # fmt: skip
    assert early.status_code == 200  # SD-19: shown to seat 3, so shown to seat 2 who asks
    for seat, action in ((3, "call"), (1, "call"), (2, "check")):
        hand = post(tablet, hand, "actions", {"seat": seat, "action": action})
    hand = _deal_out(tablet, hand, checks=(1, 2, 3))
    hand = post(tablet, hand, "actions", {"seat": 1, "action": "bet", "amount_to": 40})
    hand = post(tablet, hand, "actions", {"seat": 2, "action": "call"})
    hand = post(tablet, hand, "actions", {"seat": 3, "action": "fold"})
    url = f"/api/v1/hands/{hand['hand_id']}/show-requests/"
    folded = tablet.post(url, {"seat": 1, "requested_by": 3})  # holds no cards: no right
    assert (folded.status_code, folded.json()["rule"]) == (422, "SD-17")
    strict = tablet.post(url, {"seat": 1, "requested_by": 2,
                               "caller_may_request_aggressor_show": False})  # fmt: skip
    assert strict.status_code == 422  # 000: only the floor may order it
    hand = post(tablet, hand, "show-requests", {"seat": 1, "requested_by": 2})  # SD-18
    floor = post(tablet, hand, "show-requests", {"seat": 2, "floor_order": True})
    rules = [e.rule for e in hand_events(floor) if type(e).__name__ == "ShowOrdered"]
    assert rules == ["SD-19", "SD-18", "SD-17"]
