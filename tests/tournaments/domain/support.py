"""Helpers for the tournament domain tests: a clock, a driver that folds events, configs,
and random hand results that conserve chips."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from casino.domain_events import DomainEvent
from tournaments.domain import tournament as t
from tournaments.domain.config import Break, Level, TournamentConfig

T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)

LEVELS = tuple(
    Level(sb, sb * 2, ante, "big_blind_ante" if ante else "none", 20)
    for sb, ante in ((25, 0), (50, 0), (75, 0), (100, 200), (150, 300), (200, 400), (300, 600),
                     (400, 800), (500, 1000), (700, 1400), (1000, 2000), (1500, 3000))
)  # fmt: skip


def config(**changes: object) -> TournamentConfig:
    base: dict[str, object] = {
        "name": "Sunday 1,000",
        "buy_in": 1000,
        "fee": 100,
        "starting_stack": 10_000,
        "levels": LEVELS,
        "breaks": (Break(after_level=4, minutes=10, chip_up_denomination=25),),
    }
    base.update(changes)
    return TournamentConfig(**base)  # type: ignore[arg-type]


@dataclass
class Driver:
    """Decides commands against the folded state and keeps every event."""

    state: t.TournamentState | None = None
    now: datetime = T0
    events: list[DomainEvent] = field(default_factory=list)

    def __call__(self, command: t.Command, now: datetime | None = None) -> list[DomainEvent]:
        if now is not None:
            self.now = now
        new = t.decide(self.state, command, self.now)
        for event in new:
            self.state = t.evolve(self.state, event)
        self.events += new
        return new

    @property
    def s(self) -> t.TournamentState:
        assert self.state is not None
        return self.state

    def tick(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


def started(
    players: int = 30,
    *,
    tables: Iterable[int] | None = None,
    seed: int = 1,
    clock: bool = True,
    **changes: object,
) -> Driver:
    """A tournament with ``players`` registered (ids 1..n), started and its clock running."""
    d = Driver()
    d(t.CreateTournament("t1", config(**changes)))
    for pid in range(1, players + 1):
        d(t.Register(pid))
    table_ids = tuple(tables) if tables is not None else tuple(range(1, players // 6 + 3))
    d(t.StartTournament(table_ids, seed))
    if clock:
        d(t.StartClock())
    return d


def random_result(
    stacks: dict[int, int], rng: random.Random, bust_chance: float = 0.3
) -> dict[int, int]:
    """Final stacks after a random hand: one winner takes chips from the others, who
    sometimes lose everything. Chips are conserved."""
    players = list(stacks)
    winner = rng.choice(players)
    final = dict(stacks)
    for pid in players:
        if pid == winner:
            continue
        lost = stacks[pid] if rng.random() < bust_chance else rng.randint(0, stacks[pid])
        final[pid] -= lost
        final[winner] += lost
    return final


def play_hand(d: Driver, table_id: int, rng: random.Random, **kwargs: object) -> list[DomainEvent]:
    """Start and record one random hand at ``table_id`` (every player with chips dealt in)."""
    s = d.s
    table = s.tables[table_id]
    number = table.hands_played + 1
    d(t.StartTableHand(table_id, number, table.button_seat, None, None))
    stacks = {
        pid: d.s.players[pid].stack for pid in table.seats.values() if d.s.players[pid].stack > 0
    }
    final = random_result(stacks, rng, **kwargs)  # type: ignore[arg-type]
    return d(t.RecordHandResult(table_id, number, stacks, final, rng.randrange(2**32)))


def play_round(d: Driver, rng: random.Random, **kwargs: object) -> int:
    """Every table that may deal plays one hand; returns how many were played."""
    played = 0
    for table_id in sorted(d.s.tables):
        if d.s.status != t.RUNNING:
            break
        if table_id in d.s.tables and t.may_start_hand(d.s, table_id):
            play_hand(d, table_id, rng, **kwargs)
            played += 1
    return played
