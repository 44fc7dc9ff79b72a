"""A table's hands: newest first, filtered by hand number, date and player, paginated."""

from __future__ import annotations

from typing import Any

from tests.play import play_random_hand


def test_hands_are_listed_and_filtered(tablet: Any, nlh_table: int, players: list) -> None:
    for seat, player in enumerate(players[:3], start=1):
        body = {"seat": seat, "player_id": player.pk, "buy_in": 2000}
        assert tablet.post(f"/api/v1/tables/{nlh_table}/seats/", body).status_code == 201
    for _ in range(3):
        play_random_hand(tablet, nlh_table, [99] * 50)
    base = f"/api/v1/tables/{nlh_table}/hands/"
    listed = tablet.get(base).json()
    assert listed["count"] == 3
    assert [h["hand_number"] for h in listed["results"]] == [3, 2, 1]
    assert all(h["status"] != "running" for h in listed["results"])
    assert [h["hand_number"] for h in tablet.get(f"{base}?hand_number=2").json()["results"]] == [2]
    ranged = tablet.get(f"{base}?hand_number_from=2&hand_number_to=3").json()["results"]
    assert [h["hand_number"] for h in ranged] == [3, 2]
    backwards = tablet.get(f"{base}?hand_number_from=3&hand_number_to=2")  # not an empty list
    assert (backwards.status_code, backwards.json()["code"]) == (400, "invalid_request")
    first = listed["results"][-1]["started_at"]
    later = tablet.get(f"{base}?date_from={first.replace('+00:00', 'Z')}&page_size=1").json()
    assert later["count"] == 3 and len(later["results"]) == 1 and later["next"]
    assert tablet.get(f"{base}?player={players[0].pk}").json()["count"] == 3
    assert tablet.get(f"{base}?player={players[5].pk}").json()["count"] == 0
    refused = tablet.get(f"{base}?hand=2")
    assert refused.status_code == 400 and refused.json()["code"] == "unknown_query_parameter"
    assert tablet.get("/api/v1/tables/999/hands/").status_code == 404


def test_an_instant_outside_the_calendar_in_utc_is_refused(tablet: Any, nlh_table: int) -> None:
    """``0001-01-01T00:00+14:00`` is before year 1 in UTC (and ``9999-12-31T23:59-12:00``
    after 9999): the list and the export answered 500 on SQLite (found by fuzzing)."""
    for path in (f"/api/v1/tables/{nlh_table}/hands/",
                 f"/api/v1/tables/{nlh_table}/hands/export/?export_format=phh&"):  # fmt: skip
        sep = "" if path.endswith("&") else "?"
        for query in ("date_from=0001-01-01T00:00:00%2B14:00", "date_to=9999-12-31T23:59:59-12:00"):
            answer = tablet.get(f"{path}{sep}{query}")
            assert (answer.status_code, answer.json()["code"]) == (400, "invalid_request"), query
        edge = tablet.get(f"{path}{sep}date_from=0001-01-01T00:00:00Z")  # the first instant
        assert edge.status_code == 200, edge.content
