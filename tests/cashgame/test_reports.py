"""Management reports: figures from the read models, equal after a rebuild from the log."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core.management import call_command

from tests.conftest import NLH_10_20, TabletClient

DAY1 = datetime(2026, 11, 20, 19, 0, tzinfo=UTC)  # 20:00 in Prague
LATE = datetime(2026, 11, 20, 23, 30, tzinfo=UTC)  # 00:30 on the 21st in Prague


def _play_a_hand(
    tablet: TabletClient, table_id: int, raise_to: int | None, *, bet_pot: bool = False
) -> dict[str, Any]:
    """Heads-up: the first player raises to ``raise_to`` (or the pot), the other calls;
    with ``bet_pot`` the first to act bets the pot on every street and is called."""
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {}).json()
    base = f"/api/v1/hands/{hand['hand_id']}"

    def act(action: str, amount_to: int | None = None) -> dict[str, Any]:
        body = {"seat": hand["to_act"], "action": action}
        if amount_to is not None:
            body["amount_to"] = amount_to
        response = tablet.post(f"{base}/actions/", body).json()
        assert "phase" in response, response
        return dict(response)

    hand = act("raise", raise_to or hand["legal"]["max_raise_to"])
    while hand["phase"] == "betting":
        hand = act("call")
    for street, cards in (("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")):
        if hand["next_street"] == street:
            hand = tablet.post(f"{base}/board/", {"street": street, "cards": cards}).json()
        if bet_pot and hand["phase"] == "betting":
            hand = act("bet", hand["legal"]["max_raise_to"])
        while hand["phase"] == "betting":
            hand = act("call" if hand["legal"]["to_call"] else "check")
    live = [s["seat"] for s in hand["seats"] if not s["folded"]]
    return dict(tablet.post(f"{base}/award/", {"winners_by_pot": [[live[0]]]}).json())


@pytest.fixture
def evening(tablet: TabletClient, players: list) -> dict[str, int]:
    """Two tables over a Prague evening that crosses midnight."""
    with time_machine.travel(DAY1, tick=False):
        nlh = tablet.post("/api/v1/tables/", {"name": "a", "game": "NLH", "small_blind": 10,
                                              "big_blind": 20}).json()["table_id"]  # fmt: skip
        plo = tablet.post("/api/v1/tables/", {"name": "b", "game": "PLO", "small_blind": 25,
                          "big_blind": 50, "buy_in_min": 1000, "buy_in_max": 9000}).json()[
            "table_id"]  # fmt: skip
        for n, (table, seat, buy_in) in enumerate(
            [(nlh, 1, 5000), (nlh, 2, 5000), (plo, 1, 9000), (plo, 2, 9000)]
        ):
            tablet.post(f"/api/v1/tables/{table}/seats/",
                        {"player_id": players[n].id, "seat": seat, "buy_in": buy_in})  # fmt: skip
    with time_machine.travel(DAY1 + timedelta(minutes=30), tick=False):
        _play_a_hand(tablet, nlh, 2000)  # pot 4000: 200 rake
        plo_hand = _play_a_hand(tablet, plo, None, bet_pot=True)  # pot 8100 -> cap 200 (RAKE-3)
        assert sum(p["amount"] for p in plo_hand["result"]["pots"]) == 8100
        tablet.post(f"/api/v1/tables/{nlh}/seats/1/refreshment/", {"amount": 80})
    with time_machine.travel(LATE, tick=False):
        _play_a_hand(tablet, nlh, 100)  # pot 200: 10 rake, on the next business day
        tablet.post(f"/api/v1/tables/{nlh}/seats/2/top-up/", {"amount": 100})
        tablet.post(f"/api/v1/tables/{nlh}/seats/1/cash-out/")
    return {"nlh": nlh, "plo": plo}


def _rows(tablet: TabletClient, report: str, query: str = "") -> list[dict[str, Any]]:
    r = tablet.get(f"/api/v1/reports/{report}/?{query}")
    assert r.status_code == 200, r.json()
    return list(r.json()["results"])


@pytest.mark.rule("RAKE-2")
@pytest.mark.rule("RAKE-3")
def test_rake_by_day_table_game_and_stakes(tablet: TabletClient, evening: dict) -> None:
    rows = _rows(tablet, "rake")
    assert rows == [
        {"day": "2026-11-20", "table_id": evening["nlh"], "game": "NLH", "small_blind": 10,
         "big_blind": 20, "hands": 1, "rake": 200},
        {"day": "2026-11-20", "table_id": evening["plo"], "game": "PLO", "small_blind": 25,
         "big_blind": 50, "hands": 1, "rake": 200},
        {"day": "2026-11-21", "table_id": evening["nlh"], "game": "NLH", "small_blind": 10,
         "big_blind": 20, "hands": 1, "rake": 10},
    ]  # fmt: skip
    assert [r["rake"] for r in _rows(tablet, "rake", "date_from=2026-11-21")] == [10]
    assert [r["game"] for r in _rows(tablet, "rake", "game=PLO")] == ["PLO"]
    # a misspelt game is a mistake, not an empty report (the schema lists the games)
    for report in ("rake", "drop", "hours-by-game"):
        refused = tablet.get(f"/api/v1/reports/{report}/?game=Omaha")
        assert refused.status_code == 400, (report, refused.content)


def test_drop_and_cash_outs_by_day(tablet: TabletClient, evening: dict) -> None:
    day1, day2 = _rows(tablet, "drop")
    assert (day1["day"], day1["buy_ins"], day1["top_ups"], day1["drop"]) == (
        "2026-11-20", 28000, 0, 28000)  # fmt: skip
    assert day1["refreshments"] == 80 and day1["cash_outs"] == 0
    assert (day2["day"], day2["drop"], day2["top_ups"]) == ("2026-11-21", 100, 100)
    assert day2["cash_outs"] > 0


def test_hours_played_by_player_and_game(
    tablet: TabletClient, evening: dict, players: list
) -> None:
    with time_machine.travel(LATE + timedelta(minutes=30), tick=False):
        by_player = _rows(tablet, "hours-by-player")
        by_game = _rows(tablet, "hours-by-game")
    first = next(r for r in by_player if r["player_id"] == players[0].id)
    assert (first["seconds"], first["hours"]) == (4.5 * 3600, 4.5)  # 19:00 to 23:30 UTC
    assert {r["game"]: r["sessions"] for r in by_game} == {"NLH": 2, "PLO": 2}
    assert all("player_id" not in r for r in by_game)  # all players together: no column
    nlh = next(r for r in by_game if r["game"] == "NLH")
    assert nlh["seconds"] == 4.5 * 3600 + 5 * 3600  # one left at 23:30, one still seated


def test_hands_per_hour(tablet: TabletClient, evening: dict, players: list) -> None:
    rows = _rows(tablet, "hands-per-hour", f"table_id={evening['nlh']}")
    assert [(r["day"], r["hands"]) for r in rows] == [("2026-11-20", 1), ("2026-11-21", 1)]
    # one hand dealt in a second is no pace: it read 3,600 hands an hour (found by QA)
    assert [r["hands_per_hour"] for r in rows] == [None, None]
    with time_machine.travel(LATE + timedelta(minutes=20), tick=False):
        seat = {"player_id": players[4].id, "seat": 1, "buy_in": 5000}
        assert tablet.post(f"/api/v1/tables/{evening['nlh']}/seats/", seat).status_code == 201
        _play_a_hand(tablet, evening["nlh"], 100)
    with time_machine.travel(LATE + timedelta(minutes=40), tick=False):
        _play_a_hand(tablet, evening["nlh"], 100)
        day2 = _rows(tablet, "hands-per-hour", f"table_id={evening['nlh']}")[1]
    # 3 hands from the first deal at 23:30 to the last settlement at 00:10 UTC: 40 minutes
    assert (day2["hands"], day2["seconds"], day2["hands_per_hour"]) == (3, 2400, 4.5)


def test_reports_equal_after_rebuilding_every_projection(
    tablet: TabletClient, evening: dict
) -> None:
    reports = ["rake", "drop", "hours-by-player", "hours-by-game", "hands-per-hour"]
    with time_machine.travel(LATE + timedelta(hours=1), tick=False):
        before = {r: _rows(tablet, r) for r in reports}
        call_command("rebuild_projections")
        after = {r: _rows(tablet, r) for r in reports}
    assert after == before
    assert all(before.values())


def test_reports_are_paginated(tablet: TabletClient, evening: dict) -> None:
    r = tablet.get("/api/v1/reports/rake/?page_size=2").json()
    assert (r["count"], len(r["results"])) == (3, 2) and r["next"]


def test_drop_by_table_over_the_range(tablet: TabletClient, evening: dict) -> None:
    rows = {r["table_id"]: r for r in _rows(tablet, "drop-by-table")}
    assert (rows[evening["nlh"]]["drop"], rows[evening["nlh"]]["top_ups"]) == (10100, 100)
    assert rows[evening["plo"]]["drop"] == 18000 and rows[evening["plo"]]["game"] == "PLO"
    only_day2 = _rows(tablet, "drop-by-table", "date_from=2026-11-21")
    assert [(r["table_id"], r["drop"]) for r in only_day2] == [(evening["nlh"], 100)]


def test_drop_by_table_counts_only_cash_as_the_drop_report_and_the_cage_do(
    tablet: TabletClient, players: list
) -> None:
    """One definition of drop (cashgame.cage.DROP): a buy-in paid with chips bought at the
    cage is not drop at the table; the drop-by-table report counted it."""
    table = tablet.post("/api/v1/tables/", NLH_10_20).json()["table_id"]
    sale = {"player_id": players[0].id, "amount": 2000}
    assert tablet.post("/api/v1/cage/sales/", sale).status_code == 201
    for n, (seat, buy_in, paid_with) in enumerate([(1, 2000, "chips"), (2, 1500, "cash")]):
        body = {"player_id": players[n].id, "seat": seat, "buy_in": buy_in, "paid_with": paid_with}
        assert tablet.post(f"/api/v1/tables/{table}/seats/", body).status_code == 201
    [row] = [r for r in _rows(tablet, "drop-by-table") if r["table_id"] == table]
    assert (row["drop"], row["buy_ins"], row["paid_with_chips"]) == (1500, 3500, 2000)
    assert sum(r["drop"] for r in _rows(tablet, "drop")) == 1500
    assert tablet.get("/api/v1/cage/balance/").json()["table_drop"] == 1500


def test_each_report_downloads_as_csv_with_every_row(tablet: TabletClient, evening: dict) -> None:
    r = tablet.get("/api/v1/reports/rake/?format=csv&page_size=1&date_from=2026-11-20")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    assert r["Content-Disposition"] == 'attachment; filename="rake_2026-11-20.csv"'
    nlh, plo = evening["nlh"], evening["plo"]
    assert r.content.decode().splitlines() == [
        "day,table_id,game,small_blind,big_blind,hands,rake",
        f"2026-11-20,{nlh},NLH,10,20,1,200",
        f"2026-11-20,{plo},PLO,25,50,1,200",
        f"2026-11-21,{nlh},NLH,10,20,1,10",
    ]  # every row despite page_size=1: a download is not paginated
    drop = tablet.get("/api/v1/reports/drop/?format=csv").content.decode().splitlines()
    assert drop[0] == "day,drop,buy_ins,top_ups,paid_with_chips,cash_outs,refreshments,dealer_fees"
    assert drop[1] == "2026-11-20,28000,28000,0,0,0,80,0"
    for report in ["drop-by-table", "hours-by-player", "hours-by-game", "hands-per-hour"]:
        lines = tablet.get(f"/api/v1/reports/{report}/?format=csv").content.decode().splitlines()
        assert len(lines) >= 2 and "," in lines[0], report


def test_report_days_are_iso_only(tablet: TabletClient, evening: dict) -> None:
    """01/02/2026 was read as 2 January (Django's US formats) and its slashes went into the
    download's name; a Czech manager means 1 February (found by QA)."""
    for day in ("01/02/2026", "11/29/26", "Nov 29 2026", "2026-02-30", "29.11.2026"):
        r = tablet.get(f"/api/v1/reports/rake/?date_from={day}")
        assert (r.status_code, r.json()["code"]) == (400, "invalid_request"), day
        assert "date_from" in r.json()["errors"]
    r = tablet.get("/api/v1/reports/rake/?format=csv&date_from=%202026-11-20%20")
    assert r["Content-Disposition"] == 'attachment; filename="rake_2026-11-20.csv"'


def test_a_csv_download_obeys_the_permission_matrix(evening: dict) -> None:
    from rest_framework.test import APIClient

    from casino.models import Device

    cashier = APIClient()
    device = Device.objects.create(name="cage-1", role=Device.Role.CASHIER)
    cashier.credentials(HTTP_AUTHORIZATION=f"Token {device.token}")
    assert cashier.get("/api/v1/reports/rake/?format=csv").status_code == 403
    manager = APIClient()
    device = Device.objects.create(name="office-1", role=Device.Role.MANAGER)
    manager.credentials(HTTP_AUTHORIZATION=f"Token {device.token}")
    assert manager.get("/api/v1/reports/drop-by-table/?format=csv").status_code == 200


def test_hours_round_a_half_up_as_the_reports_page_does() -> None:
    """Found by QA: 882 s showed 0.24 h in the table and 0.25 h in the page's total."""
    from cashgame.reports import hours_of

    assert [hours_of(s) for s in (0, 17, 18, 882, 878, 3600, 16_200)] == [
        0.0, 0.0, 0.01, 0.25, 0.24, 1.0, 4.5,
    ]  # fmt: skip


def test_tournament_tables_are_not_in_the_cash_game_reports(
    tablet: TabletClient, evening: dict
) -> None:
    """A tournament table showed in the rake report as '50/100, 0 CZK' stakes and pulled
    the room's hands per hour up with its shoves (found by QA)."""
    import random

    from tests.tournaments.play import create, ok, play_hand, register

    with time_machine.travel(DAY1 + timedelta(minutes=40), tick=False):
        tournament = create(tablet, min_entrants=2)
        register(tablet, tournament, 4)
        tables = ok(tablet.post(f"/api/v1/tournaments/{tournament}/start/",
                                {"reserve_tables": 0}))["tables"]  # fmt: skip
        assert play_hand(tablet, tables[0], random.Random(3)) is not None
    for report in ("rake", "hands-per-hour"):
        listed = {r["table_id"] for r in _rows(tablet, report)}
        assert listed == {evening["nlh"], evening["plo"]}, report


def test_a_csv_cell_is_never_a_formula() -> None:
    """A tournament named ``=HYPERLINK(...)`` was a live formula in the tournaments report's
    CSV when opened in Excel (found by QA). Text cells that a spreadsheet would run are
    written as text; numbers, negative ones too, stay numbers."""
    import csv
    import io

    from cashgame.csv_renderer import ReportCSVRenderer

    rows = [{"name": '=HYPERLINK("http://evil.example","Total")', "net": -5, "note": "@SUM(A1)",
             "plain": "Sunday 1000"}]  # fmt: skip
    body = ReportCSVRenderer().render(rows, renderer_context={"csv_header": list(rows[0])})
    _, row = list(csv.reader(io.StringIO(body.decode())))
    assert row[0].startswith("'=") and row[2].startswith("'@")
    assert row[1] == "-5" and row[3] == "Sunday 1000"
