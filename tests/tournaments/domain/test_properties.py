"""Properties: balancing keeps tables within one and loses nobody, chips are conserved,
the finishing order is a permutation of the places and the prizes add up to the pool; and
simulated tournaments run to the end."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.errors import DomainError
from tournaments.domain import seating
from tournaments.domain import tournament as t
from tournaments.domain.config import RebuyRule, ReEntryRule
from tournaments.domain.events import PlayerEliminated, PlayerReinstated, TournamentFinished

from .support import Driver, play_round, started


def _apply(tables: dict[int, dict[int, int]], moves: list[seating.Move]) -> None:
    for m in moves:
        assert tables[m.from_table].pop(m.from_seat) == m.player_id
        assert m.to_seat not in tables[m.to_table]
        tables[m.to_table][m.to_seat] = m.player_id


@pytest.mark.rule("TSEAT-3")
@pytest.mark.rule("TSEAT-4")
@settings(max_examples=60, deadline=None)
@given(
    field=st.integers(2, 2000),
    size=st.sampled_from([6, 9]),
    seed=st.integers(0, 2**32 - 1),
    waves=st.lists(st.floats(0.0, 0.6), min_size=1, max_size=6),
)
def test_balancing_after_random_busts_keeps_tables_within_one(
    field: int, size: int, seed: int, waves: list[float]
) -> None:
    rng = random.Random(seed)
    table_ids = list(range(1, seating.tables_needed(field, size) + 1))
    draw = seating.draw_seats(list(range(field)), table_ids, size, rng)
    tables: dict[int, dict[int, int]] = {tid: {} for tid in table_ids}
    for pid, (tid, seat) in draw.items():
        tables[tid][seat] = pid
    order = table_ids[::-1]
    buttons = {tid: rng.randint(1, size) for tid in table_ids}
    alive = set(draw)
    for share in waves:
        for pid in rng.sample(sorted(alive), int(len(alive) * share)):
            if len(alive) <= 2:
                break
            alive.discard(pid)
            for seats in tables.values():
                for seat, p in list(seats.items()):
                    if p == pid:
                        del seats[seat]
        layouts = {tid: seating.TableLayout(tid, size, dict(s), buttons[tid], None)
                   for tid, s in tables.items()}  # fmt: skip
        due = seating.tables_to_break(len(alive), [o for o in order if o in tables], size)
        moves = seating.break_tables(layouts, due, rng)
        _apply(tables, moves)
        for tid in due:
            assert not tables.pop(tid)
        layouts = {tid: seating.TableLayout(tid, size, dict(s), buttons[tid], None)
                   for tid, s in tables.items()}  # fmt: skip
        _apply(tables, seating.balance(layouts))
        counts = [len(s) for s in tables.values()]
        assert max(counts) - min(counts) <= 1
        assert len(tables) == seating.tables_needed(len(alive), size)
        everyone = [p for s in tables.values() for p in s.values()]
        assert sorted(everyone) == sorted(alive)  # nobody lost or duplicated


def _check_finish(d: Driver) -> TournamentFinished:
    finished = d.events[-1]
    assert isinstance(finished, TournamentFinished)
    n = finished.entries
    groups: dict[tuple[int, int], int] = defaultdict(int)
    for r in finished.results:
        groups[(r.place, r.place_to)] += 1
    places: list[int] = []
    for (first, last), count in groups.items():
        assert count == last - first + 1
        places += range(first, last + 1)
    assert sorted(places) == list(range(1, n + 1))  # a permutation of 1..N
    assert sum(r.prize for r in finished.results) == finished.prize_pool
    assert len({r.entry_number for r in finished.results}) == n
    # consistent with every elimination: a later group never places lower
    by_entry = {r.entry_number: r for r in finished.results}
    elims: list[PlayerEliminated] = []
    for event in d.events:
        if isinstance(event, PlayerEliminated):
            elims.append(event)
        elif isinstance(event, PlayerReinstated):  # TREG-14: a rebuy undid his elimination
            last = max(i for i, e in enumerate(elims) if e.entry_number == event.entry_number)
            elims.pop(last)
    for earlier, later in pairwise(elims):
        if later.group > earlier.group:
            assert by_entry[later.entry_number].place_to < by_entry[earlier.entry_number].place
    for e in elims:
        if not e.provisional:
            r = by_entry[e.entry_number]
            assert (r.place, r.place_to) == (e.place, e.place_to)
    return finished


@pytest.mark.rule("ELIM-2")
@pytest.mark.rule("ELIM-6")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(9, 60),
    seed=st.integers(0, 2**32 - 1),
    bust=st.floats(0.05, 0.6),
    hfh=st.booleans(),
    unit=st.sampled_from([1, 100, 500]),
)
def test_chips_are_conserved_and_results_are_a_permutation(
    players: int, seed: int, bust: float, hfh: bool, unit: int
) -> None:
    d = started(
        players,
        seed=seed % 1000,
        payout_rounding_unit=unit,
        rebuy=RebuyRule(allowed=True, until_level=1, price=1000, max_per_player=1),
    )
    rng = random.Random(seed)
    if hfh and len(d.s.tables) > 1:
        d(t.StartHandForHand())
    for _ in range(5000):
        if d.s.status != t.RUNNING:
            break
        if rng.random() < 0.05:
            candidates = [p for p in d.s.players.values()
                          if p.status == t.PLAYING and p.rebuys == 0 and p.stack <= 10_000
                          and not d.s.tables[p.table_id].in_hand]  # type: ignore[index]  # fmt: skip
            if candidates:
                d(t.Rebuy(rng.choice(candidates).player_id))
        after_bust = [pid for pid in d.s.rebuy_windows if d.s.players[pid].rebuys == 0]
        if after_bust and rng.random() < 0.5:  # TREG-14: rebuy before his table deals again
            try:
                d(t.Rebuy(rng.choice(after_bust)))
            except DomainError as refused:
                assert refused.code in {"rebuy_window_closed", "rebuy_closed"}, refused.code
        assert play_round(d, rng, bust_chance=bust) > 0
        assert d.s.total_chips == d.s.chips_issued
        if not any(x.in_hand for x in d.s.tables.values()) and not d.s.hand_for_hand:
            sizes = [len(x.seats) for x in d.s.tables.values()]
            assert max(sizes) - min(sizes) <= 1
    finished = _check_finish(d)
    winner = d.s.players[finished.winner_player_id]
    assert winner.stack == d.s.chips_issued


@pytest.mark.rule("TSEAT-8")
def test_a_simulated_30_player_tournament_with_late_entries_runs_to_the_end() -> None:
    d = started(
        30,
        late_reg_until_level=3,
        reentry=ReEntryRule(allowed=True, max_per_player=2, price=1000, fee=100),
    )
    rng = random.Random(30)
    next_player = 31
    hands = 0
    while d.s.status == t.RUNNING:
        if d.s.late_reg_open and rng.random() < 0.3:
            d(t.LateRegister(next_player, rng.randrange(2**32)))
            next_player += 1
        if d.s.late_reg_open and rng.random() < 0.3:
            out = [p.player_id for p in d.s.players.values()
                   if p.status == t.ELIMINATED and p.entries < 3]  # fmt: skip
            if out:
                d(t.ReEnter(rng.choice(out), rng.randrange(2**32)))
        for cmd in t.due_clock_commands(d.s, d.now):
            d(cmd)
        played = play_round(d, rng, bust_chance=0.15)
        hands += played
        assert played or d.s.status != t.RUNNING or d.s.clock.on_break
        if d.s.clock.on_break:
            d.tick(minutes=10)
        d.tick(minutes=2)
        assert d.s.total_chips == d.s.chips_issued
    finished = _check_finish(d)
    assert finished.entries == d.s.entries > 30
    assert any(type(e).__name__ == "FinalTableRedrawn" for e in d.events)
    assert any(type(e).__name__ == "LevelStarted" and e.level > 1 for e in d.events)  # type: ignore[attr-defined]
    kinds = Counter(type(e).__name__ for e in d.events)
    assert kinds["PlayerEliminated"] == finished.entries - 1
    assert t.load(d.events) == d.state  # the state rebuilt from the log equals the live one
    assert hands > 20
