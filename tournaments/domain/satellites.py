"""Satellites and T-Money (TREG-11). Pure rules, no Django.

* **Prizes.** A satellite (``satellite_target`` set) pays seats in its target event: each
  worth ``seat_value`` CZK (the target's buy-in, fee and entrant bounty, fixed when the
  satellite is created). The prize pool buys ``pool // seat_value`` seats for places 1, 2,
  ...; what is left over goes to the next place in cash (the common practice; the catalogue
  names none). Ties split as any prize does (ELIM-3/4): a share that is not a whole seat is
  paid in cash.
* **The seat.** When the satellite ends its seat winners are registered in the target
  straight away: before its start normally, during its late registration seated straight
  into it (TREG-11). A seat that cannot be used (the target is closed, or the player holds
  an entry already) becomes T-Money.
* **Giving a seat back.** A seat won in a satellite (or an entry bought with T-Money) that
  is unregistered is refunded as T-Money, never cash (TREG-11).
* **T-Money** is an account per player (stream ``tmoney-<player id>``): credited by the
  above, spent on other events' buy-ins; never paid out in cash. ``decide``/``evolve``
  below; a spend beyond the balance is refused (``insufficient_t_money``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tournaments.domain.events import TMoneyCredited, TMoneySpent, iso

PAID_WITH = ("cash", "satellite", "t_money")


def prizes(pool: int, seat_value: int) -> tuple[int, ...]:
    """Prizes per place (CZK, 1st first): a seat's value for each seat the pool buys, then
    the leftover (if any) for the next place.

    Raises:
        ValueError: ``seat_value`` not positive or ``pool`` negative.
    """
    if seat_value <= 0 or pool < 0:
        raise ValueError("seat_value must be > 0 and pool >= 0")
    seats, leftover = divmod(pool, seat_value)
    return (seat_value,) * seats + ((leftover,) if leftover else ())


def split(prize: int, seat_value: int) -> tuple[int, int]:
    """A satellite prize as ``(seats, cash)``: whole seats, and the rest in CZK."""
    return divmod(prize, seat_value) if seat_value > 0 else (0, prize)


# --- the T-Money account ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Account:
    """A player's T-Money: ``balance`` in CZK."""

    player_id: int
    balance: int = 0


@dataclass(frozen=True, slots=True)
class Credit:
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class Spend:
    amount: int
    tournament_id: int


def decide(
    state: Account, command: Credit | Spend, now: datetime
) -> list[TMoneyCredited | TMoneySpent]:
    """The account's events.

    Raises:
        DomainError ``invalid_amount`` (not positive), ``insufficient_t_money`` (TREG-11).
    """
    if command.amount <= 0:
        raise DomainError("invalid_amount", "T-Money amounts are positive CZK.")
    if isinstance(command, Credit):
        balance = state.balance + command.amount
        return [TMoneyCredited(state.player_id, command.amount, command.source, balance,
                               iso(now))]  # fmt: skip
    if command.amount > state.balance:
        raise DomainError(
            "insufficient_t_money", "The player has not enough T-Money for this entry.",
            rule="TREG-11", balance=state.balance, needed=command.amount,
        )  # fmt: skip
    return [TMoneySpent(state.player_id, command.amount, command.tournament_id,
                        state.balance - command.amount, iso(now))]  # fmt: skip


def evolve(state: Account, event: DomainEvent) -> Account:
    """The account after ``event``."""
    if isinstance(event, TMoneyCredited | TMoneySpent):
        return replace(state, balance=event.balance)
    return state
