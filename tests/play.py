"""Test helper: play a hand through the API choosing legal actions from a list of picks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.conftest import TabletClient

BOARD = [("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")]


def play_random_hand(tablet: TabletClient, table_id: int, picks: list[int]) -> dict[str, Any]:
    """Start a hand and play it to the end: each pick (0-99) chooses fold, bet/raise (an
    amount between the legal minimum and maximum), all-in or call/check; a hand that
    reaches showdown is awarded, per pot, to the lowest live seat eligible for it."""
    hand = _ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
    base = f"/api/v1/hands/{hand['hand_id']}"
    choices: Iterator[int] = iter(picks)
    board = iter(BOARD)
    while hand["phase"] != "complete":
        if hand["phase"] == "betting":
            legal, pick = hand["legal"], next(choices, 99)
            body: dict[str, Any] = {"seat": legal["seat"]}
            if pick < 15 and legal["can_fold"] and legal["to_call"]:
                body["action"] = "fold"
            elif pick < 30 and (legal["can_bet"] or legal["can_raise"]):
                low, high = legal["min_raise_to"], legal["max_raise_to"]
                body["action"] = "bet" if legal["can_bet"] else "raise"
                body["amount_to"] = low + (high - low) * (pick % 7) // 6
            elif pick < 35 and (
                legal["can_bet"] or legal["can_raise"] or legal["all_in_to"] <= legal["call_to"]
            ):  # a short all-in that did not reopen the betting leaves only call or fold
                body["action"] = "all_in"
            else:
                body["action"] = "call" if legal["to_call"] else "check"
            hand = _ok(tablet.post(f"{base}/actions/", body))
        elif hand["next_street"]:
            street, cards = next(board)
            hand = _ok(tablet.post(f"{base}/board/", {"street": street, "cards": cards}))
        else:
            live = {s["seat"] for s in hand["seats"] if not s["folded"] and not s["mucked"]}
            winners = [[min(s for s in p["eligible_seats"] if s in live)] for p in hand["pots"]]
            hand = _ok(tablet.post(f"{base}/award/", {"winners_by_pot": winners}))
    return hand


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.json()
    return dict(response.json())
