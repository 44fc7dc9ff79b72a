"""Betting (:class:`TakeAction`): turn order (BET-25), folds, checks, calls, bets and
raises with the house minimum (BET-3, BET-8, BET-9), pot and fixed limits (BET-4), the
all-in that does not reopen (BET-14), stacks (BET-24); the hand settles when one player is
left. Refusal codes: the docstring of :mod:`tables.domain.hand`.
"""

from __future__ import annotations

from pokerkit import State

from casino.domain_events import DomainEvent
from tables.domain import limit
from tables.domain.commands import (
    TakeAction,
)
from tables.domain.errors import HandRuleViolation
from tables.domain.hand_state import (
    ACTIONS,
    HandState,
    SeatState,
    facing,
    house_min_raise_to,
    house_reopen_refusal,
    last_straddle,
    limit_cap_refusal,
    raise_refusal,
    seat_in_hand,
    update_seat,
)
from tables.domain.pots import (
    PotDecision,
)
from tables.domain.showdown import (
    settle,
)
from tables.events import (
    ActionTaken,
)


def decide_action(state: HandState, cmd: TakeAction) -> list[DomainEvent]:
    seat = seat_in_hand(state, cmd.seat)
    if cmd.action not in ACTIONS:
        raise HandRuleViolation(
            "unknown_action", "BET-16", f"Unknown action {cmd.action!r}.", action=cmd.action
        )
    if seat.folded:
        raise HandRuleViolation(
            "seat_folded", "BET-1", f"Seat {cmd.seat} has folded.", seat=cmd.seat
        )
    if state.phase != "betting" or state.to_act is None:
        raise HandRuleViolation(
            "no_betting_now",
            "BET-1",
            "The betting round is closed: deal the next street or go to showdown.",
            seat=cmd.seat,
            phase=state.phase,
        )
    if cmd.seat != state.to_act:
        raise HandRuleViolation(
            "not_your_turn",
            "BET-25",
            f"Seat {state.to_act} is to act, not seat {cmd.seat}.",
            seat=cmd.seat,
            to_act=state.to_act,
        )
    pk = state._pk()
    max_bet = facing(state)
    to_call = min(seat.stack, max_bet - seat.bet)
    all_in_to = seat.bet + seat.stack
    action: str = cmd.action
    amount_to = cmd.amount_to

    if action == "all_in":
        if all_in_to <= max_bet:
            action = "call"
        else:
            refusal = (
                limit_cap_refusal(state, seat)
                or raise_refusal(pk, seat, max_bet)
                or house_reopen_refusal(state, seat)
            )
            if refusal is None:
                action, amount_to = ("bet" if max_bet == 0 else "raise"), all_in_to
                if limit.is_limit(state.game):  # a limit all-in is the fixed step at most
                    amount_to = min(all_in_to, house_min_raise_to(state, pk, seat, max_bet))
            elif refusal.code in ("opponents_all_in", "raise_cap_reached") and to_call > 0:
                action = "call"
            else:
                raise refusal

    if action == "fold":
        if state.started.mode == "tournament" and to_call == 0:
            raise HandRuleViolation(
                "fold_not_allowed",
                "BET-1",
                "Nothing to call: check instead of folding.",
                seat=seat.seat,
                to_call=0,
            )
        return fold_events(state, seat)
    if action == "check":
        if to_call > 0:
            raise HandRuleViolation(
                "check_not_allowed",
                "BET-1",
                f"Seat {seat.seat} faces a bet: {to_call} to call.",
                seat=seat.seat,
                to_call=to_call,
            )
        return [ActionTaken(seat=seat.seat, action="check", amount_to=0, added=0, all_in=False)]
    if action == "call":
        if to_call == 0:
            raise HandRuleViolation(
                "nothing_to_call", "BET-1", "There is no bet to call: check.", seat=seat.seat
            )
        return [
            ActionTaken(
                seat=seat.seat,
                action="call",
                amount_to=seat.bet + to_call,
                added=to_call,
                all_in=to_call == seat.stack,
            )
        ]
    return [_bet_or_raise(state, pk, seat, action, amount_to, max_bet, to_call)]


def _bet_or_raise(
    state: HandState,
    pk: State,
    seat: SeatState,
    action: str,
    amount_to: int | None,
    max_bet: int,
    to_call: int,
) -> ActionTaken:
    is_bet = action == "bet"
    if is_bet and max_bet > 0:
        raise HandRuleViolation(
            "bet_not_allowed",
            "BET-1",
            f"There is already a bet of {max_bet}: raise instead.",
            seat=seat.seat,
            current_bet=max_bet,
        )
    if not is_bet and max_bet == 0:
        raise HandRuleViolation(
            "nothing_to_raise", "BET-1", "There is no bet to raise: bet instead.", seat=seat.seat
        )
    if amount_to is None and limit.is_limit(state.game):
        refusal = limit_cap_refusal(state, seat) or raise_refusal(pk, seat, max_bet)
        if refusal is not None:
            raise refusal
        amount_to = house_min_raise_to(state, pk, seat, max_bet)  # the fixed step (BET-5)
    if amount_to is None:
        raise HandRuleViolation(
            "amount_required", "BET-18", f"A {action} needs an amount.", seat=seat.seat
        )
    all_in_to = seat.bet + seat.stack
    if amount_to > all_in_to:
        raise HandRuleViolation(
            "amount_exceeds_stack",
            "BI-6",  # table stakes: only his chips on the table play (BET-24 is a caller's duty)
            f"Seat {seat.seat} can put in at most {all_in_to} on this street.",
            seat=seat.seat,
            amount_to=amount_to,
            max_amount_to=all_in_to,
            stack=seat.stack,
        )
    refusal = (
        limit_cap_refusal(state, seat)
        or raise_refusal(pk, seat, max_bet)
        or house_reopen_refusal(state, seat)
    )
    if refusal is not None:
        raise refusal
    min_to = house_min_raise_to(state, pk, seat, max_bet)
    max_to = pk.max_completion_betting_or_raising_to_amount
    assert max_to is not None
    is_all_in = amount_to == all_in_to
    if (amount_to < min_to and not is_all_in) or amount_to <= max_bet:
        if is_bet:
            code, rule = "bet_below_minimum", "BET-3"
        else:
            code = "raise_below_minimum"
            rule = _minimum_raise_rule(state, pk, max_bet, amount_to)
        raise HandRuleViolation(
            code,
            rule,
            f"The minimum {action} is to {min_to}.",
            seat=seat.seat,
            amount_to=amount_to,
            min_raise_to=min_to,
            to_call=to_call,
        )
    if amount_to > max_to and limit.is_limit(state.game):
        raise HandRuleViolation(
            "not_the_limit_step",
            "BET-5",
            f"Fixed limit: a {action} is to {max_to} exactly.",
            seat=seat.seat,
            amount_to=amount_to,
            max_raise_to=max_to,
        )
    if amount_to > max_to:
        raise HandRuleViolation(
            "bet_above_pot_limit" if is_bet else "raise_above_pot_limit",
            "BET-4",
            f"Pot limit: the maximum {action} is to {max_to}.",
            seat=seat.seat,
            amount_to=amount_to,
            max_raise_to=max_to,
        )
    return ActionTaken(
        seat=seat.seat,
        action="bet" if is_bet else "raise",
        amount_to=amount_to,
        added=amount_to - seat.bet,
        all_in=is_all_in,
    )


def fold_events(state: HandState, seat: SeatState) -> list[DomainEvent]:
    fold = ActionTaken(seat=seat.seat, action="fold", amount_to=0, added=0, all_in=False)
    after = update_seat(state.seats, seat.seat, folded=True)
    live = [s.seat for s in after if s.live]
    if len(live) > 1:
        return [fold]
    winner = live[0]
    settled = settle(state, after, "uncontested", lambda pot: PotDecision(winners=(winner,)))
    return [fold, settled]


def _minimum_raise_rule(state: HandState, pk: State, max_bet: int, amount_to: int) -> str:
    """The rule whose minimum a raise to ``amount_to`` (street total, chips) falls short of:
    the one that sets the minimum. SEAT-18 (a raise preflop by at least the last straddle)
    or, at a "double the last" table, BET-9 when it asks as much as the previous raise or
    more; else BET-8 (at least the previous raise). At a double-the-last table BET-8 was
    cited although BET-9 set the minimum (found by QA)."""
    pk_min = pk.min_completion_betting_or_raising_to_amount
    assert pk_min is not None
    if amount_to <= max_bet:
        return "BET-8"
    double = 2 * max_bet if state.started.min_raise_rule == "double_last" else 0
    straddle = last_straddle(state)
    if straddle and amount_to < max_bet + straddle and max_bet + straddle >= max(pk_min, double):
        return "SEAT-18"
    if double and amount_to < double and double >= pk_min:
        return "BET-9"
    return "BET-8"
