"""Early payouts (ELIM-7, ELIM-8): pure rules.

With ``config.early_payout`` on, when the field reaches the money (players left <= places
paid, late registration closed) every remaining player is credited the minimum cash (the
prize of the last paid place) at once (``EarlyPayoutCredited``, shown on the table feed).
When he is eliminated or wins, the balance (his prize - the minimum cash already credited)
is paid by the cage (:mod:`tournaments.domain.payments`); when he earned nothing more there
is no second payment (ELIM-8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tournaments.domain import payouts

if TYPE_CHECKING:
    from tournaments.domain.tournament import TournamentState


def minimum_cash(state: TournamentState) -> int:
    """The prize of the last paid place (CZK)."""
    cfg = state.config
    prizes = payouts.event_prizes(state.prize_pool, cfg, state.entries)
    return min(prizes) if prizes else 0


def due(state: TournamentState) -> bool:
    """The early payout should be credited now (ELIM-7)."""
    cfg = state.config
    return (
        cfg.early_payout
        and not state.early_credited
        and state.status == "running"
        and not state.late_reg_open
        and payouts.event_in_the_money(state.players_left, state.prize_pool, cfg, state.entries)
    )


def credited(state: TournamentState, player_id: int) -> int:
    """The minimum cash credited early to the player (0 if none)."""
    return state.early_credited.get(player_id, 0)
