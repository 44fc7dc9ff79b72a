"""Pot arithmetic of a hand: uncalled bets, main and side pots, rake, odd chips.

Pure functions over each seat's total contribution to the hand (antes, blinds and bets).

* **Uncalled bet (SD-9).** The part of the largest contribution above the second largest
  goes back to its owner before any pot is built.
* **Pots.** One pot per contribution level: a level takes from every seat up to that level,
  folded seats included, and is open to the seats still in the hand that reached it.
  Adjacent levels with the same eligible seats are merged; chips at a level no live seat
  reached (dead money) join the pot below. Index 0 is the main pot, then side pots 1, 2 ...
* **Dead money.** A big-blind ante is posted for the whole table: it is not part of the big
  blind's bet (never returned as uncalled) and goes into the main pot, open to every live
  seat (``dead_money``). Per-player antes are ordinary contributions.
* **Award order (SD-20).** Side pots first, the outermost (highest level) first, the main
  pot last; :func:`settle_pots` returns them in that order.
* **Ties and odd chips (SD-21/SD-22/SD-23).** A pot (after rake) is split evenly between its
  winners; the chips that do not divide go one at a time to the tied winners in the order
  given by ``odd_chip_order``. The house default (:func:`first_clockwise_from_button`)
  starts with the first winner clockwise from the button (the seat left of the button
  first, the button last).
* **Rake (RAKE-1..4).** Each pot is raked ``rake_percent_bp`` basis points (500 = 5 %) of
  its amount, in integer arithmetic **rounded down to the whole unit** (1 CZK or 1 chip):
  ``amount * rake_percent_bp // 10_000``. The cap ``rake_cap`` applies once per hand to all
  pots together: rake is taken from the main pot first, then from the side pots in index
  order, until the cap is reached (so a side pot may be raked less than its percentage, or
  not at all). No rake when ``take_rake`` is false (no flop, no drop). Invariants:
  ``0 <= rake <= rake_cap`` and
  ``sum(contributions) + dead_money == sum(awards) + sum(uncalled) + rake``.
* **Running it more than once (RAKE-10; the catalogue leaves these open, the house
  choices are):**

  - rake is taken **once per pot, on the whole pot, before the split** (same percentage,
    cap and rounding as a single board; no flop, no drop counts a flop dealt on any run);
  - each pot after rake is split across the runs **evenly** (:func:`split_across_runs`);
    the chips that do not divide go one at a time to the runs in order, **run 1 first**
    (with three runs a remainder of 2 gives one chip to run 1 and one to run 2);
  - each run's share is then split between that run's winners like any pot, with the house
    odd-chip rule (``odd_chip_order``) inside the run;
  - the pot's ``winners`` are the total per seat over the runs; ``runs`` keeps each run's
    share and winners. Chips stay conserved: the runs' shares add up to the pot after rake.
    Nothing else leaves the pot (RAKE-9: no chop, no money taken out of an all-in pot).

  ``decide_pot`` returns one :class:`PotDecision` per run (a sequence) for such a pot.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from tables.events import Award, PotResult, RunShare, SeatAmount

BASIS_POINTS = 10_000


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot before it is awarded: 0 is the main pot, then side pots 1, 2 ..."""

    index: int
    amount: int
    eligible_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PotDecision:
    """Who won one pot, and with which phevaluator rank when cards were evaluated."""

    winners: tuple[int, ...]
    hand_rank: int | None = None


@dataclass(frozen=True, slots=True)
class Settlement:
    """The chips moved at the end of a hand.

    ``pots`` are in award order (SD-20); ``payouts`` is what each seat gets back (awards plus
    uncalled bets), seats getting nothing left out.
    """

    uncalled: tuple[SeatAmount, ...]
    pots: tuple[PotResult, ...]
    rake: int
    payouts: dict[int, int]


OddChipOrder = Callable[[int, Collection[int]], Sequence[int]]


def clockwise_from(start_after: int, seats: Collection[int], max_seat: int = 10) -> list[int]:
    """``seats`` in clockwise order beginning with the first seat after ``start_after``."""
    return sorted(seats, key=lambda seat: (seat - start_after - 1) % max_seat)


def first_clockwise_from_button(button_seat: int, winners: Collection[int]) -> list[int]:
    """House odd-chip order: the first winner clockwise from the button gets the first chip."""
    return clockwise_from(button_seat, winners)


def return_uncalled(
    contributions: Mapping[int, int],
) -> tuple[dict[int, int], SeatAmount | None]:
    """Take the uncalled part of the largest contribution back (SD-9).

    Returns the called contributions and the returned amount (``None`` when all is called).
    """
    called = dict(contributions)
    if not called:
        return called, None
    ordered = sorted(called.items(), key=lambda item: item[1], reverse=True)
    top_seat, top = ordered[0]
    second = ordered[1][1] if len(ordered) > 1 else 0
    if top <= second:
        return called, None
    called[top_seat] = second
    return called, SeatAmount(seat=top_seat, amount=top - second)


def build_pots(
    contributions: Mapping[int, int], live_seats: Collection[int], dead_money: int = 0
) -> tuple[Pot, ...]:
    """Main and side pots from called contributions; only ``live_seats`` may win.

    ``dead_money`` (a big-blind ante) is added to the main pot.

    Raises:
        ValueError: a contribution is negative, or chips are in but nobody is live.
    """
    if any(amount < 0 for amount in contributions.values()):
        raise ValueError("negative contribution")
    live = set(live_seats)
    amounts: list[int] = []
    eligibles: list[tuple[int, ...]] = []
    dead_below_first = 0
    previous = 0
    for level in sorted({amount for amount in contributions.values() if amount > 0}):
        payers = [seat for seat, paid in contributions.items() if paid >= level]
        amount = (level - previous) * len(payers)
        eligible = tuple(sorted(seat for seat in payers if seat in live))
        previous = level
        if not eligible:  # dead money nobody live reached: it joins the pot below
            if amounts:
                amounts[-1] += amount
            else:
                dead_below_first += amount
        elif eligibles and eligibles[-1] == eligible:
            amounts[-1] += amount
        else:
            amounts.append(amount + dead_below_first)
            eligibles.append(eligible)
            dead_below_first = 0
    if dead_below_first:  # no live seat put anything in (all-in for a dead ante or blind)
        if not live:
            raise ValueError("chips in the pot but no seat is live")
        amounts.append(dead_below_first)
        eligibles.append(tuple(sorted(live)))
    if dead_money:
        if not amounts:
            if not live:
                raise ValueError("chips in the pot but no seat is live")
            amounts.append(0)
            eligibles.append(tuple(sorted(live)))
        amounts[0] += dead_money
    return tuple(
        Pot(index=i, amount=amount, eligible_seats=eligible)
        for i, (amount, eligible) in enumerate(zip(amounts, eligibles, strict=True))
    )


def pots_while_betting(
    contributions: Mapping[int, int],
    live_seats: Collection[int],
    all_in_seats: Collection[int],
    dead_money: int = 0,
) -> tuple[Pot, ...]:
    """The pots as they stand in the middle of a street, for the screens: every chip in,
    this street's bets included (nothing is uncalled yet: the others may still call), and
    only an all-in player's total caps a pot. A live player who may still act is eligible
    for every pot, as he can yet match it (``build_pots`` on the bets so far left the button
    out of the main pot before he acted, found by QA); an all-in one for the pots up to his
    total. ``dead_money`` (a big-blind ante, dead small blinds) is in the main pot.
    """
    live = set(live_seats)
    caps = sorted({contributions[s] for s in all_in_seats if s in live and contributions[s] > 0})
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for level in [*caps, None]:
        amount = sum(
            (paid if level is None else min(paid, level)) - min(paid, previous)
            for paid in contributions.values()
        )
        reached = [s for s in live if level is not None and contributions[s] >= level]
        eligible = tuple(sorted({s for s in live if s not in all_in_seats} | set(reached)))
        if level is not None:
            previous = level
        if not amount and pots:
            continue
        if pots and (pots[-1][1] == eligible or not eligible):
            pots[-1] = (pots[-1][0] + amount, pots[-1][1])
        else:
            pots.append((amount, eligible or tuple(sorted(live))))
    pots[0] = (pots[0][0] + dead_money, pots[0][1])
    return tuple(Pot(i, amount, eligible) for i, (amount, eligible) in enumerate(pots) if amount)


def rake_pots(amounts: Sequence[int], rake_percent_bp: int, rake_cap: int) -> tuple[int, ...]:
    """Rake of each pot (main pot first): percentage rounded down, one cap for the hand."""
    remaining = max(rake_cap, 0)
    rakes = []
    for amount in amounts:
        rake = min(amount * max(rake_percent_bp, 0) // BASIS_POINTS, remaining)
        remaining -= rake
        rakes.append(rake)
    return tuple(rakes)


def split_pot(
    amount: int,
    winners: Collection[int],
    button_seat: int,
    odd_chip_order: OddChipOrder = first_clockwise_from_button,
) -> tuple[Award, ...]:
    """Split ``amount`` evenly; the odd chips go one each in ``odd_chip_order``.

    Awards are listed in that order. Raises ``ValueError`` when there is no winner.
    """
    if not winners:
        raise ValueError("a pot needs a winner")
    order = list(odd_chip_order(button_seat, winners))
    if sorted(order) != sorted(set(winners)):
        raise ValueError("odd_chip_order must return each winner once")
    share, odd = divmod(amount, len(order))
    return tuple(
        Award(seat=seat, amount=share + (1 if i < odd else 0)) for i, seat in enumerate(order)
    )


def split_across_runs(amount: int, runs: int) -> tuple[int, ...]:
    """``amount`` split evenly over ``runs`` boards; the odd chips one each from run 1.

    Raises ``ValueError`` for fewer than one run.
    """
    if runs < 1:
        raise ValueError("at least one run")
    share, odd = divmod(amount, runs)
    return tuple(share + (1 if i < odd else 0) for i in range(runs))


def _merge_awards(groups: Sequence[Sequence[Award]]) -> tuple[Award, ...]:
    """Awards per seat summed over the runs, seats in the order they first appear."""
    totals: dict[int, int] = {}
    for awards in groups:
        for award in awards:
            totals[award.seat] = totals.get(award.seat, 0) + award.amount
    return tuple(Award(seat=seat, amount=amount) for seat, amount in totals.items())


PotDecider = Callable[[Pot], PotDecision | Sequence[PotDecision]]
"""Names a pot's winners: one :class:`PotDecision`, or one per run when the board was run
more than once."""


def settle_pots(
    contributions: Mapping[int, int],
    live_seats: Collection[int],
    decide_pot: PotDecider,
    *,
    button_seat: int,
    rake_percent_bp: int = 0,
    rake_cap: int = 0,
    take_rake: bool = True,
    odd_chip_order: OddChipOrder = first_clockwise_from_button,
    dead_money: int = 0,
) -> Settlement:
    """Return the uncalled bet, build the pots, rake them and award them.

    ``dead_money`` (a big-blind ante) goes into the main pot and is never returned.

    ``decide_pot`` names each pot's winners (a subset of its eligible seats), or each
    run's winners when the board was run more than once (see the module notes).

    Raises:
        ValueError: a winner is not eligible for the pot, or a pot has no winner.
    """
    called, uncalled = return_uncalled(contributions)
    pots = build_pots(called, live_seats, dead_money)
    rakes = (
        rake_pots([pot.amount for pot in pots], rake_percent_bp, rake_cap)
        if take_rake
        else (0,) * len(pots)
    )
    payouts: dict[int, int] = {}
    if uncalled is not None:
        payouts[uncalled.seat] = uncalled.amount
    results: list[PotResult] = []
    for pot, rake in reversed(list(zip(pots, rakes, strict=True))):  # SD-20
        decided = decide_pot(pot)
        decisions = (decided,) if isinstance(decided, PotDecision) else tuple(decided)
        if not decisions:
            raise ValueError(f"pot {pot.index}: no decision")
        for decision in decisions:
            if not set(decision.winners) <= set(pot.eligible_seats):
                raise ValueError(f"pot {pot.index}: winner not eligible")
        runs: tuple[RunShare, ...] = ()
        if len(decisions) == 1:
            awards = split_pot(pot.amount - rake, decisions[0].winners, button_seat, odd_chip_order)
            hand_rank = decisions[0].hand_rank
        else:
            shares = split_across_runs(pot.amount - rake, len(decisions))
            runs = tuple(
                RunShare(
                    run=run,
                    amount=share,
                    winners=split_pot(share, decision.winners, button_seat, odd_chip_order),
                    hand_rank=decision.hand_rank,
                )
                for run, (share, decision) in enumerate(zip(shares, decisions, strict=True), 1)
            )
            awards = _merge_awards([r.winners for r in runs])
            hand_rank = None
        for award in awards:
            payouts[award.seat] = payouts.get(award.seat, 0) + award.amount
        results.append(
            PotResult(
                index=pot.index,
                amount=pot.amount,
                rake=rake,
                eligible_seats=pot.eligible_seats,
                winners=awards,
                hand_rank=hand_rank,
                runs=runs,
            )
        )
    return Settlement(
        uncalled=(uncalled,) if uncalled is not None else (),
        pots=tuple(results),
        rake=sum(rakes),
        payouts=payouts,
    )
