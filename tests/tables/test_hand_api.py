"""Recording hands through the dealer-tablet API: legality, settlement, projections."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.eventstore import aggregates, store
from casino.eventstore.models import StoredEvent
from casino.models import Player
from tables.models import HandView, SeatView, TableView
from tests.conftest import NLH_10_20, TabletClient
from tests.play import play_random_hand


def seat_all(tablet: TabletClient, table_id: int, players: list, stacks: dict[int, int]) -> None:
    for i, (seat, stack) in enumerate(stacks.items()):
        r = tablet.post(
            f"/api/v1/tables/{table_id}/seats/",
            {"player_id": players[i].id, "seat": seat, "buy_in": stack},
        )
        assert r.status_code == 201, r.json()


def start(tablet: TabletClient, table_id: int, button: int | None = None) -> dict[str, Any]:
    body = {} if button is None else {"button_seat": button}
    r = tablet.post(f"/api/v1/tables/{table_id}/hands/", body)
    assert r.status_code == 201, r.json()
    return r.json()


def act(tablet: TabletClient, hand: dict, seat: int, action: str, amount_to: int | None = None,
        *, expect: int = 200) -> dict[str, Any]:  # fmt: skip
    body: dict[str, Any] = {"seat": seat, "action": action}
    if amount_to is not None:
        body["amount_to"] = amount_to
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/", body)
    assert r.status_code == expect, r.json()
    return r.json()


def post(tablet: TabletClient, hand: dict, what: str, body: dict, expect: int = 200) -> dict:
    r = tablet.post(f"/api/v1/hands/{hand['hand_id']}/{what}/", body)
    assert r.status_code == expect, r.json()
    return r.json()


def stacks(table_id: int) -> dict[int, int]:
    return dict(SeatView.objects.filter(table_id=table_id).values_list("seat", "stack"))


@pytest.mark.rule("SEAT-7")
def test_start_posts_blinds_by_position_and_names_who_acts(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    seat_all(tablet, nlh_table, players, {2: 1000, 5: 1000, 7: 1000})
    hand = start(tablet, nlh_table, button=2)
    assert (hand["button_seat"], hand["phase"], hand["street"]) == (2, "betting", "preflop")
    bets = {s["seat"]: s["bet"] for s in hand["seats"]}
    assert bets == {2: 0, 5: 10, 7: 20}  # SB left of the button, then BB
    assert (hand["to_act"], hand["pot"]) == (2, 30)
    assert hand["legal"]["to_call"] == 20
    assert TableView.objects.get(table_id=nlh_table).current_hand_id == hand["hand_id"]


@pytest.mark.rule("SEAT-10")
def test_heads_up_button_posts_the_small_blind_and_acts_first(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    seat_all(tablet, nlh_table, players, {1: 1000, 6: 1000})
    hand = start(tablet, nlh_table, button=6)
    assert {s["seat"]: s["bet"] for s in hand["seats"]} == {6: 10, 1: 20}
    assert hand["to_act"] == 6


@pytest.mark.rule("BET-1")
def test_out_of_turn_action_is_refused_with_422_and_appends_nothing(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000, 3: 1000})
    hand = start(tablet, nlh_table, button=1)
    before = StoredEvent.objects.count()
    body = act(tablet, hand, 3, "call", expect=422)
    assert (body["code"], body["rule"]) == ("not_your_turn", body["rule"])
    assert body["rule"] and body["detail"]
    assert StoredEvent.objects.count() == before


@pytest.mark.rule("BET-8")
def test_raise_below_the_minimum_is_refused_with_the_numbers(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000, 3: 1000})
    hand = start(tablet, nlh_table, button=1)
    body = act(tablet, hand, 1, "raise", 30, expect=422)
    assert body["code"] == "raise_below_minimum"
    assert body["min_raise_to"] == 40
    assert store.stream_version(f"hand-{hand['hand_id']}") == hand["version"]


@pytest.mark.rule("BET-9")
def test_house_double_raise_rule_on_a_double_last_table(
    tablet: TabletClient, players: list
) -> None:
    table_id = tablet.post(
        "/api/v1/tables/", {**NLH_10_20, "min_raise_rule": "double_last"}
    ).json()["table_id"]
    seat_all(tablet, table_id, players, {1: 2000, 2: 2000, 3: 2000})
    hand = start(tablet, table_id, button=1)
    hand = act(tablet, hand, 1, "raise", 60)
    # standard rule would allow 100 (60 + 40); the house rule wants double: 120
    body = act(tablet, hand, 2, "raise", 100, expect=422)
    assert (body["code"], body["rule"], body["min_raise_to"]) == (
        "raise_below_minimum", "BET-9", 120)  # fmt: skip
    act(tablet, hand, 2, "raise", 120)


@pytest.mark.rule("SD-16")
@pytest.mark.rule("RAKE-1")
def test_everyone_folds_the_last_player_wins_and_a_walk_is_not_raked_by_default(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    """No flop, no drop (docs/rules-coverage.md): a new table does not rake a hand won
    before the flop."""
    assert tablet.get(f"/api/v1/tables/{nlh_table}/").json()["no_flop_no_drop"] is True
    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000, 3: 1000})
    hand = start(tablet, nlh_table, button=1)
    hand = act(tablet, hand, 1, "raise", 100)
    hand = act(tablet, hand, 2, "fold")
    hand = act(tablet, hand, 3, "fold")
    assert hand["phase"] == "complete"
    assert hand["result"]["method"] == "uncontested"
    assert hand["result"]["rake"] == 0
    assert stacks(nlh_table) == {1: 1000 + 30, 2: 990, 3: 980}
    view = HandView.objects.get(hand_id=hand["hand_id"])
    assert (view.status, view.rake) == ("complete", 0)


@pytest.mark.rule("RAKE-1")
def test_a_table_set_to_rake_walks_rakes_a_hand_won_before_the_flop(
    tablet: TabletClient, players: list
) -> None:
    body = {"name": "walks raked", "game": "NLH", "small_blind": 10, "big_blind": 20,
            "no_flop_no_drop": False}  # fmt: skip
    table_id = tablet.post("/api/v1/tables/", body).json()["table_id"]
    seat_all(tablet, table_id, players, {1: 1000, 2: 1000, 3: 1000})
    hand = start(tablet, table_id, button=1)
    hand = act(tablet, hand, 1, "raise", 100)
    hand = act(tablet, hand, 2, "fold")
    hand = act(tablet, hand, 3, "fold")
    # uncalled 80 returned; pot 50 (10 + 20 + 20 called) -> 5 % rake, rounded down
    pot = sum(p["amount"] for p in hand["result"]["pots"])
    assert pot == 50 and hand["result"]["rake"] == 2
    assert stacks(table_id) == {1: 1000 + 30 - 2, 2: 990, 3: 980}


@pytest.mark.rule("SD-1")
@pytest.mark.rule("RAKE-2")
@pytest.mark.rule("MIS-17")
def test_showdown_server_finds_the_winner_and_caps_the_rake(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    seat_all(tablet, nlh_table, players, {1: 5000, 2: 5000, 3: 5000})
    hand = start(tablet, nlh_table, button=1)
    hand = act(tablet, hand, 1, "raise", 2000)
    hand = act(tablet, hand, 2, "call")
    hand = act(tablet, hand, 3, "call")
    # a miskeyed flop is refused by the hand's rule, never by the field's length (QA: four
    # cards answered 400 before MIS-17 was reached), and appends nothing
    version = hand["version"]
    for cards, rule in (("2c7d", "BET-2"), ("2c7d9h8s", "MIS-17"), ("2c 7d 9h 8s", "MIS-17")):
        r = tablet.post(
            f"/api/v1/hands/{hand['hand_id']}/board/", {"street": "flop", "cards": cards}
        )
        assert (r.status_code, r.json()["code"], r.json()["rule"]) == (
            422, "wrong_card_count", rule)  # fmt: skip
    assert tablet.get(f"/api/v1/hands/{hand['hand_id']}/").json()["version"] == version
    hand = post(tablet, hand, "board", {"street": "flop", "cards": "2c7d9h"})
    for seat in (2, 3, 1):
        hand = act(tablet, hand, seat, "check")
    hand = post(tablet, hand, "board", {"street": "turn", "cards": "Js"})
    for seat in (2, 3, 1):
        hand = act(tablet, hand, seat, "check")
    hand = post(tablet, hand, "board", {"street": "river", "cards": "3d"})
    for seat in (2, 3, 1):
        hand = act(tablet, hand, seat, "check")
    assert hand["phase"] == "showdown"
    hand = post(tablet, hand, "show", {"seat": 1, "cards": "AhAd"})
    hand = post(tablet, hand, "show", {"seat": 2, "cards": "KhKd"})
    hand = post(tablet, hand, "muck", {"seat": 3})
    assert hand["phase"] == "complete" and hand["result"]["method"] == "showdown"
    assert hand["result"]["rake"] == 300  # 5 % of 6,000 is 300: exactly at the cap
    assert stacks(nlh_table) == {1: 5000 + 4000 - 300, 2: 3000, 3: 3000}
    assert TableView.objects.get(table_id=nlh_table).rake_total == 300
    [listed] = tablet.get(f"/api/v1/tables/{nlh_table}/hands/").json()["results"]
    assert (listed["pot"], listed["rake"]) == (6000, 300)  # the whole pot, rake included


@pytest.mark.rule("SD-21")
def test_manual_award_splits_with_the_odd_chip_to_the_first_winner_left_of_button(
    tablet: TabletClient, players: list
) -> None:
    table_id = tablet.post(
        "/api/v1/tables/", {**NLH_10_20, "small_blind": 5, "big_blind": 10, "rake_percent_bp": 0}
    ).json()["table_id"]
    seat_all(tablet, table_id, players, {1: 1000, 2: 1000, 3: 1000})
    hand = start(tablet, table_id, button=1)  # SB seat 2 posts 5, BB seat 3 posts 10
    hand = act(tablet, hand, 1, "call")
    hand = act(tablet, hand, 2, "fold")  # the small blind's 5 stays in: pot 25
    hand = act(tablet, hand, 3, "check")
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        hand = post(tablet, hand, "board", {"street": street, "cards": cards})
        hand = act(tablet, hand, 3, "check")
        hand = act(tablet, hand, 1, "check")
    assert hand["pots"] == [{"index": 0, "amount": 25, "eligible_seats": [1, 3]}]
    hand = post(tablet, hand, "award", {"winners_by_pot": [[1, 3]]})
    assert hand["result"]["method"] == "manual"
    # 25 = 12 + 12 + the odd chip, which goes to the first winner clockwise from the
    # button (seat 1): seat 2 folded, so seat 3.
    assert stacks(table_id) == {1: 1000 - 10 + 12, 2: 995, 3: 1000 - 10 + 13}


@pytest.mark.rule("SD-20")
@pytest.mark.rule("SD-9")
@pytest.mark.rule("SD-1")
def test_side_pots_and_uncalled_bet_over_the_api(tablet: TabletClient, players: list) -> None:
    table_id = tablet.post(
        "/api/v1/tables/",
        {**NLH_10_20, "rake_percent_bp": 0, "buy_in_min": 100, "limits_reason": "short stacks"},
    ).json()["table_id"]
    seat_all(tablet, table_id, players, {1: 300, 2: 600, 3: 1000})
    hand = start(tablet, table_id, button=1)
    hand = act(tablet, hand, 1, "all_in")  # 300
    hand = act(tablet, hand, 2, "all_in")  # 600
    hand = act(tablet, hand, 3, "call")  # 600: seat 3 has 400 behind, nothing uncalled
    assert hand["phase"] == "showdown"
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        hand = post(tablet, hand, "board", {"street": street, "cards": cards})
    hand = post(tablet, hand, "show", {"seat": 1, "cards": "AhAd"})  # best: main pot
    hand = post(tablet, hand, "show", {"seat": 2, "cards": "KhKd"})  # side pot
    hand = post(tablet, hand, "show", {"seat": 3, "cards": "QhQd"})
    pots = {p["index"]: p for p in hand["result"]["pots"]}
    # each winner with the hand the dealer announces (SD-1), its five cards the best first
    aces = {"category": "one_pair", "cards": "AhAdJs9h7d"}
    kings = {"category": "one_pair", "cards": "KhKdJs9h7d"}
    assert pots[0]["amount"] == 900
    assert pots[0]["winners"] == [{"seat": 1, "amount": 900, "hand": aces}]
    assert pots[1]["amount"] == 600
    assert pots[1]["winners"] == [{"seat": 2, "amount": 600, "hand": kings}]
    assert pots[0]["runs"] == pots[1]["runs"] == []
    assert [p["index"] for p in hand["result"]["pots"]] == [1, 0]  # side pot first
    assert stacks(table_id) == {1: 900, 2: 600, 3: 400}


@pytest.mark.rule("BI-6")
def test_no_cash_out_during_a_hand(tablet: TabletClient, players: list, nlh_table: int) -> None:
    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000})
    start(tablet, nlh_table)
    r = tablet.post(f"/api/v1/tables/{nlh_table}/seats/1/cash-out/")
    assert (r.status_code, r.json()["code"], r.json()["rule"]) == (422, "hand_in_progress", "BI-6")


def test_retried_action_returns_the_first_result(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000, 3: 1000})
    hand = start(tablet, nlh_table, button=1)
    url = f"/api/v1/hands/{hand['hand_id']}/actions/"
    first = tablet.post(url, {"seat": 1, "action": "call"}, key="tablet-7")
    again = tablet.post(url, {"seat": 1, "action": "call"}, key="tablet-7")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert store.stream_version(f"hand-{hand['hand_id']}") == first.json()["version"]


def test_hand_read_back_matches_and_unknown_hand_is_404(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000})
    hand = start(tablet, nlh_table)
    assert tablet.get(f"/api/v1/hands/{hand['hand_id']}/").json() == hand
    aggregates.cache.clear()  # a cold process folds the stream to the same state
    assert tablet.get(f"/api/v1/hands/{hand['hand_id']}/").json() == hand
    r = tablet.get("/api/v1/hands/00000000-0000-0000-0000-000000000000/")
    assert (r.status_code, r.json()["code"]) == (404, "hand_not_found")


def test_projection_failure_rolls_back_the_append(
    tablet: TabletClient, players: list, nlh_table: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guarantee 4: events and projections commit together or not at all."""
    from tables import projections

    def broken(recorded: Any) -> None:
        raise RuntimeError("projection down")

    monkeypatch.setitem(projections.projection.handlers, "tables.PlayerSeated", [broken])
    before = StoredEvent.objects.count()
    r = tablet.post(
        f"/api/v1/tables/{nlh_table}/seats/", {"player_id": players[0].id, "seat": 1,
                                                "buy_in": 1000}
    )  # fmt: skip
    assert (r.status_code, r.json()["code"]) == (500, "internal_error")
    assert StoredEvent.objects.count() == before
    assert not SeatView.objects.exists()


def _snapshot() -> dict[str, list]:
    def rows(model: Any, order: str) -> list:
        return list(model.objects.order_by(order).values())

    return {
        "tables": rows(TableView, "table_id"),
        "seats": [{**r, "id": None} for r in rows(SeatView, "seated_at")],
        "hands": rows(HandView, "hand_id"),
    }


def test_rebuild_projections_reproduces_the_live_read_models(
    tablet: TabletClient, players: list, nlh_table: int
) -> None:
    from django.core.management import call_command

    seat_all(tablet, nlh_table, players, {1: 1000, 2: 1000, 3: 1000, 4: 2000})
    for _ in range(3):
        hand = start(tablet, nlh_table)
        while hand["phase"] == "betting":
            hand = act(
                tablet, hand, hand["to_act"], "fold" if hand["legal"]["to_call"] else "check"
            )
    tablet.post(f"/api/v1/tables/{nlh_table}/seats/4/cash-out/")
    live = _snapshot()
    assert live["hands"] and live["seats"]
    call_command("rebuild_projections")
    assert _snapshot() == live


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    stacks_=st.lists(st.integers(1000, 5000), min_size=2, max_size=6),
    choices=st.lists(st.integers(0, 99), min_size=60, max_size=60),
)
@pytest.mark.rule("RAKE-2")
def test_property_chips_in_equal_chips_out_plus_rake_over_the_api(
    tablet: TabletClient, players: list, stacks_: list[int], choices: list[int]
) -> None:
    table_id = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "prop"}).json()["table_id"]
    fresh = [Player.objects.create(name=f"p{i}") for i in range(len(stacks_))]  # per example
    seat_all(tablet, table_id, fresh, {i + 1: s for i, s in enumerate(stacks_)})
    hand = play_random_hand(tablet, table_id, choices)
    rake = hand["result"]["rake"]
    assert sum(stacks(table_id).values()) + rake == sum(stacks_)
    assert 0 <= rake <= 300
