"""The chip race (CR-1..5): colouring up a denomination the structure no longer needs.
Pure rules, no Django; amounts in chips.

* **When** (CR-1): with ``config.denominations`` published, :func:`scheduled_colour_ups`
  gives, for each break, the smallest denomination no level from then on needs (every
  blind and ante of the later levels is a multiple of the next denomination up). A break's
  own ``chip_up_denomination`` overrides it. The race runs when the break starts (every
  table idle, CLK-7), table by table.
* **How** (CR-2, CR-3): each player's small chips are coloured up wherever a full exchange
  is possible (``stack // next * next`` stays); his leftover small chips (``stack % next``,
  in chips of ``denomination``) each get one card, dealt clockwise starting at the first
  seat left of the button (``chip_race_start_seat``; the catalogue leaves "first position"
  open: left of the button is the dealing order), all of one player's cards before the
  next player's.
* **The draw** is made once from the seed and stored in the event (``ChipRaceRun.cards``).
* **Rounding** (CR-4): the highest card wins one chip of the next denomination, then the
  next highest, and so on until ``ceil(leftovers / next)`` chips are given (the highest
  remaining card rounds up); a player wins at most one chip (the usual chip-race rule).
  Equal ranks: the suit order of the seat draw, spades > hearts > diamonds > clubs.
* **No one busts** (CR-5): a player left with no chips gets one chip of the next
  denomination.

Chips are accounted for: the race adds ``chips_added`` (the round-up and CR-5 chips, or
removes the pooled value a round-down loses, never here since it rounds up) to the
tournament's chips issued, so the sum of stacks always equals chips issued.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.domain.events import ChipRaceCard as RaceCard

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # clubs lowest, spades highest (SEAT-1 suit order)


@dataclass(frozen=True, slots=True)
class RaceResult:
    """The race at one table: ``cards`` in dealing order, ``winners`` (one chip each),
    ``stacks`` after it (chips), ``chips_added`` to the total (round-up and CR-5 chips)."""

    cards: tuple[RaceCard, ...]
    winners: tuple[int, ...]
    stacks: Mapping[int, int]
    chips_added: int


def _key(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


def next_denomination(denominations: Sequence[int], denomination: int) -> int:
    """The denomination above ``denomination``.

    Raises:
        ValueError: not in the set, or the largest one.
    """
    ordered = sorted(denominations)
    i = ordered.index(denomination)
    if i + 1 >= len(ordered):
        raise ValueError("the largest denomination cannot be coloured up")
    return ordered[i + 1]


def scheduled_colour_ups(
    level_amounts: Sequence[Sequence[int]],
    break_levels: Sequence[int],
    denominations: Sequence[int],
) -> dict[int, int]:
    """Break (after level, 1-based) -> the denomination coloured up in it (CR-1).

    ``level_amounts``: per level, its blinds and ante (chips). A denomination ``d`` goes at
    the first break after which every later level's amounts are multiples of the next
    denomination up (one denomination per break, smallest first)."""
    ordered = sorted(denominations)
    result: dict[int, int] = {}
    in_play = list(ordered)
    for after in sorted(break_levels):
        if len(in_play) < 2:
            break
        smallest, nxt = in_play[0], in_play[1]
        later = [a for amounts in level_amounts[after:] for a in amounts if a]
        if later and all(a % nxt == 0 for a in later):
            result[after] = smallest
            in_play.pop(0)
    return result


def race(
    stacks: Mapping[int, int],
    order: Sequence[int],
    denomination: int,
    next_up: int,
    rng: random.Random,
) -> RaceResult:
    """Colour up ``denomination`` into ``next_up`` at one table (CR-2..5).

    ``stacks``: chips per player; ``order``: the players clockwise from the first position.

    Raises:
        ValueError: ``next_up`` is not a multiple of ``denomination``.
    """
    if next_up <= denomination or next_up % denomination:
        raise ValueError("the next denomination must be a larger multiple")
    kept = {pid: stacks[pid] // next_up * next_up for pid in order}
    leftover = {pid: stacks[pid] - kept[pid] for pid in order}
    deck: list[str] = []
    cards: list[RaceCard] = []
    for pid in order:  # all of one player's cards before the next player's (CR-3)
        for _ in range(leftover[pid] // denomination):
            if not deck:
                deck = [r + s for r in RANKS for s in SUITS]
                rng.shuffle(deck)
            cards.append(RaceCard(pid, deck.pop()))
    total = sum(leftover.values())
    to_award = -(-total // next_up)  # round up (CR-4)
    winners: list[int] = []
    best: dict[int, tuple[int, int, int]] = {}
    for i, c in enumerate(cards):
        key = (*_key(c.card), -i)  # a repeated card from a second deck: the earlier one
        if c.player_id not in best or key > best[c.player_id]:
            best[c.player_id] = key
    for pid in sorted(best, key=lambda p: best[p], reverse=True)[:to_award]:
        winners.append(pid)
        kept[pid] += next_up
    for pid in order:  # nobody is eliminated by a chip race (CR-5)
        if stacks[pid] > 0 and kept[pid] == 0:
            kept[pid] = next_up
    before = sum(stacks[pid] for pid in order)
    return RaceResult(tuple(cards), tuple(winners), kept, sum(kept.values()) - before)
