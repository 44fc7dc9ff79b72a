"""The tournament aggregate: registration, the table plan, the clock, hands, eliminations,
payouts. Pure Python (no Django): ``decide(state, command, now) -> events`` and
``evolve(state, event) -> state``; ``now`` is an aware UTC datetime from the service's
injectable clock, and every random draw uses the ``seed`` the command carries, its outcome
stored in the events.

The rules live by family, each module importing only those below it:
:mod:`~tournaments.domain.tournament_rules` (the event builder and shared checks) <-
:mod:`~tournaments.domain.tournament_clock` (CLK-*) <-
:mod:`~tournaments.domain.tournament_results` (ELIM-*, TSEAT-*, HU-*) <-
:mod:`~tournaments.domain.tournament_entries` (TREG-*) <- this module (``decide``, penalties,
seat corrections, scheduling, roll-back, cancellation, payments, deals).

How the service drives it (stream ``tournament-<id>``)::

    events = decide(state, command, now)      # raises DomainError when refused
    append(stream, events, expected_version)  # then state = fold(evolve, events)

1. ``CreateTournament`` -> ``Register`` / ``Unregister`` -> ``StartTournament(table_ids,
   seed)`` (seat draw and button draw) -> ``StartClock``.
2. For every hand at table X: ``hand_permission(state, X)`` says whether X may deal and with
   which stakes; ``StartTableHand`` records it (refused with the same ``code`` otherwise);
   when the hand is settled, ``RecordHandResult(X, hand_number, starting_stacks,
   final_stacks, seed)``. Its events carry the eliminations, the moves to apply to the
   physical tables (``PlayerMoved``, ``TableBroken``, ``FinalTableRedrawn``), a break that
   can start, the end of late registration and finally ``TournamentFinished``.
3. Clock timers: ``due_clock_commands(state, now)`` lists the clock commands due (level end,
   break start at the synchronized slot, break end, late registration by clock time);
   ETA tasks and the beat sweep decide them. They carry the level and clock version they
   expect and decide to ``[]`` when either changed.

Rules: TREG-1/2/3/4/7/8/9/10/14/15 (entries, late registration, unregistration, rebuys),
TSEAT-1..9 (seating, balancing, breaking, final table, hand-for-hand), SEAT-1/2/14 (first
button, entry position), CLK-1/2/3/4/6/7/8 (levels and breaks), ELIM-1..6 (finishing
order, ties, prizes), BET-7 (tournament minimum raise, passed to the hand engine).

Choices where the documents are silent (documented here and in the docstrings):

* A player with no chips after a hand is eliminated in the same decision, unless he rebuys
  at once (``RecordHandResult.rebuys``, TREG-14). In hand-for-hand the busts of a round wait
  for the round's end and are ranked together (ELIM-5).
* Places are ``players left + 1 ...`` at the elimination; while late registration is open
  they are provisional (``PlayerEliminated.provisional``); ``TournamentFinished`` carries
  the final places of every entry, each entry (re-entries included) being one finisher.
* The director's pause does not stop dealing; breaks and hand-for-hand do. A pause is
  refused while a break is due (it starts when the hands in progress end, CLK-7).
* During a break the level clock stops and resumes afterwards (a break between levels
  starts the next level when it ends).
* Balancing and breaking happen after a hand, only with tables not in a hand; a table due
  to be broken, or every table when the final table is due, deals no new hand.
* The tournament ends when one player holds every chip. ELIM-1's "every remaining player
  would get the same prize" end and deals (DEAL-*) are left to a later command.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from casino.domain_events import DomainEvent
from tournaments.domain import (
    cancellation,
    deals,
    payments,
    payouts,
    penalties,
)  # fmt: skip
from tournaments.domain.config import (
    parse_time,
    validate_config,
)
from tournaments.domain.events import (
    DealAgreed,
    DealDiscussionStarted,
    HandsRolledBack,
    HandStacksCorrected,
    PenaltyIssued,
    PenaltyStarted,
    PlayerMoved,
    PlayerStack,
    ScheduledStartMissed,
    SettlementShare,
    StartScheduled,
    TableHand,
    TournamentCancelled,
    TournamentCreated,
    iso,
)
from tournaments.domain.tournament_clock import (
    adjust_clock,
    advance_level,
    amend_levels,
    close_late_registration,
    end_break,
    pause_clock,
    restart_after_deal,
    resume_clock,
    start_break,
    start_clock,
    start_hand_for_hand,
    stop_for_deal,
    would_stop_for_deal,
)
from tournaments.domain.tournament_commands import (
    AddOn,
    AdjustClock,
    AdvanceLevel,
    AmendLevels,
    CancelTournament,
    CloseLateRegistration,
    Command,
    CorrectHandStacks,
    CorrectSeat,
    CreateTournament,
    EndBreak,
    EndHandForHand,
    LateRegister,
    MissScheduledStart,
    PauseClock,
    Rebuy,
    RebuyIfBusted,
    RecordHandResult,
    ReEnter,
    Register,
    ResumeClock,
    RollBackHands,
    ScheduleStart,
    StartBreak,
    StartClock,
    StartHandForHand,
    StartTableHand,
    StartTournament,
    Unregister,
)
from tournaments.domain.tournament_entries import (
    re_enter,
    rebuy_if_busted,
    register_late,
    register_player,
    start_tournament,
    take_add_on,
    take_rebuy,
    unregister_player,
)
from tournaments.domain.tournament_queries import (
    ClockView,
    HandPermission,
    clock_view,
    due_clock_commands,
    hand_permission,
    is_headsup,
    late_registration_open,
    level_end_at,
    may_start_hand,
    next_break_at,
    scheduled_start_due,
    winners,
)
from tournaments.domain.tournament_results import (
    check_may_deal,
    chip_counts,
    disqualify_player,
    end_hand_for_hand,
    final_results,
    finish_tournament,
    record_hand_result,
    start_table_hand,
)
from tournaments.domain.tournament_rules import (
    Builder,
    player_in_play,
    rule_error,
)
from tournaments.domain.tournament_state import (
    CANCELLED,
    ELIMINATED,
    FINISHED,
    PLAYING,
    REGISTERED,
    REGISTERING,
    RUNNING,
    UNREGISTERED,
    ClockState,
    Elimination,
    PlayerState,
    TableInfo,
    TournamentState,
    evolve,
    levels_by_hands,
    load,
)


def decide(state: TournamentState | None, command: Command, now: datetime) -> list[DomainEvent]:
    """The events that ``command`` leads to at ``now`` (aware UTC).

    Raises:
        DomainError: the command is refused (stable ``code``, catalogue ``rule``).
    """
    if isinstance(command, CreateTournament):
        if state is not None:
            raise rule_error("tournament_exists", "This tournament already exists.")
        validate_config(command.config, now=now)
        return [TournamentCreated(command.tournament_id, command.config, iso(now))]
    if state is None:
        raise rule_error("tournament_not_found", "No such tournament.")
    if state.status in (FINISHED, CANCELLED) and not isinstance(command, payments.PAYMENT_COMMANDS):
        if state.status == CANCELLED:  # not ELIM-1's end of the event (found by QA)
            raise rule_error("tournament_cancelled", "The tournament was cancelled.", rule="CXL-2")
        raise rule_error("tournament_finished", "The tournament is over.", rule="ELIM-1")
    b = Builder(state, now)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"unknown command {type(command).__name__}")
    handler(b, command, now)
    return b.events


def _penalty(b: Builder, cmd: penalties.PenaltyCommand, now: datetime) -> None:
    """Rulings and flags (PEN-1..16); a disqualification between hands at once.

    Raises:
        DomainError ``disqualification_in_bracket``: a heads-up bracket has no way yet to
            forfeit a match (HU-1): the ruling is refused, nothing is written.
    """
    for event in penalties.decide(b.state, cmd, now):
        if (
            is_headsup(b.state)
            and isinstance(event, PenaltyIssued)
            and (event.kind == "disqualification")
        ):
            raise rule_error(
                "disqualification_in_bracket", "A heads-up bracket cannot forfeit a match "
                "yet: give a warning or a sit-out.", rule="HU-1", player_id=event.player_id,
            )  # fmt: skip
        b.emit(event)
        if (
            isinstance(event, PenaltyIssued)
            and event.kind == "disqualification"
            and not event.applies_after_hand
        ):
            b.emit(PenaltyStarted(event.player_id, "disqualification", 0))
            disqualify_player(b, event.player_id, now)


def _correct_seat(b: Builder, cmd: CorrectSeat, now: datetime) -> None:
    """TSEAT-2: a player in the wrong seat is moved, stack and all, to the right one; he
    keeps playing at once (no wait for the big blind: he was in the game all along).

    Refusals: ``tournament_not_running``, ``player_not_playing``, ``table_not_in_play``,
    ``invalid_seat``, ``already_in_that_seat``, ``seat_taken``, ``hand_in_progress``.
    """
    s = b.state
    if s.status != RUNNING:
        raise rule_error("tournament_not_running", "Seats are corrected while the event runs.")
    p = player_in_play(s, cmd.player_id)
    to = s.tables.get(cmd.table_id)
    if to is None:
        raise rule_error(
            "table_not_in_play", "That table is not in play.", rule="TSEAT-2",
            table_id=cmd.table_id,
        )  # fmt: skip
    if not 1 <= cmd.seat <= to.max_seats:
        raise rule_error(
            "invalid_seat", f"Table {cmd.table_id} has seats 1 to {to.max_seats}.",
            rule="TSEAT-2", seat=cmd.seat, table_id=cmd.table_id, max_seats=to.max_seats,
        )  # fmt: skip
    if (p.table_id, p.seat) == (cmd.table_id, cmd.seat):
        raise rule_error("already_in_that_seat", "The player is in that seat already.")
    if cmd.seat in to.seats:
        raise rule_error(
            "seat_taken", "That seat is taken: move its player first.", rule="TSEAT-2",
            player_id=to.seats[cmd.seat],
        )  # fmt: skip
    assert p.table_id is not None and p.seat is not None
    for table_id in {p.table_id, cmd.table_id}:
        if s.tables[table_id].in_hand:
            raise rule_error(
                "hand_in_progress", "Correct the seat between hands.", rule="TSEAT-2",
                table_id=table_id,
            )  # fmt: skip
    b.emit(PlayerMoved(cmd.player_id, p.table_id, p.seat, cmd.table_id, cmd.seat, "wrong_seat"))


def _correct_hand_stacks(b: Builder, cmd: CorrectHandStacks, now: datetime) -> None:
    """SD-24 at a tournament table: an upheld dispute moves chips between players still in
    play at that table, between hands (the dispute window closes when the next hand begins).
    A player the hand eliminated is not brought back, and a correction does not bust one:
    both are the director's ruling on the elimination, not a chip move.

    Refusals: ``tournament_not_running``, ``table_not_in_play``, ``hand_in_progress``,
    ``player_not_playing``, ``player_not_at_table``, ``adjustments_not_balanced``,
    ``correction_busts_player`` (SD-24).
    """
    s = b.state
    if s.status != RUNNING:
        raise rule_error("tournament_not_running", "The tournament is not running.",
                         rule="SD-24")  # fmt: skip
    table = s.tables.get(cmd.table_id)
    if table is None:
        raise rule_error("table_not_in_play", "That table is not in play.", rule="SD-24",
                         table_id=cmd.table_id)  # fmt: skip
    if table.in_hand:
        raise rule_error("hand_in_progress", "A hand is in progress at this table.",
                         rule="SD-24", table_id=cmd.table_id)  # fmt: skip
    if sum(amount for _, amount in cmd.adjustments) != 0:
        raise rule_error("adjustments_not_balanced", "A correction moves chips between seats only.",
                         rule="SD-24")  # fmt: skip
    moved: dict[int, int] = {}
    for pid, amount in cmd.adjustments:
        moved[pid] = moved.get(pid, 0) + amount
    stacks = []
    for pid in sorted(moved):
        p = player_in_play(s, pid, rule="SD-24")
        if p.table_id != cmd.table_id:
            raise rule_error("player_not_at_table", "This player is not at this table.",
                             rule="SD-24", player_id=pid)  # fmt: skip
        if p.stack + moved[pid] <= 0 and moved[pid]:
            raise rule_error(
                "correction_busts_player", "A correction cannot leave a player without chips: "
                "his elimination is the director's ruling.", rule="SD-24", player_id=pid,
                stack=p.stack, amount=moved[pid],
            )  # fmt: skip
        if moved[pid]:
            stacks.append(PlayerStack(pid, p.stack, p.stack + moved[pid]))
    if stacks:
        b.emit(HandStacksCorrected(cmd.table_id, cmd.hand_id, tuple(stacks)))


def _schedule(b: Builder, cmd: ScheduleStart, now: datetime) -> None:
    """TREG-5: the lobby time, or a delay (logged with its reason)."""
    if b.state.status != REGISTERING:
        raise rule_error("tournament_started", "The tournament has already started.", rule="TREG-5")
    try:
        at = parse_time(cmd.start_at)
    except ValueError:
        raise rule_error("invalid_time", "start_at must be ISO-8601 with a UTC offset.") from None
    if at < now:
        raise rule_error("start_in_past", "The lobby time has passed: give a later one.",
                         rule="TREG-5", start_at=iso(at))  # fmt: skip
    before = b.state.scheduled_start
    if cmd.delay and (before is None or at <= before):
        raise rule_error("not_a_delay", "A delay moves the lobby time later.", rule="TREG-5")
    if not cmd.delay and before is not None and at > before:
        raise rule_error("delay_required", "Moving the lobby time later is a delay: log it "
                         "with its reason.", rule="TREG-5")  # fmt: skip
    if cmd.delay and not cmd.reason.strip():
        raise rule_error("reason_required", "A delay is logged with its reason.", rule="TREG-5")
    if before is not None and at < before and not cmd.reason.strip():  # players were told
        raise rule_error("reason_required", "Bringing the lobby time forward is logged with "
                         "its reason.", rule="TREG-5")  # fmt: skip
    b.emit(StartScheduled(iso(at), cmd.delay, cmd.reason))


def _miss_start(b: Builder, cmd: MissScheduledStart, now: datetime) -> None:
    """TREG-5: record once that the lobby time found too few entries (TREG-3)."""
    s = b.state
    if scheduled_start_due(s, now) != "missed":
        return  # a stale timer: started, delayed, or recorded already
    assert s.scheduled_start is not None
    registered = sum(1 for p in s.players.values() if p.status == REGISTERED)
    b.emit(ScheduledStartMissed(iso(s.scheduled_start), registered, s.config.minimum_field))


def _roll_back(b: Builder, cmd: RollBackHands, now: datetime) -> None:
    """CXL-1: the hands in progress go back to their start stacks."""
    hands = tuple(
        TableHand(t.table_id, t.hand_number)
        for t in sorted(b.state.tables.values(), key=lambda t: t.table_id)
        if t.hand_number is not None
    )
    if not hands:
        raise rule_error("no_hand_in_progress", "No hand is in progress.", rule="CXL-1")
    b.emit(HandsRolledBack(hands, cmd.reason, iso(now)))


def _cancel(b: Builder, cmd: CancelTournament, now: datetime) -> None:
    """CXL-2..9: settle every player under the versioned policy."""
    s = b.state
    cfg = s.config
    if cmd.method not in cancellation.METHODS:
        raise rule_error("invalid_cancellation", f"method must be one of {cancellation.METHODS}",
                     rule="CXL-2", methods=cancellation.METHODS)  # fmt: skip
    if not cmd.reason.strip():
        raise rule_error("reason_required", "A cancellation is recorded with its reason.",
                     rule="CXL-2")  # fmt: skip
    if any(t.in_hand for t in s.tables.values()):
        raise rule_error("hand_in_progress", "Roll back the hands in progress first (CXL-1).",
                     rule="CXL-1")  # fmt: skip
    itm = s.status == RUNNING and payouts.event_in_the_money(
        s.players_left, s.contributions, cfg, s.entries
    )
    if cmd.method == "roll_forward" and s.status == REGISTERING:
        raise rule_error("not_started", "Before the start there are no chips in play to roll "
                         "forward: every buy-in is rolled back.", rule="CXL-2")  # fmt: skip
    if cmd.method == "rollback":
        shares = cancellation.rollback(s.paid)
        method = "rollback"
    else:
        shares, method = _roll_forward(s, itm), "roll_forward"
    b.emit(TournamentCancelled(
        method, cancellation.POLICY, cancellation.POLICY_VERSION, cmd.reason, itm,
        tuple(SettlementShare(x.player_id, x.refund, x.prize, x.fees, x.t_money,
                              x.t_money_fees) for x in shares if x.total),
        iso(now),
    ))  # fmt: skip


def _roll_forward(s: TournamentState, itm: bool) -> list[cancellation.Share]:
    cfg = s.config
    actual = replace(s, config=replace(cfg, guarantee=0))  # CXL-7: no guarantee
    prizes = payouts.event_prizes(s.contributions, cfg, s.entries)
    left = s.players_left
    remaining = {p.player_id: p.stack for p in s.players.values()
                 if p.status == PLAYING and p.stack > 0}  # fmt: skip
    kinds = ("knockout", "progressive")  # CXL-8: fixed bounties are left out
    heads = dict(s.bounty.heads) if cfg.bounty.kind in kinds else {}
    fees = {pid: s.paid[pid].fees for pid in remaining if pid in s.paid}
    shares: list[cancellation.Share] = []
    if itm:
        unawarded = list(prizes[:left]) + [0] * max(0, left - len(prizes))
        top = tuple((pid, 1, left) for pid in sorted(remaining))
        awarded = final_results(actual, top[0][0], top)
        for r in awarded:  # players already out in the money keep their prizes
            if r.player_id not in remaining and r.prize:
                shares.append(cancellation.Share(r.player_id, 0, r.prize))
        pool = sum(unawarded)
    else:
        unawarded, pool = [], s.contributions
    shares += cancellation.roll_forward(
        remaining=remaining, fees=fees, heads=heads, pool=pool, unawarded=unawarded,
        in_the_money=itm, unit=cfg.payout_rounding_unit,
    )  # fmt: skip
    return shares


def _pay(b: Builder, cmd: payments.PaymentCommand, now: datetime) -> None:
    """Paying winnings at the cage, holding them (ELIM-6..9)."""
    for event in payments.decide(b.state, cmd, now):
        b.emit(event)


def _deal(b: Builder, cmd: deals.DealCommand, now: datetime) -> None:
    """Deal commands (DEAL-1..11, :mod:`tournaments.domain.deals`); a deal that leaves
    nothing to play for ends the event, places by chips (ELIM-1)."""
    stopped_clock = b.state.deal.stopped_clock
    for event in deals.decide(b.state, cmd, now):
        if isinstance(event, DealDiscussionStarted):
            # DEAL-4: the table pauses, and the level clock with it
            stop = would_stop_for_deal(b.state)
            b.emit(replace(event, clock_stopped=stop))
            if stop:
                stop_for_deal(b, now)
        else:
            b.emit(event)
    agreed = b.state.deal.agreed
    just_agreed = any(isinstance(e, DealAgreed) for e in b.events)
    if agreed is not None and just_agreed and agreed.money_on_table == 0:
        finish_tournament(b, now, chip_counts(b.state))
    elif stopped_clock and not b.state.deal.discussing:
        restart_after_deal(b, now)


_HANDLERS: dict[type, Any] = {
    Register: register_player,
    Unregister: unregister_player,
    LateRegister: register_late,
    ReEnter: re_enter,
    Rebuy: take_rebuy,
    AddOn: take_add_on,
    StartTournament: start_tournament,
    StartClock: start_clock,
    AdvanceLevel: advance_level,
    PauseClock: pause_clock,
    ResumeClock: resume_clock,
    AdjustClock: adjust_clock,
    AmendLevels: amend_levels,
    StartBreak: start_break,
    EndBreak: end_break,
    CloseLateRegistration: close_late_registration,
    StartHandForHand: start_hand_for_hand,
    EndHandForHand: end_hand_for_hand,
    StartTableHand: start_table_hand,
    RecordHandResult: record_hand_result,
    deals.RequestDeal: _deal,
    deals.ProposeDeal: _deal,
    deals.ConfirmDeal: _deal,
    deals.CancelDeal: _deal,
    payments.PayWinnings: _pay,
    payments.HoldWinnings: _pay,
    payments.ReleaseWinnings: _pay,
    penalties.IssuePenalty: _penalty,
    penalties.FlagConduct: _penalty,
    ScheduleStart: _schedule,
    RebuyIfBusted: rebuy_if_busted,
    RollBackHands: _roll_back,
    CancelTournament: _cancel,
    CorrectSeat: _correct_seat,
    CorrectHandStacks: _correct_hand_stacks,
    MissScheduledStart: _miss_start,
}


# The state, the commands and the queries are used through this module too (``t.Register``).
__all__ = [
    "CANCELLED",
    "ELIMINATED",
    "FINISHED",
    "PLAYING",
    "REGISTERED",
    "REGISTERING",
    "RUNNING",
    "UNREGISTERED",
    "AddOn",
    "AdjustClock",
    "AdvanceLevel",
    "AmendLevels",
    "CancelTournament",
    "ClockState",
    "ClockView",
    "CloseLateRegistration",
    "Command",
    "CorrectHandStacks",
    "CorrectSeat",
    "CreateTournament",
    "Elimination",
    "EndBreak",
    "EndHandForHand",
    "HandPermission",
    "LateRegister",
    "MissScheduledStart",
    "PauseClock",
    "PlayerState",
    "ReEnter",
    "Rebuy",
    "RebuyIfBusted",
    "RecordHandResult",
    "Register",
    "ResumeClock",
    "RollBackHands",
    "ScheduleStart",
    "StartBreak",
    "StartClock",
    "StartHandForHand",
    "StartTableHand",
    "StartTournament",
    "TableInfo",
    "TournamentState",
    "Unregister",
    "check_may_deal",
    "clock_view",
    "decide",
    "due_clock_commands",
    "evolve",
    "final_results",
    "hand_permission",
    "late_registration_open",
    "level_end_at",
    "levels_by_hands",
    "load",
    "may_start_hand",
    "next_break_at",
    "scheduled_start_due",
    "winners",
]
