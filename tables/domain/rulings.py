"""The floor's rulings during a hand that are not betting legality. Pure.

Each function takes what the dealer or floor reports and returns a ruling that names its
catalogue rule; nothing here touches pokerkit or the hand aggregate. The tablet shows the
ruling and records the resulting action or event.

* Out of turn (BET-25, BET-26): :func:`resolve_out_of_turn`.
* Calling the clock (BET-28) and timeouts (BET-29): :func:`call_clock`,
  :func:`clock_expiry`.
* Exposed hole cards during a hand (BET-30..32): :func:`exposed_cards`.
* Presence at the last card (SEAT-12, SEAT-13): :func:`presence_at_last_card`.
* A seat change within the game (SEAT-17): :func:`seat_change_entry`.

Times are UTC ``datetime``; durations seconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from tables.domain.errors import HandRuleViolation

OotAction = Literal["fold", "check", "call", "bet", "raise"]
AGGRESSIVE = ("bet", "raise")


# -- out of turn (BET-25, BET-26) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OutOfTurnRuling:
    """What an out-of-turn action means when the action reaches the player.

    ``binding``: the OOT action must be carried out (``action`` / ``amount_to``).
    ``may_bet_or_raise``: whether he may still bet or raise when it is not binding (or
    binding as a check). ``rule``: BET-25 or BET-26.
    """

    binding: bool
    action: OotAction | None
    amount_to: int | None
    may_bet_or_raise: bool
    may_fold: bool
    rule: str
    detail: str


def resolve_out_of_turn(
    oot_action: OotAction,
    oot_amount_to: int | None,
    actions_between: Sequence[OotAction],
) -> OutOfTurnRuling:
    """The ruling on an out-of-turn action once it is the player's turn.

    ``actions_between`` are the in-turn actions taken by the players he skipped. A bet or a
    raise among them changed the action (BET-25): the OOT action is not binding; a check,
    call or fold did not: it is binding. BET-26: an OOT fold stands whatever happened; after
    an OOT check he may not bet or raise; after an OOT call he may not raise unless the
    action changed.
    """
    changed = any(a in AGGRESSIVE for a in actions_between)
    if oot_action == "fold":
        return OutOfTurnRuling(
            True, "fold", None, False, True, "BET-26", "An out-of-turn fold is never taken back."
        )
    if not changed:
        return OutOfTurnRuling(
            True,
            oot_action,
            oot_amount_to,
            oot_action in AGGRESSIVE,
            False,
            "BET-25",
            "The action before him did not change: his out-of-turn action is binding.",
        )
    restricted = oot_action in ("check", "call")
    return OutOfTurnRuling(
        False,
        None,
        None,
        True,
        True,
        "BET-25",
        "A bet or raise came in between: the out-of-turn action is not binding"
        + (" and he may now raise." if restricted else "."),
    )


# -- the clock (BET-28, BET-29) -------------------------------------------------------------

ClockExpiry = Literal["dead_hand", "fold_or_check"]


@dataclass(frozen=True, slots=True)
class ClockCall:
    """A clock called on the player to act. ``expires_at`` is when his hand is dead:
    ``seconds`` for the clock plus the final ``final_countdown`` (BET-28: 10 s)."""

    seat: int
    called_by: int
    called_at: datetime
    seconds: int
    final_countdown: int
    final_countdown_at: datetime = field(init=False)
    expires_at: datetime = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "final_countdown_at", self.called_at + timedelta(seconds=self.seconds)
        )
        object.__setattr__(
            self, "expires_at", self.final_countdown_at + timedelta(seconds=self.final_countdown)
        )


def call_clock(
    *,
    seat_to_act: int,
    called_by: int,
    caller_seated: bool,
    caller_holds_cards: bool,
    mode: Literal["cash", "tournament"],
    now: datetime,
    seconds: int = 60,
    final_countdown: int = 10,
) -> ClockCall:
    """A clock call on ``seat_to_act`` (BET-28).

    In a tournament the caller must be seated; in cash only a player still holding cards
    may call it. The floor runs a clock of ``seconds`` (the length is not specified by the
    documents: a setting, default 60 s) then a final ``final_countdown`` (10 s).

    Raises:
        HandRuleViolation: ``clock_caller_not_seated`` / ``clock_caller_not_in_hand``
        (BET-28), ``clock_on_self`` (BET-28), ``invalid_clock`` (lengths).
    """
    if seconds <= 0 or final_countdown < 0:
        raise HandRuleViolation("invalid_clock", "BET-28", "Clock lengths are positive seconds.")
    if called_by == seat_to_act:
        raise HandRuleViolation(
            "clock_on_self", "BET-28", "A player cannot call the clock on himself."
        )
    if not caller_seated:
        raise HandRuleViolation(
            "clock_caller_not_seated", "BET-28", "Only a seated player may call the clock."
        )
    if mode == "cash" and not caller_holds_cards:
        raise HandRuleViolation(
            "clock_caller_not_in_hand",
            "BET-28",
            "In a cash game only a player still holding cards may call the clock.",
        )
    return ClockCall(seat_to_act, called_by, now, seconds, final_countdown)


@dataclass(frozen=True, slots=True)
class ClockOutcome:
    """What happens when the clock runs out: ``action`` fold or check, ``rule``."""

    action: Literal["fold", "check"]
    dead_hand: bool
    rule: str


def clock_expiry(*, to_call: int, policy: ClockExpiry = "dead_hand") -> ClockOutcome:
    """The outcome of an expired clock.

    ``dead_hand`` (BET-28, the live rule, default): the hand is dead (folded) whatever he
    faces. ``fold_or_check`` (BET-29, the online timeout): folded when facing a bet, checked
    when not.
    """
    if policy == "fold_or_check":
        return ClockOutcome("fold" if to_call else "check", bool(to_call), "BET-29")
    return ClockOutcome("fold", True, "BET-28")


def clock_expired(clock: ClockCall, now: datetime) -> bool:
    """Whether ``clock`` has run out (including the final countdown) at ``now``."""
    return now >= clock.expires_at


# -- exposed cards during a hand (BET-30..32) -----------------------------------------------

ExposedPolicy = Literal["tournament_000", "cash_000", "floor_002"]


@dataclass(frozen=True, slots=True)
class ExposureRuling:
    """``folded``: the hand is dead now; ``passive``: he may check, call or fold but not bet
    or raise; ``penalty_possible``: the floor may penalise; ``rule``."""

    folded: bool
    passive: bool
    penalty_possible: bool
    rule: str
    detail: str


def exposed_cards(
    *,
    policy: ExposedPolicy,
    cards_shown: int,
    opponents_in_hand: int,
    deliberate_for_reaction: bool = False,
) -> ExposureRuling:
    """A player showed ``cards_shown`` hole cards before the hand ended.

    * ``tournament_000`` (BET-30): not a fold; the cards stay face up; passive.
    * ``cash_000`` (BET-31): one card may be shown any time; heads-up both, and he may
      still bet; two or more cards with two or more opponents is not allowed (passive,
      penalty possible).
    * ``floor_002`` (BET-32): the hand is passive and may be ruled dead; exposing on
      purpose to get a reaction before acting is a fold.
    """
    if cards_shown < 1:
        raise HandRuleViolation("no_cards_shown", "BET-30", "No card was shown.")
    if policy == "tournament_000":
        return ExposureRuling(False, True, False, "BET-30", "Not a fold: face up, no bet or raise.")
    if policy == "cash_000":
        if cards_shown == 1 or opponents_in_hand <= 1:
            return ExposureRuling(False, False, False, "BET-31", "Allowed: he may still bet.")
        return ExposureRuling(
            False, True, True, "BET-31", "Showing hole cards multi-way is not allowed."
        )
    if deliberate_for_reaction:
        return ExposureRuling(True, True, True, "BET-32", "Exposed to get a reaction: a fold.")
    return ExposureRuling(False, True, True, "BET-32", "Passive; the floor may rule it dead.")


# -- presence (SEAT-12, SEAT-13) and seat changes (SEAT-17) ---------------------------------


@dataclass(frozen=True, slots=True)
class PresenceRuling:
    dead_hand: bool
    post_forced_bets: bool
    rule: str


def presence_at_last_card(
    *, seated: bool, mode: Literal["cash", "tournament"], game: str = "holdem"
) -> PresenceRuling:
    """A player's presence when the last hole card reaches the button (stud: the last card
    exposed before the first betting round).

    Not in his seat: dead hand, mucked (SEAT-12). In a tournament an absent player is dealt
    in and his blinds and antes are posted from his stack (SEAT-13) before the hand dies.
    """
    if seated:
        return PresenceRuling(False, True, "SEAT-12")
    return PresenceRuling(
        True, mode == "tournament", "SEAT-13" if mode == "tournament" else "SEAT-12"
    )


def seats_from_big_blind(seat: int, big_blind_seat: int, seats: Sequence[int]) -> int:
    """How many seats ``seat`` is after the big blind, counting clockwise among ``seats``
    (the big blind 0)."""
    order = sorted(seats)
    bb_index = order.index(big_blind_seat)
    return (order.index(seat) - bb_index) % len(order)


def seat_change_entry(
    *, old_seat: int, new_seat: int, big_blind_seat: int, seats: Sequence[int]
) -> Literal["play_now", "wait_or_post"]:
    """SEAT-17: a player moving within the game further from the big blind (the blinds,
    which move clockwise, would reach him later: he would play hands without paying them)
    waits until the big blind reaches him, unless he posts; moving closer to the blinds
    (they reach him sooner) he plays at once. ``big_blind_seat``: the last hand's."""
    all_seats = sorted({*seats, old_seat, new_seat})
    before = seats_from_big_blind(old_seat, big_blind_seat, all_seats)
    after = seats_from_big_blind(new_seat, big_blind_seat, all_seats)
    # the big blind moves one seat clockwise a hand: at distance d he pays it in d hands
    return "play_now" if after <= before else "wait_or_post"
