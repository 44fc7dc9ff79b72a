"""Test helper: knock players out at a tournament table through the dealer API, by choice
(``play.play_hand`` plays random hands)."""

from __future__ import annotations

from typing import Any

from tests.conftest import TabletClient
from tests.play import play_out
from tests.tournaments.play import ok


def seats(tablet: TabletClient, table_id: int) -> dict[int, dict[str, Any]]:
    """Seat -> the seat's row (``player_id``, ``stack``) at a table."""
    return {s["seat"]: s for s in ok(tablet.get(f"/api/v1/tables/{table_id}/"))["seats"]}


def bust(tablet: TabletClient, table_id: int, losers: int = 1) -> list[int]:
    """Deal one hand at ``table_id`` in which the biggest stack and the ``losers`` smallest
    ones go all in, everyone else folds, and the biggest stack wins every pot: the losers'
    player ids (busted unless the tournament keeps them, e.g. for a rebuy)."""
    at = seats(tablet, table_id)
    by_stack = sorted(at, key=lambda seat: (at[seat]["stack"], seat))
    winner, out = by_stack[-1], by_stack[:losers]
    assert winner not in out, at

    def action(legal: dict[str, Any]) -> dict[str, Any]:
        if legal["seat"] not in (winner, *out):
            return {"action": "fold" if legal["to_call"] else "check"}
        shove = legal["can_bet"] or legal["can_raise"] or legal["all_in_to"] <= legal["call_to"]
        return {"action": "all_in" if shove else "call"}

    hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
    play_out(tablet, hand, action, lambda hand: [[winner]] * len(hand["pots"]))
    return [at[seat]["player_id"] for seat in out]
