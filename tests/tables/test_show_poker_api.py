"""A Show poker table over the API (SHOW-1..27): a hand dealt at the table, declared,
bought and settled at showdown, its stacks back at the table."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine

from casino import clock
from tests.conftest import TabletClient
from tests.tables.test_hand_extras_api import stacks, table_with


def act(tablet: TabletClient, hand: dict, what: str, body: dict, expect: int = 200) -> dict:
    r = tablet.post(f"/api/v1/show-hands/{hand['hand_id']}/{what}/", body)
    assert r.status_code == expect, r.json()
    return dict(r.json())


@pytest.mark.rule("SHOW-25")
@pytest.mark.rule("SHOW-2")
def test_show_poker_hand_at_a_table(tablet: TabletClient, players: list) -> None:
    table_id = table_with(tablet, players, {1: 500, 2: 500, 3: 500}, game="SHOW",
                          name="Show poker 10", buy_in_min=100, buy_in_max=1000)  # fmt: skip
    r = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 3})
    assert r.status_code == 422  # a Show poker table deals no hold'em hand
    hand = tablet.post(f"/api/v1/tables/{table_id}/show-hands/", {"button_seat": 3}).json()
    assert hand["pot"] == 60 and hand["phase"] == "deal"  # one blind from each (SHOW-2)
    hand = act(tablet, hand, "flop", {"cards": "2c5d7h"})
    assert hand["to_act"] == 1
    hand = act(tablet, hand, "declare", {"seat": 1, "text": "a K"})
    refused = act(tablet, hand, "declare", {"seat": 3, "text": "kings"}, expect=422)
    assert (refused["code"], refused["rule"]) == ("not_your_turn", "SHOW-22")
    hand = act(tablet, hand, "declare", {"seat": 2, "text": "sevens"})
    hand = act(tablet, hand, "check", {"seat": 3})
    hand = act(tablet, hand, "check", {"seat": 1})
    assert hand["phase"] == "buying" and hand["leader"]["seat"] == 2
    for card in ("9s", "Td", "Jh", "Qc", "3d"):
        while hand["phase"] == "declaring":
            hand = act(tablet, hand, "check", {"seat": hand["to_act"]})
        while hand["phase"] == "buying":
            hand = act(tablet, hand, "buy", {"seat": hand["to_act"]})
        hand = act(tablet, hand, "turn-card", {"card": card})
    assert hand["phase"] == "showdown" and len(hand["board"]) == 8
    hand = act(tablet, hand, "declare", {"seat": 1, "text": "kings", "shown": "KsKd4c4h"})
    hand = act(tablet, hand, "declare", {"seat": 2, "text": "aces", "shown": "AsAd7s6s"})
    with time_machine.travel(clock.now(), tick=False) as traveller:
        # the tablet may say it has been quiet, but the last declaration was just now
        idle = (clock.now() - timedelta(seconds=12)).isoformat()
        refused = act(tablet, hand, "start-clock", {"idle_since": idle}, expect=422)
        assert (refused["code"], refused["rule"]) == ("clock_not_due", "SHOW-26")
        traveller.shift(timedelta(seconds=10))
        hand = act(tablet, hand, "start-clock", {"idle_since": idle})
        again = act(tablet, hand, "start-clock", {"idle_since": idle}, expect=422)
        assert again["code"] == "clock_running"  # never restarted to stretch it
        early = act(tablet, hand, "expire-clock", {}, expect=422)
        assert early["rule"] == "SHOW-26"
        traveller.shift(timedelta(seconds=30))
        hand = act(tablet, hand, "expire-clock", {})
    assert hand["phase"] == "complete"
    assert sum(stacks(table_id).values()) == 1500
    final = stacks(table_id)
    assert final[2] > 500 and final[1] < 500 and final[3] < 500
    assert tablet.get(f"/api/v1/show-hands/{hand['hand_id']}/").json()["phase"] == "complete"
    [listed] = tablet.get(f"/api/v1/tables/{table_id}/hands/").json()["results"]
    assert (listed["hand_id"], listed["status"]) == (hand["hand_id"], "complete")
    # the pot in the hand list: what the losers lost and the winner's own chips in it
    lost = (500 - final[1]) + (500 - final[3])
    assert listed["pot"] == sum(a["amount"] for a in hand["awards"]) > lost > 0


def test_show_poker_hands_are_relayed_to_their_table(tablet: TabletClient, players: list) -> None:
    from casino import table_lookup
    from casino.eventstore import store
    from casino.realtime import groups

    table_id = table_with(tablet, players, {1: 500, 2: 500}, game="SHOW",
                          name="Show poker 10", buy_in_min=100, buy_in_max=1000)  # fmt: skip
    hand = tablet.post(f"/api/v1/tables/{table_id}/show-hands/", {}).json()
    stream = f"show-hand-{hand['hand_id']}"
    (started,) = store.read_stream(stream)
    assert groups.groups_for(stream, started.type, {"table_id": table_id}) == [f"table-{table_id}"]
    table_lookup.hand_tables.clear()  # a relay that never saw the hand start: read from the log
    assert groups.groups_for(stream, "show.Declared", {}) == [f"table-{table_id}"]


@pytest.mark.rule("SHOW-20")
@pytest.mark.rule("SHOW-22")
def test_penalties_are_recorded_on_the_player(tablet: TabletClient, players: list) -> None:
    url = f"/api/v1/players/{players[0].id}/show-penalties/"
    first = tablet.post(url, {"offence": "declare_other_hand"}).json()
    second = tablet.post(url, {"offence": "declare_other_hand"}).json()
    assert [(p["occurrence"], p["hands"]) for p in (first, second)] == [(1, 2), (2, 8)]
    warning = tablet.post(url, {"offence": "out_of_turn"}).json()
    assert warning["warning"] and warning["hands"] == 0 and warning["rule"] == "SHOW-22"
    missing = tablet.post("/api/v1/players/999999/show-penalties/", {"offence": "speech_play"})
    assert missing.status_code == 404


def _fold_to_one(tablet: TabletClient, hand: dict) -> dict:
    """Flop, then everyone to act folds but the last: the hand settles uncontested."""
    hand = act(tablet, hand, "flop", {"cards": "2c5d7h"})
    while hand["phase"] != "complete":
        live = [s for s in hand["seats"] if not s["folded"]]
        if len(live) == 1:
            break
        hand = act(tablet, hand, "fold", {"seat": hand["to_act"]})
    return hand


@pytest.mark.rule("SHOW-20")
def test_a_penalised_player_sits_out_his_hands_with_his_blind_paid(
    tablet: TabletClient, players: list
) -> None:
    table_id = table_with(tablet, players, {1: 500, 2: 500, 3: 500}, game="SHOW",
                          name="Show poker 10", buy_in_min=100, buy_in_max=1000)  # fmt: skip
    penalty = tablet.post(f"/api/v1/players/{players[0].id}/show-penalties/",
                          {"offence": "declare_other_hand"}).json()  # fmt: skip
    assert penalty["hands"] == 2
    # a misdeal is dealt again and does not count as a hand served
    hand = tablet.post(f"/api/v1/tables/{table_id}/show-hands/", {"button_seat": 3}).json()
    assert next(s for s in hand["seats"] if s["seat"] == 1)["folded"]
    act(tablet, hand, "deal-report", {"wrong_count_seats": [2]})
    for _ in range(2):  # two completed hands: posts his blind, not dealt in
        hand = tablet.post(f"/api/v1/tables/{table_id}/show-hands/", {}).json()
        assert hand["pot"] == 60  # three blinds, his included
        assert next(s for s in hand["seats"] if s["seat"] == 1)["folded"]
        hand = _fold_to_one(tablet, hand)
        assert tablet.get(f"/api/v1/show-hands/{hand['hand_id']}/").json()["phase"] == "complete"
    hand = tablet.post(f"/api/v1/tables/{table_id}/show-hands/", {}).json()
    assert not next(s for s in hand["seats"] if s["seat"] == 1)["folded"]  # served: dealt in
    assert stacks(table_id)[1] == 500 - 2 * 20  # the two blinds he paid sitting out
