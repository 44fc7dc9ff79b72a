"""Issue 12 D: a tournament's read models tell the truth at its tables and at its end.

* a tournament table's view shows the level in force (CLK-2), not the stakes it opened with;
* when one player has every chip (ELIM-1): the last table closes, the winner's entry says
  ``winner`` (not ``playing``) and the clock stops.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from casino.eventstore.commands import run_command
from tables.models import TableView
from tests.conftest import TabletClient
from tests.tables.test_view_versions import assert_every_view_is_at_its_stream_version
from tests.tournaments.play import create, ok, play_hand, register
from tournaments import services

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


@pytest.mark.rule("CLK-2")
def test_a_tournament_table_shows_the_level_in_force(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        tournament_id = create(tablet, min_entrants=2)
        register(tablet, tournament_id, 4)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {}))
        [table_id] = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["tables"]
        for _ in range(120):  # STRUCTURE: level 3 is 100/200 with a big-blind ante of 200
            clock.shift(timedelta(minutes=1))
            run_command(lambda: services.run_clock(tournament_id=tournament_id))
            t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/clock/"))
            if t["level"] == 3 and not t["on_break"]:
                break
        assert t["level"] == 3
        table = ok(tablet.get(f"/api/v1/tables/{table_id}/"))
        assert (table["small_blind"], table["big_blind"]) == (100, 200)
        assert (table["ante"], table["ante_type"]) == (200, "big_blind")
        hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
        posted = {p["kind"]: p["amount"] for p in hand["posts"]}
        assert (posted["small_blind"], posted["big_blind"]) == (100, 200)


@pytest.mark.rule("ELIM-1")
def test_when_the_tournament_ends_the_table_closes_the_winner_wins_and_the_clock_stops(
    tablet: TabletClient,
) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        tournament_id = create(tablet, min_entrants=2)
        register(tablet, tournament_id, 3)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {}))
        [table_id] = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["tables"]
        rng = random.Random(5)
        for _ in range(200):
            if ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["status"] == "finished":
                break
            play_hand(tablet, table_id, rng, all_in=1.0)
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
        assert t["status"] == "finished"
        entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
        winner = next(e for e in entries if e["player_id"] == t["winner_player_id"])
        assert winner["status"] == "winner" and winner["place"] == 1
        assert not [e for e in entries if e["status"] == "playing"]
        assert TableView.objects.get(table_id=table_id).status == "closed"
        assert ok(tablet.get(f"/api/v1/tables/{table_id}/"))["seats"] == []
        stopped = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/clock/"))
        clock.shift(timedelta(minutes=7))
        later = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/clock/"))
        assert later == stopped
        assert later["next_break_at"] is None
        assert services.run_clock(tournament_id=tournament_id) == 0
    assert_every_view_is_at_its_stream_version()  # tournament and tables alike
