"""Tournaments through the API (issue #6): registration, the start (seat and button draw,
tables opened and seated), hands at tournament tables through the dealer API, the clock,
breaks and hand-for-hand, eliminations and results. The rules themselves are tested
without a database in tests/tournaments/domain/."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from rest_framework.test import APIClient

from casino import gaming_day
from casino.eventstore.commands import run_command
from casino.eventstore.models import StoredEvent
from casino.models import Device, Player, Role
from tables.models import SeatView, TableView
from tests.conftest import TabletClient
from tests.tournaments.play import STRUCTURE, create, ok, play_hand, register
from tournaments import services
from tournaments.models import EntryView

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


def refused(response: Any, code: str, rule: str | None = None) -> dict[str, Any]:
    assert response.status_code == 422, (response.status_code, response.json())
    body = response.json()
    assert body["code"] == code, body
    if rule is not None:
        assert body["rule"] == rule, body
    return dict(body)


def started(tablet: TabletClient, players: int = 12, **changes: Any) -> tuple[int, list[int]]:
    tournament_id = create(tablet, **changes)
    ids = register(tablet, tournament_id, players)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 1}))
    return tournament_id, ids


def tournament(tablet: TabletClient, tournament_id: int) -> dict[str, Any]:
    return dict(ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/")))


# --- registration ----------------------------------------------------------------------------


@pytest.mark.rule("TREG-1")
@pytest.mark.rule("TREG-9")
def test_registration_takes_buy_in_and_fee_and_refuses_a_second_entry(
    tablet: TabletClient,
) -> None:
    tournament_id = create(tablet)
    [player] = register(tablet, tournament_id, 1)
    t = tournament(tablet, tournament_id)
    assert (t["entries"], t["contributions"], t["fees"], t["chips_issued"]) == (1, 500, 100, 5000)
    before = StoredEvent.objects.count()
    refused(
        tablet.post(f"/api/v1/tournaments/{tournament_id}/registrations/", {"player_id": player}),
        "already_registered",
        "TREG-9",
    )
    assert StoredEvent.objects.count() == before


@pytest.mark.rule("TREG-7")
def test_the_clock_says_until_when_late_registration_runs(tablet: TabletClient) -> None:
    by_level = create(tablet, late_reg_until_level=3)
    with time_machine.travel(T0, tick=False):  # published at 18:00 for 21:30
        by_time = create(tablet, late_reg_until="2026-11-20T21:30:00Z")
    none = create(tablet)
    for tournament_id, level, until in (
        (by_level, 3, None),
        (by_time, None, "2026-11-20T21:30:00+00:00"),  # ISO UTC, as next_break_at
        (none, None, None),
    ):
        c = tournament(tablet, tournament_id)["clock"]
        assert (c["late_registration_until_level"], c["late_registration_until"]) == (level, until)
        public = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/clock/"))
        assert public["late_registration_until_level"] == level


@pytest.mark.rule("TREG-6")
@pytest.mark.rule("TSEAT-8")
def test_publishing_refuses_deadlines_already_past_and_a_final_table_too_big(
    tablet: TabletClient,
) -> None:
    """QA published an event whose late registration and unregistering had closed before
    it opened, and a final table of 9 for 6-max tables; each is refused and nothing is
    created."""
    base = dict(STRUCTURE)
    with time_machine.travel(T0, tick=False):
        for field, value, problem in (
            ("late_reg_until", "2026-11-20T17:59:00Z", "late_reg_until must be in the future"),
            ("unregister_deadline", T0.isoformat(), "unregister_deadline must be in the future"),
            ("final_table_size", 9, "final_table_size must not exceed table_size"),
        ):
            config = base | {"table_size": 6, field: value}
            body = refused(tablet.post("/api/v1/tournaments/", config), "invalid_tournament_config")
            assert problem in json.dumps(body), body
        assert not StoredEvent.objects.filter(type="tournaments.TournamentCreated").exists()
        later = base | {"table_size": 6, "final_table_size": 6,
                        "late_reg_until": "2026-11-20T18:01:00Z"}  # fmt: skip
        assert tablet.post("/api/v1/tournaments/", later).status_code == 201


@pytest.mark.rule("TREG-10")
def test_unregistration_refunds_before_the_deadline_only(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False):
        tournament_id = create(tablet, unregister_deadline=(T0 + timedelta(hours=1)).isoformat())
        first, second = register(tablet, tournament_id, 2)
        r = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/unregistrations/",
                           {"player_id": first}))  # fmt: skip
        assert r["refund"] == 600 and r["tournament"]["entries"] == 1
    with time_machine.travel(T0 + timedelta(hours=1), tick=False):
        refused(
            tablet.post(
                f"/api/v1/tournaments/{tournament_id}/unregistrations/", {"player_id": second}
            ),
            "unregistration_closed",
            "TREG-10",
        )
    statuses = dict(EntryView.objects.values_list("player_id", "status"))
    assert statuses == {first: "unregistered", second: "registered"}


@pytest.mark.rule("TREG-3")
def test_a_tournament_starts_only_with_a_full_table(tablet: TabletClient) -> None:
    tournament_id = create(tablet)
    register(tablet, tournament_id, 8)
    before = (StoredEvent.objects.count(), TableView.objects.count())
    refused(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {}), "field_too_small",
            "TREG-3")  # fmt: skip
    assert (StoredEvent.objects.count(), TableView.objects.count()) == before


def test_an_unknown_config_field_or_bad_structure_is_refused(tablet: TabletClient) -> None:
    r = tablet.post("/api/v1/tournaments/", {**STRUCTURE, "levels": []})
    assert r.status_code in (400, 422)
    bad = {**STRUCTURE, "levels": [{"small_blind": 100, "big_blind": 50}]}
    assert tablet.post("/api/v1/tournaments/", bad).status_code == 422


# --- the start and the tables ------------------------------------------------------------------


def test_the_tables_are_named_after_the_tournament_whatever_its_length(
    tablet: TabletClient,
) -> None:
    """A table was named "<tournament> table 1": English on a Czech screen, with a number
    that was not the table's (every screen shows the table's id), and a name of 200
    characters, which the API takes, did not fit the table's (found by QA)."""
    name = "Velká cena Českého Krumlova — " + "Nedělní hlubokostackový turnaj " * 6
    name = name[:200]
    tournament_id, _ = started(tablet, players=12, name=name)
    opened = TableView.objects.filter(tournament_id=tournament_id).values_list("table_id")
    assert len(opened) == 3  # two for the players, one in reserve
    for (table_id,) in opened:
        assert ok(tablet.get(f"/api/v1/tables/{table_id}/"))["name"] == name


@pytest.mark.rule("TSEAT-1")
@pytest.mark.rule("TREG-2")
@pytest.mark.rule("SEAT-1")
def test_the_start_draws_seats_opens_tables_and_seats_every_entrant(tablet: TabletClient) -> None:
    tournament_id, players = started(tablet, players=12)
    t = tournament(tablet, tournament_id)
    tables = t["tables"]
    assert len(tables) == 2  # 12 players at 9-max: two tables of 6
    seated = {(s.player_id, s.table_id, s.seat, s.stack) for s in SeatView.objects.all()}
    entries = {(e.player_id, e.table_id, e.seat, e.stack) for e in EntryView.objects.all()}
    assert seated == entries and {p for p, *_ in seated} == set(players)
    assert (
        sorted(SeatView.objects.filter(table_id=tables[0]).values_list("stack", flat=True))
        == [5000] * 6
    )
    views = TableView.objects.filter(tournament_id=tournament_id)
    assert {v.mode for v in views} == {"tournament"} and {v.rake_cap for v in views} == {0}
    # the first hand's button is the one drawn at the start (SEAT-1: high card)
    started_event = StoredEvent.objects.get(type="tournaments.TournamentStarted")
    drawn = {b["table_id"]: b["button_seat"] for b in started_event.data["buttons"]}
    hand = ok(tablet.post(f"/api/v1/tables/{tables[0]}/hands/", {}))
    assert hand["button_seat"] == drawn[tables[0]]
    # level 1's stakes (25/50, no ante), both blinds live at a full table
    assert {p["kind"]: p["amount"] for p in hand["posts"]} == {"small_blind": 25, "big_blind": 50}
    assert t["clock"]["level"] == 1 and t["clock"]["players_left"] == 12


@pytest.mark.rule("TREG-1")
def test_cash_game_operations_are_refused_at_a_tournament_table(tablet: TabletClient) -> None:
    tournament_id, _ = started(tablet)
    table_id = tournament(tablet, tournament_id)["tables"][0]
    newcomer = Player.objects.create(name="Walk-in")
    refused(
        tablet.post(
            f"/api/v1/tables/{table_id}/seats/",
            {"player_id": newcomer.pk, "seat": 9, "buy_in": 1000},
        ),
        "tournament_table",
    )
    seat = SeatView.objects.filter(table_id=table_id).first()
    assert seat is not None
    refused(tablet.post(f"/api/v1/tables/{table_id}/seats/{seat.seat}/cash-out/"),
            "tournament_table")  # fmt: skip


@pytest.mark.rule("PEN-4")
def test_tournament_players_may_not_give_chips_to_each_other(tablet: TabletClient) -> None:
    """PEN-4 over the API: the chip-gift endpoint refuses a gift between two entrants at a
    tournament table, appends nothing and leaves both stacks as they were."""
    tournament_id, _ = started(tablet)
    table_id = tournament(tablet, tournament_id)["tables"][0]
    seats = list(SeatView.objects.filter(table_id=table_id).order_by("seat"))
    before = {s.seat: s.stack for s in seats}
    logged = StoredEvent.objects.count()
    giver, taker = seats[0].seat, seats[1].seat
    refused(
        tablet.post(
            f"/api/v1/tables/{table_id}/chip-gifts/",
            {"from_seat": giver, "to_seat": taker, "amount": 100},
        ),
        "tournament_table",
    )
    assert StoredEvent.objects.count() == logged
    after = {s.seat: s.stack for s in SeatView.objects.filter(table_id=table_id)}
    assert after == before


@pytest.mark.rule("CLK-2")
def test_a_level_change_applies_from_the_next_hand(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        tournament_id, _ = started(tablet)
        table_id = tournament(tablet, tournament_id)["tables"][0]
        hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
        clock.shift(timedelta(minutes=20))
        assert run_command(lambda: services.run_clock(tournament_id=tournament_id)).result > 0
        assert tournament(tablet, tournament_id)["clock"]["level"] == 2
        # the hand dealt at level 1 keeps its blinds
        blinds = {p["kind"]: p["amount"] for p in hand["posts"]}
        assert blinds.get("big_blind") == 50
        base = f"/api/v1/hands/{hand['hand_id']}/actions/"
        while hand["phase"] == "betting":
            hand = ok(tablet.post(base, {"seat": hand["to_act"], "action": "fold"}))
        nxt = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
        assert {p["kind"]: p["amount"] for p in nxt["posts"]}["big_blind"] == 100


@pytest.mark.rule("CLK-7")
def test_a_break_starts_only_when_the_hands_in_progress_end(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False):
        tournament_id, _ = started(tablet)
        first, second = tournament(tablet, tournament_id)["tables"]
        hand = ok(tablet.post(f"/api/v1/tables/{first}/hands/", {}))
        t = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/breaks/", {"minutes": 5}))
        assert (t["clock"]["break_due"], t["clock"]["on_break"]) == (True, False)
        refused(tablet.post(f"/api/v1/tables/{second}/hands/", {}), "break_due", "CLK-7")
        base = f"/api/v1/hands/{hand['hand_id']}/actions/"
        while hand["phase"] == "betting":
            hand = ok(tablet.post(base, {"seat": hand["to_act"], "action": "fold"}))
        clock = tournament(tablet, tournament_id)["clock"]
        assert (clock["on_break"], clock["break_seconds_left"]) == (True, 300)
        refused(tablet.post(f"/api/v1/tables/{first}/hands/", {}), "on_break")
        # the tablet's preview says it before the dealer taps "Start hand" (found by QA)
        refused(tablet.get(f"/api/v1/tables/{first}/next-hand/"), "on_break")
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/breaks/end/", {}))
        assert ok(tablet.get(f"/api/v1/tables/{first}/next-hand/"))["big_blind_seat"]
        assert ok(tablet.post(f"/api/v1/tables/{second}/hands/", {}))["hand_number"] == 1


@pytest.mark.rule("TSEAT-9")
def test_hand_for_hand_no_table_deals_again_before_every_table_finished(
    tablet: TabletClient,
) -> None:
    tournament_id, _ = started(tablet)
    first, second = tournament(tablet, tournament_id)["tables"]
    t = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/hand-for-hand/", {"on": True}))
    assert t["clock"]["hand_for_hand"] is True
    rng = random.Random(3)
    assert play_hand(tablet, first, rng) is not None
    refused(tablet.post(f"/api/v1/tables/{first}/hands/", {}), "hand_for_hand_waiting", "TSEAT-9")
    assert play_hand(tablet, second, rng) is not None
    assert play_hand(tablet, first, rng) is not None  # the next round


def test_the_clock_is_public_and_names_nobody(tablet: TabletClient) -> None:
    tournament_id, _ = started(tablet)
    anonymous = APIClient()
    clock = anonymous.get(f"/api/v1/tournaments/{tournament_id}/clock/")
    assert clock.status_code == 200
    body = clock.json()
    assert (body["players_left"], body["average_stack"], body["prize_pool"]) == (12, 5000, 6000)
    assert "Player" not in clock.content.decode() and "P 0" not in clock.content.decode()
    assert anonymous.get(f"/api/v1/tournaments/{tournament_id}/").status_code == 401


@pytest.mark.rule("ELIM-1")
@pytest.mark.rule("ELIM-2")
def test_a_small_tournament_runs_to_one_winner_with_consistent_results(
    tablet: TabletClient,
) -> None:
    tournament_id, _ = started(tablet, players=12)
    rng = random.Random(11)
    for _ in range(400):
        t = tournament(tablet, tournament_id)
        if t["status"] == "finished":
            break
        assert any([play_hand(tablet, table_id, rng) for table_id in t["tables"]]), t["clock"]
    assert t["status"] == "finished"
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    winner = [e for e in entries if e["place"] == 1]
    assert [e["player_id"] for e in winner] == [t["winner_player_id"]]
    assert winner[0]["stack"] == 12 * 5000
    assert sum(e["prize"] for e in entries) == t["clock"]["prize_pool"] == 6000
    # tied entries share a range of places, one entry per place in it (ELIM-3/4)
    groups: dict[tuple[int, int], int] = {}
    for e in entries:
        groups[(e["place"], e["place_to"])] = groups.get((e["place"], e["place_to"]), 0) + 1
    assert all(count == hi - lo + 1 for (lo, hi), count in groups.items())
    assert sorted(p for lo, hi in groups for p in range(lo, hi + 1)) == list(range(1, 13))
    report = ok(tablet.get("/api/v1/reports/tournaments/"))["results"]
    assert [(r["tournament_id"], r["entries"], r["prize_pool"]) for r in report] == [
        (tournament_id, 12, 6000)
    ]
    # the business day in the room's time zone, not the UTC date (they differ near midnight)
    day = gaming_day.day_of(datetime.fromisoformat(report[0]["finished_at"])).isoformat()
    csv = tablet.get(f"/api/v1/reports/tournaments/?format=csv&date_from={day}&date_to={day}")
    assert csv.status_code == 200 and csv["Content-Type"].startswith("text/csv")
    header, row = csv.content.decode().splitlines()
    assert header.startswith("tournament_id,name,") and row.startswith(f"{tournament_id},")
    assert ok(tablet.get("/api/v1/reports/tournaments/?date_to=2000-01-01"))["count"] == 0


def test_a_stale_if_match_is_answered_409_and_changes_nothing(tablet: TabletClient) -> None:
    tournament_id, _ = started(tablet)
    version = tournament(tablet, tournament_id)["version"]
    before = StoredEvent.objects.count()
    r = tablet.post(f"/api/v1/tournaments/{tournament_id}/clock/pause/", {},
                    If_Match=str(version - 1))  # fmt: skip
    assert r.status_code == 409, r.json()
    assert StoredEvent.objects.count() == before
    r = tablet.post(f"/api/v1/tournaments/{tournament_id}/clock/pause/", {},
                    If_Match=str(version))  # fmt: skip
    assert r.status_code == 200 and r.json()["clock"]["paused"] is True


def test_registering_in_an_unknown_tournament_is_404_tournament_not_found(
    tablet: TabletClient,
) -> None:
    r = tablet.post("/api/v1/tournaments/999/registrations/", {"player_id": 999})
    assert (r.status_code, r.json()["code"]) == (404, "tournament_not_found")


def test_a_dealer_reports_conduct_only_of_a_player_at_his_table(tablet: TabletClient) -> None:
    """A tablet of table 1 (a cash table) flagged a player sitting at tournament table 10,
    and got the event's whole penalty list back (found by QA)."""
    tournament_id = create(tablet, min_entrants=2)
    register(tablet, tournament_id, 12, prefix="Flag")
    started = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    first, second = started["tables"][:2]
    at_first = SeatView.objects.filter(table_id=first).first()
    at_second = SeatView.objects.filter(table_id=second).first()
    assert at_first is not None and at_second is not None
    dealer = TabletClient(Device.objects.create(name="t1", role=Role.DEALER, table_id=first))
    url = f"/api/v1/tournaments/{tournament_id}/penalties/flags/"
    before = StoredEvent.objects.count()
    elsewhere = dealer.post(url, {"player_id": at_second.player_id, "offence": "abuse",
                                  "detail": "x"})  # fmt: skip
    assert elsewhere.status_code == 403
    assert elsewhere.json()["detail"] == (
        "A dealer tablet may report only a player seated at its table."
    )
    assert StoredEvent.objects.count() == before
    here = dealer.post(url, {"player_id": at_first.player_id, "offence": "abuse", "detail": "x"})
    assert here.status_code == 200, here.json()
    # a dealer at his own table, on an operation his role may not use, is told that
    denied = dealer.post(f"/api/v1/tables/{first}/limits/", {"buy_in_min": 100})
    assert denied.status_code == 403
    assert denied.json()["detail"] == "Your role may not use this operation."


@pytest.mark.rule("CLK-1")
def test_the_director_corrects_the_clock(tablet: TabletClient) -> None:
    """QA: the director could pause and resume but never give back the minutes an outage
    took, nor take time off."""
    tournament_id, _ = started(tablet)
    url = f"/api/v1/tournaments/{tournament_id}/clock/adjustments/"
    left = tournament(tablet, tournament_id)["clock"]["seconds_left"]
    after = ok(tablet.post(url, {"seconds": 120}))["clock"]["seconds_left"]
    assert left + 118 <= after <= left + 120
    before = StoredEvent.objects.count()
    for body, code in (
        ({"seconds": 0}, "invalid_clock_adjustment"),
        ({"seconds": -after - 5}, "clock_adjustment_too_large"),
        ({"seconds": 3601}, "invalid_request"),
        ({"seconds": "60"}, "not_an_integer"),
        ({"seconds": 60, "minutes": 1}, "unknown_field"),
        ({}, "invalid_request"),
    ):
        refused = tablet.post(url, body)
        assert refused.status_code in (400, 422), (body, refused.json())
        assert refused.json()["code"] == code, (body, refused.json())
    assert StoredEvent.objects.count() == before  # refusals append nothing
    shorter = ok(tablet.post(url, {"seconds": -60}))["clock"]["seconds_left"]
    assert after - 62 <= shorter <= after - 60
    dealer = TabletClient(Device.objects.create(name="t9", role=Role.DEALER, table_id=1))
    assert dealer.post(url, {"seconds": 60}).status_code == 403


@pytest.mark.rule("TREG-6")
def test_the_director_adds_levels_after_the_structure(tablet: TabletClient) -> None:
    """QA: past its last level the clock stayed at the last stakes for good, and the
    published structure could not be changed."""
    tournament_id, _ = started(tablet)
    url = f"/api/v1/tournaments/{tournament_id}/structure/levels/"
    more = {"small_blind": 1000, "big_blind": 2000, "ante": 2000,
            "ante_type": "big_blind_ante", "minutes": 15}  # fmt: skip
    t = ok(tablet.post(url, {"from_level": 6, "levels": [more], "reason": "deep field"}))
    assert len(t["config"]["levels"]) == 6 and t["config"]["levels"][5] == more
    before = StoredEvent.objects.count()
    for body, code in (
        ({"from_level": 1, "levels": [more], "reason": "x"}, "level_already_played"),
        ({"from_level": 8, "levels": [more], "reason": "x"}, "invalid_structure"),
        ({"from_level": 7, "levels": [{**more, "big_blind": 10}], "reason": "x"},
         "invalid_tournament_config"),  # blinds going down (CLK-1)
        ({"from_level": 7, "levels": [], "reason": "x"}, "invalid_request"),
        ({"from_level": 7, "levels": [more]}, "invalid_request"),
        ({"from_level": 7, "levels": [more], "reason": "x", "breaks": []}, "unknown_field"),
    ):  # fmt: skip
        refused = tablet.post(url, body)
        assert refused.status_code in (400, 422), (body, refused.json())
        assert refused.json()["code"] == code, (body, refused.json())
    assert StoredEvent.objects.count() == before  # refusals append nothing
    dealer = TabletClient(Device.objects.create(name="t9", role=Role.DEALER, table_id=1))
    assert dealer.post(url, {"from_level": 7, "levels": [more], "reason": "x"}).status_code == 403
    assert tournament(tablet, tournament_id)["config"]["levels"][5] == more  # read back
