"""The next-hand preview of a tournament table is the hand the table will deal: before the
first hand the button is the tournament's high-card draw (SEAT-1), not seat 1."""

from __future__ import annotations

import pytest

from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, register


@pytest.mark.rule("SEAT-1")
def test_the_preview_of_a_tournament_tables_first_hand_uses_the_drawn_button(
    tablet: TabletClient,
) -> None:
    mismatched = 0
    for _ in range(3):  # the draw is random: seat 1 may win it by chance
        tournament = create(tablet, min_entrants=2)
        register(tablet, tournament, 6)
        tables = ok(tablet.post(f"/api/v1/tournaments/{tournament}/start/",
                                {"reserve_tables": 0}))["tables"]  # fmt: skip
        table = tables[0]
        preview = ok(tablet.get(f"/api/v1/tables/{table}/next-hand/"))
        hand = ok(tablet.post(f"/api/v1/tables/{table}/hands/", {}))
        dealt = (hand["button_seat"], hand["big_blind_seat"])
        mismatched += (preview["button_seat"], preview["big_blind_seat"]) != dealt
    assert mismatched == 0
