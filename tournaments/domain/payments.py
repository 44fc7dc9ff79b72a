"""Paying tournament winnings at the cage (ELIM-6..9): pure rules, no Django.

What a player is owed (CZK) = the prizes of his entries once the event is over (or a deal
share, ELIM-6; an early payout of the minimum cash when the money is reached, ELIM-7/8)
+ the bounties he won (BNTY-*) - what the cage has paid him. ``PayWinnings`` pays it all
in one cash payment (``WinningsPaid``, projected into the cage's transactions by
:mod:`cashgame.projections`); nothing owed is refused. A director may hold a player's
winnings for a game-integrity review (ELIM-9: ``HoldWinnings`` / ``ReleaseWinnings``);
held winnings are refused at the cage.

These commands are accepted after the event has finished (unlike every other command), and
while it runs: a player out in the money is paid as he leaves, once the prize pool is final.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tournaments.domain.events import (
    PaidEntry,
    Result,
    WinningsHeld,
    WinningsPaid,
    WinningsReleased,
    iso,
)

if TYPE_CHECKING:
    from tournaments.domain.tournament import TournamentState


@dataclass(frozen=True, slots=True)
class PaymentsState:
    """Per player: CZK paid as prize and as bounties, and the players held (ELIM-9)."""

    prize_paid: Mapping[int, int] = field(default_factory=dict)
    bounties_paid: Mapping[int, int] = field(default_factory=dict)
    fees_refunded: Mapping[int, int] = field(default_factory=dict)
    held: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class PayWinnings:
    """The cashier pays the player everything he is owed now."""

    player_id: int


@dataclass(frozen=True, slots=True)
class HoldWinnings:
    player_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class ReleaseWinnings:
    player_id: int
    reason: str


PaymentCommand = PayWinnings | HoldWinnings | ReleaseWinnings
PAYMENT_COMMANDS = (PayWinnings, HoldWinnings, ReleaseWinnings)
PAYMENT_EVENTS = (WinningsPaid, WinningsHeld, WinningsReleased)


def prize_earned(state: TournamentState, player_id: int) -> int:
    """The prizes (CZK) of the player's entries so far: the final results once the event
    is over; while it runs, the prizes of his entries already out once their places are
    fixed (:func:`~tournaments.domain.standings.busted_results`, ELIM-6: he is
    paid as he leaves), plus the early payout credited to an entry still in (ELIM-7; one
    that went out has it inside its prize, ELIM-8)."""
    from tournaments.domain import early_payouts

    if state.cancellation is not None:  # CXL-2..9: the settlement replaces the prizes
        return sum(x.refund + x.prize - x.t_money for x in state.cancellation.shares
                   if x.player_id == player_id)  # fmt: skip  # T-Money is not paid in cash
    final = sum(r.prize for r in state.results if r.player_id == player_id)
    if state.results:  # a satellite's seats are not paid in cash (TREG-11)
        return final - state.seats_won.get(player_id, 0)
    credited = early_payouts.credited(state, player_id)
    busted = sum(r.prize for r in _busted(state, player_id))
    if not busted:
        return credited
    player = state.players.get(player_id)
    still_in = player is not None and player.status == "playing" and player.stack > 0
    return busted + credited if still_in else max(busted, credited)


def _busted(state: TournamentState, player_id: int) -> tuple[Result, ...]:
    """The player's entries already out with a fixed place and a prize (the event runs)."""
    if state.config.satellite_target is not None:  # seats are settled at the end (TREG-11)
        return ()
    from tournaments.domain.standings import busted_results

    return tuple(r for r in busted_results(state) if r.player_id == player_id and r.prize)


def bounties_won(state: TournamentState, player_id: int) -> int:
    """Bounty money (CZK) the player has won so far (BNTY-*)."""
    return int(state.bounty.cash_won.get(player_id, 0))


def owed(state: TournamentState, player_id: int) -> tuple[int, int]:
    """``(prize, bounties)`` CZK still to pay the player."""
    pay = state.payments
    prize = prize_earned(state, player_id) - pay.prize_paid.get(player_id, 0)
    bounty = bounties_won(state, player_id) - pay.bounties_paid.get(player_id, 0)
    return max(prize, 0), max(bounty, 0)


@dataclass(frozen=True, slots=True)
class Owed:
    """What the cage still owes one player in cash, CZK: ``prize`` (prizes, a deal share,
    an early payout or a cancellation's settlement) and ``bounties``; ``seats_won``: the
    part of his prizes taken as satellite seats (TREG-11: never paid in cash); ``held``:
    his winnings are held (ELIM-9)."""

    player_id: int
    prize: int
    bounties: int
    seats_won: int
    held: bool


def owed_to_all(state: TournamentState) -> list[Owed]:
    """:class:`Owed` for every player owed money, held or who won seats, by player id."""
    out = []
    for pid in sorted(state.players):
        prize, bounties = owed(state, pid)
        seats = state.seats_won.get(pid, 0)
        held = pid in state.payments.held
        if prize or bounties or seats or held:
            out.append(Owed(pid, prize, bounties, seats, held))
    return out


def decide(state: TournamentState, command: PaymentCommand, now: datetime) -> list[DomainEvent]:
    """Payment events.

    Raises:
        DomainError ``player_not_registered``, ``nothing_owed`` (a payment, or a hold once
        the event is over, of nothing owed), ``winnings_held`` (ELIM-9), ``not_held``.
    """
    pid = command.player_id
    if pid not in state.players:
        raise DomainError("player_not_registered", "This player has no entry.", player_id=pid)
    pay = state.payments
    match command:
        case PayWinnings():
            if pid in pay.held:
                raise DomainError(
                    "winnings_held", "Winnings are held for a game-integrity review.",
                    rule="ELIM-9", player_id=pid,
                )  # fmt: skip
            prize, bounties = owed(state, pid)
            if prize == 0 and bounties == 0:
                raise DomainError("nothing_owed", "Nothing is owed to this player now.",
                                  rule="ELIM-6", player_id=pid)  # fmt: skip
            busted = () if state.results else _busted(state, pid)
            kind = "prize" if state.results or busted else "early_payout" if prize else "bounty"
            fees = 0
            if state.cancellation is not None:
                kind = "cancellation"
                settled = sum(x.fees - x.t_money_fees for x in state.cancellation.shares
                              if x.player_id == pid)  # fmt: skip
                fees = min(prize, max(0, settled - pay.fees_refunded.get(pid, 0)))
            entries: tuple[PaidEntry, ...] = ()
            if kind == "prize" and prize:
                entries = tuple(
                    PaidEntry(r.entry_number, r.place, r.prize)
                    for r in (state.results or busted)
                    if r.player_id == pid and r.prize
                )
            return [WinningsPaid(pid, prize - fees, bounties, kind, iso(now), fees, entries)]
        case HoldWinnings():
            if pid in pay.held:
                return []
            over = state.status in ("finished", "cancelled")
            if over and owed(state, pid) == (0, 0):  # paid already: nothing left to hold
                raise DomainError("nothing_owed", "Nothing is owed to this player now.",
                                  rule="ELIM-9", player_id=pid)  # fmt: skip
            return [WinningsHeld(pid, command.reason, iso(now))]
        case ReleaseWinnings():
            if pid not in pay.held:
                raise DomainError("not_held", "This player's winnings are not held.",
                                  rule="ELIM-9")  # fmt: skip
            return [WinningsReleased(pid, command.reason, iso(now))]
    raise TypeError(type(command).__name__)


def evolve(pay: PaymentsState, event: DomainEvent) -> PaymentsState:
    match event:
        case WinningsPaid():
            return replace(
                pay,
                prize_paid={**pay.prize_paid, event.player_id:
                            pay.prize_paid.get(event.player_id, 0) + event.prize
                            + event.fees_refunded},
                fees_refunded={**pay.fees_refunded, event.player_id:
                               pay.fees_refunded.get(event.player_id, 0) + event.fees_refunded},
                bounties_paid={**pay.bounties_paid, event.player_id:
                               pay.bounties_paid.get(event.player_id, 0) + event.bounties},
            )  # fmt: skip
        case WinningsHeld():
            return replace(pay, held=pay.held | {event.player_id})
        case WinningsReleased():
            return replace(pay, held=pay.held - {event.player_id})
    return pay
