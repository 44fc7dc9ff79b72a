"""The chip race (CR-1..5): scheduled colour-ups, full exchanges first, cards dealt per
leftover chip clockwise, the highest cards win (rounding up), nobody busts, and the chips
in play stay accounted for."""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.domain import chip_race
from tournaments.domain import tournament as t
from tournaments.domain.config import Break, Level
from tournaments.domain.events import BreakStarted, ChipRaceRun

from .support import play_round, started


@pytest.mark.rule("CR-1")
def test_a_denomination_goes_at_the_first_break_the_structure_no_longer_needs_it() -> None:
    levels = [(25, 50, 0), (50, 100, 0), (100, 200, 0), (200, 400, 50), (300, 600, 100),
              (500, 1000, 100), (1000, 2000, 500)]  # fmt: skip
    # the 25s are needed while a 50 ante remains (level 4); the 100s while 100s or 300s do
    assert chip_race.scheduled_colour_ups(levels, [2, 4, 6], [25, 100, 500, 1000]) == {
        4: 25, 6: 100,
    }  # fmt: skip
    assert chip_race.scheduled_colour_ups(levels, [1], [25, 100]) == {}


@pytest.mark.rule("CR-2")
@pytest.mark.rule("CR-3")
@pytest.mark.rule("CR-4")
def test_full_exchanges_first_then_cards_per_leftover_chip_and_round_up() -> None:
    rng = random.Random(4)
    stacks = {1: 1075, 2: 950, 3: 3000, 4: 2025}
    result = chip_race.race(stacks, [2, 3, 4, 1], 25, 100, rng)
    # leftovers: 2 -> 50 (2 chips), 3 -> 0, 4 -> 25 (1 chip), 1 -> 75 (3 chips)
    assert [c.player_id for c in result.cards] == [2, 2, 4, 1, 1, 1]
    # 150 of leftovers: two chips of 100 (rounded up) to the two best cards' owners
    assert len(result.winners) == 2 and len(set(result.winners)) == 2
    best: dict[int, tuple[int, int]] = {}
    for c in result.cards:
        key = ("23456789TJQKA".index(c.card[0]), "cdhs".index(c.card[1]))
        best[c.player_id] = max(best.get(c.player_id, key), key)
    assert set(result.winners) == set(sorted(best, key=best.__getitem__, reverse=True)[:2])
    for pid in stacks:
        won = 100 if pid in result.winners else 0
        assert result.stacks[pid] == stacks[pid] // 100 * 100 + won
    assert result.chips_added == 50


@pytest.mark.rule("CR-5")
def test_nobody_is_eliminated_by_a_chip_race() -> None:
    # three players with only a 25 each: one chip of 100 rounds up, the others get one too
    result = chip_race.race({1: 25, 2: 25, 3: 25, 4: 5000}, [1, 2, 3, 4], 25, 100,
                            random.Random(1))  # fmt: skip
    assert all(result.stacks[p] == 100 for p in (1, 2, 3))


@pytest.mark.rule("CR-2")
@pytest.mark.rule("CR-4")
@settings(max_examples=100, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 400).map(lambda n: n * 25), min_size=2, max_size=10),
    seed=st.integers(0, 2**32 - 1),
    nxt=st.sampled_from([100, 500]),
)
def test_chips_are_conserved_through_a_race(stacks: list[int], seed: int, nxt: int) -> None:
    players = dict(enumerate(stacks, 1))
    result = chip_race.race(players, list(players), 25, nxt, random.Random(seed))
    leftovers = sum(s % nxt for s in stacks)
    # the full exchanges keep their value; the leftovers become ceil(leftovers / next) chips
    # of the next denomination, plus one chip for anyone left with none (CR-5)
    rescued = sum(1 for p, s in players.items() if s < nxt and p not in result.winners)
    expected = sum(s // nxt * nxt for s in stacks) + (-(-leftovers // nxt)) * nxt + rescued * nxt
    assert sum(result.stacks.values()) == expected
    assert result.chips_added == expected - sum(stacks)
    assert all(v % nxt == 0 and v > 0 for v in result.stacks.values())
    assert len(result.cards) == leftovers // 25


@pytest.mark.rule("CR-1")
@pytest.mark.rule("CR-3")
def test_the_race_runs_when_the_break_starts_and_the_draw_is_stored() -> None:
    levels = (Level(25, 50, minutes=20), Level(50, 100, minutes=20), Level(100, 200, minutes=20))
    d = started(12, tables=(1, 2, 3), levels=levels, breaks=(Break(2, 10),),
                denominations=(25, 100, 500), starting_stack=10_025)  # fmt: skip
    rng = random.Random(2)
    play_round(d, rng, bust_chance=0.0)
    d.tick(minutes=21)
    for cmd in t.due_clock_commands(d.s, d.now):
        d(cmd)
    play_round(d, rng, bust_chance=0.0)
    d.tick(minutes=21)
    events = []
    for cmd in t.due_clock_commands(d.s, d.now):
        events += d(cmd)
    started_break = next(e for e in events if isinstance(e, BreakStarted))
    assert started_break.chip_up_denomination == 25
    races = [e for e in events if isinstance(e, ChipRaceRun)]
    assert races and all(e.denomination == 25 and e.next_denomination == 100 for e in races)
    assert all(p.stack % 100 == 0 for p in d.s.players.values() if p.status == t.PLAYING)
    assert d.s.total_chips == d.s.chips_issued  # the chips issued follow the race


class _StackedDeck(random.Random):
    """A "shuffle" that deals ``cards`` first, in that order (the race pops from the end)."""

    def __init__(self, *cards: str) -> None:
        super().__init__(0)
        self.cards = cards

    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        rest = [c for c in x if c not in self.cards]
        x[:] = rest + list(reversed(self.cards))


# No CR rule: the catalogue leaves the tie-break open (``chip_race_tiebreak``); the module
# documents the seat draw's suit order (SEAT-1), spades > hearts > diamonds > clubs.
@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (("Kc", "Kd", "Kh", "Ks"), 4),
        (("Ks", "Kh", "Kd", "Kc"), 1),
        (("Kd", "Kh", "Kc"), 2),
        (("Kc", "Kd"), 2),
        (("Kh", "Kd"), 1),
        (("Kc", "Qs"), 1),  # the rank first: a club king beats the queen of spades
    ],
)
def test_equal_ranks_are_broken_by_suit_spades_hearts_diamonds_clubs(
    cards: tuple[str, ...], winner: int
) -> None:
    # each player has one leftover 25 and 25..100 of leftovers make one chip of 100
    stacks = {pid: 1025 for pid in range(1, len(cards) + 1)}
    result = chip_race.race(stacks, list(stacks), 25, 100, _StackedDeck(*cards))
    assert [(c.player_id, c.card) for c in result.cards] == list(zip(stacks, cards, strict=True))
    assert result.winners == (winner,)
    assert result.stacks == {pid: 1100 if pid == winner else 1000 for pid in stacks}
