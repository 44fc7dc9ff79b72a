"""Stored snapshots of tournament streams (issue #14): a cold process starts from the signed
snapshot and folds only the newer events, and gets the same state as a full fold."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
import time_machine

from casino.eventstore import aggregates, snapshots, store
from casino.eventstore.models import StreamSnapshot
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register
from tournaments.domain import tournament as domain
from tournaments.domain.tournament import TournamentState
from tournaments.services import load_tournament, tournament_stream

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)


def _full_fold(stream: str) -> TournamentState | None:
    state = None
    for recorded in store.read_stream(stream):
        state = domain.evolve(state, recorded.event)
    return state


def test_a_cold_load_starts_from_the_snapshot_and_equals_the_full_fold(
    tablet: TabletClient,
) -> None:
    with time_machine.travel(T0, tick=False):
        tournament_id = create(tablet, min_entrants=2, bounty={"kind": "knockout",
                                                               "amount": 100})  # fmt: skip
        register(tablet, tournament_id, 12)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {}))
        tables = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["tables"]
        rng = random.Random(4)
        stream = tournament_stream(tournament_id)
        while store.stream_version(stream) < 2 * aggregates.SNAPSHOT_EVERY + 3:
            for table_id in tables:
                play_hand(tablet, table_id, rng, all_in=0.3)
            tables = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))["tables"]
    snap = StreamSnapshot.objects.get(stream=stream)
    assert snap.version >= aggregates.SNAPSHOT_EVERY
    assert snap.shape == snapshots.shape_of(TournamentState)
    decoded = snapshots.decode(TournamentState, snap.state)
    assert decoded == _fold_to(stream, snap.version)  # datetimes, int keys, frozensets

    aggregates.cache.clear()  # a cold process
    reads: list[int] = []
    original = store.read_stream

    def counting(stream_name: str, after_version: int = 0) -> object:
        reads.append(after_version)
        return original(stream_name, after_version=after_version)

    store.read_stream = counting  # type: ignore[assignment]
    try:
        loaded = load_tournament(tournament_id)
    finally:
        store.read_stream = original  # type: ignore[assignment]
    assert reads == [snap.version]  # only the events after the snapshot were read
    assert loaded.state == _full_fold(stream)
    assert loaded.version == store.stream_version(stream)


def test_a_snapshot_of_another_state_shape_is_folded_from_the_log(
    tablet: TabletClient,
) -> None:
    tournament_id = create(tablet, min_entrants=2)
    register(tablet, tournament_id, 30)  # 31 events: one snapshot at 25
    stream = tournament_stream(tournament_id)
    assert StreamSnapshot.objects.filter(stream=stream).exists()
    StreamSnapshot.objects.filter(stream=stream).update(shape="0" * 32)
    assert snapshots.read(stream, TournamentState) is None
    aggregates.cache.clear()
    loaded = load_tournament(tournament_id)
    assert loaded.state == _full_fold(stream)
    assert len(loaded.state.players) == 30


def _fold_to(stream: str, version: int) -> TournamentState | None:
    state = None
    for recorded in store.read_stream(stream):
        if recorded.version > version:
            break
        state = domain.evolve(state, recorded.event)
    return state
