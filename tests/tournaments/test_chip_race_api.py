"""A progressive-knockout event with a chip race at a colour-up (CR-1..5) through the API:
when the break starts the 25s leave play, every table's stacks are coloured up and the
tables, the entries and the chips issued agree."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from casino.eventstore.commands import run_command
from casino.eventstore.models import StoredEvent
from tables.models import SeatView
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register
from tournaments import services
from tournaments.models import EntryView, TournamentView

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


@pytest.mark.rule("CR-1")
@pytest.mark.rule("CR-2")
@pytest.mark.rule("CR-5")
def test_pko_event_colours_up_the_25s_at_the_break(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False) as clock:
        tournament_id = create(
            tablet, denominations=[25, 100, 500, 1000],
            bounty={"kind": "progressive", "amount": 200}, starting_stack=5025,
        )  # fmt: skip
        register(tablet, tournament_id, 18)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
        rng = random.Random(9)
        tables = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["tables"]
        for table_id in tables:
            play_hand(tablet, table_id, rng, all_in=0.05)
        clock.shift(timedelta(minutes=20))
        run_command(lambda: services.run_clock(tournament_id=tournament_id))
        tables = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["tables"]
        for table_id in tables:
            play_hand(tablet, table_id, rng, all_in=0.05)
        assert any(s % 100 for s in SeatView.objects.values_list("stack", flat=True))
        clock.shift(timedelta(minutes=20))
        run_command(lambda: services.run_clock(tournament_id=tournament_id))
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
        assert t["clock"]["on_break"] is True
    races = StoredEvent.objects.filter(stream=f"tournament-{tournament_id}",
                                       type="tournaments.ChipRaceRun")  # fmt: skip
    assert races.exists()
    assert all(r.data["denomination"] == 25 and r.data["cards"] is not None for r in races)
    seats = dict(SeatView.objects.filter(tournament_id=tournament_id)
                 .values_list("player_id", "stack"))  # fmt: skip
    assert all(stack % 100 == 0 and stack > 0 for stack in seats.values())
    entries = dict(EntryView.objects.filter(tournament_id=tournament_id, status="playing")
                   .values_list("player_id", "stack"))  # fmt: skip
    assert entries == seats
    view = TournamentView.objects.get(tournament_id=tournament_id)
    assert sum(seats.values()) == view.chips_issued  # the round-up chips are counted
    assert t["clock"]["players_left"] == len(seats)
