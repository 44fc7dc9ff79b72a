"""Test helper: run a tournament through the API as the director, the cashier and the
dealer tablets would."""

from __future__ import annotations

import random
from typing import Any

from casino.models import Player
from tests.conftest import TabletClient
from tests.play import live_seats, play_out

STRUCTURE: dict[str, Any] = {
    "name": "Friday 500",
    "buy_in": 500,
    "fee": 100,
    "starting_stack": 5000,
    "levels": [
        {"small_blind": 25, "big_blind": 50, "minutes": 20},
        {"small_blind": 50, "big_blind": 100, "minutes": 20},
        {"small_blind": 100, "big_blind": 200, "ante": 200, "ante_type": "big_blind_ante",
         "minutes": 20},
        {"small_blind": 200, "big_blind": 400, "ante": 400, "ante_type": "big_blind_ante",
         "minutes": 20},
        {"small_blind": 500, "big_blind": 1000, "ante": 1000, "ante_type": "big_blind_ante",
         "minutes": 20},
    ],
    "breaks": [{"after_level": 2, "minutes": 10}],
    "payout_rounding_unit": 10,
}  # fmt: skip


def ok(response: Any) -> Any:
    assert response.status_code in (200, 201), (response.status_code, response.json())
    return response.json()


def create(tablet: TabletClient, **changes: Any) -> int:
    return int(ok(tablet.post("/api/v1/tournaments/", {**STRUCTURE, **changes}))["tournament_id"])


def register(tablet: TabletClient, tournament_id: int, count: int, prefix: str = "P") -> list[int]:
    ids = []
    for n in range(count):
        player = Player.objects.create(name=f"{prefix} {n}", nickname=f"{prefix}{n}")
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/registrations/",
                       {"player_id": player.pk}))  # fmt: skip
        ids.append(player.pk)
    return ids


def play_hand(
    tablet: TabletClient, table_id: int, rng: random.Random, all_in: float = 0.35
) -> dict[str, Any] | None:
    """Deal a hand at the table (``None`` when the tournament refuses it now) and play it
    out with random actions (``all_in``: how often a player shoves instead of calling); the
    dealer awards each pot to a random live seat."""
    r = tablet.post(f"/api/v1/tables/{table_id}/hands/", {})
    if r.status_code == 422:
        return None

    def action(legal: dict[str, Any]) -> dict[str, Any]:
        pick = rng.random()
        if pick < 0.35 and legal["can_fold"] and legal["to_call"]:
            return {"action": "fold"}
        if pick < 0.35 + all_in and (
            legal["can_bet"] or legal["can_raise"] or legal["all_in_to"] <= legal["call_to"]
        ):
            return {"action": "all_in"}
        return {"action": "call" if legal["to_call"] else "check"}

    def award(hand: dict[str, Any]) -> list[list[int]]:
        live = live_seats(hand)
        return [[rng.choice(sorted(set(p["eligible_seats"]) & live))] for p in hand["pots"]]

    return play_out(tablet, ok(r), action, award)
