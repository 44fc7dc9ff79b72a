"""Bounties (BNTY-1..8): knockout, progressive knockout and fixed (named-player) bounties.
Pure rules, no Django; amounts in CZK.

Configuration (:class:`tournaments.domain.config.BountyRule`, ``config.bounty``):

* ``kind`` ``"none"`` (default), ``"knockout"`` (every entrant pays ``amount`` on top of
  the buy-in and carries a bounty of ``amount``), ``"progressive"`` (the same, but the
  eliminator takes ``progressive_cash_bp`` of the bounty in cash and adds the rest to the
  bounty on his own head; the catalogue leaves the share open, ``pko_cash_share_pct``: the
  default 5,000 bp = half, the usual PKO split) or ``"fixed"`` (the house pays ``amount``
  for each named player in ``players``; BNTY-1 "Fixed"/"Team Pro").
* A named player who never registered has no bounty (BNTY-6): heads are created at entry.

Which pot pays (BNTY-2): the bounty goes to the winner(s) of the pot in which the busted
player was all-in for his last chips, i.e. the highest pot (main = 0, side pots 1, 2 ...)
he was eligible for (:func:`relevant_pot_winners`). A split pot splits the bounty equally,
odd CZK one at a time to the earliest positions clockwise from the button (BNTY-4: the
catalogue recommends defining it like the odd chip). Hi/lo (BNTY-3) does not arise: the
tournament tables deal hold'em and Omaha high only.

When the event ends the winner gets his own knockout or progressive bounty (BNTY-5); a fixed
bounty on the winner is not paid. Bounties won are paid at the cage
(:mod:`tournaments.domain.payments`). Money is conserved: what entrants paid into the bounty
pool = cash won + bounties still on heads, at every moment (a property test checks it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from casino.domain_events import DomainEvent
from tournaments.domain.config import TournamentConfig
from tournaments.domain.events import BountyAward, BountyCollected, BountyPlaced

BP = 10_000


@dataclass(frozen=True, slots=True)
class BountyState:
    """``heads``: CZK on each player's head now; ``cash_won``: CZK each player has won in
    cash; ``paid_in``: CZK entrants paid into the bounty pool (knockout, progressive) or
    the house put up (fixed)."""

    heads: Mapping[int, int] = field(default_factory=dict)
    cash_won: Mapping[int, int] = field(default_factory=dict)
    paid_in: int = 0


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """``amount`` CZK split equally among ``winners`` (earliest position first), the odd
    CZK one each to the earliest positions (BNTY-4)."""
    if not winners:
        return []
    share, odd = divmod(amount, len(winners))
    return [(w, share + (1 if i < odd else 0)) for i, w in enumerate(winners)]


def relevant_pot_winners(
    pots: Sequence[tuple[int, Sequence[int], Sequence[int]]], busted: int
) -> tuple[int, ...]:
    """The winners of the pot in which ``busted`` was all-in for his last chips (BNTY-2):
    ``pots`` as ``(index, eligible player ids, winner player ids)``, index 0 the main pot;
    the relevant pot is the highest index he was eligible for. Empty when he was in none.
    """
    eligible = [p for p in pots if busted in p[1]]
    if not eligible:
        return ()
    return tuple(max(eligible, key=lambda p: p[0])[2])


def place_bounty(rule_kind: str, amount: int, players: Sequence[int], player_id: int) -> int:
    """The bounty (CZK) put on a new entry's head."""
    if rule_kind in ("knockout", "progressive"):
        return amount
    if rule_kind == "fixed" and player_id in players:
        return amount
    return 0


def entry_price(rule_kind: str, amount: int) -> int:
    """What an entrant pays into the bounty pool with each entry (CZK)."""
    return amount if rule_kind in ("knockout", "progressive") else 0


def entry_cost(buy_in: int, fee: int, rule_kind: str, amount: int) -> int:
    """What one entry costs an entrant in all (CZK): buy-in, fee and his bounty. What
    unregistering refunds (TREG-10), a satellite seat is worth and T-Money pays (TREG-11)."""
    return buy_in + fee + entry_price(rule_kind, amount)


@dataclass(frozen=True, slots=True)
class CagePrices:
    """What a player pays at the cage, CZK: an entry (``registration``, also a late one),
    a ``re_entry``, a ``rebuy`` and an ``add_on``; each with its fee, an entry and a
    re-entry with the entrant's bounty (knockout, progressive: BNTY-1). ``None``: the
    tournament does not offer it."""

    registration: int
    re_entry: int | None
    rebuy: int | None
    add_on: int | None


def cage_prices(config: TournamentConfig) -> CagePrices:
    """The prices of :class:`CagePrices` for ``config``: one rule for the cashier's screen
    and the books (the events carry the same buy-in, fee and bounty)."""
    bounty = entry_price(config.bounty.kind, config.bounty.amount)
    re, rb, ao = config.reentry, config.rebuy, config.add_on
    return CagePrices(
        registration=config.buy_in + config.fee + bounty,
        re_entry=re.price + re.fee + bounty if re.allowed else None,
        rebuy=rb.price + rb.fee if rb.allowed else None,
        add_on=ao.price + ao.fee if ao.allowed else None,
    )


def collect(
    state: BountyState, kind: str, cash_bp: int, busted: int, winners: Sequence[int]
) -> BountyCollected | None:
    """The bounty on ``busted`` collected by ``winners`` (earliest position first): split
    equally, odd CZK to the earliest (BNTY-4); progressive: ``cash_bp`` of each share in
    cash, the rest onto the winner's own head. ``None`` when there is no bounty on him.
    A bounty player who wins the event collects his own (``winners == [busted]``, BNTY-5).
    """
    head = state.heads.get(busted, 0)
    if head <= 0 or not winners:
        return None
    awards = []
    for pid, share in split(head, winners):
        if kind == "progressive" and pid != busted:
            cash = share * cash_bp // BP
            awards.append(BountyAward(pid, cash, share - cash))
        else:
            awards.append(BountyAward(pid, share, 0))
    return BountyCollected(busted, head, tuple(awards))


def evolve(state: BountyState, event: DomainEvent) -> BountyState:
    match event:
        case BountyPlaced():
            return replace(
                state, heads={**state.heads, event.player_id: event.amount},
                paid_in=state.paid_in + event.amount,
            )  # fmt: skip
        case BountyCollected():
            heads = {**state.heads, event.player_id: 0}
            won = dict(state.cash_won)
            for a in event.awards:
                won[a.player_id] = won.get(a.player_id, 0) + a.cash
                heads[a.player_id] = heads.get(a.player_id, 0) + a.added_to_head
            return replace(state, heads=heads, cash_won=won)
    return state


BOUNTY_EVENTS = (BountyPlaced, BountyCollected)
