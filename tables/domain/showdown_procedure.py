"""Showdown procedure: who shows first, requests to see hands, show one show all, all-in
hands face up, and the dispute window after the hand. Pure.

* Show order (SD-13, SD-14, SD-15): :func:`first_to_show`. With a bet on the final street
  the last aggressor shows first (all documents). With no bet on it, the catalogue leaves
  room (``show_order_no_river_bet``): ``"last_aggressor"`` (000, SD-13: the last player to
  bet or raise in the hand) or ``"first_to_act"`` (003, SD-15, the recommended TDA rule:
  the first live player left of the button).
* Requests to see hands (SD-17, SD-18): :func:`may_request_show`.
* Show one, show all (SD-19): :func:`show_one_show_all`.
* All-in hands face up (SD-10, SD-11, SD-12): :func:`all_in_face_up`.
* Disputes (SD-24, SD-25, SD-26): :func:`dispute_open`; a correction is appended as a new
  event inside the window (:mod:`tables.domain.hand_rulings` records it), never a
  rewrite, and refused after it.

Times are UTC ``datetime``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from tables.domain.errors import HandRuleViolation

ShowOrderRule = Literal["last_aggressor", "first_to_act"]
DisputeKind = Literal["reading", "accounting", "mucked_winner"]
HandClosedBy = Literal["next_hand_started", "first_riffle", "cut"]


@dataclass(frozen=True, slots=True)
class ShowOrder:
    """``seats``: the order in which the live hands are shown; ``rule``: why."""

    seats: tuple[int, ...]
    rule: str


def _clockwise_from(seats: Sequence[int], start_after: int) -> list[int]:
    ordered = sorted(seats)
    after = [s for s in ordered if s > start_after]
    return after + [s for s in ordered if s <= start_after]


def first_to_show(
    *,
    live_seats: Sequence[int],
    button_seat: int,
    final_street_aggressor: int | None,
    hand_last_aggressor: int | None,
    all_in: str | None = None,
    rule: ShowOrderRule = "first_to_act",
    all_in_showdown: bool = False,
) -> ShowOrder:
    """The show order at a showdown, clockwise from the first to show.

    * A bet or raise on the final street: its last aggressor shows first (SD-13, SD-14,
      SD-15).
    * No bet on the final street: ``last_aggressor`` (SD-13, 000: the last player to bet or
      raise, even if the last round was checked) or ``first_to_act`` (SD-15, 003: the first
      live seat left of the button). SD-15 is for a showdown with no all-in: with a live
      player all-in (``all_in_showdown``) the last active action of the hand, the all-in
      included, starts it (SD-14); the first seat to act only when nobody bet at all.
    * All-in with the betting complete, where all hands are then turned up (``all_in``: the
      rule of :func:`all_in_face_up`, SD-10 or SD-11): every hand is tabled at once, the
      order is only the reading order (from the left of the button). Where they are not (a
      cash table without the face-up rule) the order above applies.
    """
    if not live_seats:
        raise HandRuleViolation("no_live_hands", "SD-16", "No live hand to show.")
    if all_in:
        return ShowOrder(tuple(_clockwise_from(live_seats, button_seat)), all_in)
    if final_street_aggressor is not None and final_street_aggressor in live_seats:
        first, why = final_street_aggressor, "SD-14"
    elif rule == "last_aggressor" and hand_last_aggressor in live_seats:
        assert hand_last_aggressor is not None
        first, why = hand_last_aggressor, "SD-13"
    elif all_in_showdown and hand_last_aggressor in live_seats:  # SD-15 is not for all-ins
        assert hand_last_aggressor is not None
        first, why = hand_last_aggressor, "SD-14"
    else:
        first, why = _clockwise_from(live_seats, button_seat)[0], "SD-15"
    order = [first] + [s for s in _clockwise_from(live_seats, first) if s != first]
    return ShowOrder(tuple(order), why)


def may_request_show(
    *,
    requester_holds_cards: bool,
    requester_tabled: bool,
    requester_called_river_bet: bool,
    target_is_last_aggressor: bool,
    floor_suspects_collusion: bool,
    caller_may_request_aggressor_show: bool,
) -> tuple[bool, str]:
    """Whether a request to see a hand at showdown is granted, and the rule.

    A floor order on suspicion of fraud or collusion is always granted (SD-16, SD-17). A
    player who mucked face down or holds no cards has no right (SD-17). Under 003
    (``caller_may_request_aggressor_show``) a river caller who tabled or still holds his
    cards may see the last aggressor's hand (SD-18); under 000 only the floor may order it.
    """
    if floor_suspects_collusion:
        return True, "SD-17"
    if not (requester_holds_cards or requester_tabled):
        return False, "SD-17"
    if (
        caller_may_request_aggressor_show
        and requester_called_river_bet
        and target_is_last_aggressor
    ):
        return True, "SD-18"
    return False, "SD-17" if not caller_may_request_aggressor_show else "SD-18"


def show_one_show_all(
    *, shown_to: Sequence[int], requested_by: int, shower_still_in_hand: bool, betting_over: bool
) -> tuple[bool, str]:
    """SD-19: cards shown to one player are shown to everyone who asks; a player already
    out of the hand shows them once the betting is over. Returns ``(show_now, rule)``; a
    request from someone the cards were already shown to is moot (``False``)."""
    if not shown_to or requested_by in shown_to:
        return False, "SD-19"
    if not shower_still_in_hand and not betting_over:
        return False, "SD-19"  # shown at the end of the betting
    return True, "SD-19"


def all_in_face_up(
    *, mode: Literal["cash", "tournament"], allin_faceup_in_cash: bool
) -> str | None:
    """Whether all hands are turned face up once a player is all-in and the betting is
    complete: in tournaments always (SD-11, 000), in cash per ``allin_faceup_in_cash``
    (SD-10, 002/003). Returns the rule applied or ``None``."""
    if mode == "tournament":
        return "SD-11"
    return "SD-10" if allin_faceup_in_cash else None


def face_up_rule(*, face_up: bool, mode: str) -> str | None:
    """The rule that turns every hand up at this hand's all-in (its ``all_in_face_up``, set
    at the deal by :func:`all_in_face_up`): SD-11 in a tournament, SD-10 in cash; ``None``
    where the hands are not turned up."""
    if not face_up:
        return None
    return "SD-11" if mode == "tournament" else "SD-10"


def may_muck_all_in_hand(*, all_in_hand: bool, tabled: bool) -> bool:
    """SD-12: an all-in hand may never be mucked before it is turned up."""
    return not all_in_hand or tabled


@dataclass(frozen=True, slots=True)
class HandClosure:
    """When a settled hand's disputes close.

    ``settled_at``: the pot was awarded; ``next_event_at``: the event that closes the hand
    under the house rule (``closed_by``: the next hand starting (003, SD-24), the first
    riffle of the next shuffle (000, SD-25) or the cut (002, SD-26)), ``None`` while it has
    not happened; ``substantial_action_at``: substantial action on the next hand (003:
    closes accounting disputes); ``during_break``: the hand ended right before a break (003:
    one minute for every dispute).
    """

    settled_at: datetime
    closed_by: HandClosedBy = "next_hand_started"
    next_event_at: datetime | None = None
    substantial_action_at: datetime | None = None
    during_break: bool = False


BREAK_WINDOW = timedelta(minutes=1)


def dispute_open(closure: HandClosure, kind: DisputeKind, now: datetime) -> tuple[bool, str]:
    """Whether a dispute of ``kind`` about a settled hand is still accepted at ``now``.

    * during a break every dispute closes one minute after the pot was awarded (SD-24);
    * a pot-accounting error may be raised until substantial action on the next hand
      (SD-24);
    * a reading, or a claim for a mistakenly mucked winning hand, until the hand closes:
      the next hand starting (SD-24), the first riffle (SD-25) or the cut (SD-26).
    """
    rule = {"next_hand_started": "SD-24", "first_riffle": "SD-25", "cut": "SD-26"}[
        closure.closed_by
    ]
    if closure.during_break:
        return now <= closure.settled_at + BREAK_WINDOW, "SD-24"
    if kind == "accounting":
        return closure.substantial_action_at is None or now < closure.substantial_action_at, "SD-24"
    return closure.next_event_at is None or now < closure.next_event_at, rule


# -- mucked and killed hands at showdown (SD-4..8) --------------------------------------------


def mucked_hand_keeps_claim(
    *, fully_tabled: bool, retrievable_and_identifiable: bool
) -> tuple[bool, str]:
    """SD-4: a hand not fully tabled and then mucked loses its claim unless the TD finds it
    100 % retrievable and identifiable (the ruling is recorded). A fully tabled hand is
    read where it lies (SD-5)."""
    if fully_tabled:
        return True, "SD-5"
    return retrievable_and_identifiable, "SD-4"


def killed_winner_still_wins(
    *, properly_tabled: bool, clearly_winning: bool, claimed_before_next_hand: bool
) -> bool:
    """SD-5: the dealer may not kill a properly tabled, clearly winning hand; mucked by
    mistake it still wins if claimed before the next hand begins."""
    return properly_tabled and clearly_winning and claimed_before_next_hand


def facedown_cards_dead(
    *, facedown_muck_kills_hand: bool, in_muck: bool, identifiable: bool
) -> tuple[bool, str]:
    """Cards thrown face down at showdown: always dead under 002 (SD-7,
    ``facedown_muck_kills_hand``); under 003 only once in the muck or no longer 100 %
    identifiable, and the player may still table them until then (SD-6)."""
    if facedown_muck_kills_hand:
        return True, "SD-7"
    return in_muck or not identifiable, "SD-6"


def early_muck_refund(*, called: int, uncalled: int, retrieved: bool) -> int:
    """SD-8: a bettor who mucks early while an opponent is still in: if his cards cannot be
    retrieved, called chips are not refunded, only the uncalled part returns (CZK/chips).
    Retrieved, the hand plays on and nothing is refunded now."""
    if called < 0 or uncalled < 0:
        raise ValueError("amounts are >= 0")
    return 0 if retrieved else uncalled
