"""Test helper: play a hand through the API choosing legal actions from a list of picks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tests.conftest import TabletClient

BOARD = [("flop", "2c7d9h"), ("turn", "Js"), ("river", "3d")]


def play_out(
    tablet: TabletClient,
    hand: dict[str, Any],
    action: Callable[[dict[str, Any]], dict[str, Any]],
    award: Callable[[dict[str, Any]], list[list[int]]],
) -> dict[str, Any]:
    """Play a dealt ``hand`` to its end through the dealer API: ``action(legal)`` gives
    each action's body without the seat, the board is :data:`BOARD`, and ``award(hand)``
    names each pot's winners when the dealer awards them. The hand at its end."""
    base = f"/api/v1/hands/{hand['hand_id']}"
    board = iter(BOARD)
    while hand["phase"] != "complete":
        if hand["phase"] == "betting":
            body = {"seat": hand["legal"]["seat"], **action(hand["legal"])}
            hand = _ok(tablet.post(f"{base}/actions/", body))
        elif hand["next_street"]:
            street, cards = next(board)
            hand = _ok(tablet.post(f"{base}/board/", {"street": street, "cards": cards}))
        else:
            hand = _ok(tablet.post(f"{base}/award/", {"winners_by_pot": award(hand)}))
    return hand


def live_seats(hand: dict[str, Any]) -> set[int]:
    """The seats still in the hand (neither folded nor mucked)."""
    return {s["seat"] for s in hand["seats"] if not s["folded"] and not s["mucked"]}


def play_random_hand(tablet: TabletClient, table_id: int, picks: list[int]) -> dict[str, Any]:
    """Start a hand and play it to the end: each pick (0-99) chooses fold, bet/raise (an
    amount between the legal minimum and maximum), all-in or call/check; a hand that
    reaches showdown is awarded, per pot, to the lowest live seat eligible for it."""
    choices: Iterator[int] = iter(picks)

    def action(legal: dict[str, Any]) -> dict[str, Any]:
        pick = next(choices, 99)
        if pick < 15 and legal["can_fold"] and legal["to_call"]:
            return {"action": "fold"}
        if pick < 30 and (legal["can_bet"] or legal["can_raise"]):
            low, high = legal["min_raise_to"], legal["max_raise_to"]
            return {"action": "bet" if legal["can_bet"] else "raise",
                    "amount_to": low + (high - low) * (pick % 7) // 6}  # fmt: skip
        if pick < 35 and (
            legal["can_bet"] or legal["can_raise"] or legal["all_in_to"] <= legal["call_to"]
        ):  # a short all-in that did not reopen the betting leaves only call or fold
            return {"action": "all_in"}
        return {"action": "call" if legal["to_call"] else "check"}

    def award(hand: dict[str, Any]) -> list[list[int]]:
        live = live_seats(hand)
        return [[min(s for s in p["eligible_seats"] if s in live)] for p in hand["pots"]]

    hand = _ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
    return play_out(tablet, hand, action, award)


def _ok(response: Any) -> dict[str, Any]:
    assert response.status_code in (200, 201), response.json()
    return dict(response.json())
