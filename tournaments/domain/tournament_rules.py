"""What every rule of the tournament aggregate shares: the :class:`Builder` a decision
adds its events to (each folded into the state at once, so a later rule sees the earlier
ones), the refusal helper, and the look-ups several rule families make (a player's entry,
a player in play, the busted players, the rebuy checks, TREG-14/15).

Pure Python, no Django; :mod:`tournaments.domain.tournament` is the aggregate's entry point.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tournaments.domain.tournament_state import (
    PLAYING,
    PlayerState,
    TournamentState,
    evolve,
)


class Builder:
    """Events decided so far and the state they lead to."""

    def __init__(self, state: TournamentState, now: datetime | None = None) -> None:
        self.state = state
        self.events: list[DomainEvent] = []
        self.now = now

    def emit(self, event: DomainEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def rule_error(code: str, detail: str, rule: str | None = None, **context: Any) -> DomainError:
    """A refusal: ``DomainError(code, detail, rule=..., **context)``, raised by the caller."""
    return DomainError(code, detail, rule=rule, **context)


def entry_of(state: TournamentState, player_id: int) -> PlayerState:
    """The entry of ``player_id``.

    Raises:
        DomainError: ``player_not_registered``."""
    p = state.players.get(player_id)
    if p is None:
        raise rule_error("player_not_registered", "This player has no entry.", player_id=player_id)
    return p


def player_in_play(state: TournamentState, player_id: int, rule: str | None = None) -> PlayerState:
    """The entry of ``player_id``, who must still be in play; ``rule`` is cited when he is
    not (TREG-14 for a rebuy: a busted player rebuys by asking during the hand that busts
    him, :func:`tournaments.domain.tournament_entries.rebuy_if_busted`).

    Raises:
        DomainError: ``player_not_registered``, ``player_not_playing``."""
    p = entry_of(state, player_id)
    if p.status != PLAYING:
        raise rule_error(
            "player_not_playing", "This player is not in play.", rule=rule, player_id=player_id
        )
    return p


def level_now(state: TournamentState) -> int:
    """The level in play (1 before the clock starts)."""
    return max(state.clock.level, 1)


def busted_players(s: TournamentState) -> list[PlayerState]:
    """The players in play with no chips left (eliminated unless they rebuy)."""
    return [p for p in s.players.values() if p.status == PLAYING and p.stack == 0]


def rebuys_offered(s: TournamentState) -> None:
    """TREG-14: the event has rebuys at all.

    Raises:
        DomainError: ``rebuy_not_allowed``."""
    if not s.config.rebuy.allowed:
        raise rule_error("rebuy_not_allowed", "This event has no rebuys.", rule="TREG-14")


def check_rebuy(s: TournamentState, p: PlayerState, busted: bool) -> None:
    """TREG-14: a rebuy is allowed now (the event has them, the period is open, the
    player has rebuys left, his stack is at or below the threshold unless ``busted``).

    Raises:
        DomainError: ``rebuy_not_allowed``, ``rebuy_closed``, ``rebuy_limit``,
            ``stack_above_rebuy_threshold``."""
    rebuys_offered(s)
    rule = s.config.rebuy
    if level_now(s) > rule.until_level:
        raise rule_error("rebuy_closed", "The rebuy period is over.", rule="TREG-14")
    if rule.max_per_player and p.rebuys >= rule.max_per_player:
        raise rule_error("rebuy_limit", "No rebuys left for this player.", rule="TREG-14")
    if not busted and p.stack > s.config.rebuy_threshold:
        raise rule_error(
            "stack_above_rebuy_threshold", "Rebuys only at or below the threshold.",
            rule="TREG-14", stack=p.stack, threshold=s.config.rebuy_threshold,
        )  # fmt: skip


def check_not_in_hand(s: TournamentState, p: PlayerState) -> None:
    """TREG-14: chips are added to a player's stack between his table's hands only.

    Raises:
        DomainError: ``hand_in_progress``."""
    assert p.table_id is not None
    if s.tables[p.table_id].in_hand:
        raise rule_error("hand_in_progress", "Chips are added between hands only.", rule="TREG-14")
