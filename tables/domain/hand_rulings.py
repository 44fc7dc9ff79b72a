"""The floor's rulings on a hand as commands: ``decide_ruling(hand, command, now) -> events``.
Pure.

The rulings live in the hand's own stream (:mod:`tables.ruling_events`); the hand
aggregate ignores them, and :func:`floor_log` folds them into a :class:`FloorLog`. A
ruling that changes the hand is followed by the hand's own events, decided by
:func:`tables.domain.hand.decide` (a fold for a dead hand, a misdeal), so the chips are
always the hand's.

Commands and refusals (:class:`HandRuleViolation` code / rule):

* :class:`CallClock` (BET-28): ``no_betting_now``, ``clock_running``, and the caller checks
  of :func:`tables.domain.rulings.call_clock`;
* :class:`ExpireClock` (BET-28, BET-29): a stale timer (another clock, the player already
  acted, the clock not run out) gives no events, so the Celery timer is safe to run twice;
* :class:`RecordExposure` (BET-30..32);
* :class:`RecordBurn` (BET-2): ``wrong_card_count``, ``invalid_cards``;
* :class:`RecordOutOfTurn` (BET-25): ``not_out_of_turn``;
  :func:`out_of_turn_ruling` rules on it when the action reaches the player (BET-25/26),
  and :func:`rule_out_of_turn` turns the ruling into events (his binding action included);
* :class:`RuleIrregularity` (MIS-4..21): the ruling, then a misdeal (within the window,
  MIS-1..3) or a dead hand (a fold) when that is the consequence; ``irregularity_not_now``
  for a board irregularity the hand has not reached (MIS-16..20, :func:`_board_fits`);
* :class:`CorrectResult` (SD-24..26): ``hand_not_complete``, ``dispute_window_closed``,
  ``adjustments_not_balanced``, ``seat_listed_twice``, ``nothing_to_correct``; a reading
  or a mucked winner within what the pots paid: ``correction_exceeds_winnings``,
  ``correction_exceeds_pots``, ``seat_not_in_contest``; an accounting error within the
  pots' total: ``correction_exceeds_pots`` (every earlier correction of the hand counted);
* :class:`RecordRabbitConsent` (RAKE-8): ``rabbit_hunt_not_allowed`` (RAKE-7),
  ``consent_missing``;
* :class:`RecordChopException` (RAKE-9): ``not_a_cash_hand``, ``reason_required``,
  ``chop_seats_invalid``, and a seat not in the hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

from casino.domain_events import DomainEvent
from tables.domain import hand as hand_engine
from tables.domain import limit
from tables.domain.betting import fold_events
from tables.domain.cards import check_no_duplicates, parse_cards
from tables.domain.commands import DeclareMisdeal, TakeAction
from tables.domain.engine import HOLE_CARD_COUNT
from tables.domain.errors import HandRuleViolation
from tables.domain.hand_state import LegalActions, SeatState, facing
from tables.domain.irregularities import Cause, rule_irregularity
from tables.domain.rulings import (
    ClockExpiry,
    ExposedPolicy,
    OutOfTurnRuling,
    call_clock,
    clock_expiry,
    exposed_cards,
    resolve_out_of_turn,
)
from tables.domain.showdown import cards_in_play, rabbit_consent
from tables.domain.showdown_procedure import (
    DisputeKind,
    HandClosure,
    ShowOrder,
    ShowOrderRule,
    dispute_open,
    face_up_rule,
    first_to_show,
    may_request_show,
    show_one_show_all,
)
from tables.events import ActionTaken, BoardDealt, HandSettled
from tables.ruling_events import (
    AbsenceRuled,
    BurnRecorded,
    CardsExposed,
    ChipsRead,
    ChopExceptionRecorded,
    ClockCalled,
    ClockExpired,
    FloorEvent,
    IrregularityRuled,
    OutOfTurnRecorded,
    OutOfTurnRuled,
    PenaltyHandKilled,
    RabbitHuntConsented,
    ResultCorrected,
    ShowOrdered,
)


@dataclass(frozen=True, slots=True)
class CallClock:
    called_by: int
    caller_seated: bool = True
    seconds: int = 60
    final_countdown: int = 10
    expiry: ClockExpiry = "dead_hand"


@dataclass(frozen=True, slots=True)
class ExpireClock:
    clock: int
    policy: ClockExpiry | None = None  # None: the policy the clock was called with


@dataclass(frozen=True, slots=True)
class RecordExposure:
    seat: int
    cards: str
    policy: ExposedPolicy
    deliberate_for_reaction: bool = False


@dataclass(frozen=True, slots=True)
class RecordBurn:
    street: Literal["flop", "turn", "river"]
    card: str


@dataclass(frozen=True, slots=True)
class RequestShow:
    """A request to see ``seat``'s cards: by the player at ``requested_by``, or by the floor
    (``floor_order``, on suspicion of collusion: SD-17). ``shown_to``: the seats he showed
    them to during the hand (SD-19, show one show all). ``caller_may_request_aggressor_show``:
    003's river-caller right (SD-18; off: 000, only the floor may order it)."""

    seat: int
    requested_by: int | None = None
    floor_order: bool = False
    shown_to: tuple[int, ...] = ()
    caller_may_request_aggressor_show: bool = True


@dataclass(frozen=True, slots=True)
class RecordAbsence:
    """SEAT-12/13: ``seat`` was away when the last hole card reached the button."""

    seat: int


@dataclass(frozen=True, slots=True)
class RecordOutOfTurn:
    seat: int
    action: Literal["fold", "check", "call", "bet", "raise"]
    amount_to: int | None = None


@dataclass(frozen=True, slots=True)
class RuleIrregularity:
    cause: Cause
    seat: int | None = None
    note: str = ""
    post_threshold_deal_error_action: Literal["play_on", "kill_affected_hand"] = "play_on"
    burn_index: int | None = None  # MIS-17: drawn once by the service, stored


@dataclass(frozen=True, slots=True)
class CorrectResult:
    kind: DisputeKind
    detail: str
    adjustments: tuple[tuple[int, int], ...]
    closure: HandClosure


@dataclass(frozen=True, slots=True)
class RecordRabbitConsent:
    seat: int
    consenting_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RecordChopException:
    floor: str
    reason: str
    seats: tuple[int, ...]


RulingCommand = (
    CallClock
    | ExpireClock
    | RecordExposure
    | RecordBurn
    | RecordOutOfTurn
    | RecordAbsence
    | RequestShow
    | RuleIrregularity
    | CorrectResult
    | RecordRabbitConsent
    | RecordChopException
)


@dataclass(frozen=True, slots=True)
class FloorLog:
    """The rulings of one hand, folded from its stream."""

    clocks: tuple[ClockCalled, ...] = ()
    expired: tuple[int, ...] = ()
    exposures: tuple[CardsExposed, ...] = ()
    burns: tuple[BurnRecorded, ...] = ()
    out_of_turn: tuple[OutOfTurnRecorded, ...] = ()
    irregularities: tuple[IrregularityRuled, ...] = ()
    corrections: tuple[ResultCorrected, ...] = ()
    rabbit_consent: RabbitHuntConsented | None = None
    chop_exceptions: tuple[ChopExceptionRecorded, ...] = ()
    actions_since: dict[int, int] = field(default_factory=dict)
    actions: int = 0
    """Actions taken in the hand so far."""

    @property
    def running_clock(self) -> ClockCalled | None:
        if self.clocks and self.clocks[-1].clock not in self.expired:
            return self.clocks[-1]
        return None

    @property
    def live_clock(self) -> ClockCalled | None:
        """The clock still counting on the player to act: not expired, and he has not acted
        since it was called (BET-28; its timer then records ``acted``)."""
        clock = self.running_clock
        if clock is None or self.actions_since.get(clock.clock) != self.actions:
            return None
        return clock

    def passive_seats(self) -> frozenset[int]:
        """Seats that may not bet or raise for the rest of the hand (BET-30..32)."""
        return frozenset(e.seat for e in self.exposures if e.passive)


def floor_log(events: Iterable[DomainEvent]) -> FloorLog:
    """Fold a hand stream's ruling events (other events only count actions)."""
    clocks: list[ClockCalled] = []
    expired: list[int] = []
    exposures: list[CardsExposed] = []
    burns: list[BurnRecorded] = []
    oot: list[OutOfTurnRecorded] = []
    irregular: list[IrregularityRuled] = []
    corrections: list[ResultCorrected] = []
    chops: list[ChopExceptionRecorded] = []
    consent: RabbitHuntConsented | None = None
    actions = 0
    since: dict[int, int] = {}
    for e in events:
        if isinstance(e, ActionTaken):
            actions += 1
        elif isinstance(e, ClockCalled):
            clocks.append(e)
            since[e.clock] = actions
        elif isinstance(e, ClockExpired):
            expired.append(e.clock)
        elif isinstance(e, CardsExposed):
            exposures.append(e)
        elif isinstance(e, BurnRecorded):
            burns.append(e)
        elif isinstance(e, OutOfTurnRecorded):
            oot.append(e)
        elif isinstance(e, IrregularityRuled):
            irregular.append(e)
        elif isinstance(e, ResultCorrected):
            corrections.append(e)
        elif isinstance(e, RabbitHuntConsented):
            consent = e
        elif isinstance(e, ChopExceptionRecorded):
            chops.append(e)
    return FloorLog(
        tuple(clocks), tuple(expired), tuple(exposures), tuple(burns), tuple(oot),
        tuple(irregular), tuple(corrections), consent, tuple(chops), since, actions,
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class FloorView:
    """What the tablet shows of the floor's rulings in a hand: the ``clock`` counting on the
    player to act (BET-28), the ``passive_seats`` (BET-30..32), the ``exposures`` and
    ``burns`` recorded (BET-2), and the out-of-turn actions still to be ruled when the action
    reaches their seat (``out_of_turn``, BET-25/26)."""

    clock: ClockCalled | None
    passive_seats: tuple[int, ...]
    exposures: tuple[CardsExposed, ...]
    burns: tuple[BurnRecorded, ...]
    out_of_turn: tuple[OutOfTurnRecorded, ...]


def floor_view(hand: hand_engine.HandState) -> FloorView | None:
    """The floor's rulings in ``hand`` as :class:`FloorView`, or ``None`` when none was
    recorded (most hands: one pass over the history)."""
    if not any(isinstance(e, FloorEvent) for e in hand.history):
        return None
    log = floor_log(hand.history)
    pending = []
    for seat in dict.fromkeys(e.seat for e in log.out_of_turn):
        record, _ = _pending_out_of_turn(hand, seat)
        if record is not None:
            pending.append(record)
    return FloorView(
        log.live_clock, tuple(sorted(log.passive_seats())), log.exposures, log.burns,
        tuple(pending),
    )  # fmt: skip


def decide_ruling(
    hand: hand_engine.HandState, command: RulingCommand, now: datetime
) -> list[DomainEvent]:
    """The events of a ruling on ``hand`` at ``now`` (UTC); ``hand`` is not changed.

    Raises:
        HandRuleViolation: the ruling is refused (codes in the module docstring).
    """
    log = floor_log(hand.history)
    if isinstance(command, CorrectResult):
        return _correct(hand, command, now)
    if isinstance(command, RecordRabbitConsent):
        return _rabbit_consent(hand, command)
    if isinstance(command, RecordChopException):
        return _chop_exception(hand, command)
    if isinstance(command, ExpireClock) and hand.is_complete:
        return []  # the hand ended before the clock ran out: the timer is stale (BET-28)
    if hand.is_complete:
        raise HandRuleViolation("hand_already_complete", "SD-25", "The hand is over.")
    if isinstance(command, CallClock):
        return _call_clock(hand, log, command, now)
    if isinstance(command, ExpireClock):
        return _expire_clock(hand, log, command, now)
    if isinstance(command, RecordExposure):
        return _exposure(hand, command)
    if isinstance(command, RecordBurn):
        return _burn(hand, command)
    if isinstance(command, RecordOutOfTurn):
        if hand.to_act is None or hand.to_act == command.seat:
            raise HandRuleViolation(
                "not_out_of_turn", "BET-25", "That seat is to act: record the action itself."
            )
        seat = hand_engine.seat_in_hand(hand, command.seat)
        if not seat.live or seat.all_in:
            raise HandRuleViolation(
                "seat_cannot_act", "BET-25", f"Seat {seat.seat} has no action left in this hand.",
                seat=seat.seat,
            )  # fmt: skip
        if _pending_out_of_turn(hand, command.seat)[0] is not None:
            raise HandRuleViolation(
                "out_of_turn_pending", "BET-25",
                "His out-of-turn action is recorded already; it is ruled when his turn comes.",
                seat=seat.seat,
            )  # fmt: skip
        if command.action in ("bet", "raise") and not command.amount_to:
            raise HandRuleViolation(
                "amount_required", "BET-25",
                "An out-of-turn bet or raise is recorded with its amount, so that it can bind.",
            )  # fmt: skip
        action = _check_out_of_turn_action(hand, seat, command.action, command.amount_to)
        return [OutOfTurnRecorded(command.seat, action, command.amount_to, hand.to_act)]
    if isinstance(command, RecordAbsence):
        return _absence(hand, command)
    if isinstance(command, RequestShow):
        return _request_show(hand, command)
    if isinstance(command, RuleIrregularity):
        return _irregularity(hand, command)
    raise TypeError(f"not a ruling command: {type(command).__name__}")


def out_of_turn_ruling(hand: hand_engine.HandState) -> OutOfTurnRuling | None:
    """The ruling on the out-of-turn action of the player now to act, if he made one on
    this street (BET-25/26): the actions taken since he acted out of turn decide it."""
    if hand.to_act is None:
        return None
    pending, between = _pending_out_of_turn(hand, hand.to_act)
    if pending is None:
        return None
    return resolve_out_of_turn(pending.action, pending.amount_to, between)  # type: ignore[arg-type]


def _pending_out_of_turn(
    hand: hand_engine.HandState, seat: int
) -> tuple[OutOfTurnRecorded | None, list[str]]:
    """``seat``'s out-of-turn action on this street not yet ruled, and the actions taken
    since (BET-25/26)."""
    pending: OutOfTurnRecorded | None = None
    between: list[str] = []
    for e in hand.history:
        if isinstance(e, OutOfTurnRecorded) and e.seat == seat:
            pending, between = e, []
        elif isinstance(e, OutOfTurnRuled) and pending is not None and e.seat == pending.seat:
            pending = None  # ruled already (rule_out_of_turn)
        elif isinstance(e, ActionTaken) and pending is not None:
            if e.seat == pending.seat:
                pending = None
            else:
                between.append(e.action)
        elif isinstance(e, BoardDealt):
            pending = None
    return pending, between


def show_order(
    hand: hand_engine.HandState, rule: ShowOrderRule = "first_to_act"
) -> ShowOrder | None:
    """Who shows first at this showdown and the order after him (SD-13..15; all hands at
    once, read from the left of the button, when a player is all-in: SD-10), ``None``
    outside a showdown still to be shown; a cash table without the all-in face-up rule
    (``allin_faceup_in_cash`` off) keeps the order of SD-13..15 after an all-in, which it
    read as SD-10 although its hands could be mucked (found by QA). ``rule``: the catalogue's
    ``show_order_no_river_bet`` (default ``first_to_act``, the TDA rule, SD-15)."""
    if hand.phase != "showdown" or hand.is_complete:
        return None
    live = [s for s in hand.seats if s.live]
    if len(live) < 2:
        return None
    hand_aggressor, street_aggressor = _aggressors(hand)
    return first_to_show(
        live_seats=[s.seat for s in live], button_seat=hand.button_seat,
        final_street_aggressor=street_aggressor, hand_last_aggressor=hand_aggressor,
        all_in=face_up_rule(face_up=hand.started.all_in_face_up, mode=hand.started.mode)
        if any(s.all_in for s in live) else None,
        rule=rule, all_in_showdown=any(s.all_in for s in live),
    )  # fmt: skip


def _aggressors(hand: hand_engine.HandState) -> tuple[int | None, int | None]:
    """The hand's last aggressor and the last street's (``None``: nobody bet or raised
    there); a raise is a bet above the street's highest so far, the blinds counting, and an
    all-in above it is one too (SD-14: "bet, raise, re-raise, all-in"; a shove was not
    counted, found by QA)."""
    street_max = max((p.amount for p in hand.started.posts if p.kind != "ante"), default=0)
    in_hand: int | None = None
    on_street: int | None = None
    for event in hand.history:
        if isinstance(event, BoardDealt):
            street_max, on_street = 0, None
        elif (
            isinstance(event, ActionTaken)
            and event.action in ("bet", "raise", "all_in")
            and event.amount_to > street_max
        ):
            in_hand = on_street = event.seat
            street_max = event.amount_to
    return in_hand, on_street


def _request_show(hand: hand_engine.HandState, cmd: RequestShow) -> list[DomainEvent]:
    """SD-17..19: grant (``ShowOrdered``) or refuse (``show_request_refused``, the rule)."""
    target = hand_engine.seat_in_hand(hand, cmd.seat)
    if cmd.shown_to:  # SD-19: shown to one, shown to all who ask
        now, rule = show_one_show_all(
            shown_to=cmd.shown_to, requested_by=cmd.requested_by or 0,
            shower_still_in_hand=target.live, betting_over=hand.phase != "betting",
        )  # fmt: skip
        if not now:
            raise HandRuleViolation(
                "show_request_refused", rule,
                "Already shown to him, or the player is out of the hand: he shows them once "
                "the betting is over.",
            )  # fmt: skip
        return [ShowOrdered(cmd.seat, cmd.requested_by, rule)]
    if hand.phase not in ("showdown", "complete"):
        raise HandRuleViolation("not_at_showdown", "SD-17", "Hands are asked for at the showdown.")
    if cmd.requested_by is None and not cmd.floor_order:
        raise HandRuleViolation(
            "show_request_refused", "SD-17", "Say who asks: a seat, or the floor's order."
        )
    asker = hand.seat_state(cmd.requested_by) if cmd.requested_by is not None else None
    river_bet = _aggressors(hand)[1] if len(hand.board) >= 5 else None
    called_river = asker is not None and any(
        isinstance(e, ActionTaken) and e.seat == asker.seat and e.action == "call"
        for e in _river_events(hand)
    )
    granted, rule = may_request_show(
        requester_holds_cards=asker is not None and asker.live and asker.shown is None,
        requester_tabled=asker is not None and asker.shown is not None,
        requester_called_river_bet=called_river,
        target_is_last_aggressor=river_bet == cmd.seat,
        floor_suspects_collusion=cmd.floor_order,
        caller_may_request_aggressor_show=cmd.caller_may_request_aggressor_show,
    )
    if not granted:
        raise HandRuleViolation(
            "show_request_refused", rule,
            "Only a river caller who still holds or tabled his cards may see the last "
            "aggressor's hand (SD-18); otherwise only the floor may order it (SD-17).",
        )  # fmt: skip
    return [ShowOrdered(cmd.seat, cmd.requested_by, rule)]


def _river_events(hand: hand_engine.HandState) -> list[DomainEvent]:
    """The hand's events after the river card (empty before the river)."""
    boards = [i for i, e in enumerate(hand.history) if isinstance(e, BoardDealt)]
    if len(boards) < 3:
        return []
    return list(hand.history[boards[2] + 1 :])


def kill_penalty_hands(hand: hand_engine.HandState, seats: Iterable[int]) -> list[DomainEvent]:
    """PEN-2 at the deal: each seat sitting out a penalty is dealt in and posts, and his
    hand is killed at once (a fold, out of turn if need be; the last live hand wins)."""
    events: list[DomainEvent] = []
    state = hand
    for number in sorted(set(seats)):
        seat = state.seat_state(number)
        if seat is None or not seat.live or state.is_complete:
            continue
        for event in (PenaltyHandKilled(number), *fold_events(state, seat)):
            events.append(event)
            state = hand_engine.evolve(state, event)
    return events


def _absence(hand: hand_engine.HandState, cmd: RecordAbsence) -> list[DomainEvent]:
    """SEAT-12/13 at the deal: the absent player's hand is dead (a fold, in turn or not);
    refused once the flop is out (``too_late_for_absence``), when it is ruled already
    (``absence_already_ruled``) or when he has acted (``player_has_acted``: he was there)."""
    seat = hand_engine.seat_in_hand(hand, cmd.seat)
    rule = "SEAT-13" if hand.started.mode == "tournament" else "SEAT-12"
    if hand.board or hand.phase not in ("betting", "awaiting_board"):
        raise HandRuleViolation(
            "too_late_for_absence", rule, "Absence is ruled at the deal, before the flop."
        )
    if any(isinstance(e, AbsenceRuled) and e.seat == cmd.seat for e in hand.history):
        raise HandRuleViolation(  # QA: a second ruling answered player_has_acted
            "absence_already_ruled", rule, f"Seat {cmd.seat}'s absence is already ruled."
        )
    if not seat.live or any(
        isinstance(e, ActionTaken) and e.seat == cmd.seat for e in hand.history
    ):
        raise HandRuleViolation(
            "player_has_acted", rule, f"Seat {cmd.seat} has acted (or folded): he was there."
        )
    return [AbsenceRuled(cmd.seat, rule), *fold_events(hand, seat)]


def _check_out_of_turn_action(
    hand: hand_engine.HandState, seat: SeatState, action: str, amount_to: int | None
) -> str:
    """The out-of-turn action as recorded (a "call" of nothing is his check), or refused
    when he could not take it against the bet the table faces now:
    a binding action is carried out as recorded when his turn comes (BET-25), and one that
    was never legal (a check facing the big blind, a bet of more than his stack, a raise
    below the minimum) was recorded, then left for the dealer to replace with anything
    (found by QA).

    Raises:
        HandRuleViolation (rule BET-25): ``check_not_allowed``, ``bet_not_allowed``,
        ``nothing_to_raise``, ``amount_exceeds_stack``,
        ``bet_below_minimum`` / ``raise_below_minimum`` (with ``min_raise_to``),
        ``not_the_limit_step`` (fixed limit).
    """
    legal = hand.legal
    if legal is None:
        return action
    current = facing(hand)  # the street's highest bet
    to_call = max(0, current - seat.bet)
    here = {"seat": seat.seat}
    if action == "check" and to_call > 0:
        raise HandRuleViolation("check_not_allowed", "BET-25",
                                f"Seat {seat.seat} faces a bet: {to_call} to call.",
                                to_call=to_call, **here)  # fmt: skip
    if action == "call" and to_call == 0:
        return "check"  # the big blind's "call" of nothing is his check
    if action not in ("bet", "raise") or amount_to is None:
        return action
    if action == "bet" and current > 0:
        raise HandRuleViolation("bet_not_allowed", "BET-25",
                                f"There is already a bet of {current}: raise instead.",
                                current_bet=current, **here)  # fmt: skip
    if action == "raise" and current == 0:
        raise HandRuleViolation("nothing_to_raise", "BET-25",
                                "There is no bet to raise: bet instead.", **here)  # fmt: skip
    all_in_to = seat.bet + seat.stack
    if amount_to > all_in_to:
        raise HandRuleViolation("amount_exceeds_stack", "BET-25",
                                f"Seat {seat.seat} can put in at most {all_in_to} on this street.",
                                amount_to=amount_to, max_amount_to=all_in_to, **here)  # fmt: skip
    minimum = legal.min_raise_to
    if minimum is not None and amount_to < minimum and amount_to < all_in_to:
        code = "bet_below_minimum" if action == "bet" else "raise_below_minimum"
        raise HandRuleViolation(code, "BET-25", f"The minimum {action} is to {minimum}.",
                                amount_to=amount_to, min_raise_to=minimum, **here)  # fmt: skip
    if (
        limit.is_limit(hand.game)
        and legal.max_raise_to is not None
        and amount_to > legal.max_raise_to
        and amount_to < all_in_to
    ):
        raise HandRuleViolation("not_the_limit_step", "BET-25",
                                f"A fixed-limit {action} is to {legal.max_raise_to}.",
                                amount_to=amount_to, max_raise_to=legal.max_raise_to,
                                **here)  # fmt: skip
    return action


def rule_out_of_turn(hand: hand_engine.HandState) -> list[DomainEvent]:
    """The events that follow when the action reaches players who acted out of turn
    (BET-25/26): for each, an :class:`OutOfTurnRuled`, and when the ruling binds him his
    action as the hand's own events (decided by the hand engine, so the chips are the
    hand's). An action no longer legal is left to the dealer (``applied`` false). The
    action may move on to another such player: each is ruled in turn. ``[]`` when nobody
    to act has an out-of-turn action pending (the dealer's ordinary case).
    """
    if not any(isinstance(e, OutOfTurnRecorded) for e in hand.history):
        return []
    events: list[DomainEvent] = []
    state = hand
    while state.to_act is not None:
        ruling = out_of_turn_ruling(state)
        if ruling is None:
            break
        seat = state.to_act
        if not ruling.binding or ruling.action is None:
            events.append(OutOfTurnRuled(seat, False, None, None, False, ruling.rule,
                                         ruling.detail))  # fmt: skip
            break
        command = TakeAction(seat=seat, action=ruling.action, amount_to=ruling.amount_to)
        try:
            acted = hand_engine.decide(state, command)
        except HandRuleViolation as refused:
            events.append(OutOfTurnRuled(
                seat, True, ruling.action, ruling.amount_to, False, ruling.rule,
                f"{ruling.detail} Not legal now ({refused.detail}): the dealer records it.",
            ))  # fmt: skip
            break
        ruled = OutOfTurnRuled(seat, True, ruling.action, ruling.amount_to, True, ruling.rule,
                               ruling.detail)  # fmt: skip
        for event in (ruled, *acted):
            events.append(event)
            state = hand_engine.evolve(state, event)
    return events


def _call_clock(
    hand: hand_engine.HandState, log: FloorLog, cmd: CallClock, now: datetime
) -> list[DomainEvent]:
    if hand.to_act is None:
        raise HandRuleViolation("no_betting_now", "BET-28", "Nobody is to act.")
    if log.running_clock is not None:
        raise HandRuleViolation("clock_running", "BET-28", "A clock is already running.")
    caller = hand.seat_state(cmd.called_by)
    clock = call_clock(
        seat_to_act=hand.to_act,
        called_by=cmd.called_by,
        caller_seated=cmd.caller_seated,
        caller_holds_cards=caller is not None and caller.live,
        mode=hand.started.mode,
        now=now,
        seconds=cmd.seconds,
        final_countdown=cmd.final_countdown,
    )
    return [
        ClockCalled(
            clock=len(log.clocks) + 1,
            seat=clock.seat,
            called_by=clock.called_by,
            called_at=now.isoformat(),
            final_countdown_at=clock.final_countdown_at.isoformat(),
            expires_at=clock.expires_at.isoformat(),
            expiry=cmd.expiry,
        )
    ]


def _expire_clock(
    hand: hand_engine.HandState, log: FloorLog, cmd: ExpireClock, now: datetime
) -> list[DomainEvent]:
    running = log.running_clock
    if running is None or running.clock != cmd.clock:
        return []  # a stale timer: another clock, or this one already expired
    acted = sum(1 for e in hand.history if isinstance(e, ActionTaken))
    if hand.to_act != running.seat or acted != log.actions_since.get(running.clock):
        return [ClockExpired(running.clock, running.seat, "acted", "BET-28")]
    if now < datetime.fromisoformat(running.expires_at):
        return []
    policy = cmd.policy or running.expiry
    outcome = clock_expiry(to_call=hand.to_call or 0, policy=policy)  # type: ignore[arg-type]
    action = outcome.action
    if action == "fold" and hand.to_call == 0 and hand.started.mode == "tournament":
        action = "check"  # pokerkit refuses a tournament fold with nothing to call
    events: list[DomainEvent] = [ClockExpired(running.clock, running.seat, action, outcome.rule)]
    follow = hand_engine.decide(hand, TakeAction(seat=running.seat, action=action))
    return events + follow


def _burn(hand: hand_engine.HandState, cmd: RecordBurn) -> list[DomainEvent]:
    """The card burned before ``cmd.street`` (BET-2): the street about to be dealt, or the
    one just dealt before anyone acts on it; once a street (per run); a card not seen
    elsewhere in the hand (MIS-12)."""
    cards = parse_cards(cmd.card)
    if len(cards) != 1:
        raise HandRuleViolation("wrong_card_count", "BET-2", "One card is burned per street.")
    just_dealt = (
        hand.street if hand.street != "preflop" and not _betting_on_last_street(hand) else None
    )
    if cmd.street not in {hand.next_street, just_dealt}:
        raise HandRuleViolation(
            "burn_out_of_order", "BET-2",
            "A card is burned just before its street is dealt.",
            street=cmd.street, next_street=hand.next_street,
        )  # fmt: skip
    burned = sum(1 for e in hand.history if isinstance(e, BurnRecorded) and e.street == cmd.street)
    if burned >= max(1, hand.run_count):
        raise HandRuleViolation(
            "burn_already_recorded", "BET-2", f"The {cmd.street} burn is recorded already.",
            street=cmd.street,
        )  # fmt: skip
    check_no_duplicates(cards, cards_in_play(hand))
    return [BurnRecorded(cmd.street, cards[0])]


def _exposure(hand: hand_engine.HandState, cmd: RecordExposure) -> list[DomainEvent]:
    seat = hand_engine.seat_in_hand(hand, cmd.seat)
    if not seat.live:
        raise HandRuleViolation(
            "seat_folded", "BET-30", f"Seat {seat.seat} has folded: his cards are dead.",
            seat=seat.seat,
        )  # fmt: skip
    cards = parse_cards(cmd.cards)
    if not 1 <= len(cards) <= HOLE_CARD_COUNT[hand.game]:
        raise HandRuleViolation(
            "wrong_card_count", "BET-30",
            f"A player holds {HOLE_CARD_COUNT[hand.game]} hole cards.", card_count=len(cards),
        )  # fmt: skip
    check_no_duplicates(cards, cards_in_play(hand, except_seat=seat.seat))
    opponents = sum(1 for s in hand.seats if s.live and s.seat != seat.seat)
    earlier = {c for e in hand.history if isinstance(e, CardsExposed) and e.seat == seat.seat
               for c in parse_cards(e.cards)}  # fmt: skip
    ruling = exposed_cards(
        policy=cmd.policy,
        cards_shown=len(earlier | set(cards)),  # one card now, one before: two shown
        opponents_in_hand=opponents,
        deliberate_for_reaction=cmd.deliberate_for_reaction,
    )
    events: list[DomainEvent] = [
        CardsExposed(seat.seat, "".join(cards), ruling.passive, ruling.folded, ruling.rule)
    ]
    if ruling.folded and seat.live:
        events += fold_events(hand, seat)
    return events


def _betting_on_last_street(hand: hand_engine.HandState) -> bool:
    """Whether anyone has acted since the last board card was dealt (MIS-16: once the
    betting on the irregular board has started, the board stands)."""
    since_board = None
    for i, e in enumerate(hand.history):
        if isinstance(e, BoardDealt):
            since_board = i
    if since_board is None:
        return False
    return any(isinstance(e, ActionTaken) for e in hand.history[since_board + 1 :])


_BOARD_STAGE: dict[str, tuple[str, str]] = {
    "missed_or_double_burn": ("MIS-16", "A burn error is ruled once a board card is dealt."),
    "four_card_flop": ("MIS-17", "A four-card flop is ruled when the flop is dealt."),
    "flop_dealt_early": ("MIS-18", "A flop dealt early is ruled during the preflop betting."),
    "turn_dealt_early": ("MIS-19", "A turn dealt early is ruled during the flop betting."),
    "river_dealt_early": ("MIS-20", "A river dealt early is ruled during the turn betting."),
}


def _board_fits(hand: hand_engine.HandState, cause: str) -> bool:
    """Whether the board is where ``cause`` can happen (MIS-16..20): a burn error once a
    board card is due or dealt; a four-card flop when the flop is due and not yet recorded;
    a street dealt early while the betting of the street before it still runs."""
    board, betting = len(hand.board), hand.phase == "betting"
    if cause == "missed_or_double_burn":
        return board > 0 or hand.next_street is not None
    if cause == "four_card_flop":
        return hand.next_street == "flop"
    early = {"flop_dealt_early": 0, "turn_dealt_early": 3, "river_dealt_early": 4}
    if cause in early:
        return betting and board == early[cause]
    return True


SEAT_NOT_DEALT_IN = frozenset({"cards_to_empty_or_ineligible_seat", "eligible_player_skipped"})
"""Irregularities whose seat is one the deal wrongly served or skipped (MIS-6): the only
ones that may name a seat not dealt into the hand."""


def _irregularity(hand: hand_engine.HandState, cmd: RuleIrregularity) -> list[DomainEvent]:
    if not _board_fits(hand, cmd.cause):
        rule, detail = _BOARD_STAGE[cmd.cause]
        raise HandRuleViolation(
            "irregularity_not_now", rule, detail, cause=cmd.cause, street=hand.street
        )
    ruling = rule_irregularity(
        cmd.cause,
        seat=cmd.seat,
        betting_started=_betting_on_last_street(hand),
        post_threshold_deal_error_action=cmd.post_threshold_deal_error_action,
    )
    if cmd.seat is not None and cmd.cause not in SEAT_NOT_DEALT_IN:
        # the player the ruling names was dealt in (seat 9 of two was ruled: found by QA)
        hand_engine.seat_in_hand(hand, cmd.seat, rule=ruling.rule)
    burn = cmd.burn_index if cmd.cause == "four_card_flop" else None
    if cmd.cause == "four_card_flop" and burn is None:
        burn = ruling.burn_index
    event = IrregularityRuled(
        cmd.cause, ruling.consequence, ruling.rule, cmd.seat, burn, cmd.note.strip()
    )
    if ruling.consequence == "misdeal":
        try:
            voided = hand_engine.decide(hand, DeclareMisdeal(reason=f"{cmd.cause} ({ruling.rule})"))
        except HandRuleViolation as too_late:
            if too_late.code != "misdeal_too_late":
                raise
            # past the window: play on (000), or the faulty hand is dead (002)
            if cmd.post_threshold_deal_error_action == "kill_affected_hand" and cmd.seat:
                seat = hand_engine.seat_in_hand(hand, cmd.seat)
                killed = IrregularityRuled(
                    cmd.cause, "dead_hand", too_late.rule, cmd.seat, None, cmd.note.strip()
                )
                return [killed, *fold_events(hand, seat)] if seat.live else [killed]
            return [
                IrregularityRuled(cmd.cause, "play_on", too_late.rule, cmd.seat, None, cmd.note)
            ]
        return [event, *voided]
    if ruling.consequence == "dead_hand" and cmd.seat is not None:
        seat = hand_engine.seat_in_hand(hand, cmd.seat)
        if seat.live:
            return [event, *fold_events(hand, seat)]
    return [event]


def _correct(hand: hand_engine.HandState, cmd: CorrectResult, now: datetime) -> list[DomainEvent]:
    if not hand.is_complete or hand.result is None:
        raise HandRuleViolation(
            "hand_not_complete", "SD-24", "Only a settled hand's result can be disputed."
        )
    is_open, rule = dispute_open(cmd.closure, cmd.kind, now)
    if not is_open:
        raise HandRuleViolation(
            "dispute_window_closed",
            rule,
            "The hand is closed: no correction is accepted any more.",
            kind=cmd.kind,
        )
    if sum(amount for _, amount in cmd.adjustments) != 0:
        raise HandRuleViolation(
            "adjustments_not_balanced", "SD-24", "A correction moves chips between seats only."
        )
    seats = [seat_number for seat_number, _ in cmd.adjustments]
    if len(set(seats)) != len(seats):
        raise HandRuleViolation(
            "seat_listed_twice", "SD-24", "Give each seat's correction once, as one amount."
        )
    if not any(amount for _, amount in cmd.adjustments):
        raise HandRuleViolation(
            "nothing_to_correct", "SD-24", "A correction moves chips; this one moves none."
        )
    at_showdown = {
        seat_number
        for seat_number in seats
        if not hand_engine.seat_in_hand(hand, seat_number, rule="SD-24").folded
    }
    earlier = floor_log(hand.history).corrections
    if cmd.kind == "accounting":
        _within_the_pot_total(hand.result, cmd, earlier)
    else:
        _within_the_pots(hand.result, cmd, earlier, at_showdown)
    return [ResultCorrected(cmd.kind, cmd.detail, cmd.adjustments, rule, now.isoformat())]


def _moved(corrections: Iterable[ResultCorrected], kinds: frozenset[str]) -> dict[int, int]:
    """Chips moved per seat by the ``corrections`` of the given kinds: ``{seat: net}``."""
    net: dict[int, int] = {}
    for correction in corrections:
        if correction.kind in kinds:
            for seat_number, amount in correction.adjustments:
                net[seat_number] = net.get(seat_number, 0) + amount
    return net


_AWARD_KINDS = frozenset({"reading", "mucked_winner"})


def _within_the_pots(
    result: HandSettled,
    cmd: CorrectResult,
    earlier: Iterable[ResultCorrected],
    at_showdown: set[int],
) -> None:
    """A wrong reading or a mucked winner moves pot chips between the seats they were
    awarded to and the seats they should have gone to. A seat's winnings in this hand, as
    corrected by every reading and mucked-winner correction so far and this one, stay
    within 0 and the pots it could win: a seat gives back at most what it still holds of
    the pots (QA moved 100 between two seats that had folded, in a hand won without a
    showdown, and the same give-back could be recorded twice), and receives at most the
    pots it was eligible for (a new reading) or the hand's pots (a mucked winner, whose
    hand the dealer killed). After a wrong reading only a seat that contested a pot at the
    showdown receives; a mucked winner is a seat whose hand reached the showdown (live or
    mucked there, ``at_showdown``), never one that folded (QA gave a pot won uncontested
    to a player who folded preflop).

    Raises:
        HandRuleViolation ``correction_exceeds_winnings``, ``correction_exceeds_pots``,
        ``seat_not_in_contest`` (SD-24).
    """
    won: dict[int, int] = {}
    eligible: dict[int, int] = {}
    contested: set[int] = set()
    for pot in result.pots:
        for award in pot.winners:
            won[award.seat] = won.get(award.seat, 0) + award.amount
        for seat_number in pot.eligible_seats:
            eligible[seat_number] = eligible.get(seat_number, 0) + pot.amount - pot.rake
        if len(pot.eligible_seats) > 1:
            contested.update(pot.eligible_seats)
    paid = sum(pot.amount - pot.rake for pot in result.pots)
    before = _moved(earlier, _AWARD_KINDS)
    for seat_number, amount in cmd.adjustments:
        holds = won.get(seat_number, 0) + before.get(seat_number, 0)
        if amount > 0 and cmd.kind == "reading" and seat_number not in contested:
            raise HandRuleViolation(
                "seat_not_in_contest", "SD-24",
                "Only a player who contested a pot at the showdown can win it on a new reading.",
                seat=seat_number,
            )  # fmt: skip
        if amount > 0 and cmd.kind == "mucked_winner" and seat_number not in at_showdown:
            raise HandRuleViolation(
                "seat_not_in_contest", "SD-24",
                "Only a player whose hand reached the showdown can be its mucked winner; "
                "a folded hand wins nothing.",
                seat=seat_number,
            )  # fmt: skip
        if holds + amount < 0:
            raise HandRuleViolation(
                "correction_exceeds_winnings", "SD-24",
                "A correction gives back at most what the seat still holds of this hand's "
                "pots, earlier corrections counted.",
                seat=seat_number, won=won.get(seat_number, 0), holds=holds, amount=amount,
            )  # fmt: skip
        could_win = eligible.get(seat_number, 0) if cmd.kind == "reading" else paid
        if holds + amount > could_win:
            raise HandRuleViolation(
                "correction_exceeds_pots", "SD-24",
                "A correction pays a seat at most the pots it could have won in this hand, "
                "earlier corrections counted.",
                seat=seat_number, holds=holds, amount=amount, pots=could_win,
            )  # fmt: skip


def _within_the_pot_total(
    result: HandSettled, cmd: CorrectResult, earlier: Iterable[ResultCorrected]
) -> None:
    """A pot-accounting error (a call short-collected, a pot miscounted) may involve any
    dealt-in seat's chips, not only the awards, but never more than were in this hand's
    pots: across every accounting correction of the hand, a seat gives or receives at
    most the pots' total (QA recorded 1,000,000 moved by one correction, and the same
    correction again and again). Whether the stack can still pay is the table's to rule
    when the chips move (``tables.CorrectionUnsettled``).

    Raises:
        HandRuleViolation ``correction_exceeds_pots`` (SD-24).
    """
    total = sum(pot.amount for pot in result.pots)
    before = _moved(earlier, frozenset({"accounting"}))
    for seat_number, amount in cmd.adjustments:
        moved = before.get(seat_number, 0) + amount
        if abs(moved) > total:
            raise HandRuleViolation(
                "correction_exceeds_pots", "SD-24",
                "Pot-accounting corrections move at most the chips that were in this hand's "
                "pots, per seat, earlier corrections counted.",
                seat=seat_number, moved=moved, pots=total,
            )  # fmt: skip


def _chop_exception(hand: hand_engine.HandState, cmd: RecordChopException) -> list[DomainEvent]:
    """RAKE-9: a cash all-in pot is not chopped; the floor's exception names its reason and
    the players who chop (two or more seats dealt in this hand, each once). A tournament
    hand has no such exception: the rule is the cash game's."""
    if hand.started.mode == "tournament":
        raise HandRuleViolation(
            "not_a_cash_hand", "RAKE-9", "A chop exception is for a cash game's all-in pot."
        )
    if not cmd.reason.strip():
        raise HandRuleViolation("reason_required", "RAKE-9", "A chop exception needs a reason.")
    if len(cmd.seats) < 2 or len(set(cmd.seats)) != len(cmd.seats):
        raise HandRuleViolation(
            "chop_seats_invalid", "RAKE-9", "Name each player who chops once: two or more seats."
        )
    for seat_number in cmd.seats:
        hand_engine.seat_in_hand(hand, seat_number, rule="RAKE-9")
    return [ChopExceptionRecorded(cmd.floor, cmd.reason.strip(), cmd.seats)]


def _rabbit_consent(hand: hand_engine.HandState, cmd: RecordRabbitConsent) -> list[DomainEvent]:
    return [rabbit_consent(hand, cmd.seat, cmd.consenting_seats)]


def jackpot_cards(hand: hand_engine.HandState) -> tuple[str, ...]:
    """The board cards that may count for the cash-game jackpot: the real board only, never
    a rabbit hunt's cards (RAKE-8)."""
    return hand.board


def legal_actions(hand: hand_engine.HandState) -> LegalActions | None:
    """What the player to act may do, the floor's rulings included: a seat whose exposed
    cards made it passive (BET-30..32), or whose chips were ruled an insufficient call it
    has not yet completed (BET-27), may check or call or fold only, so it has no bet or
    raise (an all-in that is no more than a call stays)."""
    legal = hand.legal
    if legal is None or not any(isinstance(e, CardsExposed | ChipsRead) for e in hand.history):
        return legal
    if _raise_barred(hand, legal.seat) is None:
        return legal
    return replace(legal, can_bet=False, can_raise=False, min_raise_to=None, max_raise_to=None)


def _raise_barred(hand: hand_engine.HandState, seat: int) -> tuple[str, str, str] | None:
    """Why ``seat`` may not bet or raise now, as ``(code, rule, detail)``, or ``None``:
    his exposed cards made his hand passive (BET-30..32), or his chips were ruled an
    insufficient call and he has not acted since (BET-27: he completes the call or folds)."""
    for exposure in floor_log(hand.history).exposures:
        if exposure.seat == seat and exposure.passive:
            return (
                "passive_hand", exposure.rule,
                "His cards were exposed: he may check, call or fold, not bet or raise.",
            )  # fmt: skip
    for e in reversed(hand.history):
        if isinstance(e, ActionTaken) and e.seat == seat:
            break
        if isinstance(e, ChipsRead) and e.seat == seat:
            if e.kind == "insufficient_call":
                return (
                    "insufficient_call_pending", "BET-27",
                    "His chips were short of the call: he completes the call or folds; "
                    "he may not raise.",
                )  # fmt: skip
            break
    return None


def check_may_raise(hand: hand_engine.HandState, seat: int, action: str) -> None:
    """Refuse a bet or raise from a seat that may not make one now: its exposed cards made
    the hand passive (BET-30..32), or its insufficient call is still to be completed
    (BET-27). An all-in that is no more than a call is a call, and allowed.

    Raises:
        HandRuleViolation: ``passive_hand`` with the rule of the exposure ruling, or
        ``insufficient_call_pending`` (BET-27).
    """
    if action not in ("bet", "raise", "all_in"):
        return
    legal = hand.legal
    if action == "all_in" and legal and legal.seat == seat and legal.all_in_to <= legal.call_to:
        return  # all in for no more than a call: a call
    barred = _raise_barred(hand, seat)
    if barred is not None:
        code, rule, detail = barred
        raise HandRuleViolation(code, rule, detail, seat=seat)
