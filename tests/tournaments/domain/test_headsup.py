"""Heads-up brackets (HU-1..4): play-in and byes down to a power of two, winners advance
automatically, an inactive match goes to the chip leader; a 13-player bracket to the end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.errors import DomainError
from tournaments.domain import headsup as hu
from tournaments.domain import tournament as t
from tournaments.domain.events import MatchEnded

from .support import Driver, config


def run(state: hu.Bracket, command: hu.Command) -> tuple[hu.Bracket, list[hu.Event]]:
    events = hu.decide(state, command)
    for e in events:
        state = hu.evolve(state, e)
    return state, events


@pytest.mark.rule("HU-2")
def test_field_sizes_play_in_and_byes() -> None:
    assert hu.field_sizes(13) == (8, 5, 3)
    assert hu.field_sizes(16) == (16, 0, 0)
    assert hu.field_sizes(2) == (2, 0, 0)
    assert hu.field_sizes(100) == (64, 36, 28)
    with pytest.raises(ValueError):
        hu.field_sizes(129)


@pytest.mark.rule("HU-1")
@pytest.mark.rule("HU-2")
def test_a_thirteen_player_bracket_plays_to_the_end() -> None:
    state, events = hu.play(range(1, 14), seed=7)
    drawn = events[0]
    assert isinstance(drawn, hu.BracketDrawn)
    assert len(drawn.play_in) == 5 and len(drawn.byes) == 3 and drawn.rounds == 4
    byes = set(drawn.byes)
    assert not byes & {p for pair in drawn.play_in for p in pair}  # byes skip round 1
    rng = random.Random(3)
    losers: list[int] = []
    played = 0
    while state.champion is None:
        matches = hu.open_matches(state)
        assert matches, "the bracket is stuck"
        m = matches[0]
        assert m.a is not None and m.b is not None
        winner = rng.choice([m.a, m.b])
        state, _ = run(state, hu.RecordMatchResult(m.match_id, winner))
        losers.append(m.b if winner == m.a else m.a)  # type: ignore[arg-type]
        played += 1
    assert played == 12  # one match per player out
    assert sorted([*losers, state.champion]) == list(range(1, 14))
    final = max(state.matches.values(), key=lambda m: m.round)
    assert final.round == 4 and final.winner == state.champion
    # the winners advanced automatically: every match of round r > 1 holds two winners
    # of round r - 1 (or byes in round 2)
    for m in state.matches.values():
        if m.round > 1:
            earlier = {x.winner for x in state.matches.values() if x.round == m.round - 1}
            if m.round == 2:
                earlier |= byes
            assert {m.a, m.b} <= earlier


@pytest.mark.rule("HU-4")
def test_an_inactive_match_ends_with_the_chip_leader_through() -> None:
    state, _ = hu.play([1, 2, 3, 4], seed=1)
    m = hu.open_matches(state)[0]
    assert m.a is not None and m.b is not None
    with pytest.raises(DomainError) as active:
        run(state, hu.EndInactiveMatch(m.match_id, {m.a: 5000, m.b: 15_000}, 100))
    assert active.value.rule == "HU-4"
    state, events = run(state, hu.EndInactiveMatch(m.match_id, {m.a: 5000, m.b: 15_000}, 250))
    ended = events[0]
    assert isinstance(ended, hu.MatchEnded) and ended.winner == m.b
    assert ended.ended_by == "inactivity"


@pytest.mark.rule("HU-1")
@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 128), seed=st.integers(0, 2**32 - 1))
def test_every_bracket_size_finishes_with_one_champion(n: int, seed: int) -> None:
    state, _ = hu.play(range(1, n + 1), seed)
    rng = random.Random(seed)
    for _ in range(n):
        if state.champion is not None:
            break
        m = hu.open_matches(state)[0]
        state, _ = run(state, hu.RecordMatchResult(m.match_id, rng.choice([m.a, m.b])))
    assert state.champion is not None
    assert sum(1 for m in state.matches.values() if m.winner) == n - 1


@pytest.mark.rule("HU-1")
@given(st.integers(min_value=2, max_value=hu.MAX_BRACKET))
@settings(max_examples=60, deadline=None)
def test_the_losers_of_each_round_share_its_places_and_every_place_is_given_once(
    entrants: int,
) -> None:
    state, _ = hu.play(range(1, entrants + 1), seed=entrants)
    bands = [hu.places(state, r) for r in range(1, state.rounds + 1)]
    covered = sorted(p for first, last in bands for p in range(first, last + 1))
    assert covered == list(range(2, entrants + 1))  # 1st is the champion's
    assert bands[-1] == (2, 2)
    with pytest.raises(ValueError):
        hu.places(state, state.rounds + 1)


@pytest.mark.rule("HU-4")
def test_a_match_ends_for_inactivity_at_the_threshold_not_a_hand_before() -> None:
    state, _ = hu.play([1, 2, 3, 4], seed=1)
    m = hu.open_matches(state)[0]
    assert m.a is not None and m.b is not None
    chips = {m.a: 5000, m.b: 15_000}
    # the default threshold is 250 hands
    with pytest.raises(DomainError) as active:
        run(state, hu.EndInactiveMatch(m.match_id, chips, 249))
    assert (active.value.code, active.value.rule) == ("match_active", "HU-4")
    _, events = run(state, hu.EndInactiveMatch(m.match_id, chips, 250))
    assert isinstance(events[0], hu.MatchEnded) and events[0].ended_by == "inactivity"
    # a configured threshold: one hand below it is not enough
    with pytest.raises(DomainError):
        run(state, hu.EndInactiveMatch(m.match_id, chips, 2, threshold=3))
    _, events = run(state, hu.EndInactiveMatch(m.match_id, chips, 3, threshold=3))
    assert isinstance(events[0], hu.MatchEnded) and events[0].winner == m.b


@pytest.mark.rule("HU-4")
def test_with_the_default_config_249_inactive_hands_do_not_end_the_match_250_do() -> None:
    d = Driver()
    d(t.CreateTournament("hu", config(format="headsup", table_size=2, breaks=())))
    for pid in (1, 2):
        d(t.Register(pid))
    d(t.StartTournament((1,), 1))
    d(t.StartClock())
    (table_id,) = d.s.tables
    ended: list[MatchEnded] = []
    for number in range(1, 251):
        assert not ended, number
        table = d.s.tables[table_id]
        d(t.StartTableHand(table_id, number, table.button_seat, None, None))
        stacks = {p: d.s.players[p].stack for p in table.seats.values()}
        final = {1: stacks[1] + 10, 2: stacks[2] - 10}  # the absent player's blind is lost
        events = d(t.RecordHandResult(table_id, number, stacks, final, 3, absent=(2,)))
        ended = [e for e in events if isinstance(e, MatchEnded)]
    assert number == 250 and [(e.ended_by, e.winner) for e in ended] == [("inactivity", 1)]
