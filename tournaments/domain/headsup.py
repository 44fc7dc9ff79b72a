"""Heads-up events (HU-1..4): a bracket of heads-up matches. Pure rules, no Django.

* **Bracket** (HU-1, HU-2): with ``N`` entrants and ``P`` the largest power of two not
  above ``N`` (2 ... ``MAX_BRACKET`` = 128, ``hu_max_bracket``), round 1 is a play-in of
  ``N - P`` matches while ``2P - N`` players, drawn at random, have a bye; from round 2 on
  the field is ``P`` and halves each round. A field that is a power of two has no play-in
  and no byes. The draw (seeded) is stored in ``BracketDrawn``.
* **Matches**: each match is one heads-up table (``table_id`` given by the service that
  opens it); when a match ends its winner advances automatically: he is paired in the next
  round as soon as his opponent there is known (``MatchStarted`` of the next round).
* **Inactivity** (HU-4): a match with no activity for ``inactive_match_end_hands`` hands
  (default 250) ends with the chip leader going through (``ended_by = "inactivity"``).

The bracket is an event-sourced aggregate of its own: ``decide(state, command)`` and
``evolve(state, event)``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from casino.errors import DomainError
from tournaments.domain.events import BracketDrawn, BracketWon, MatchEnded, MatchStarted

MAX_BRACKET = 128
INACTIVE_MATCH_END_HANDS = 250


@dataclass(frozen=True, slots=True)
class Match:
    """A heads-up match: round (1-based), slot in the round, its two players (``None``
    while unknown), the winner once it ends and how it ended."""

    match_id: str
    round: int
    slot: int
    a: int | None = None
    b: int | None = None
    winner: int | None = None
    ended_by: str | None = None


Event = BracketDrawn | MatchStarted | MatchEnded | BracketWon


@dataclass(frozen=True, slots=True)
class Bracket:
    """The bracket: ``matches`` by id, ``waiting``: a player who advanced into a match (by
    its id) before his opponent there is known, ``champion`` at the end."""

    rounds: int = 0
    entrants: int = 0
    play_in: int = 0
    matches: Mapping[str, Match] = field(default_factory=dict)
    waiting: Mapping[str, int] = field(default_factory=dict)  # by the match id he waits in
    champion: int | None = None
    byes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DrawBracket:
    entrants: tuple[int, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class RecordMatchResult:
    match_id: str
    winner: int


@dataclass(frozen=True, slots=True)
class EndInactiveMatch:
    """HU-4: ``hands_without_activity`` hands in a row with a player away (the event's
    ``threshold``, default 250); ``chips`` per player."""

    match_id: str
    chips: Mapping[int, int]
    hands_without_activity: int
    threshold: int = INACTIVE_MATCH_END_HANDS


Command = DrawBracket | RecordMatchResult | EndInactiveMatch


def field_sizes(entrants: int) -> tuple[int, int, int]:
    """``(P, play-in matches, byes)`` for ``entrants`` players (HU-2).

    Raises:
        ValueError: fewer than 2 or more than :data:`MAX_BRACKET` entrants.
    """
    if not 2 <= entrants <= MAX_BRACKET:
        raise ValueError(f"a heads-up bracket takes 2 to {MAX_BRACKET} players")
    p = 1 << (entrants.bit_length() - 1)
    if p == entrants:
        return p, 0, 0
    return p, entrants - p, 2 * p - entrants


def _mid(round_: int, slot: int) -> str:
    return f"r{round_}m{slot}"


def decide(state: Bracket, command: Command) -> list[Event]:
    """The bracket's events.

    Raises:
        DomainError ``bracket_drawn``, ``bracket_size`` (HU-2), ``no_such_match``,
        ``match_over``, ``not_in_match``, ``match_active`` (HU-4).
    """
    match command:
        case DrawBracket(entrants=entrants, seed=seed):
            if state.rounds:
                raise DomainError("bracket_drawn", "The bracket is already drawn.")
            try:
                p, play_in, _ = field_sizes(len(set(entrants)))
            except ValueError as error:
                raise DomainError(
                    "bracket_size", str(error), rule="HU-2", max_players=MAX_BRACKET
                ) from None
            rng = random.Random(seed)
            field_ = sorted(set(entrants))
            rng.shuffle(field_)
            byes = tuple(field_[2 * play_in :]) if play_in else ()
            pairs = tuple((field_[2 * i], field_[2 * i + 1]) for i in range(play_in))
            if not play_in:  # a power of two: round 1 is the first full round
                pairs = tuple((field_[2 * i], field_[2 * i + 1]) for i in range(p // 2))
            rounds = (p.bit_length() - 1) + (1 if play_in else 0)
            events: list[Event] = [BracketDrawn(tuple(entrants), pairs, byes, rounds)]
            for slot, (a, b) in enumerate(pairs):
                events.append(MatchStarted(_mid(1, slot), 1, slot, a, b))
            # byes go straight into round 2, after the play-in winners' slots
            if play_in:
                waiting: dict[tuple[int, int], int] = {}
                for i, player in enumerate(byes):
                    slot_in_r2 = play_in + i
                    key = (2, slot_in_r2 // 2)
                    if key in waiting:
                        first = waiting.pop(key)
                        events.append(MatchStarted(_mid(2, key[1]), 2, key[1], first, player))
                    else:
                        waiting[key] = player
            return events
        case RecordMatchResult(match_id=mid, winner=winner):
            m = _open_match(state, mid)
            if winner not in (m.a, m.b):
                raise DomainError("not_in_match", "The winner must be one of the two players.")
            loser = m.b if winner == m.a else m.a
            assert loser is not None
            return _advance(state, m, winner, loser, "result")
        case EndInactiveMatch(
            match_id=mid, chips=chips, hands_without_activity=hands, threshold=threshold
        ):
            m = _open_match(state, mid)
            if hands < threshold:
                raise DomainError(
                    "match_active", f"A match ends for inactivity after {threshold} hands.",
                    rule="HU-4", threshold=threshold,
                )  # fmt: skip
            assert m.a is not None and m.b is not None
            leader = m.a if chips.get(m.a, 0) >= chips.get(m.b, 0) else m.b
            loser = m.b if leader == m.a else m.a
            return _advance(state, m, leader, loser, "inactivity")
    raise TypeError(type(command).__name__)


def _open_match(state: Bracket, mid: str) -> Match:
    m = state.matches.get(mid)
    if m is None or m.a is None or m.b is None:
        raise DomainError("no_such_match", "No such match in play.", match_id=mid)
    if m.winner is not None:
        raise DomainError("match_over", "This match is over.", match_id=mid)
    return m


def _slot_in_next_round(state: Bracket, m: Match) -> tuple[int, int]:
    """Where the winner of ``m`` plays next: play-in winners take the first slots of
    round 2 in order (the byes follow them); later rounds pair slots 2k and 2k+1."""
    if m.round == 1 and state.byes:
        return 2, m.slot // 2
    return m.round + 1, m.slot // 2


def _advance(state: Bracket, m: Match, winner: int, loser: int, how: str) -> list[Event]:
    events: list[Event] = [MatchEnded(m.match_id, winner, loser, how)]
    if m.round == state.rounds:
        events.append(BracketWon(winner))
        return events
    key = _slot_in_next_round(state, m)
    other = state.waiting.get(_mid(*key))
    if other is not None:
        a, b = (winner, other) if m.slot % 2 == 0 else (other, winner)
        events.append(MatchStarted(_mid(*key), key[0], key[1], a, b))
    return events


def evolve(state: Bracket, event: Event) -> Bracket:
    match event:
        case BracketDrawn():
            waiting: dict[str, int] = {}
            if event.play_in:
                for i, player in enumerate(event.byes):
                    waiting[_mid(2, (len(event.play_in) + i) // 2)] = player
            return replace(
                state, rounds=event.rounds, waiting=waiting, byes=event.byes,
                entrants=len(set(event.entrants)), play_in=len(event.play_in) if event.byes else 0,
            )  # fmt: skip
        case MatchStarted():
            waiting = {k: v for k, v in state.waiting.items() if k != event.match_id}
            m = Match(event.match_id, event.round, event.slot, event.a, event.b)
            return replace(state, matches={**state.matches, m.match_id: m}, waiting=waiting)
        case MatchEnded():
            m = replace(state.matches[event.match_id], winner=event.winner,
                        ended_by=event.ended_by)  # fmt: skip
            state = replace(state, matches={**state.matches, m.match_id: m})
            if m.round < state.rounds:
                key = _slot_in_next_round(state, m)
                mid = _mid(*key)
                if mid not in state.waiting and mid not in state.matches:
                    state = replace(state, waiting={**state.waiting, mid: event.winner})
            return state
        case BracketWon():
            return replace(state, champion=event.winner)
    return state


def places(state: Bracket, round_: int) -> tuple[int, int]:
    """The finishing places ``(place, place_to)`` shared by the losers of ``round_`` (HU-1:
    every loser of a round ties with the others of that round). With a play-in, round 1's
    ``N - P`` losers share ``P + 1 .. N``; in a full round of ``F`` players the losers share
    ``F/2 + 1 .. F``.

    Raises:
        ValueError: no such round in this bracket.
    """
    if not 1 <= round_ <= state.rounds:
        raise ValueError(f"round {round_} is not in a {state.rounds}-round bracket")
    if state.play_in and round_ == 1:
        return state.entrants - state.play_in + 1, state.entrants
    full_rounds_before = round_ - (2 if state.play_in else 1)
    field_ = (1 << state.rounds) >> (1 if state.play_in else 0) >> full_rounds_before
    return field_ // 2 + 1, field_


def match_of(state: Bracket, player_id: int) -> Match | None:
    """The match in play for ``player_id``, if any."""
    return next((m for m in open_matches(state) if player_id in (m.a, m.b)), None)


def open_matches(state: Bracket) -> list[Match]:
    """Matches in play (both players known, no winner yet), by round and slot."""
    return sorted(
        (m for m in state.matches.values() if m.winner is None and m.a and m.b),
        key=lambda m: (m.round, m.slot),
    )


def play(entrants: Sequence[int], seed: int) -> tuple[Bracket, list[Event]]:
    """Draw a bracket (helper for tests and simulations)."""
    state = Bracket()
    events = decide(state, DrawBracket(tuple(entrants), seed))
    for e in events:
        state = evolve(state, e)
    return state, events
