"""Scheduling, crashes and cancellation (TREG-5, CXL-1..10): pure rules, no Django.
Amounts in CZK, chips in chips.

* **Schedule** (TREG-5): ``ScheduleStart`` / ``DelayStart`` record the lobby time and any
  delay (with its reason); :func:`start_due` says when the start is due.
* **Crash** (CXL-1): every hand in progress goes back to its start stacks. The tournament
  records ``HandsRolledBack`` (tables and hand numbers) and the service voids those hands
  at the tables (every chip goes back); the tournament's stacks are those of the hands'
  starts already, since a hand changes them only when it is recorded.
* **Cancellation** (CXL-2): management chooses the method; the settlement names the
  policy and its version (:data:`POLICY_VERSION`).

  - ``rollback`` (CXL-3): every player gets back what he paid (buy-ins, fees, re-entries,
    rebuys, add-ons, knockout bounties), in the mix of funds he paid with: what he paid
    with a satellite seat or T-Money comes back as T-Money, the rest in cash (TREG-11);
  - ``roll_forward`` before the money (CXL-4): the remaining players get their fees and
    the knockout bounties on their heads back; the prize pool actually paid in (not a
    guarantee, CXL-7) less prizes already won is split half equally, half by chips;
  - ``roll_forward`` in the money (CXL-5): fees and bounties as above; each remaining
    player gets the smallest prize not yet awarded, the rest of the pool by chips.
  - Fixed bounties are not refunded (CXL-8). Prizes of players already out in the money
    stand (they are computed on the pool actually paid in).

  Each share is computed exactly, then rounded once with :func:`tournaments.domain.icm.
  to_amounts` (largest remainder, in a unit that moves no share by over 5 %):
  the settlement sums exactly to the money it distributes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from tournaments.domain import icm

POLICY = "004 §10 cancellation policy"
POLICY_VERSION = "2026-11-v1"
METHODS = ("rollback", "roll_forward")


@dataclass(frozen=True, slots=True)
class Paid:
    """What a player paid in (CZK): ``prize_pool`` (buy-ins, re-entries, rebuys, add-ons),
    ``fees`` and knockout ``bounties``."""

    prize_pool: int = 0
    fees: int = 0
    bounties: int = 0
    t_money: int = 0  # of all the above, paid with a satellite seat or T-Money (TREG-11)
    t_money_fees: int = 0  # of the fees


@dataclass(frozen=True, slots=True)
class Share:
    """A player's settlement: ``refund`` (fees and bounties, or everything on rollback;
    ``fees`` of it are fees) and ``prize`` (his part of the pool), CZK."""

    player_id: int
    refund: int
    prize: int
    fees: int = 0
    t_money: int = 0
    t_money_fees: int = 0

    @property
    def total(self) -> int:
        return self.refund + self.prize


def rollback(paid: Mapping[int, Paid]) -> list[Share]:
    """CXL-3: everyone gets back everything he paid."""
    return [
        Share(pid, p.prize_pool + p.fees + p.bounties, 0, p.fees, p.t_money, p.t_money_fees)
        for pid, p in sorted(paid.items())
    ]


def roll_forward(
    *,
    remaining: Mapping[int, int],
    fees: Mapping[int, int],
    heads: Mapping[int, int],
    pool: int,
    unawarded: Sequence[int],
    in_the_money: bool,
    unit: int = 1,
) -> list[Share]:
    """CXL-4 / CXL-5 for the ``remaining`` players (chips each): ``fees`` (CZK paid per
    player) and the knockout bounty on each head are refunded; ``pool`` (CZK still to
    award) is split half equally and half by chips (before the money) or the smallest of
    the ``unawarded`` prizes each and the rest by chips (in the money).

    Raises:
        ValueError: no remaining player, or a pool too small for the minimum prizes.
    """
    players = sorted(remaining)
    if not players:
        raise ValueError("no remaining player")
    chips = [float(remaining[p]) for p in players]
    total = sum(chips) or 1.0
    if in_the_money:
        base = float(min(unawarded) if unawarded else 0)
        rest = pool - base * len(players)
        if rest < 0:
            raise ValueError("the pool cannot pay the smallest prize to everyone")
    else:
        base, rest = pool / 2 / len(players), pool / 2
    # each share exact first, then rounded once: the two halves rounded apart gave the
    # same low ids both halves' leftover units, 200 CZK and 0 for equal stacks and less to
    # the chip leader than to shorter stacks (found by QA)
    exact = [base + rest * c / total for c in chips]
    prizes = list(icm.to_amounts(exact, pool, icm.rounding_unit(exact, pool, unit)))
    return [
        Share(p, fees.get(p, 0) + heads.get(p, 0), prize, fees.get(p, 0))
        for p, prize in zip(players, prizes, strict=True)
    ]


def start_due(scheduled_start: datetime | None, now: datetime) -> bool:
    """The scheduled (or delayed) start has come (TREG-5)."""
    return scheduled_start is not None and scheduled_start <= now
