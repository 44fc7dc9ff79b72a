"""The tournament aggregate: registration, the table plan, the clock, hands, eliminations,
payouts. Pure Python (no Django): ``decide(state, command, now) -> events`` and
``evolve(state, event) -> state``; ``now`` is an aware UTC datetime from the service's
injectable clock, and every random draw uses the ``seed`` the command carries, its outcome
stored in the events.

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

import random
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, cast

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tournaments.domain import (
    bounties,
    cancellation,
    chip_race,
    deals,
    early_payouts,
    headsup,
    payments,
    payouts,
    penalties,
    satellites,
    seating,
)  # fmt: skip
from tournaments.domain.config import (
    TournamentConfig,
    parse_time,
    validate_config,
)
from tournaments.domain.events import (
    AddOnTaken,
    BountyPlaced,
    BracketWon,
    BreakDue,
    BreakEnded,
    BreakStarted,
    ButtonDraw,
    ChipRaceRun,
    ClockPaused,
    ClockResumed,
    ConductFlagged,
    DealAgreed,
    DrawnCard,
    EarlyPayoutCredited,
    FinalTableRedrawn,
    HandForHandEnded,
    HandForHandRoundCompleted,
    HandForHandStarted,
    HandResultRecorded,
    HandsRolledBack,
    Knockout,
    LateEntrySeated,
    LateRegistrationClosed,
    LevelStarted,
    MatchEnded,
    MatchSeated,
    MatchStarted,
    PenaltyIssued,
    PenaltyStarted,
    PlayerDisqualified,
    PlayerEliminated,
    PlayerMoved,
    PlayerReEntered,
    PlayerRegistered,
    PlayerStack,
    PlayerUnregistered,
    RebuyRequested,
    RebuyTaken,
    Result,
    SatelliteSeatWon,
    ScheduledStartMissed,
    SeatAssignment,
    SettlementShare,
    StartScheduled,
    TableAdded,
    TableBroken,
    TableHand,
    TableHandStarted,
    TournamentCancelled,
    TournamentCreated,
    TournamentFinished,
    TournamentStarted,
    iso,
)
from tournaments.domain.tournament_commands import (
    AddOn,
    AdvanceLevel,
    CancelTournament,
    CloseLateRegistration,
    Command,
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
from tournaments.domain.tournament_queries import (
    ClockView,
    HandPermission,
    clock_view,
    due_clock_commands,
    final_table_due,
    hand_permission,
    hand_refusal,
    is_headsup,
    late_registration_open,
    level_end_at,
    may_start_hand,
    next_break_at,
    scheduled_start_due,
    tables_due_to_break,
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


class _Builder:
    """Events decided so far and the state they lead to."""

    def __init__(self, state: TournamentState, now: datetime | None = None) -> None:
        self.state = state
        self.events: list[DomainEvent] = []
        self.now = now

    def emit(self, event: DomainEvent) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


def _error(code: str, detail: str, rule: str | None = None, **context: Any) -> DomainError:
    return DomainError(code, detail, rule=rule, **context)


def _player(state: TournamentState, player_id: int) -> PlayerState:
    p = state.players.get(player_id)
    if p is None:
        raise _error("player_not_registered", "This player has no entry.", player_id=player_id)
    return p


def _seated(state: TournamentState, player_id: int) -> PlayerState:
    p = _player(state, player_id)
    if p.status != PLAYING:
        raise _error("player_not_playing", "This player is not in play.", player_id=player_id)
    return p


def _level_now(state: TournamentState) -> int:
    return max(state.clock.level, 1)


def decide(state: TournamentState | None, command: Command, now: datetime) -> list[DomainEvent]:
    """The events that ``command`` leads to at ``now`` (aware UTC).

    Raises:
        DomainError: the command is refused (stable ``code``, catalogue ``rule``).
    """
    if isinstance(command, CreateTournament):
        if state is not None:
            raise _error("tournament_exists", "This tournament already exists.")
        validate_config(command.config)
        return [TournamentCreated(command.tournament_id, command.config, iso(now))]
    if state is None:
        raise _error("tournament_not_found", "No such tournament.")
    if state.status in (FINISHED, CANCELLED) and not isinstance(command, payments.PAYMENT_COMMANDS):
        raise _error("tournament_finished", "The tournament is over.", rule="ELIM-1")
    b = _Builder(state, now)
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise TypeError(f"unknown command {type(command).__name__}")
    handler(b, command, now)
    return b.events


def _check_paid_with(paid_with: str) -> None:
    if paid_with not in satellites.PAID_WITH:
        raise _error("invalid_payment", "Pay with cash, a satellite seat or T-Money.",
                     rule="TREG-11", paid_with=paid_with)  # fmt: skip


def _register(b: _Builder, cmd: Register, now: datetime) -> None:
    s, cfg = b.state, b.state.config
    if s.status != REGISTERING:
        raise _error(
            "registration_closed", "The tournament has started: use late registration.",
            rule="TREG-7",
        )  # fmt: skip
    current = s.players.get(cmd.player_id)
    if current is not None and current.status == REGISTERED:
        raise _error("already_registered", "One entry per player.", rule="TREG-9")
    _check_paid_with(cmd.paid_with)
    b.emit(PlayerRegistered(
        cmd.player_id, s.next_entry, cfg.buy_in, cfg.fee, cfg.starting_stack, False, iso(now),
        cmd.paid_with,
    ))  # fmt: skip
    _place_bounty(b, cmd.player_id)


def _unregister(b: _Builder, cmd: Unregister, now: datetime) -> None:
    s, cfg = b.state, b.state.config
    p = _player(s, cmd.player_id)
    if s.status != REGISTERING or p.status != REGISTERED:
        raise _error(
            "unregistration_closed", "Only a registered player may withdraw before the start.",
            rule="TREG-10",
        )  # fmt: skip
    deadline = cfg.unregister_deadline
    if not cfg.unregister_allowed or (deadline is not None and now >= parse_time(deadline)):
        raise _error(
            "unregistration_closed", "Unregistration is closed for this event.",
            rule="TREG-10", deadline=deadline,
        )  # fmt: skip
    refund = bounties.entry_cost(cfg.buy_in, cfg.fee, cfg.bounty.kind, cfg.bounty.amount)
    refund_as = "cash" if p.paid_with == "cash" else "t_money"  # TREG-11: never cash
    b.emit(PlayerUnregistered(p.player_id, p.entry_number, refund, iso(now), refund_as))


def _start(b: _Builder, cmd: StartTournament, now: datetime) -> None:
    s, cfg = b.state, b.state.config
    if s.status != REGISTERING:
        raise _error("tournament_started", "The tournament has already started.")
    players = sorted(p.player_id for p in s.players.values() if p.status == REGISTERED)
    if len(players) < cfg.minimum_field:
        raise _error(
            "field_too_small", f"{cfg.minimum_field} entries are needed to start.",
            rule="TREG-3", entries=len(players), minimum=cfg.minimum_field,
        )  # fmt: skip
    if is_headsup(s):
        _start_bracket(b, cmd, players, now)
        return
    needed = seating.tables_needed(len(players), cfg.table_size)
    table_ids = tuple(cmd.table_ids)
    if len(set(table_ids)) != len(table_ids) or len(table_ids) < needed:
        raise _error(
            "not_enough_tables", f"{len(players)} players need {needed} distinct tables.",
            rule="TSEAT-1", needed=needed,
        )  # fmt: skip
    order = tuple(cmd.break_order) if cmd.break_order is not None else table_ids[::-1]
    if sorted(order) != sorted(table_ids):
        raise _error("invalid_break_order", "The break order must list every table once.")
    rng = random.Random(cmd.seed)
    draw = seating.draw_seats(players, table_ids, cfg.table_size, rng)
    by_table: dict[int, list[int]] = {}
    for table_id, seat in draw.values():
        by_table.setdefault(table_id, []).append(seat)
    buttons = []
    for table_id in table_ids[:needed]:
        button, cards = seating.initial_button(by_table[table_id], cfg.initial_button, rng)
        buttons.append(ButtonDraw(
            table_id, button, cfg.initial_button, tuple(DrawnCard(st, c) for st, c in cards)
        ))  # fmt: skip
    seats = tuple(SeatAssignment(pid, t, seat) for pid, (t, seat) in sorted(draw.items()))
    b.emit(TournamentStarted(
        iso(now), table_ids[:needed], table_ids[needed:], order, seats, tuple(buttons)
    ))  # fmt: skip


def _late_entry(b: _Builder, player_id: int, entry_number: int, seed: int) -> None:
    rng = random.Random(seed)
    s = b.state
    due = set(tables_due_to_break(s))
    layouts = {t: info.layout() for t, info in s.tables.items() if t not in due}
    placement = seating.late_entry_seat(layouts, player_id, rng,
                                        seat_filter=s.config.broken_table_seat_filter)  # fmt: skip
    if placement is None:
        if not s.reserve_tables:
            raise _error("no_table_available", "Every table is full and no table is reserved.")
        new_table = s.reserve_tables[0]
        b.emit(TableAdded(new_table))
        placement = seating.Placement(player_id, new_table, rng.randint(1, s.config.table_size))
    stack = b.state.players[player_id].stack
    b.emit(LateEntrySeated(
        player_id, entry_number, placement.table_id, placement.seat, stack,
        placement.wait_for_big_blind,
    ))  # fmt: skip
    _settle(b, rng)


def _check_late_open(s: TournamentState, now: datetime) -> None:
    if not late_registration_open(s, now):
        raise _error(
            "late_registration_closed", "Late registration is closed.", rule="TREG-7",
            level=s.clock.level,
        )  # fmt: skip


def _late_register(b: _Builder, cmd: LateRegister, now: datetime) -> None:
    s, cfg = b.state, b.state.config
    if s.status == REGISTERING:
        raise _error("not_started", "Register normally before the start.", rule="TREG-7")
    _check_late_open(s, now)
    current = s.players.get(cmd.player_id)
    if current is not None and current.status == PLAYING:
        raise _error("already_registered", "One entry per player.", rule="TREG-9")
    if current is not None and current.status == ELIMINATED:
        raise _error("use_reentry", "An eliminated player may only re-enter.", rule="TREG-9")
    entry = s.next_entry
    _check_paid_with(cmd.paid_with)
    b.emit(PlayerRegistered(
        cmd.player_id, entry, cfg.buy_in, cfg.fee, cfg.starting_stack, True, iso(now),
        cmd.paid_with,
    ))  # fmt: skip
    _place_bounty(b, cmd.player_id)
    _late_entry(b, cmd.player_id, entry, cmd.seed)


def _reenter(b: _Builder, cmd: ReEnter, now: datetime) -> None:
    s, cfg = b.state, b.state.config
    rule = cfg.reentry
    p = _player(s, cmd.player_id)
    if not rule.allowed:
        raise _error("reentry_not_allowed", "This event has no re-entry.", rule="TREG-9")
    if p.status != ELIMINATED:
        raise _error("not_eliminated", "Only an eliminated player may re-enter.", rule="TREG-9")
    _check_late_open(s, now)
    if rule.until_level is not None and _level_now(s) > rule.until_level:
        raise _error("reentry_closed", "The re-entry period is over.", rule="TREG-9")
    if rule.max_per_player and p.entries - 1 >= rule.max_per_player:
        raise _error(
            "reentry_limit", "No re-entries left for this player.", rule="TREG-9",
            max_per_player=rule.max_per_player,
        )  # fmt: skip
    entry = s.next_entry
    b.emit(PlayerReEntered(p.player_id, entry, rule.price, rule.fee, cfg.reentry_stack, iso(now)))
    _place_bounty(b, p.player_id)
    _late_entry(b, p.player_id, entry, cmd.seed)


def _place_bounty(b: _Builder, player_id: int) -> None:
    """A bounty on a new entry's head (BNTY-1; a named player only if he registers, BNTY-6)."""
    rule = b.state.config.bounty
    amount = bounties.place_bounty(rule.kind, rule.amount, rule.players, player_id)
    if amount:
        paid_by = "house" if rule.kind == "fixed" else "entrant"
        entry = b.state.players[player_id].entry_number
        b.emit(BountyPlaced(player_id, entry, amount, paid_by))


def _check_rebuy(s: TournamentState, p: PlayerState, busted: bool) -> None:
    rule = s.config.rebuy
    if not rule.allowed:
        raise _error("rebuy_not_allowed", "This event has no rebuys.", rule="TREG-14")
    if _level_now(s) > rule.until_level:
        raise _error("rebuy_closed", "The rebuy period is over.", rule="TREG-14")
    if rule.max_per_player and p.rebuys >= rule.max_per_player:
        raise _error("rebuy_limit", "No rebuys left for this player.", rule="TREG-14")
    if not busted and p.stack > s.config.rebuy_threshold:
        raise _error(
            "stack_above_rebuy_threshold", "Rebuys only at or below the threshold.",
            rule="TREG-14", stack=p.stack, threshold=s.config.rebuy_threshold,
        )  # fmt: skip


def _not_in_hand(s: TournamentState, p: PlayerState) -> None:
    assert p.table_id is not None
    if s.tables[p.table_id].in_hand:
        raise _error("hand_in_progress", "Chips are added between hands only.", rule="TREG-14")


def _rebuy_if_busted(b: _Builder, cmd: RebuyIfBusted, now: datetime) -> None:
    """TREG-14 through the dealer API: during his table's hand a player who may bust asks
    to rebuy; if the hand leaves him with no chips the rebuy is taken before the next deal
    (and he is not eliminated)."""
    s = b.state
    p = _seated(s, cmd.player_id)
    assert p.table_id is not None
    if not s.tables[p.table_id].in_hand:
        raise _error("no_hand_in_progress", "Between hands a rebuy is taken at once.",
                     rule="TREG-14")  # fmt: skip
    _check_rebuy(s, replace(p, stack=0), busted=True)
    if p.player_id not in s.pending_rebuys:
        b.emit(RebuyRequested(p.player_id, p.table_id))


def _rebuy(b: _Builder, cmd: Rebuy, now: datetime) -> None:
    s = b.state
    p = _seated(s, cmd.player_id)
    _check_rebuy(s, p, busted=False)
    _not_in_hand(s, p)
    r = s.config.rebuy
    b.emit(RebuyTaken(p.player_id, r.price, r.fee, s.config.rebuy_stack, False))


def _add_on(b: _Builder, cmd: AddOn, now: datetime) -> None:
    s = b.state
    rule = s.config.add_on
    p = _seated(s, cmd.player_id)
    if not rule.allowed:
        raise _error("add_on_not_allowed", "This event has no add-on.", rule="CLK-5")
    if _level_now(s) != rule.at_level:
        raise _error(
            "add_on_closed", f"Add-ons are taken during level {rule.at_level} and its break.",
            rule="CLK-5", level=s.clock.level,
        )  # fmt: skip
    if rule.max_per_player and p.add_ons >= rule.max_per_player:
        raise _error("add_on_limit", "No add-ons left for this player.", rule="CLK-5")
    _not_in_hand(s, p)
    b.emit(AddOnTaken(p.player_id, rule.price, rule.fee, s.config.add_on_stack))


def _level_started(s: TournamentState, level: int, now: datetime) -> LevelStarted:
    lv = s.config.level(level)
    return LevelStarted(
        level, s.clock.version + 1, iso(now), iso(now + timedelta(minutes=lv.minutes)),
        lv.small_blind, lv.big_blind, lv.ante, lv.ante_type,
    )  # fmt: skip


def _start_clock(b: _Builder, cmd: StartClock, now: datetime) -> None:
    s = b.state
    if s.status != RUNNING:
        raise _error("tournament_not_running", "Start the tournament first.")
    if s.clock.level != 0:
        raise _error("clock_started", "The clock is already running.")
    b.emit(_level_started(s, 1, now))


def _close_late_if(b: _Builder, reason: str) -> None:
    s = b.state
    b.emit(LateRegistrationClosed(reason, s.players_left, s.entries))  # type: ignore[arg-type]


def _advance(b: _Builder, cmd: AdvanceLevel, now: datetime) -> None:
    s = b.state
    c = s.clock
    if (
        s.status != RUNNING
        or c.level != cmd.expected_level
        or c.version != cmd.expected_clock_version
        or c.level_ends_at is None
        or c.paused
        or now < c.level_ends_at
        or levels_by_hands(s)  # SHOW-1: the hands end this level, not the clock
    ):
        return  # a stale or early timer: nothing to do
    _end_level(b, now)


def _end_level(b: _Builder, now: datetime) -> None:
    """The level is over (its time, or its hands: SHOW-1): late registration closes if it
    ends here, then its break is due, or the next level starts."""
    s, c = b.state, b.state.clock
    cfg = s.config
    if s.late_reg_open and cfg.late_reg_until_level == c.level:
        _close_late_if(b, "level")
    brk = cfg.break_after(c.level)
    if brk is not None:
        b.emit(BreakDue(brk.minutes, c.level, _colour_up(cfg, brk)))
        _start_break_if_idle(b, now)
    else:
        b.emit(_level_started(b.state, c.level + 1, now))


def _colour_up(cfg: TournamentConfig, brk: Any) -> int | None:
    """The denomination coloured up at this break (CR-1): the break's own, else the one
    the structure no longer needs (``config.denominations``)."""
    if brk.chip_up_denomination is not None or not cfg.denominations:
        return cast(int | None, brk.chip_up_denomination)
    amounts = [(lv.small_blind, lv.big_blind, lv.ante) for lv in cfg.levels]
    breaks = [x.after_level for x in cfg.breaks]
    return chip_race.scheduled_colour_ups(amounts, breaks, cfg.denominations).get(brk.after_level)


def _chip_races(b: _Builder, denomination: int, seed: int) -> None:
    """Colour up ``denomination`` at every table (CR-2..5), the draw seeded and stored."""
    s = b.state
    cfg = s.config
    if denomination not in cfg.denominations:
        return
    nxt = chip_race.next_denomination(cfg.denominations, denomination)
    rng = random.Random(seed)
    for table_id in sorted(s.tables):
        table = s.tables[table_id]
        button = table.button_seat or 0
        seats = sorted(table.seats, key=lambda seat: (seat - button - 1) % 100)
        order = [table.seats[x] for x in seats if s.players[table.seats[x]].stack > 0]
        stacks = {pid: s.players[pid].stack for pid in order}
        result = chip_race.race(stacks, order, denomination, nxt, rng)
        if not result.cards and result.chips_added == 0:
            continue
        b.emit(ChipRaceRun(
            table_id, denomination, nxt, result.cards, result.winners,
            tuple(PlayerStack(pid, stacks[pid], result.stacks[pid]) for pid in order),
            result.chips_added,
        ))  # fmt: skip


def _start_break_if_idle(b: _Builder, now: datetime) -> None:
    s = b.state
    due = s.clock.break_due
    if due is None or any(t.in_hand for t in s.tables.values()):
        return
    c = s.clock
    if due.after_level is not None:
        remaining = 0
    elif c.level_ends_at is not None:
        remaining = max(0, int((c.level_ends_at - now).total_seconds()))
    else:
        remaining = c.level_remaining
    b.emit(BreakStarted(
        c.version + 1, iso(now), iso(now + timedelta(minutes=due.minutes)), due.minutes,
        remaining, due.chip_up_denomination,
    ))  # fmt: skip
    if due.chip_up_denomination is not None:
        seed = int(now.timestamp() * 1000) ^ (c.version * 7919)
        _chip_races(b, due.chip_up_denomination, seed)


def _pause(b: _Builder, cmd: PauseClock, now: datetime) -> None:
    c = b.state.clock
    if c.level == 0 or c.paused:
        raise _error("clock_not_running", "The clock is not running.")
    if c.break_due is not None:
        raise _error("break_due", "A break is due; it starts when the hands end.", rule="CLK-7")
    ends = c.break_ends_at if c.on_break else c.level_ends_at
    remaining = 0 if ends is None else max(0, int((ends - now).total_seconds()))
    b.emit(ClockPaused(c.version + 1, iso(now), remaining))


def _resume(b: _Builder, cmd: ResumeClock, now: datetime) -> None:
    c = b.state.clock
    if not c.paused:
        raise _error("clock_not_paused", "The clock is not paused.")
    remaining = c.break_remaining if c.on_break else c.level_remaining
    b.emit(ClockResumed(c.version + 1, iso(now), iso(now + timedelta(seconds=remaining))))


def _start_break(b: _Builder, cmd: StartBreak, now: datetime) -> None:
    s = b.state
    c = s.clock
    timer = cmd.expected_clock_version is not None
    busy = c.level == 0 or c.paused or c.on_break or c.break_due is not None
    if timer and (cmd.expected_clock_version != c.version or busy or s.status != RUNNING):
        return
    if busy:
        raise _error("break_not_possible", "The clock must be running, with no break due.")
    minutes = cmd.minutes or s.config.sync_break_minutes
    b.emit(BreakDue(minutes, None, None, cmd.slot))
    _start_break_if_idle(b, now)


def _end_break(b: _Builder, cmd: EndBreak, now: datetime) -> None:
    c = b.state.clock
    if cmd.expected_clock_version is not None:
        if (
            cmd.expected_clock_version != c.version
            or not c.on_break
            or c.break_ends_at is None
            or now < c.break_ends_at
        ):
            return
    elif not c.on_break:
        raise _error("not_on_break", "There is no break to end.")
    if c.break_after_level is not None:
        b.emit(BreakEnded(c.version + 1, iso(now), None))
        b.emit(_level_started(b.state, c.break_after_level + 1, now))
    else:
        ends = now + timedelta(seconds=c.level_remaining)
        b.emit(BreakEnded(c.version + 1, iso(now), iso(ends)))


def _close_late(b: _Builder, cmd: CloseLateRegistration, now: datetime) -> None:
    s = b.state
    if not s.late_reg_open:
        if cmd.reason == "director":
            raise _error("late_registration_closed", "Late registration is closed.")
        return
    if cmd.reason == "clock_time":
        until = s.config.late_reg_until
        if until is None or now < parse_time(until):
            return
    _close_late_if(b, cmd.reason)


def _start_hfh(b: _Builder, cmd: StartHandForHand, now: datetime) -> None:
    s = b.state
    if s.status != RUNNING or s.hand_for_hand:
        raise _error("hand_for_hand_not_possible", "Hand-for-hand is on or play has not begun.")
    if is_headsup(s):
        raise _error("hand_for_hand_not_possible", "A heads-up bracket has no bubble.",
                     rule="HU-1")  # fmt: skip
    if len(s.tables) < 2:
        raise _error(
            "hand_for_hand_one_table", "Hand-for-hand needs more than one table.",
            rule="TSEAT-9",
        )  # fmt: skip
    b.emit(HandForHandStarted(1))


def _end_hfh(b: _Builder, cmd: EndHandForHand, now: datetime) -> None:
    s = b.state
    if not s.hand_for_hand:
        raise _error("hand_for_hand_off", "Hand-for-hand is not on.")
    if any(t.in_hand for t in s.tables.values()):
        raise _error(
            "hand_for_hand_round_in_progress", "Wait until every table has finished its hand.",
            rule="TSEAT-9",
        )  # fmt: skip
    _eliminate(b, round_=s.hfh_round)  # busts of a partly played round go out together
    b.emit(HandForHandEnded("director"))
    _settle(b, random.Random(cmd.seed))


def _start_table_hand(b: _Builder, cmd: StartTableHand, now: datetime) -> None:
    s = b.state
    refusal = hand_refusal(s, cmd.table_id)
    if refusal is not None:
        raise _error(refusal[0], "This table may not deal now.", rule=refusal[1],
                     table_id=cmd.table_id)  # fmt: skip
    perm = hand_permission(s, cmd.table_id)
    b.emit(TableHandStarted(
        cmd.table_id, cmd.hand_number, perm.level, perm.small_blind, perm.big_blind, perm.ante,
        s.config.level(perm.level).ante_type, cmd.button_seat, cmd.small_blind_seat,
        cmd.big_blind_seat, perm.hand_for_hand_round,
    ))  # fmt: skip


def _record_hand(b: _Builder, cmd: RecordHandResult, now: datetime) -> None:
    s = b.state
    table = s.tables.get(cmd.table_id)
    if table is None or table.hand_number != cmd.hand_number:
        raise _error(
            "no_hand_in_progress", "This table is not playing that hand.",
            table_id=cmd.table_id, hand_number=cmd.hand_number,
        )  # fmt: skip
    start, final = dict(cmd.starting_stacks), dict(cmd.final_stacks)
    if set(start) != set(final) or len(start) < 2:
        raise _error("invalid_hand_result", "Give both stacks for every player dealt in.")
    seated = set(table.seats.values())
    for pid, chips in start.items():
        if pid not in seated:
            raise _error("player_not_at_table", "This player is not at this table.",
                         rule="TSEAT-2", player_id=pid)  # fmt: skip
        if chips != s.players[pid].stack:
            raise _error(
                "stack_mismatch", "The starting stack differs from the tournament's record.",
                player_id=pid, recorded=s.players[pid].stack, reported=chips,
            )  # fmt: skip
        if final[pid] < 0:
            raise _error("invalid_hand_result", "Stacks cannot be negative.", player_id=pid)
    if sum(start.values()) != sum(final.values()):
        raise _error(
            "chips_not_conserved", "Tournament hands have no rake: chips in = chips out.",
            rule="TREG-1", before=sum(start.values()), after=sum(final.values()),
        )  # fmt: skip
    for pid in cmd.rebuys:
        if final.get(pid, 1) != 0:
            raise _error("rebuy_not_busted", "Only a busted player rebuys after a hand.",
                         rule="TREG-14", player_id=pid)  # fmt: skip
        _check_rebuy(s, s.players[pid], busted=True)
    rebuys = list(cmd.rebuys)
    for pid in sorted(s.pending_rebuys & set(start)):  # asked during the hand (TREG-14)
        if final[pid] == 0 and pid not in rebuys:
            try:
                _check_rebuy(s, s.players[pid], busted=True)
            except DomainError:
                continue  # the period or his limit ran out: he is eliminated
            rebuys.append(pid)
    knockouts = tuple(
        Knockout(pid, tuple(cmd.knockouts.get(pid) or _biggest_winners(start, final)))
        for pid in sorted(start) if final[pid] == 0 and pid not in rebuys
    )  # fmt: skip
    b.emit(HandResultRecorded(
        cmd.table_id, cmd.hand_number,
        tuple(PlayerStack(pid, start[pid], final[pid]) for pid in sorted(start)),
        tuple(cmd.best_hands), knockouts, tuple(sorted(set(cmd.absent) & set(start))),
    ))  # fmt: skip
    r = s.config.rebuy
    for pid in rebuys:
        b.emit(RebuyTaken(pid, r.price, r.fee, s.config.rebuy_stack, True))
    for pid, offence, detail in cmd.conduct_flags:  # PEN-10: seen by the system
        if pid in start:
            b.emit(ConductFlagged(pid, offence, detail, True, iso(now)))
    _apply_pending_penalties(b, set(start))
    _settle(b, random.Random(cmd.seed))
    if b.state.status != RUNNING:  # the last match of a bracket ended it (HU-1)
        return
    _level_by_hands(b, now)
    _start_break_if_idle(b, now)
    if b.state.players_left == 1 and not _busted(b.state):
        _finish(b, now)
    elif not is_headsup(s) and _equal_prizes_left(b.state):
        ranked = _by_chips(b.state)  # ELIM-1: nothing left to play for
        _finish(b, now, tuple((pid, 1, len(ranked)) for pid, _, _ in ranked))


def _level_by_hands(b: _Builder, now: datetime) -> None:
    """SHOW-1: the level's hands are played: it ends as a timed level would."""
    s, c = b.state, b.state.clock
    if not levels_by_hands(s) or c.paused or c.on_break or c.break_due is not None:
        return
    if c.level and c.hands_in_level >= s.config.level_hands:
        _end_level(b, now)


def _biggest_winners(start: Mapping[int, int], final: Mapping[int, int]) -> list[int]:
    """Who won the most chips in the hand (when the dealer did not say who won the pot a
    busted player was all-in in, BNTY-2)."""
    gains = {pid: final[pid] - start[pid] for pid in start}
    best = max(gains.values())
    return sorted(pid for pid, g in gains.items() if g == best and g > 0)


def _busted(s: TournamentState) -> list[PlayerState]:
    return [p for p in s.players.values() if p.status == PLAYING and p.stack == 0]


def _round_complete(s: TournamentState) -> bool:
    if any(t.in_hand for t in s.tables.values()):
        return False
    if not s.hfh_played:
        return False
    for t in s.tables.values():
        if t.table_id in s.hfh_played:
            continue
        if sum(1 for p in t.seats.values() if s.players[p].stack > 0) >= 2:
            return False
    return True


def _tie_key(s: TournamentState, p: PlayerState) -> tuple[int, int, int]:
    """Order inside a tie for the remainder (ELIM-3: the better hand; else the first seat
    left of the button)."""
    rank = p.hand_rank if p.hand_rank is not None else 99
    if s.config.tie_remainder != "better_hand":
        rank = 0
    distance = 0
    table = s.tables.get(p.hand_table) if p.hand_table is not None else None
    if table is not None and table.button_seat is not None and p.seat is not None:
        distance = (p.seat - table.button_seat - 1) % 10
    return rank, distance, p.player_id


def _eliminate(b: _Builder, round_: int | None) -> None:
    """Eliminate every seated player with no chips as one group (same hand or same
    hand-for-hand round), ranked by starting stack (ELIM-2, ELIM-5), equal stacks tied
    (ELIM-3/4)."""
    s = b.state
    busted = _busted(s)
    if not busted:
        return
    left = s.players_left
    group = s.eliminations[-1].group + 1 if s.eliminations else 1
    ranked = sorted(busted, key=lambda p: (-p.hand_start_stack, _tie_key(s, p)))
    place = left + 1
    i = 0
    events = []
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j].hand_start_stack == ranked[i].hand_start_stack:
            j += 1
        for rank, p in enumerate(ranked[i:j]):
            assert p.hand_table is not None and p.hand_number is not None
            events.append(PlayerEliminated(
                p.player_id, p.entry_number, p.hand_table, p.hand_number, p.hand_start_stack,
                place, place + (j - i) - 1, s.late_reg_open, group, rank, round_,
            ))  # fmt: skip
        place += j - i
        i = j
    for event in events:
        b.emit(event)
        _collect_bounty(b, event.player_id)


def _collect_bounty(b: _Builder, player_id: int) -> None:
    """The bounty on a busted player goes to the winners of his all-in pot (BNTY-2/4)."""
    s = b.state
    rule = s.config.bounty
    winners = [w for w in s.players[player_id].knocked_out_by if w != player_id]
    collected = bounties.collect(s.bounty, rule.kind, rule.progressive_cash_bp, player_id, winners)
    if collected is not None:
        b.emit(collected)


def _settle(b: _Builder, rng: random.Random | None) -> None:
    """After a hand (or an entry): eliminations, hand-for-hand rounds, late registration
    closing (TREG-8, TREG-4), then the table plan: final table (TSEAT-8), breaking tables
    (TSEAT-4/7), balancing (TSEAT-3/5/6)."""
    s = b.state
    if s.status != RUNNING:
        return
    if is_headsup(s):
        _settle_bracket(b, rng)
        return
    if s.hand_for_hand:
        if not _round_complete(s):
            return
        b.emit(HandForHandRoundCompleted(s.hfh_round))
        _eliminate(b, s.hfh_round)
    else:
        _eliminate(b, None)
    s = b.state
    cfg = s.config
    if early_payouts.due(s):
        left = tuple(sorted(p.player_id for p in s.players.values()
                            if p.status == PLAYING and p.stack > 0))  # fmt: skip
        b.emit(EarlyPayoutCredited(
            left, early_payouts.minimum_cash(s), iso(b.now) if b.now else ""
        ))  # fmt: skip
        s = b.state
    if s.late_reg_open:
        if cfg.late_reg_close_at_money and payouts.event_in_the_money(
            s.players_left, s.prize_pool, cfg, s.entries
        ):
            _close_late_if(b, "in_the_money")
        elif cfg.late_reg_close_below_full_table and s.players_left < cfg.table_size:
            _close_late_if(b, "below_full_table")
    s = b.state
    if s.players_left <= 1:
        return
    if final_table_due(s):
        if rng is not None and not any(t.in_hand for t in s.tables.values()):
            _final_table(b, rng)
        return
    if rng is not None:
        idle = [t for t in tables_due_to_break(s) if not s.tables[t].in_hand]
        if idle:
            layouts = {t: info.layout() for t, info in s.tables.items()}
            moves = seating.break_tables(
                layouts, idle, rng, seat_filter=cfg.broken_table_seat_filter
            )
            for table_id in idle:
                b.emit(TableBroken(table_id, "balancing"))
            for m in moves:
                b.emit(_moved(m))
    s = b.state
    due = set(tables_due_to_break(s))
    layouts = {t: info.layout() for t, info in s.tables.items() if t not in due}
    for m in seating.balance(
        layouts, policy=cfg.balance_placement, seat_filter=cfg.broken_table_seat_filter
    ):
        b.emit(_moved(m))


def _start_bracket(b: _Builder, cmd: StartTournament, players: list[int], now: datetime) -> None:
    """HU-1/HU-2: the bracket is drawn (play-in and random byes) and every match it starts
    gets a table of its own from ``table_ids``; the players with a bye wait for round 2."""
    try:
        drawn = headsup.decide(headsup.Bracket(), headsup.DrawBracket(tuple(players), cmd.seed))
    except DomainError as error:
        raise _error(error.code, error.detail, rule="HU-2", entries=len(players)) from None
    table_ids = tuple(cmd.table_ids)
    needed = sum(1 for e in drawn if isinstance(e, MatchStarted))
    if len(set(table_ids)) != len(table_ids) or len(table_ids) < needed:
        raise _error(
            "not_enough_tables", f"The draw starts {needed} matches: {needed} distinct tables.",
            rule="HU-1", needed=needed,
        )  # fmt: skip
    order = tuple(cmd.break_order) if cmd.break_order is not None else table_ids[::-1]
    b.emit(TournamentStarted(iso(now), (), table_ids, order, (), ()))
    rng = random.Random(cmd.seed ^ 0x5EA7)  # the buttons: a stream apart from the draw
    for event in drawn:
        b.emit(event)
        if isinstance(event, MatchStarted):
            _seat_match(b, event, rng)


def _seat_match(b: _Builder, match: MatchStarted, rng: random.Random) -> None:
    """The match is played at the table of a player who already sits at one (the winner of
    the match before), else at a reserve table; both start with the starting stack."""
    s, cfg = b.state, b.state.config
    held = [t for t in (s.players[match.a].table_id, s.players[match.b].table_id) if t]
    if held:
        table_id = held[0]
    elif s.reserve_tables:
        table_id = s.reserve_tables[0]
    else:
        raise _error("no_table_available", "No table is left for this match.", rule="HU-1")
    button, cards = seating.initial_button((1, 2), cfg.initial_button, rng)
    b.emit(MatchSeated(
        match.match_id, table_id,
        (SeatAssignment(match.a, table_id, 1), SeatAssignment(match.b, table_id, 2)),
        cfg.starting_stack,
        ButtonDraw(table_id, button, cfg.initial_button,
                   tuple(DrawnCard(st, c) for st, c in cards)),
        tuple(t for t in held[1:] if t != table_id),
    ))  # fmt: skip


def _settle_bracket(b: _Builder, rng: random.Random | None) -> None:
    """After a hand in a heads-up event: a player with no chips loses his match (HU-1), and
    a match whose table has had a player ruled absent for ``headsup_inactive_hands`` hands
    in a row goes to the chip leader (HU-4). Winners advance at once."""
    rng = rng or random.Random(0)
    for p in sorted(_busted(b.state), key=lambda p: p.player_id):
        match = headsup.match_of(b.state.bracket, p.player_id)
        if match is not None:
            winner = match.b if p.player_id == match.a else match.a
            assert winner is not None
            _end_match(b, headsup.RecordMatchResult(match.match_id, winner), rng)
    s = b.state
    threshold = s.config.headsup_inactive_hands
    for match_id, table_id in sorted(s.match_tables.items()):
        info = s.tables.get(table_id)
        match = s.bracket.matches.get(match_id)
        if info is None or match is None or match.winner is not None or info.in_hand:
            continue
        if info.idle_hands >= threshold:
            chips = {pid: s.players[pid].stack for pid in (match.a, match.b) if pid}
            command = headsup.EndInactiveMatch(match_id, chips, info.idle_hands, threshold)
            _end_match(b, command, rng)


def _end_match(
    b: _Builder, command: headsup.RecordMatchResult | headsup.EndInactiveMatch,
    rng: random.Random,
) -> None:  # fmt: skip
    """The match's end: the loser is out with the places of his round (tied with its
    other losers, HU-1), his bounty goes to the winner; the next match or the event's end."""
    for event in headsup.decide(b.state.bracket, command):
        if isinstance(event, MatchEnded):
            round_ = b.state.bracket.matches[event.match_id].round
            b.emit(event)
            loser = b.state.players[event.loser]
            place, place_to = headsup.places(b.state.bracket, round_)
            assert loser.hand_table is not None and loser.hand_number is not None
            b.emit(PlayerEliminated(
                loser.player_id, loser.entry_number, loser.hand_table, loser.hand_number,
                loser.hand_start_stack, place, place_to, False, round_,
            ))  # fmt: skip
            _collect_bounty(b, loser.player_id)
        elif isinstance(event, MatchStarted):
            b.emit(event)
            _seat_match(b, event, rng)
        elif isinstance(event, BracketWon):
            b.emit(event)
            assert b.now is not None
            _finish(b, b.now, ((event.winner, 1, 1),))
        else:
            b.emit(event)


def _moved(m: seating.Move) -> PlayerMoved:
    return PlayerMoved(
        m.player_id, m.from_table, m.from_seat, m.to_table, m.to_seat,
        m.reason,  # type: ignore[arg-type]
        m.wait_for_big_blind,
    )  # fmt: skip


def _final_table(b: _Builder, rng: random.Random) -> None:
    s = b.state
    cfg = s.config
    if s.hand_for_hand:
        b.emit(HandForHandEnded("final_table"))
    final_id = s.open_break_order()[-1]
    for table_id in s.open_break_order()[:-1]:
        b.emit(TableBroken(table_id, "final_table"))
    players = [p.player_id for p in s.players.values() if p.status == PLAYING and p.stack > 0]
    seat_count = max(cfg.table_size, cfg.final_table_players)
    draw = seating.final_table_draw(players, seat_count, rng)
    button, cards = seating.initial_button(draw.values(), cfg.initial_button, rng)
    b.emit(FinalTableRedrawn(
        final_id,
        tuple(SeatAssignment(pid, final_id, seat) for pid, seat in sorted(draw.items())),
        ButtonDraw(final_id, button, cfg.initial_button,
                   tuple(DrawnCard(st, c) for st, c in cards)),
    ))  # fmt: skip


def final_results(
    s: TournamentState, winner: int, top: tuple[tuple[int, int, int], ...] | None = None
) -> tuple[Result, ...]:
    """Every entry's final place and prize (ELIM-2..6): the winner 1st, then the
    elimination groups from the last one back, ties sharing their places' prizes.

    ``top``: the players still in when the event ends otherwise (a deal with nothing left
    to play for, or equal prizes, ELIM-1), as ``(player_id, place, place_to)``. After a deal
    its players get their agreed shares instead of their places' prizes, and the winner the
    money left on the table too (DEAL-5, ELIM-6)."""
    cfg = s.config
    groups: dict[int, list[Elimination]] = {}
    for e in s.eliminations:
        groups.setdefault(e.group, []).append(e)
    top = top if top is not None else ((winner, 1, 1),)
    finishers = []
    players = {}
    for rank, (pid, first, last) in enumerate(top):
        entry = s.players[pid].entry_number
        finishers.append(payouts.Finisher(entry, first, last, rank))
        players[entry] = pid
    place = len(top) + 1
    for group_id in sorted(groups, reverse=True):
        members = sorted(groups[group_id], key=lambda e: (e.place, e.tie_rank))
        base = members[0].place
        for e in members:
            offset_from, offset_to = e.place - base, e.place_to - base
            finishers.append(payouts.Finisher(
                e.entry_number, place + offset_from, place + offset_to, e.tie_rank
            ))  # fmt: skip
            players[e.entry_number] = e.player_id
        place += len(members)
    prizes = payouts.event_prizes(s.prize_pool, cfg, s.entries)
    amounts = payouts.award(prizes, finishers, cfg.payout_rounding_unit)
    agreed = s.deal.agreed
    if agreed is not None:
        for share in agreed.shares:
            amounts[share.entry_number] = share.amount
        winner_entry = s.players[winner].entry_number
        amounts[winner_entry] += agreed.money_on_table
    return tuple(
        Result(f.key, players[f.key], f.place, f.place_to, amounts[f.key])
        for f in sorted(finishers, key=lambda f: (f.place, f.tie_rank, f.key))
    )


def _finish(
    b: _Builder, now: datetime, top: tuple[tuple[int, int, int], ...] | None = None
) -> None:
    s = b.state
    if top:
        winner = top[0][0]
    else:
        winner = next(p.player_id for p in s.players.values() if p.status == PLAYING and p.stack)
    rule = s.config.bounty
    if rule.kind in ("knockout", "progressive"):  # BNTY-5: the winner's own bounty
        for pid in (t[0] for t in top) if top else (winner,):
            own = bounties.collect(s.bounty, rule.kind, rule.progressive_cash_bp, pid, [pid])
            if own is not None:
                b.emit(own)
        s = b.state
    b.emit(TournamentFinished(
        iso(now), winner, s.entries, s.contributions, s.prize_pool,
        s.prize_pool - s.contributions, final_results(s, winner, top),
    ))  # fmt: skip
    cfg = s.config
    if cfg.satellite_target is not None:  # TREG-11: the seats won
        for r in b.state.results:
            seats, _ = satellites.split(r.prize, cfg.satellite_seat_value)
            if seats:
                b.emit(SatelliteSeatWon(r.player_id, r.entry_number, cfg.satellite_target,
                                        seats, cfg.satellite_seat_value))  # fmt: skip


def _penalty(b: _Builder, cmd: penalties.PenaltyCommand, now: datetime) -> None:
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
            raise _error(
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
            _disqualify(b, event.player_id, now)


def _apply_pending_penalties(b: _Builder, players: set[int]) -> None:
    """Penalties for conduct during the hand just recorded take effect now (PEN-1)."""
    for pending in b.state.penalties.pending:
        if pending.player_id not in players:
            continue
        b.emit(PenaltyStarted(pending.player_id, pending.kind, pending.hands))
        if pending.kind == "disqualification":
            _disqualify(b, pending.player_id, None)


def _disqualify(b: _Builder, player_id: int, now: datetime | None) -> None:
    """Out of the event, his chips removed from play (PEN-2); then the table plan and,
    with one player left, the end."""
    s = b.state
    p = s.players[player_id]
    if p.status != PLAYING:
        return
    left = sum(1 for q in s.players.values() if q.status == PLAYING and q.stack > 0)
    b.emit(PlayerDisqualified(player_id, p.entry_number, p.table_id, p.stack, left))
    if now is not None:
        _settle(b, random.Random(player_id))
        if b.state.status == RUNNING and b.state.players_left == 1 and not _busted(b.state):
            _finish(b, now)


def _correct_seat(b: _Builder, cmd: CorrectSeat, now: datetime) -> None:
    """TSEAT-2: a player in the wrong seat is moved, stack and all, to the right one; he
    keeps playing at once (no wait for the big blind: he was in the game all along).

    Refusals: ``tournament_not_running``, ``player_not_playing``, ``table_not_in_play``,
    ``invalid_seat``, ``already_in_that_seat``, ``seat_taken``, ``hand_in_progress``.
    """
    s = b.state
    if s.status != RUNNING:
        raise _error("tournament_not_running", "Seats are corrected while the event runs.")
    p = _seated(s, cmd.player_id)
    to = s.tables.get(cmd.table_id)
    if to is None:
        raise _error(
            "table_not_in_play", "That table is not in play.", rule="TSEAT-2",
            table_id=cmd.table_id,
        )  # fmt: skip
    if not 1 <= cmd.seat <= to.max_seats:
        raise _error(
            "invalid_seat", f"Table {cmd.table_id} has seats 1 to {to.max_seats}.",
            rule="TSEAT-2", seat=cmd.seat,
        )  # fmt: skip
    if (p.table_id, p.seat) == (cmd.table_id, cmd.seat):
        raise _error("already_in_that_seat", "The player is in that seat already.")
    if cmd.seat in to.seats:
        raise _error(
            "seat_taken", "That seat is taken: move its player first.", rule="TSEAT-2",
            player_id=to.seats[cmd.seat],
        )  # fmt: skip
    assert p.table_id is not None and p.seat is not None
    for table_id in {p.table_id, cmd.table_id}:
        if s.tables[table_id].in_hand:
            raise _error(
                "hand_in_progress", "Correct the seat between hands.", rule="TSEAT-2",
                table_id=table_id,
            )  # fmt: skip
    b.emit(PlayerMoved(cmd.player_id, p.table_id, p.seat, cmd.table_id, cmd.seat, "wrong_seat"))


def _schedule(b: _Builder, cmd: ScheduleStart, now: datetime) -> None:
    """TREG-5: the lobby time, or a delay (logged with its reason)."""
    if b.state.status != REGISTERING:
        raise _error("tournament_started", "The tournament has already started.", rule="TREG-5")
    try:
        at = parse_time(cmd.start_at)
    except ValueError:
        raise _error("invalid_time", "start_at must be ISO-8601 with a UTC offset.") from None
    if cmd.delay and not cmd.reason.strip():
        raise _error("reason_required", "A delay is logged with its reason.", rule="TREG-5")
    b.emit(StartScheduled(iso(at), cmd.delay, cmd.reason))


def _miss_start(b: _Builder, cmd: MissScheduledStart, now: datetime) -> None:
    """TREG-5: record once that the lobby time found too few entries (TREG-3)."""
    s = b.state
    if scheduled_start_due(s, now) != "missed":
        return  # a stale timer: started, delayed, or recorded already
    assert s.scheduled_start is not None
    registered = sum(1 for p in s.players.values() if p.status == REGISTERED)
    b.emit(ScheduledStartMissed(iso(s.scheduled_start), registered, s.config.minimum_field))


def _roll_back(b: _Builder, cmd: RollBackHands, now: datetime) -> None:
    """CXL-1: the hands in progress go back to their start stacks."""
    hands = tuple(
        TableHand(t.table_id, t.hand_number)
        for t in sorted(b.state.tables.values(), key=lambda t: t.table_id)
        if t.hand_number is not None
    )
    if not hands:
        raise _error("no_hand_in_progress", "No hand is in progress.", rule="CXL-1")
    b.emit(HandsRolledBack(hands, cmd.reason, iso(now)))


def _cancel(b: _Builder, cmd: CancelTournament, now: datetime) -> None:
    """CXL-2..9: settle every player under the versioned policy."""
    s = b.state
    cfg = s.config
    if cmd.method not in cancellation.METHODS:
        raise _error("invalid_cancellation", f"method must be one of {cancellation.METHODS}",
                     rule="CXL-2")  # fmt: skip
    if not cmd.reason.strip():
        raise _error("reason_required", "A cancellation is recorded with its reason.",
                     rule="CXL-2")  # fmt: skip
    if any(t.in_hand for t in s.tables.values()):
        raise _error("hand_in_progress", "Roll back the hands in progress first (CXL-1).",
                     rule="CXL-1")  # fmt: skip
    itm = s.status == RUNNING and payouts.event_in_the_money(
        s.players_left, s.contributions, cfg, s.entries
    )
    if cmd.method == "rollback" or s.status == REGISTERING:
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


def _pay(b: _Builder, cmd: payments.PaymentCommand, now: datetime) -> None:
    """Paying winnings at the cage, holding them (ELIM-6..9)."""
    for event in payments.decide(b.state, cmd, now):
        b.emit(event)


def _equal_prizes_left(s: TournamentState) -> bool:
    """ELIM-1 (second half): every remaining player would get the same prize, with the pool
    final (no late entries or rebuys to come) and no deal (it has its own end)."""
    if s.players_left < 2 or _busted(s) or s.late_reg_open or s.deal.agreed is not None:
        return False
    if deals.rebuys_open(s) or s.hand_for_hand:
        return False
    prizes = deals.remaining_prizes(s)
    return len(set(prizes)) == 1 and prizes[0] > 0


def _by_chips(s: TournamentState) -> tuple[tuple[int, int, int], ...]:
    """The remaining players ranked by chips (places 1, 2, ...; equal stacks ranked by
    seat), when the event ends with several players left."""
    left = sorted(
        (p for p in s.players.values() if p.status == PLAYING and p.stack > 0),
        key=lambda p: (-p.stack, p.seat or 0, p.player_id),
    )
    return tuple((p.player_id, i, i) for i, p in enumerate(left, 1))


def _deal(b: _Builder, cmd: deals.DealCommand, now: datetime) -> None:
    """Deal commands (DEAL-1..11, :mod:`tournaments.domain.deals`); a deal that leaves
    nothing to play for ends the event, places by chips (ELIM-1)."""
    for event in deals.decide(b.state, cmd, now):
        b.emit(event)
    agreed = b.state.deal.agreed
    just_agreed = any(isinstance(e, DealAgreed) for e in b.events)
    if agreed is not None and just_agreed and agreed.money_on_table == 0:
        _finish(b, now, _by_chips(b.state))


_HANDLERS: dict[type, Any] = {
    Register: _register,
    Unregister: _unregister,
    LateRegister: _late_register,
    ReEnter: _reenter,
    Rebuy: _rebuy,
    AddOn: _add_on,
    StartTournament: _start,
    StartClock: _start_clock,
    AdvanceLevel: _advance,
    PauseClock: _pause,
    ResumeClock: _resume,
    StartBreak: _start_break,
    EndBreak: _end_break,
    CloseLateRegistration: _close_late,
    StartHandForHand: _start_hfh,
    EndHandForHand: _end_hfh,
    StartTableHand: _start_table_hand,
    RecordHandResult: _record_hand,
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
    RebuyIfBusted: _rebuy_if_busted,
    RollBackHands: _roll_back,
    CancelTournament: _cancel,
    CorrectSeat: _correct_seat,
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
    "AdvanceLevel",
    "CancelTournament",
    "ClockState",
    "ClockView",
    "CloseLateRegistration",
    "Command",
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
]
