"""Deals at the end of a tournament (DEAL-1..11): pure rules, no Django.

How a deal goes (events in :mod:`tournaments.domain.events`):

1. Each remaining player asks to discuss a deal (``RequestDeal`` -> ``DealRequested``).
   Deals must be on for the event (``config.deals_allowed``, DEAL-1) and, with
   ``config.deal_min_stage = "final_table"`` (the default, DEAL-3), only one table may be
   left. When every remaining player has asked, ``DealDiscussionStarted``: the table deals
   no new hand (the hand in progress finishes first), the level clock stops (the blinds
   must not go up while the players talk; :func:`tournaments.domain.tournament_clock.
   stop_for_deal`) and the director's console feed shows the event (DEAL-4).
2. The director proposes (``ProposeDeal`` -> ``DealProposed``) by ICM (DEAL-7, the
   default), chip count (DEAL-8), even split (DEAL-9) or custom numbers (DEAL-5: a private
   agreement the director lets payouts follow), of the remaining prizes less the money left
   on the table for 1st place (DEAL-6: at least ``config.deal_money_on_table``, the
   house's requirement; the players may leave more). A proposal must give every remaining
   player a share (DEAL-2: a deal leaving anyone out is refused).
3. Each player confirms (``ConfirmDeal`` -> ``DealConfirmed``); when all have,
   ``DealAgreed``: the shares replace the remaining payouts. A player who declines, or the
   director, ends the discussion (``CancelDeal`` -> ``DealCancelled``) and play resumes;
   either way a clock the discussion stopped runs again from where it stopped.
4. After the deal play goes on for the money left on the table; with none left the event
   ends at once, places by chip count (ELIM-1: nothing left to play for).

Leaderboard points (DEAL-11) are never part of a deal: a share is CZK only.

Amounts are CZK, chips are chips. Money is rounded with :func:`tournaments.domain.icm.
to_amounts` in steps of ``config.payout_rounding_unit`` so the shares sum exactly to the
remaining prizes less the money on the table. In a small pool that unit gives way to a
smaller one, so that rounding moves no share by more than 5 % of it (300 CZK split four
ways in hundreds gave one player 0: :func:`tournaments.domain.icm.rounding_unit`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tournaments.domain import icm, payouts
from tournaments.domain.events import (
    DealAgreed,
    DealCancelled,
    DealConfirmed,
    DealDiscussionStarted,
    DealProposed,
    DealRequested,
    DealShare,
    iso,
)

if TYPE_CHECKING:
    from tournaments.domain.tournament import TournamentState

METHODS = ("icm", "chip_count", "even_split", "custom")


@dataclass(frozen=True, slots=True)
class DealState:
    """The deal in a tournament: who asked, whether the table is paused for a discussion,
    the proposal on the table and its confirmations, the agreed deal (``None``: none)."""

    requests: frozenset[int] = frozenset()
    discussing: bool = False
    stopped_clock: bool = False  # the discussion stopped the level clock (DEAL-4)
    number: int = 0
    proposal: DealProposed | None = None
    confirmations: frozenset[int] = frozenset()
    agreed: DealAgreed | None = None

    def share_of(self, player_id: int) -> DealShare | None:
        if self.agreed is None:
            return None
        return next((s for s in self.agreed.shares if s.player_id == player_id), None)


# --- commands ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RequestDeal:
    """A remaining player asks to discuss a deal (DEAL-4)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class ProposeDeal:
    """The director's proposal. ``method``: ``icm`` / ``chip_count`` / ``even_split`` /
    ``custom`` (then ``amounts``: player id -> CZK for every remaining player).
    ``money_on_table``: CZK left for 1st place (``None``: the event's requirement).
    ``seed``: for a Monte Carlo ICM (more than 16 players), stored in the event."""

    method: str = "icm"
    money_on_table: int | None = None
    amounts: Mapping[int, int] | None = None
    seed: int = 0


@dataclass(frozen=True, slots=True)
class ConfirmDeal:
    """A player confirms the numbers of the proposal on the table (DEAL-5)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class CancelDeal:
    """A player declines (``player_id``) or the director calls the discussion off."""

    reason: str = "director"
    player_id: int | None = None


DealCommand = RequestDeal | ProposeDeal | ConfirmDeal | CancelDeal


# --- computations -----------------------------------------------------------------------


def remaining_prizes(state: TournamentState) -> tuple[int, ...]:
    """The published prizes still to be won (CZK, 1st first): one per remaining player."""
    cfg = state.config
    prizes = payouts.event_prizes(state.prize_pool, cfg, state.entries)
    left = state.players_left
    return tuple(prizes[:left]) + (0,) * max(0, left - len(prizes))


def deal_amounts(
    method: str,
    stacks: Sequence[int],
    prizes: Sequence[int],
    money_on_table: int,
    *,
    unit: int = 1,
    seed: int = 0,
) -> tuple[tuple[int, ...], icm.IcmResult | None]:
    """Each player's share (CZK, same order as ``stacks``) of ``sum(prizes) -
    money_on_table``, and the ICM result when ``method`` is ``icm``.

    * ``icm`` (DEAL-7): ICM equities of ``prizes`` with 1st place reduced by the money on
      the table, rounded with :func:`icm.to_amounts`;
    * ``chip_count`` (DEAL-8): in proportion to chips;
    * ``even_split`` (DEAL-9): equal shares.

    Raises:
        ValueError: unknown method, money on the table above 1st place's prize, no chips.
    """
    if not 0 <= money_on_table <= (prizes[0] if prizes else 0):
        raise ValueError("the money on the table must be between 0 and 1st place's prize")
    pool = sum(prizes) - money_on_table
    result = None
    if method == "icm":
        reduced = [prizes[0] - money_on_table, *prizes[1:]]
        result = icm.equities(list(stacks), reduced, seed=seed)
        values = list(result.equities)
    elif method == "chip_count":
        values = [float(c) for c in stacks]
    elif method == "even_split":
        values = [1.0] * len(stacks)
    else:
        raise ValueError(f"unknown deal method {method!r}")
    return icm.to_amounts(values, pool, icm.rounding_unit(values, pool, unit)), result


# --- decide -----------------------------------------------------------------------------


def _error(code: str, detail: str, rule: str | None = None, **context: Any) -> DomainError:
    return DomainError(code, detail, rule=rule, **context)


def _remaining(state: TournamentState) -> dict[int, Any]:
    return {pid: p for pid, p in state.players.items() if p.status == "playing" and p.stack > 0}


def _check_allowed(state: TournamentState) -> None:
    cfg = state.config
    if state.status != "running":
        raise _error("tournament_not_running", "Deals are made while the event runs.")
    if not cfg.deals_allowed:
        raise _error("deals_not_allowed", "This event does not allow deals.", rule="DEAL-1")
    if cfg.deal_min_stage == "final_table" and len(state.tables) != 1:
        raise _error(
            "deal_not_at_final_table", "Deals are possible only at the final table.",
            rule="DEAL-3", tables=len(state.tables),
        )  # fmt: skip
    if state.deal.agreed is not None:
        raise _error("deal_already_agreed", "A deal has already been agreed.", rule="DEAL-5")


def decide(state: TournamentState, command: DealCommand, now: datetime) -> list[DomainEvent]:
    """The deal events ``command`` leads to.

    Raises:
        DomainError: ``deals_not_allowed`` (DEAL-1), ``deal_not_at_final_table`` (DEAL-3),
            ``deal_must_include_everyone`` (DEAL-2), ``no_deal_discussion`` (DEAL-4),
            ``deal_hand_in_progress`` (DEAL-4), ``prize_pool_provisional`` (TREG-15),
            ``invalid_deal`` (amounts, money on the table, DEAL-6), ``no_deal_proposed``,
            ``not_in_deal`` (DEAL-2), ``deal_already_agreed``.
    """
    deal = state.deal
    remaining = _remaining(state)
    match command:
        case RequestDeal(player_id=pid):
            _check_allowed(state)
            if pid not in remaining:
                raise _error("not_in_deal", "Only a remaining player may ask.", rule="DEAL-2",
                             player_id=pid)  # fmt: skip
            if deal.discussing:
                raise _error("deal_in_discussion", "A deal is already being discussed.",
                             rule="DEAL-4")  # fmt: skip
            events: list[DomainEvent] = []
            if pid not in deal.requests:
                events.append(DealRequested(pid, iso(now)))
            if set(remaining) <= deal.requests | {pid}:
                (table_id,) = tuple(state.tables)[:1] or (0,)
                events.append(DealDiscussionStarted(table_id, tuple(sorted(remaining)), iso(now)))
            return events
        case ProposeDeal():
            _check_allowed(state)
            return [_propose(state, command, remaining, now)]
        case ConfirmDeal(player_id=pid):
            if deal.proposal is None:
                raise _error("no_deal_proposed", "There is no proposal to confirm.",
                             rule="DEAL-5")  # fmt: skip
            if pid not in {s.player_id for s in deal.proposal.shares}:
                raise _error("not_in_deal", "This player is not part of the deal.",
                             rule="DEAL-2", player_id=pid)  # fmt: skip
            if pid in deal.confirmations:
                return []
            out: list[DomainEvent] = [DealConfirmed(deal.proposal.deal_number, pid, iso(now))]
            if deal.confirmations | {pid} >= {s.player_id for s in deal.proposal.shares}:
                p = deal.proposal
                out.append(DealAgreed(p.deal_number, p.shares, p.money_on_table, iso(now)))
            return out
        case CancelDeal():
            if deal.agreed is not None:  # DEAL-5: it replaced the payouts; it stands
                raise _error("deal_already_agreed", "The deal was agreed: it stands.",
                             rule="DEAL-5")  # fmt: skip
            if not deal.discussing and deal.proposal is None:
                raise _error("no_deal_discussion", "No deal is being discussed.", rule="DEAL-4")
            return [DealCancelled(deal.number, command.reason, command.player_id, iso(now))]
    raise TypeError(f"unknown deal command {type(command).__name__}")


def _propose(
    state: TournamentState, cmd: ProposeDeal, remaining: Mapping[int, Any], now: datetime
) -> DealProposed:
    cfg = state.config
    if not state.deal.discussing:
        raise _error(
            "no_deal_discussion", "Every remaining player must first ask for a deal.",
            rule="DEAL-4",
        )  # fmt: skip
    if any(t.in_hand for t in state.tables.values()):
        raise _error("deal_hand_in_progress", "Propose once the hand in progress ends.",
                     rule="DEAL-4")  # fmt: skip
    if state.late_reg_open or rebuys_open(state):
        raise _error(
            "prize_pool_provisional", "Entries, rebuys or add-ons can still change the pool.",
            rule="TREG-15",
        )  # fmt: skip
    if cmd.method not in METHODS:
        raise _error(
            "invalid_deal", f"method must be one of {METHODS}", rule="DEAL-7", methods=METHODS
        )
    prizes = remaining_prizes(state)
    money = cfg.deal_money_on_table if cmd.money_on_table is None else cmd.money_on_table
    if money < cfg.deal_money_on_table or money > prizes[0]:
        raise _error(
            "invalid_deal", "The money on the table must be at least the event's requirement "
            "and at most 1st place's prize.", rule="DEAL-6", minimum=cfg.deal_money_on_table,
            maximum=prizes[0],
        )  # fmt: skip
    players = sorted(remaining)
    stacks = [remaining[pid].stack for pid in players]
    pool = sum(prizes) - money
    result = None
    if cmd.method == "custom":
        given = dict(cmd.amounts or {})
        if set(given) != set(players):
            raise _error(
                "deal_must_include_everyone", "A deal must include every remaining player.",
                rule="DEAL-2", missing=sorted(set(players) - set(given)),
                unknown=sorted(set(given) - set(players)),
            )  # fmt: skip
        if any(a < 0 for a in given.values()) or sum(given.values()) != pool:
            raise _error(
                "invalid_deal", "Custom amounts must be >= 0 and sum to the remaining prizes "
                "less the money on the table.", rule="DEAL-5", expected=pool,
                given=sum(given.values()),
            )  # fmt: skip
        amounts = tuple(given[pid] for pid in players)
    else:
        if cmd.amounts:
            raise _error("invalid_deal", "Amounts are given only with method 'custom'.")
        amounts, result = deal_amounts(
            cmd.method, stacks, prizes, money, unit=cfg.payout_rounding_unit, seed=cmd.seed
        )
    shares = tuple(
        DealShare(pid, remaining[pid].entry_number, chips, amount)
        for pid, chips, amount in zip(players, stacks, amounts, strict=True)
    )
    return DealProposed(
        state.deal.number + 1, cmd.method, prizes, money, shares,
        None if result is None else result.method,
        None if result is None or result.seed is None else result.seed,
        0.0 if result is None else result.max_standard_error, iso(now),
    )  # fmt: skip


def rebuys_open(state: TournamentState) -> bool:
    """Rebuys or add-ons can still change the prize pool (TREG-15)."""
    cfg = state.config
    level = max(state.clock.level, 1)
    return (cfg.rebuy.allowed and level <= cfg.rebuy.until_level) or (
        cfg.add_on.allowed and level <= cfg.add_on.at_level
    )


# --- evolve -----------------------------------------------------------------------------


def evolve(deal: DealState, event: DomainEvent) -> DealState:
    """The deal after one of its events (others leave it unchanged)."""
    match event:
        case DealRequested():
            return replace(deal, requests=deal.requests | {event.player_id})
        case DealDiscussionStarted():
            return replace(deal, discussing=True, stopped_clock=event.clock_stopped)
        case DealProposed():
            return replace(deal, number=event.deal_number, proposal=event,
                           confirmations=frozenset())  # fmt: skip
        case DealConfirmed():
            return replace(deal, confirmations=deal.confirmations | {event.player_id})
        case DealAgreed():
            return replace(deal, agreed=event, discussing=False, requests=frozenset(),
                           stopped_clock=False)  # fmt: skip
        case DealCancelled():
            return replace(deal, discussing=False, proposal=None, confirmations=frozenset(),
                           requests=frozenset(), stopped_clock=False)  # fmt: skip
    return deal


DEAL_EVENTS = (
    DealRequested, DealDiscussionStarted, DealProposed, DealConfirmed, DealAgreed, DealCancelled,
)  # fmt: skip
