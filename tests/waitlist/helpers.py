"""Shared steps of the waiting-list tests (API calls as the floor console makes them)."""

from __future__ import annotations

from typing import Any

from casino.eventstore.models import StoredEvent
from tests.conftest import NLH_10_20, TabletClient

LISTS = "/api/v1/waitlists/"


def open_table(tablet: TabletClient, **config: Any) -> int:
    body = {**NLH_10_20, **config}
    if "buy_in_min" in config or "buy_in_max" in config:  # BI-5: agreed limits, say why
        body.setdefault("limits_reason", "agreed by the players")
    response = tablet.post("/api/v1/tables/", body)
    assert response.status_code == 201, response.json()
    return int(response.json()["table_id"])


def seat(tablet: TabletClient, table_id: int, player: Any, number: int, buy_in: int = 1000) -> Any:
    response = tablet.post(
        f"/api/v1/tables/{table_id}/seats/",
        {"player_id": player.id, "seat": number, "buy_in": buy_in},
    )
    assert response.status_code == 201, response.json()
    return response.json()


def cash_out(tablet: TabletClient, table_id: int, number: int) -> None:
    response = tablet.post(f"/api/v1/tables/{table_id}/seats/{number}/cash-out/")
    assert response.status_code == 200, response.json()


def open_list(
    tablet: TabletClient, game: str = "NLH", sb: int = 10, bb: int = 20, kind: str = "waiting"
) -> str:
    body = {"game": game, "small_blind": sb, "big_blind": bb, "list_kind": kind}
    response = tablet.post(LISTS, body)
    assert response.status_code == 201, response.json()
    return str(response.json()["list_id"])


def join(
    tablet: TabletClient, list_id: str, player: Any, channel: str = "in_person", **kw: Any
) -> Any:
    response = tablet.post(
        f"{LISTS}{list_id}/entries/", {"player_id": player.id, "channel": channel, **kw}
    )
    assert response.status_code == 201, response.json()
    return response.json()


def waitlist(tablet: TabletClient, list_id: str) -> dict[str, Any]:
    response = tablet.get(f"{LISTS}{list_id}/")
    assert response.status_code == 200, response.json()
    return dict(response.json())


def order(tablet: TabletClient, list_id: str) -> list[int]:
    return [e["player_id"] for e in waitlist(tablet, list_id)["entries"]]


def call(tablet: TabletClient, list_id: str, table_id: int, number: int, **kw: Any) -> Any:
    return tablet.post(f"{LISTS}{list_id}/calls/", {"table_id": table_id, "seat": number, **kw})


def seat_from_list(
    tablet: TabletClient, list_id: str, player: Any, table_id: int, number: int, buy_in: int = 1000
) -> Any:
    body = {"player_id": player.id, "table_id": table_id, "seat": number, "buy_in": buy_in}
    return tablet.post(f"{LISTS}{list_id}/seatings/", body)


def refused(response: Any, code: str, rule: str | None = None, status: int = 422) -> dict[str, Any]:
    assert response.status_code == status, response.json()
    body = response.json()
    assert (body["code"], body["rule"]) == (code, rule), body
    return dict(body)


def list_events(list_id: str) -> list[str]:
    return list(
        StoredEvent.objects.filter(stream=f"waitlist-{list_id}")
        .order_by("version")
        .values_list("type", flat=True)
    )
