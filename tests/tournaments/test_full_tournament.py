"""A whole tournament as the room runs it (issue #6, "Proof"): 60 players register at the
cashier, the director starts it, late entries arrive during late registration, the clock
runs its levels and a break with the time frozen by time-machine and a real Celery worker
running the timers, and the dealer tablets play every hand through the dealer API on all
tables until one player has every chip. Along the way tables balance and break as players
bust and the final table is redrawn; after every round the chips at the tables equal the
chips issued; at the end the finishing order and the payouts agree with every
elimination, and the read models rebuilt from the log equal the live ones."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core.management import call_command
from django.db.models import Sum

from casino.eventstore.models import StoredEvent
from tables.models import HandView, SeatView, TableView
from tests.conftest import TabletClient, wait_until
from tests.tournaments.play import create, ok, play_hand, register
from tournaments import tasks
from tournaments.models import EntryView, TournamentView

pytestmark = pytest.mark.django_db(transaction=True)
T0 = datetime(2026, 11, 20, 18, 0, tzinfo=UTC)


def snapshot() -> dict[str, list[dict[str, Any]]]:
    def rows(model: Any, *order: str, drop: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        return [
            {k: v for k, v in row.items() if k not in drop}
            for row in model.objects.order_by(*order).values()
        ]

    return {
        "tournaments": rows(TournamentView, "tournament_id"),
        "entries": rows(EntryView, "entry_number", drop=("id",)),
        "tables": rows(TableView, "table_id"),
        "seats": rows(SeatView, "table_id", "seat", drop=("id",)),
        "hands": rows(HandView, "hand_id"),
    }


def chips_at_tables(tournament_id: int) -> int:
    total = SeatView.objects.filter(table__tournament_id=tournament_id).aggregate(s=Sum("stack"))
    return int(total["s"] or 0)


@pytest.mark.rule("TSEAT-3")
@pytest.mark.rule("TSEAT-4")
@pytest.mark.rule("TSEAT-8")
@pytest.mark.rule("TREG-7")
@pytest.mark.rule("CLK-1")
@pytest.mark.rule("ELIM-2")
def test_sixty_players_from_registration_to_the_last_hand(
    worker: list[tuple[str, Any]], tablet: TabletClient
) -> None:
    rng = random.Random(2026)
    # The clock ticks from T0 (a frozen clock would also freeze the worker's broker polling);
    # each round the test moves it on by minutes, which the timers see.
    with time_machine.travel(T0, tick=True) as clock:
        tournament_id = create(tablet, late_reg_until_level=2)
        register(tablet, tournament_id, 60)
        t = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 2}))
        assert len(t["tables"]) == 7  # 60 players, 9-max: 7 tables of 8 or 9
        late_entries = 0
        levels_seen = {1}
        rounds = 0
        while t["status"] != "finished":
            rounds += 1
            assert rounds < 2000, "the tournament did not finish"
            for table_id in t["tables"]:
                play_hand(tablet, table_id, rng, all_in=0.08)
            t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
            # chips are conserved: every chip issued is in front of a player (until the
            # winner leaves the last table)
            if t["status"] != "finished":
                assert chips_at_tables(tournament_id) == t["chips_issued"]
            sizes = [SeatView.objects.filter(table_id=table_id).count() for table_id in t["tables"]]
            if t["status"] == "running" and len(sizes) > 1:
                assert max(sizes) - min(sizes) <= 1, sizes  # balanced (TSEAT-3)
            if t["clock"]["late_registration_open"] and rounds % 3 == 0 and late_entries < 6:
                register(tablet, tournament_id, 1, prefix=f"Late {late_entries}")
                late_entries += 1
            if rounds % 2 == 0 and t["status"] == "running":
                # 10 minutes pass; the level timer (ETA) or the sweep runs in the worker
                clock.shift(timedelta(minutes=10))
                ran = len(worker)
                c = t["clock"]
                tasks.clock_timer.delay(tournament_id, c["level"], clock_version(tournament_id))
                tasks.sweep_clocks.delay()
                wait_until(lambda ran=ran: len(worker) >= ran + 2)
                t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
                levels_seen.add(t["clock"]["level"])

    assert late_entries >= 1 and len(levels_seen) >= 3
    assert {name for name, _ in worker} >= {"tournaments.clock_timer", "tournaments.sweep_clocks"}
    types = set(StoredEvent.objects.values_list("type", flat=True))
    assert {
        "tournaments.PlayerMoved",
        "tournaments.TableBroken",
        "tournaments.FinalTableRedrawn",
        "tournaments.LevelStarted",
        "tournaments.BreakStarted",
        "tournaments.TournamentFinished",
    } <= types

    # The winner holds every chip; results agree with the eliminations and the payouts.
    entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    assert len(entries) == 60 + late_entries == t["entries"]
    winner = next(e for e in entries if e["place"] == 1)
    assert winner["player_id"] == t["winner_player_id"]
    assert winner["stack"] == t["chips_issued"] == 5000 * len(entries)
    assert winner["status"] == "winner"
    assert chips_at_tables(tournament_id) == 0  # the last table closed: nobody is seated
    assert not TableView.objects.filter(tournament_id=tournament_id, status="open").exists()
    busts = [
        e.data for e in StoredEvent.objects.filter(type="tournaments.PlayerEliminated")
        .order_by("position")
    ]  # fmt: skip
    assert len(busts) == len(entries) - 1
    finished = StoredEvent.objects.get(type="tournaments.TournamentFinished").data
    by_entry = {r["entry_number"]: r for r in finished["results"]}
    for bust in busts:
        final = by_entry[bust["entry_number"]]
        if not bust["provisional"]:  # places given after late registration are final
            assert (final["place"], final["place_to"]) == (bust["place"], bust["place_to"])
    # a bust in an earlier hand never places above one in a later hand; in one hand the
    # bigger starting stack places higher (ELIM-2)
    groups: dict[int, list[dict[str, Any]]] = {}
    for bust in busts:
        # the final places (TournamentFinished), with the bust's group and starting stack
        groups.setdefault(bust["group"], []).append(bust | by_entry[bust["entry_number"]])
    ordered = [groups[g] for g in sorted(groups)]
    for earlier, later in itertools.pairwise(ordered):
        assert min(r["place"] for r in earlier) > max(r["place_to"] for r in later)
    for group in ordered:
        ranked = sorted(group, key=lambda r: r["place"])
        stacks = [r["starting_stack"] for r in ranked]
        assert stacks == sorted(stacks, reverse=True)
    assert any(b["provisional"] for b in busts) and not busts[-1]["provisional"]
    assert sum(e["prize"] for e in entries) == finished["prize_pool"] == 500 * len(entries)
    # a better place never pays less than a worse one; players tied for places share the
    # same place number and the remainder of their split goes to one of them (ELIM-3), so
    # within a tie the bigger share comes first
    paid = sorted(
        ((e["place"], e["prize"]) for e in entries if e["prize"]), key=lambda p: (p[0], -p[1])
    )
    assert paid[0][0] == 1
    assert all(a[1] >= b[1] for a, b in itertools.pairwise(paid))

    # Every read model rebuilt from the log equals the live one.
    live = snapshot()
    call_command("rebuild_projections")
    assert snapshot() == live


def clock_version(tournament_id: int) -> int:
    return int(TournamentView.objects.get(tournament_id=tournament_id).clock_version)
