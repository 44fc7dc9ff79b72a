"""Tournament penalties (PEN-1..16): pure rules, no Django.

* **The ladder** (PEN-1, PEN-9): warning -> sit-out -> disqualification. Each player has a
  penalty record (every ruling, counted per player); the next step the ladder suggests is
  ``config.penalty_ladder[number of earlier penalties]`` (the last step repeats). The
  floor may rule otherwise (PEN-16: decisions are final and may depart from the letter of a
  rule) but only as a recorded *override* with its reason; every ruling carries its reason.
* **Sit-out** (PEN-2): for ``hands`` hands, or ``orbits`` orbits (= orbits x the players at
  his table when it starts). He stays dealt in and posts his blinds and antes (as an absent
  tournament player, TREG-2) and his hand is killed: the table's ``HandPermission.
  killed_hands`` lists him for the dealer, who folds his hand. Each hand his table plays
  while he is dealt in counts one.
* **Disqualification** (PEN-2, PEN-13): his chips are removed from play (the chips in play
  go down by his stack) and he is out, placed as the next elimination.
* **Timing** (PEN-1): a penalty for conduct during a hand (his table is in a hand) applies
  after the hand: the sit-out starts, or the disqualification happens, when the hand is
  recorded.
* **Flags** (PEN-8, PEN-10): :func:`checked_nuts_on_river` sees a player in last position
  on the river who checked or only called holding the nuts (cards shown at the showdown,
  hold'em); the tournament records ``ConductFlagged`` for the floor to rule on. Other
  conduct is recorded by the floor (``FlagConduct``, ``IssuePenalty``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from itertools import combinations
from typing import TYPE_CHECKING

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tournaments.domain.events import ConductFlagged, PenaltyIssued, PenaltyStarted, iso

if TYPE_CHECKING:
    from tournaments.domain.tournament import TournamentState

KINDS = ("warning", "sit_out", "disqualification")
DEFAULT_LADDER = ("warning", "sit_out", "sit_out", "disqualification")


@dataclass(frozen=True, slots=True)
class PenaltyState:
    """``record``: every ruling per player; ``sitting_out``: hands still to sit out;
    ``pending``: penalties waiting for the end of the hand in progress (PEN-1);
    ``flags``: conduct flagged per player."""

    record: Mapping[int, tuple[PenaltyIssued, ...]] = field(default_factory=dict)
    sitting_out: Mapping[int, int] = field(default_factory=dict)
    pending: tuple[PenaltyIssued, ...] = ()
    flags: Mapping[int, tuple[ConductFlagged, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class IssuePenalty:
    """The floor's ruling on ``player_id`` for ``offence`` (a code, e.g. ``out_of_turn``,
    ``soft_play``, ``showing_cards``). ``kind``: ``None`` = the ladder's next step.
    ``hands`` / ``orbits``: the sit-out's length. ``override``: a ruling off the ladder
    (PEN-16), ``reason`` always required."""

    player_id: int
    offence: str
    reason: str
    kind: str | None = None
    hands: int = 0
    orbits: int = 0
    override: bool = False


@dataclass(frozen=True, slots=True)
class FlagConduct:
    """Record conduct for the floor to look at (PEN-5..15), ``automatic`` when the system
    saw it (PEN-10)."""

    player_id: int
    offence: str
    detail: str
    automatic: bool = False


PenaltyCommand = IssuePenalty | FlagConduct


def suggested(ladder: Sequence[str], earlier: int) -> str:
    """The ladder's step after ``earlier`` penalties (the last step repeats)."""
    return ladder[min(earlier, len(ladder) - 1)]


def decide(state: TournamentState, command: PenaltyCommand, now: datetime) -> list[DomainEvent]:
    """Penalty events.

    Raises:
        DomainError ``player_not_playing``, ``reason_required`` (PEN-16),
        ``invalid_penalty``, ``penalty_off_the_ladder`` (PEN-9/PEN-16: mark it an override).
    """
    p = state.players.get(command.player_id)
    if p is None or p.status != "playing":
        raise DomainError("player_not_playing", "This player is not in play.",
                          player_id=command.player_id)  # fmt: skip
    if isinstance(command, FlagConduct):
        return [ConductFlagged(p.player_id, command.offence, command.detail,
                               command.automatic, iso(now))]  # fmt: skip
    if not command.reason.strip():
        raise DomainError("reason_required", "Every ruling is recorded with its reason.",
                          rule="PEN-16")  # fmt: skip
    earlier = len(state.penalties.record.get(p.player_id, ()))
    step = suggested(state.config.penalty_ladder, earlier)
    kind = command.kind or step
    if kind not in KINDS:
        raise DomainError(
            "invalid_penalty", f"kind must be one of {KINDS}", rule="PEN-1", kinds=KINDS
        )
    if kind != step and not command.override:
        raise DomainError(
            "penalty_off_the_ladder",
            f"The ladder says {step!r} after {earlier} penalties; record an override.",
            rule="PEN-16", suggested=step, earlier=earlier,
        )  # fmt: skip
    if command.hands and command.orbits:
        raise DomainError("invalid_penalty", "A sit-out is given in hands or in orbits, not "
                          "both.", rule="PEN-1")  # fmt: skip
    hands = command.hands
    if kind == "sit_out":
        if command.orbits:
            table = state.tables.get(p.table_id) if p.table_id is not None else None
            hands = command.orbits * (len(table.seats) if table else 1)
        hands = hands or state.config.penalty_sit_out_hands
        if hands <= 0:
            raise DomainError("invalid_penalty", "A sit-out lasts at least one hand.",
                              rule="PEN-1")  # fmt: skip
    elif command.hands or command.orbits:  # it was stored as 0 hands (found by fuzzing)
        raise DomainError("invalid_penalty", "Only a sit-out is given in hands or orbits.",
                          rule="PEN-1", kind=kind)  # fmt: skip
    else:
        hands = 0
    in_hand = p.table_id is not None and state.tables[p.table_id].in_hand
    issued = PenaltyIssued(
        p.player_id, kind, command.offence, command.reason, hands, earlier + 1, step,
        kind != step, in_hand, iso(now),
    )  # fmt: skip
    events: list[DomainEvent] = [issued]
    if not in_hand and kind == "sit_out":
        events.append(PenaltyStarted(p.player_id, kind, hands))
    return events


def checked_nuts_on_river(
    board: Sequence[str],
    river_actions: Sequence[tuple[int, str]],
    shown: Mapping[int, Sequence[str]],
) -> int | None:
    """The seat that checked or only called on the river in last position holding the nuts
    (PEN-10), or ``None``. ``board``: five cards (``"As"``); ``river_actions``: ``(seat,
    action)`` in order; ``shown``: hole cards shown per seat (hold'em, two cards)."""
    from phevaluator import evaluate_cards

    if len(board) != 5 or not river_actions:
        return None
    seat, action = river_actions[-1]
    if action not in ("check", "call") or len(shown.get(seat, ())) != 2:
        return None
    if any(s == seat for s, _ in river_actions[:-1]) and action == "check":
        return None  # he acted earlier on this street: not a check from last position
    mine = evaluate_cards(*board, *shown[seat])
    used = {c.lower() for c in (*board, *shown[seat])}
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs" if (r + s).lower() not in used]
    best = min(evaluate_cards(*board, a, b) for a, b in combinations(deck, 2))
    return seat if mine <= best else None


def evolve(pen: PenaltyState, event: DomainEvent) -> PenaltyState:
    match event:
        case PenaltyIssued():
            record = {**pen.record, event.player_id: (*pen.record.get(event.player_id, ()),
                                                      event)}  # fmt: skip
            pending = pen.pending
            if event.applies_after_hand and event.kind != "warning":
                pending = (*pending, event)
            return replace(pen, record=record, pending=pending)
        case PenaltyStarted():
            pending = tuple(p for p in pen.pending if p.player_id != event.player_id)
            if event.kind == "sit_out":
                sitting = {
                    **pen.sitting_out,
                    event.player_id: pen.sitting_out.get(event.player_id, 0) + event.hands,
                }
                return replace(pen, sitting_out=sitting, pending=pending)
            return replace(pen, pending=pending)
        case ConductFlagged():
            flags = {**pen.flags, event.player_id: (*pen.flags.get(event.player_id, ()), event)}
            return replace(pen, flags=flags)
    return pen


def hand_played(pen: PenaltyState, dealt_in: Sequence[int]) -> PenaltyState:
    """One hand played by ``dealt_in``: a hand less to sit out for each of them."""
    if not any(pid in pen.sitting_out for pid in dealt_in):
        return pen
    sitting = dict(pen.sitting_out)
    for pid in dealt_in:
        if pid in sitting:
            sitting[pid] -= 1
            if sitting[pid] <= 0:
                del sitting[pid]
    return replace(pen, sitting_out=sitting)


PENALTY_EVENTS = (PenaltyIssued, PenaltyStarted, ConductFlagged)
