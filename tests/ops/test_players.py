"""Players: list and search (paginated, strict filters) and a player's file."""

from __future__ import annotations

from typing import Any

import pytest

from casino.models import Player


@pytest.fixture
def named(db: None) -> list[Player]:
    names = [("Jana Novakova", "Queen"), ("Petr Novak", ""), ("Karel Dvorak", "Novice"),
             ("Eva Svobodova", "")]  # fmt: skip
    return [Player.objects.create(name=n, nickname=k) for n, k in names]


def test_players_are_searched_by_name_or_nickname_and_paginated(tablet: Any, named: list) -> None:
    found = tablet.get("/api/v1/players/?q=nov").json()
    assert [p["name"] for p in found["results"]] == [
        "Jana Novakova", "Karel Dvorak", "Petr Novak",  # "Novice" is Karel's nickname
    ]  # fmt: skip
    assert found["count"] == 3
    page = tablet.get("/api/v1/players/?page_size=2&page=2").json()
    assert page["count"] == 4 and [p["name"] for p in page["results"]] == [
        "Karel Dvorak", "Petr Novak",
    ]  # fmt: skip
    assert page["previous"] and page["next"] is None


def test_an_unknown_filter_is_refused(tablet: Any, named: list) -> None:
    response = tablet.get("/api/v1/players/?nmae=Jana")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "unknown_query_parameter" and body["parameters"] == ["nmae"]


def test_a_player_file_shows_his_seat_sessions_and_restrictions(
    tablet: Any, nlh_table: int, named: list
) -> None:
    jana, petr = named[0], named[1]
    for seat, player in ((1, jana), (2, petr)):
        body = {"seat": seat, "player_id": player.pk, "buy_in": 2000}
        assert tablet.post(f"/api/v1/tables/{nlh_table}/seats/", body).status_code == 201
    keep_apart = {"other_player_id": petr.pk, "reason": "collusion suspected"}
    restricted = tablet.post(f"/api/v1/players/{jana.pk}/seating-restrictions/", keep_apart)
    assert restricted.status_code in (200, 201), restricted.json()
    file = tablet.get(f"/api/v1/players/{jana.pk}/").json()
    assert file["name"] == "Jana Novakova"
    assert file["current_seats"] == [{"table_id": nlh_table, "seat": 1, "stack": 2000}]
    (session,) = file["sessions"]
    assert session["table_id"] == nlh_table and session["chips_in"] == 2000
    assert session["left_at"] is None
    assert [r["other_player_id"] for r in file["seating_restrictions"]] == [petr.pk]
    missing = tablet.get("/api/v1/players/999999/")
    assert missing.status_code == 404 and missing.json()["code"] == "player_not_found"
