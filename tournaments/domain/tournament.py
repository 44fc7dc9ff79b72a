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
from dataclasses import dataclass, field, replace
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
    HAND_MIN_RAISE_RULE,
    TournamentConfig,
    parse_time,
    validate_config,
)
from tournaments.domain.events import (
    AddOnTaken,
    BountyPlaced,
    BracketDrawn,
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

REGISTERING = "registering"
RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"

# player status
REGISTERED = "registered"  # before the start
PLAYING = "playing"  # seated (a stack of 0 only between a hand and his elimination)
ELIMINATED = "eliminated"
UNREGISTERED = "unregistered"


# --- state ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's current (or last) entry. ``stack`` in chips; ``entries``: his entries so
    far (1 + re-entries). ``hand_start_stack`` / ``hand_table`` / ``hand_number`` /
    ``hand_rank``: his last hand (rank in the reported best hands, 0 best), for ranking a
    bust (ELIM-2..5)."""

    player_id: int
    entry_number: int
    status: str
    stack: int = 0
    paid_with: str = "cash"  # this entry's buy-in (TREG-11)
    table_id: int | None = None
    seat: int | None = None
    entries: int = 1
    rebuys: int = 0
    add_ons: int = 0
    wait_for_big_blind: bool = False
    hand_start_stack: int = 0
    hand_table: int | None = None
    hand_number: int | None = None
    hand_rank: int | None = None
    knocked_out_by: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table in play: ``seats`` seat -> player id; the last (or running) hand's button and
    blinds (before the first hand only the drawn ``button_seat``); ``hand_number`` of the
    running hand (``None``: idle) with its ``hand_level`` and hand-for-hand ``hand_round``."""

    table_id: int
    max_seats: int
    seats: Mapping[int, int] = field(default_factory=dict)
    button_seat: int | None = None
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    hand_number: int | None = None
    hand_level: int | None = None
    hand_round: int | None = None
    hands_played: int = 0
    idle_hands: int = 0  # hands in a row with a player ruled absent (HU-4)

    @property
    def in_hand(self) -> bool:
        return self.hand_number is not None

    def layout(self) -> seating.TableLayout:
        return seating.TableLayout(
            self.table_id, self.max_seats, self.seats, self.button_seat, self.big_blind_seat,
            self.in_hand,
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class ClockState:
    """The level clock. ``level`` 0: not started. ``version`` changes with every clock
    event (stale timers compare it). While the level runs ``level_ends_at`` is set;
    paused, on a break, or with a break due between levels, ``level_remaining`` (seconds)
    holds the rest. ``break_due``: waiting for the hands in progress (CLK-7)."""

    level: int = 0
    version: int = 0
    started_at: datetime | None = None
    paused: bool = False
    level_ends_at: datetime | None = None
    level_remaining: int = 0
    break_due: BreakDue | None = None
    on_break: bool = False
    break_after_level: int | None = None
    break_ends_at: datetime | None = None
    break_remaining: int = 0
    last_sync_slot: datetime | None = None
    hands_in_level: int = 0  # completed while levels count hands (SHOW-1)


@dataclass(frozen=True, slots=True)
class Elimination:
    """An entry out of the tournament, in elimination order."""

    player_id: int
    entry_number: int
    place: int
    place_to: int
    tie_rank: int
    group: int


@dataclass(frozen=True, slots=True)
class TournamentState:
    """A tournament as its stream says. Money in CZK, chips in chips.

    ``entries``: entries in the field (re-entries included, unregistered ones not);
    ``contributions``: the prize-pool part paid (buy-ins, re-entry, rebuy and add-on
    prices); ``fees``: the house's part; ``chips_issued``: every chip put in play (the sum
    of all stacks always equals it). ``tables``: the tables in play; ``break_order``: every
    table in the order they break (the last one is the final table)."""

    tournament_id: str
    config: TournamentConfig
    status: str = REGISTERING
    players: Mapping[int, PlayerState] = field(default_factory=dict)
    next_entry: int = 1
    entries: int = 0
    contributions: int = 0
    fees: int = 0
    chips_issued: int = 0
    tables: Mapping[int, TableInfo] = field(default_factory=dict)
    reserve_tables: tuple[int, ...] = ()
    break_order: tuple[int, ...] = ()
    late_reg_open: bool = False
    clock: ClockState = field(default_factory=ClockState)
    hand_for_hand: bool = False
    hfh_round: int = 0
    hfh_played: frozenset[int] = frozenset()
    eliminations: tuple[Elimination, ...] = ()
    final_table_id: int | None = None
    results: tuple[Result, ...] = ()
    deal: deals.DealState = field(default_factory=deals.DealState)
    bounty: bounties.BountyState = field(default_factory=bounties.BountyState)
    payments: payments.PaymentsState = field(default_factory=payments.PaymentsState)
    early_credited: Mapping[int, int] = field(default_factory=dict)
    penalties: penalties.PenaltyState = field(default_factory=penalties.PenaltyState)
    paid: Mapping[int, cancellation.Paid] = field(default_factory=dict)
    scheduled_start: datetime | None = None
    start_missed: bool = False  # the scheduled start found too few entries (TREG-5)
    pending_rebuys: frozenset[int] = frozenset()
    cancellation: TournamentCancelled | None = None
    seats_won: Mapping[int, int] = field(default_factory=dict)  # CZK in satellite seats
    bracket: headsup.Bracket = field(default_factory=headsup.Bracket)  # HU-1..4
    match_tables: Mapping[str, int] = field(default_factory=dict)  # match id -> table

    @property
    def players_left(self) -> int:
        """Players seated with chips."""
        return sum(1 for p in self.players.values() if p.status == PLAYING and p.stack > 0)

    @property
    def total_chips(self) -> int:
        """Sum of every stack (equals ``chips_issued``: chips are conserved)."""
        return sum(p.stack for p in self.players.values() if p.status == PLAYING)

    @property
    def prize_pool(self) -> int:
        """Current prize pool in CZK (TREG-15: provisional until entries close)."""
        return payouts.prize_pool(self.contributions, self.config.guarantee)

    @property
    def places_paid(self) -> int:
        return payouts.places_paid(self.config.payout_table, self.entries)

    def open_break_order(self) -> list[int]:
        """Tables in play, first to break first."""
        return [t for t in self.break_order if t in self.tables]


# --- commands ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CreateTournament:
    tournament_id: str
    config: TournamentConfig


@dataclass(frozen=True, slots=True)
class Register:
    """Register before the start (TREG-1, TREG-9: one entry per player), paid with cash, a
    satellite seat or T-Money (``paid_with``, TREG-11)."""

    player_id: int
    paid_with: str = "cash"


@dataclass(frozen=True, slots=True)
class Unregister:
    """Withdraw before the start and the deadline, with a refund (TREG-10)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class LateRegister:
    """Enter after the start while late registration is open (TREG-7/8); ``seed`` draws
    the seat."""

    player_id: int
    seed: int
    paid_with: str = "cash"


@dataclass(frozen=True, slots=True)
class ReEnter:
    """A new entry for an eliminated player (TREG-9, ``config.reentry``)."""

    player_id: int
    seed: int


@dataclass(frozen=True, slots=True)
class Rebuy:
    """A rebuy between hands while the stack is at or below the threshold."""

    player_id: int


@dataclass(frozen=True, slots=True)
class RebuyIfBusted:
    """During a hand: rebuy if this hand busts the player (TREG-14)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class AddOn:
    player_id: int


@dataclass(frozen=True, slots=True)
class StartTournament:
    """Seat draw over ``table_ids`` (the first ones needed are used, the rest kept for
    late entries) and the button draw. ``break_order``: every table, first to break first
    (default: ``table_ids`` reversed, so the first table is the final table)."""

    table_ids: tuple[int, ...]
    seed: int
    break_order: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class StartClock:
    """Start level 1 now."""


@dataclass(frozen=True, slots=True)
class AdvanceLevel:
    """The level-end timer: ``[]`` unless ``expected_level`` and ``expected_clock_version``
    are current and the level's time is up."""

    expected_level: int
    expected_clock_version: int


@dataclass(frozen=True, slots=True)
class PauseClock:
    pass


@dataclass(frozen=True, slots=True)
class ResumeClock:
    pass


@dataclass(frozen=True, slots=True)
class StartBreak:
    """A break now (the director) or at a synchronized slot (the timer, with
    ``expected_clock_version`` and ``slot``). ``minutes``: default ``sync_break_minutes``."""

    minutes: int | None = None
    expected_clock_version: int | None = None
    slot: str | None = None


@dataclass(frozen=True, slots=True)
class EndBreak:
    """End the break: the timer (with ``expected_clock_version``, only once its time is
    up) or the director (at once)."""

    expected_clock_version: int | None = None


@dataclass(frozen=True, slots=True)
class CloseLateRegistration:
    reason: str = "director"


@dataclass(frozen=True, slots=True)
class StartHandForHand:
    pass


@dataclass(frozen=True, slots=True)
class EndHandForHand:
    seed: int = 0


@dataclass(frozen=True, slots=True)
class StartTableHand:
    """Table ``table_id`` deals ``hand_number`` with the button and blinds it placed."""

    table_id: int
    hand_number: int
    button_seat: int | None = None
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None


@dataclass(frozen=True, slots=True)
class RecordHandResult:
    """The hand at ``table_id`` is settled: chips per player dealt in at its start and end.

    ``rebuys``: busted players who rebuy before the next deal (TREG-14). ``best_hands``:
    player ids, best hand first, when the dealer entered them (ELIM-3 remainder). ``seed``
    draws seats when a table is broken or the final table is drawn.
    """

    table_id: int
    hand_number: int
    starting_stacks: Mapping[int, int]
    final_stacks: Mapping[int, int]
    seed: int
    rebuys: tuple[int, ...] = ()
    best_hands: tuple[int, ...] = ()
    knockouts: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    conduct_flags: tuple[tuple[int, str, str], ...] = ()
    absent: tuple[int, ...] = ()  # players ruled absent at the deal (SEAT-13; HU-4)


@dataclass(frozen=True, slots=True)
class ScheduleStart:
    """Set (or, with ``delay``, move) the lobby start time (TREG-5), ISO UTC."""

    start_at: str
    delay: bool = False
    reason: str = ""


@dataclass(frozen=True, slots=True)
class CorrectSeat:
    """The floor finds a player in the wrong seat (TSEAT-2): he is moved, stack and all,
    to ``seat`` of ``table_id`` (the seat he was drawn to), between hands."""

    player_id: int
    table_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class MissScheduledStart:
    """The clock at the lobby time, with too few entries to start (TREG-5, TREG-3)."""


@dataclass(frozen=True, slots=True)
class RollBackHands:
    """After a server crash: every hand in progress back to its start stacks (CXL-1)."""

    reason: str = "server crash"


@dataclass(frozen=True, slots=True)
class CancelTournament:
    """Cancel and settle (CXL-2): ``rollback`` or ``roll_forward``; management decides."""

    method: str
    reason: str


Command = (
    CreateTournament | Register | Unregister | LateRegister | ReEnter | Rebuy | AddOn
    | StartTournament | StartClock | AdvanceLevel | PauseClock | ResumeClock | StartBreak
    | EndBreak | CloseLateRegistration | StartHandForHand | EndHandForHand | StartTableHand
    | RecordHandResult | deals.DealCommand | payments.PaymentCommand
    | penalties.PenaltyCommand | RebuyIfBusted | ScheduleStart | RollBackHands | CancelTournament
    | CorrectSeat | MissScheduledStart
)  # fmt: skip


# --- queries ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandPermission:
    """May the table deal now, and with which stakes (the level in force, CLK-2).

    ``code`` / ``rule`` say why not (``None`` when allowed). ``ante_type`` uses the hand
    engine's names (``none``, ``per_player``, ``big_blind``); tournament hands use
    ``min_raise_rule`` (BET-7) and no rake."""

    allowed: bool
    code: str | None
    rule: str | None
    level: int
    small_blind: int
    big_blind: int
    ante: int
    ante_type: str
    min_raise_rule: str = HAND_MIN_RAISE_RULE
    rake_percent_bp: int = 0
    hand_for_hand_round: int | None = None
    killed_hands: tuple[int, ...] = ()


def _refusal(state: TournamentState, table_id: int) -> tuple[str, str | None] | None:
    if state.status != RUNNING:
        return "tournament_not_running", None
    if state.clock.level == 0:
        return "clock_not_started", "CLK-1"
    table = state.tables.get(table_id)
    if table is None:
        return "table_not_in_play", "TSEAT-4"
    if table.in_hand:
        return "hand_in_progress", None
    if state.clock.on_break:
        return "on_break", "CLK-8"
    if state.clock.break_due is not None:
        return "break_due", "CLK-7"
    if state.deal.discussing:
        return "deal_in_discussion", "DEAL-4"
    if _final_table_due(state):
        return "final_table_due", "TSEAT-8"
    if table_id in _tables_due_to_break(state):
        return "table_breaking", "TSEAT-4"
    with_chips = sum(1 for p in table.seats.values() if state.players[p].stack > 0)
    if with_chips < 2:
        return "not_enough_players", "TSEAT-3"
    if state.hand_for_hand and (
        table_id in state.hfh_played
        or any(t.in_hand and t.hand_round != state.hfh_round for t in state.tables.values())
    ):
        return "hand_for_hand_waiting", "TSEAT-9"
    return None


def hand_permission(state: TournamentState, table_id: int) -> HandPermission:
    """Whether ``table_id`` may deal its next hand now and the stakes to use.

    Refusal codes: ``tournament_not_running``, ``clock_not_started``, ``table_not_in_play``,
    ``hand_in_progress``, ``on_break``, ``break_due`` (CLK-7), ``final_table_due``
    (TSEAT-8), ``table_breaking`` (TSEAT-4), ``not_enough_players``,
    ``hand_for_hand_waiting`` (TSEAT-9: another table has not finished the round).
    """
    refusal = _refusal(state, table_id)
    level = state.clock.level
    stakes = state.config.level(max(level, 1))
    return HandPermission(
        allowed=refusal is None,
        code=None if refusal is None else refusal[0],
        rule=None if refusal is None else refusal[1],
        level=level,
        small_blind=stakes.small_blind,
        big_blind=stakes.big_blind,
        ante=stakes.ante,
        ante_type=stakes.table_ante_type,
        hand_for_hand_round=state.hfh_round if state.hand_for_hand else None,
        killed_hands=_killed_hands(state, table_id),
    )


def _killed_hands(state: TournamentState, table_id: int) -> tuple[int, ...]:
    """Players at the table sitting out a penalty: dealt in, blinds posted, hand killed
    (PEN-2)."""
    table = state.tables.get(table_id)
    if table is None:
        return ()
    return tuple(sorted(p for p in table.seats.values() if p in state.penalties.sitting_out))


def may_start_hand(state: TournamentState, table_id: int) -> bool:
    """``hand_permission(state, table_id).allowed``."""
    return _refusal(state, table_id) is None


def level_end_at(state: TournamentState) -> datetime | None:
    """When the running level ends (``None``: paused, on a break, or not started)."""
    return state.clock.level_ends_at


def _sync_slots_after(config: TournamentConfig, start: datetime) -> datetime:
    """The first synchronized slot (``:sync_minute``) strictly after ``start``."""
    slot = start.replace(minute=config.sync_minute, second=0, microsecond=0)
    if slot <= start:
        slot += timedelta(hours=1)
    return slot


def next_break_at(state: TournamentState) -> datetime | None:
    """When the next break is due (CLK-3/CLK-4 synchronized slot, or the end of the level
    a scheduled break follows, CLK-6), ``None`` when none is known (paused, on a break, no
    more breaks, clock not started, tournament finished)."""
    c, cfg = state.clock, state.config
    if (
        state.status == FINISHED
        or c.level == 0
        or c.on_break
        or c.break_due is not None
        or c.paused
    ):
        return None
    if cfg.breaks_mode == "interval":  # CLK-6: every span of play from the start
        assert c.started_at is not None
        span = timedelta(minutes=cfg.interval_minutes)
        return (c.last_sync_slot or c.started_at) + span
    if cfg.breaks_mode == "synchronized":
        assert c.started_at is not None
        first = _sync_slots_after(cfg, c.started_at)
        if c.last_sync_slot is None:
            return first
        return c.last_sync_slot + timedelta(hours=cfg.sync_every_hours)
    if c.level_ends_at is None or levels_by_hands(state):  # SHOW-1: no clock time known
        return None
    at = c.level_ends_at
    for level in range(c.level, len(cfg.levels) + 1):
        if cfg.break_after(level) is not None:
            return at
        at += timedelta(minutes=cfg.level(level + 1).minutes)
    return None


def scheduled_start_due(state: TournamentState, now: datetime) -> str | None:
    """What the clock does at the lobby time (TREG-5): ``"start"`` (the field is big
    enough, TREG-3), ``"missed"`` (too few entries: recorded once, the director decides),
    ``None`` (nothing: no time set, not yet, started, or already recorded as missed)."""
    if state.status != REGISTERING or state.scheduled_start is None or state.start_missed:
        return None
    if not cancellation.start_due(state.scheduled_start, now):
        return None
    registered = sum(1 for p in state.players.values() if p.status == REGISTERED)
    return "start" if registered >= state.config.minimum_field else "missed"


def due_clock_commands(state: TournamentState, now: datetime) -> list[Command]:
    """The clock commands due at ``now`` (for the beat sweep and ETA tasks): level end,
    break end, synchronized break start, late registration closing at its clock time."""
    c = state.clock
    due: list[Command] = []
    if state.status != RUNNING or c.level == 0:
        return []
    by_time = not levels_by_hands(state)
    if by_time and not c.paused and c.level_ends_at is not None and c.level_ends_at <= now:
        due.append(AdvanceLevel(c.level, c.version))
    if c.on_break and not c.paused and c.break_ends_at is not None and c.break_ends_at <= now:
        due.append(EndBreak(c.version))
    if state.config.breaks_mode in ("synchronized", "interval"):
        slot = next_break_at(state)
        if slot is not None and slot <= now:
            due.append(StartBreak(None, c.version, iso(slot)))
    until = state.config.late_reg_until
    if state.late_reg_open and until is not None and parse_time(until) <= now:
        due.append(CloseLateRegistration("clock_time"))
    return due


@dataclass(frozen=True, slots=True)
class ClockView:
    """What tablets, the director's console and the public clock show. Seconds, chips,
    CZK. ``average_stack``: chips in play // players left."""

    level: int
    small_blind: int
    big_blind: int
    ante: int
    ante_type: str
    seconds_left: int
    paused: bool
    on_break: bool
    break_due: bool
    break_seconds_left: int
    next_break_at: str | None
    players_left: int
    entries: int
    average_stack: int
    prize_pool: int
    places_paid: int
    late_registration_open: bool
    hand_for_hand: bool
    hands_left: int | None = None


def levels_by_hands(state: TournamentState) -> bool:
    """Whether levels now count hands rather than minutes (SHOW-1): ``level_hands`` set,
    and one table left or ``level_hands_phase`` ``"always"``."""
    cfg = state.config
    if not cfg.level_hands or state.status != RUNNING:
        return False
    return cfg.level_hands_phase == "always" or len(state.tables) <= 1


def clock_view(state: TournamentState, now: datetime) -> ClockView:
    """The public clock at ``now``."""
    c = state.clock
    stakes = state.config.level(max(c.level, 1))
    left = state.players_left
    if c.level_ends_at is not None:
        seconds = max(0, int((c.level_ends_at - now).total_seconds()))
    else:
        seconds = c.level_remaining
    if c.break_ends_at is not None:
        break_seconds = max(0, int((c.break_ends_at - now).total_seconds()))
    else:
        break_seconds = c.break_remaining
    nb = next_break_at(state)
    return ClockView(
        level=c.level, small_blind=stakes.small_blind, big_blind=stakes.big_blind,
        ante=stakes.ante, ante_type=stakes.ante_type, seconds_left=seconds, paused=c.paused,
        on_break=c.on_break, break_due=c.break_due is not None, break_seconds_left=break_seconds,
        next_break_at=None if nb is None else iso(nb), players_left=left, entries=state.entries,
        average_stack=state.total_chips // left if left else 0, prize_pool=state.prize_pool,
        places_paid=state.places_paid, late_registration_open=state.late_reg_open,
        hand_for_hand=state.hand_for_hand,
        hands_left=(
            max(0, state.config.level_hands - c.hands_in_level) if levels_by_hands(state) else None
        ),
    )  # fmt: skip


def late_registration_open(state: TournamentState, now: datetime) -> bool:
    """Late entries are accepted now (TREG-7): open, within the level and the clock time."""
    cfg = state.config
    if state.status != RUNNING or not state.late_reg_open:
        return False
    if cfg.late_reg_until_level is not None and state.clock.level > cfg.late_reg_until_level:
        return False
    return cfg.late_reg_until is None or now < parse_time(cfg.late_reg_until)


# --- decide -----------------------------------------------------------------------------


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
    if _is_headsup(s):
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
    due = set(_tables_due_to_break(s))
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


# --- clock ------------------------------------------------------------------------------


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


# --- hand-for-hand and hands ------------------------------------------------------------


def _start_hfh(b: _Builder, cmd: StartHandForHand, now: datetime) -> None:
    s = b.state
    if s.status != RUNNING or s.hand_for_hand:
        raise _error("hand_for_hand_not_possible", "Hand-for-hand is on or play has not begun.")
    if _is_headsup(s):
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
    refusal = _refusal(s, cmd.table_id)
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
    elif not _is_headsup(s) and _equal_prizes_left(b.state):
        ranked = _by_chips(b.state)  # ELIM-1: nothing left to play for
        _finish(b, now, tuple((pid, 1, len(ranked)) for pid, _, _ in ranked))


def _level_by_hands(b: _Builder, now: datetime) -> None:
    """SHOW-1: the level's hands are played: it ends as a timed level would."""
    s, c = b.state, b.state.clock
    if not levels_by_hands(s) or c.paused or c.on_break or c.break_due is not None:
        return
    if c.level and c.hands_in_level >= s.config.level_hands:
        _end_level(b, now)


# --- after a hand: eliminations, table plan ---------------------------------------------


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


def _in_play(s: TournamentState) -> int:
    """Players seated, counting those with no chips whose elimination waits for the end of
    the hand-for-hand round (so that no table is held back from finishing it)."""
    return sum(1 for p in s.players.values() if p.status == PLAYING)


def _final_table_due(s: TournamentState) -> bool:
    if s.status != RUNNING or len(s.tables) < 2 or _is_headsup(s):
        return False
    left = _in_play(s)
    return (
        left <= s.config.final_table_players
        or seating.tables_needed(left, s.config.table_size) == 1
    )


def _tables_due_to_break(s: TournamentState) -> list[int]:
    if s.status != RUNNING or _final_table_due(s) or _is_headsup(s):
        return []
    return seating.tables_to_break(_in_play(s), s.open_break_order(), s.config.table_size)


def _settle(b: _Builder, rng: random.Random | None) -> None:
    """After a hand (or an entry): eliminations, hand-for-hand rounds, late registration
    closing (TREG-8, TREG-4), then the table plan: final table (TSEAT-8), breaking tables
    (TSEAT-4/7), balancing (TSEAT-3/5/6)."""
    s = b.state
    if s.status != RUNNING:
        return
    if _is_headsup(s):
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
    if _final_table_due(s):
        if rng is not None and not any(t.in_hand for t in s.tables.values()):
            _final_table(b, rng)
        return
    if rng is not None:
        idle = [t for t in _tables_due_to_break(s) if not s.tables[t].in_hand]
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
    due = set(_tables_due_to_break(s))
    layouts = {t: info.layout() for t, info in s.tables.items() if t not in due}
    for m in seating.balance(
        layouts, policy=cfg.balance_placement, seat_filter=cfg.broken_table_seat_filter
    ):
        b.emit(_moved(m))


# --- heads-up events (HU-1..4) ------------------------------------------------------------


def _is_headsup(s: TournamentState) -> bool:
    return s.config.format == "headsup"


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
            _is_headsup(b.state)
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


# --- evolve -----------------------------------------------------------------------------


def _with_player(s: TournamentState, p: PlayerState) -> TournamentState:
    return replace(s, players={**s.players, p.player_id: p})


def _with_table(s: TournamentState, t: TableInfo) -> TournamentState:
    return replace(s, tables={**s.tables, t.table_id: t})


def _seat(s: TournamentState, pid: int, table_id: int, seat: int) -> TournamentState:
    t = s.tables[table_id]
    if seat in t.seats:
        raise ValueError(f"seat {seat} of table {table_id} is taken")
    return _with_table(s, replace(t, seats={**t.seats, seat: pid}))


def _unseat(s: TournamentState, p: PlayerState) -> TournamentState:
    if p.table_id is None or p.table_id not in s.tables:
        return s
    t = s.tables[p.table_id]
    seats = {k: v for k, v in t.seats.items() if v != p.player_id}
    return _with_table(s, replace(t, seats=seats))


def _match_seated(s: TournamentState, event: MatchSeated) -> TournamentState:
    """Both players leave their tables (the ``released`` ones go back to the reserve) and
    sit at the match's table with a fresh stack; the chips in play change by the reset."""
    players = dict(s.players)
    before = sum(players[a.player_id].stack for a in event.seats)
    for a in event.seats:
        s = _unseat(s, players[a.player_id])
    tables = {t: info for t, info in s.tables.items() if t not in event.released}
    table = tables.get(event.table_id) or TableInfo(event.table_id, s.config.table_size)
    table = replace(table, seats={a.seat: a.player_id for a in event.seats},
                    button_seat=event.button.button_seat, idle_hands=0)  # fmt: skip
    for a in event.seats:
        players[a.player_id] = replace(
            players[a.player_id], table_id=a.table_id, seat=a.seat, stack=event.stack,
            wait_for_big_blind=False,
        )  # fmt: skip
    reserve = tuple(t for t in (*event.released, *s.reserve_tables) if t != event.table_id)
    return replace(
        s, players=players, tables={**tables, event.table_id: table}, reserve_tables=reserve,
        chips_issued=s.chips_issued + event.stack * len(event.seats) - before,
        match_tables={**s.match_tables, event.match_id: event.table_id},
    )  # fmt: skip


def _clock(s: TournamentState, **changes: Any) -> TournamentState:
    return replace(s, clock=replace(s.clock, **changes))


def evolve(state: TournamentState | None, event: DomainEvent) -> TournamentState:
    """The state after ``event`` (events of other types leave it unchanged)."""
    if isinstance(event, TournamentCreated):
        return TournamentState(event.tournament_id, event.config)
    assert state is not None, "a tournament stream starts with TournamentCreated"
    s = state
    match event:
        case PlayerRegistered():
            p = PlayerState(
                event.player_id, event.entry_number, PLAYING if event.late else REGISTERED,
                stack=event.stack, paid_with=event.paid_with,
            )  # fmt: skip
            old = s.players.get(event.player_id)
            if old is not None and old.status != UNREGISTERED:
                p = replace(p, entries=old.entries + 1, rebuys=old.rebuys, add_ons=old.add_ons)
            ticket = event.paid_with != "cash"
            s = _paid(s, event.player_id, event.buy_in, event.fee, by_ticket=ticket)
            return replace(
                _with_player(s, p), next_entry=event.entry_number + 1, entries=s.entries + 1,
                contributions=s.contributions + event.buy_in, fees=s.fees + event.fee,
                chips_issued=s.chips_issued + event.stack,
            )  # fmt: skip
        case PlayerUnregistered():
            s = replace(s, paid={k: v for k, v in s.paid.items() if k != event.player_id})
            p = replace(s.players[event.player_id], status=UNREGISTERED, stack=0)
            cfg = s.config
            head = s.bounty.heads.get(event.player_id, 0)
            if head:
                s = replace(s, bounty=replace(
                    s.bounty, heads={**s.bounty.heads, event.player_id: 0},
                    paid_in=s.bounty.paid_in - head,
                ))  # fmt: skip
            return replace(
                _with_player(s, p), entries=s.entries - 1,
                contributions=s.contributions - cfg.buy_in, fees=s.fees - cfg.fee,
                chips_issued=s.chips_issued - cfg.starting_stack,
            )  # fmt: skip
        case PlayerReEntered():
            s = _paid(s, event.player_id, event.price, event.fee)
            old = s.players[event.player_id]
            p = replace(
                old, entry_number=event.entry_number, status=PLAYING, stack=event.stack,
                entries=old.entries + 1, table_id=None, seat=None, wait_for_big_blind=False,
            )  # fmt: skip
            return replace(
                _with_player(s, p), next_entry=event.entry_number + 1, entries=s.entries + 1,
                contributions=s.contributions + event.price, fees=s.fees + event.fee,
                chips_issued=s.chips_issued + event.stack,
            )  # fmt: skip
        case RebuyTaken() | AddOnTaken():
            s = _paid(s, event.player_id, event.price, event.fee)
            old = s.players[event.player_id]
            p = replace(old, stack=old.stack + event.chips)
            if isinstance(event, RebuyTaken):
                p = replace(p, rebuys=old.rebuys + 1)
            else:
                p = replace(p, add_ons=old.add_ons + 1)
            return replace(
                _with_player(s, p), contributions=s.contributions + event.price,
                fees=s.fees + event.fee, chips_issued=s.chips_issued + event.chips,
            )  # fmt: skip
        case TournamentStarted():
            size = s.config.table_size
            seats: dict[int, dict[int, int]] = {t: {} for t in event.tables}
            players = dict(s.players)
            for a in event.seats:
                seats[a.table_id][a.seat] = a.player_id
                players[a.player_id] = replace(
                    players[a.player_id], status=PLAYING, table_id=a.table_id, seat=a.seat
                )
            buttons = {bd.table_id: bd.button_seat for bd in event.buttons}
            tables = {
                t: TableInfo(t, size, seats[t], button_seat=buttons.get(t)) for t in event.tables
            }
            open_late = (
                s.config.late_reg_until_level is not None or s.config.late_reg_until is not None
            )
            return replace(
                s, status=RUNNING, players=players, tables=tables,
                reserve_tables=event.reserve_tables, break_order=event.break_order,
                late_reg_open=open_late,
            )  # fmt: skip
        case TableAdded():
            s = _with_table(s, TableInfo(event.table_id, s.config.table_size))
            return replace(
                s, reserve_tables=tuple(t for t in s.reserve_tables if t != event.table_id)
            )
        case LateEntrySeated():
            p = replace(
                s.players[event.player_id], table_id=event.table_id, seat=event.seat,
                wait_for_big_blind=event.wait_for_big_blind,
            )  # fmt: skip
            return _seat(_with_player(s, p), p.player_id, event.table_id, event.seat)
        case LateRegistrationClosed():
            return replace(s, late_reg_open=False)
        case LevelStarted():
            started = s.clock.started_at or parse_time(event.started_at)
            return _clock(
                s, level=event.level, version=event.clock_version, started_at=started,
                paused=False, level_ends_at=parse_time(event.ends_at), level_remaining=0,
                on_break=False, break_after_level=None, break_ends_at=None, hands_in_level=0,
            )  # fmt: skip
        case ClockPaused():
            if s.clock.on_break:
                return _clock(s, version=event.clock_version, paused=True, break_ends_at=None,
                              break_remaining=event.remaining_seconds)  # fmt: skip
            return _clock(s, version=event.clock_version, paused=True, level_ends_at=None,
                          level_remaining=event.remaining_seconds)  # fmt: skip
        case ClockResumed():
            ends = parse_time(event.ends_at)
            if s.clock.on_break:
                return _clock(s, version=event.clock_version, paused=False, break_ends_at=ends,
                              break_remaining=0)  # fmt: skip
            return _clock(s, version=event.clock_version, paused=False, level_ends_at=ends,
                          level_remaining=0)  # fmt: skip
        case BreakDue():
            changes: dict[str, Any] = {"break_due": event}
            if event.after_level is not None:  # the level is over
                changes |= {"level_ends_at": None, "level_remaining": 0}
            if event.slot is not None:
                changes["last_sync_slot"] = parse_time(event.slot)
            return _clock(s, **changes)
        case BreakStarted():
            due = s.clock.break_due
            return _clock(
                s, version=event.clock_version, break_due=None, on_break=True,
                break_after_level=None if due is None else due.after_level,
                break_ends_at=parse_time(event.ends_at), break_remaining=0,
                level_ends_at=None, level_remaining=event.level_remaining_seconds,
            )  # fmt: skip
        case BreakEnded():
            resumed = None if event.level_ends_at is None else parse_time(event.level_ends_at)
            return _clock(
                s, version=event.clock_version, on_break=False, break_ends_at=None,
                level_ends_at=resumed, level_remaining=0 if resumed else s.clock.level_remaining,
            )  # fmt: skip
        case HandForHandStarted():
            return replace(s, hand_for_hand=True, hfh_round=event.round, hfh_played=frozenset())
        case HandForHandEnded():
            return replace(s, hand_for_hand=False, hfh_played=frozenset())
        case HandForHandRoundCompleted():
            return replace(s, hfh_round=event.round + 1, hfh_played=frozenset())
        case TableHandStarted():
            t = replace(
                s.tables[event.table_id], hand_number=event.hand_number, hand_level=event.level,
                hand_round=event.hand_for_hand_round, button_seat=event.button_seat,
                small_blind_seat=event.small_blind_seat, big_blind_seat=event.big_blind_seat,
            )  # fmt: skip
            s = _with_table(s, t)
            if event.hand_for_hand_round is not None:
                s = replace(s, hfh_played=s.hfh_played | {event.table_id})
            return s
        case HandResultRecorded():
            if levels_by_hands(s):  # SHOW-1: this hand counts toward the level
                s = _clock(s, hands_in_level=s.clock.hands_in_level + 1)
            t = s.tables[event.table_id]
            s = _with_table(s, replace(
                t, hand_number=None, hand_level=None, hand_round=None,
                hands_played=t.hands_played + 1, idle_hands=t.idle_hands + 1 if event.absent else 0,
            ))  # fmt: skip
            ranks = {pid: i for i, pid in enumerate(event.best_hands)}
            kos = {k.player_id: k.winners for k in event.knockouts}
            dealt = {ps.player_id for ps in event.stacks}
            s = replace(s, pending_rebuys=s.pending_rebuys - dealt)
            s = replace(s, penalties=penalties.hand_played(
                s.penalties, [ps.player_id for ps in event.stacks]
            ))  # fmt: skip
            players = dict(s.players)
            for ps in event.stacks:
                players[ps.player_id] = replace(
                    players[ps.player_id], stack=ps.final_stack, wait_for_big_blind=False,
                    hand_start_stack=ps.starting_stack, hand_table=event.table_id,
                    hand_number=event.hand_number, hand_rank=ranks.get(ps.player_id),
                    knocked_out_by=kos.get(ps.player_id, ()),
                )  # fmt: skip
            return replace(s, players=players)
        case PlayerEliminated():
            p = s.players[event.player_id]
            s = _unseat(s, p)  # chips he still holds leave play (a match lost by HU-4)
            s = replace(s, chips_issued=s.chips_issued - p.stack)
            p = replace(p, status=ELIMINATED, table_id=None, seat=None, stack=0)
            elimination = Elimination(
                p.player_id, event.entry_number, event.place, event.place_to, event.tie_rank,
                event.group,
            )  # fmt: skip
            return replace(_with_player(s, p), eliminations=(*s.eliminations, elimination))
        case PlayerMoved():
            p = s.players[event.player_id]
            s = _unseat(s, p)
            s = _seat(s, p.player_id, event.to_table, event.to_seat)
            p = replace(p, table_id=event.to_table, seat=event.to_seat,
                        wait_for_big_blind=event.wait_for_big_blind)  # fmt: skip
            return _with_player(s, p)
        case TableBroken():  # back in the reserve, first in line for late entries
            return replace(
                s, tables={k: v for k, v in s.tables.items() if k != event.table_id},
                reserve_tables=(event.table_id, *s.reserve_tables),
            )  # fmt: skip
        case FinalTableRedrawn():
            cfg = s.config
            size = max(cfg.table_size, cfg.final_table_players)
            seats_map = {a.seat: a.player_id for a in event.seats}
            players = dict(s.players)
            for a in event.seats:
                players[a.player_id] = replace(
                    players[a.player_id], table_id=a.table_id, seat=a.seat,
                    wait_for_big_blind=False,
                )  # fmt: skip
            table = TableInfo(event.table_id, size, seats_map, button_seat=event.button.button_seat)
            return replace(s, players=players, tables={event.table_id: table},
                           final_table_id=event.table_id)  # fmt: skip
        case BracketDrawn():
            players = dict(s.players)
            for pid in event.entrants:  # in play from the draw, byes included
                players[pid] = replace(players[pid], status=PLAYING)
            bracket = headsup.evolve(s.bracket, event)
            return replace(s, players=players, bracket=bracket)
        case MatchStarted() | MatchEnded() | BracketWon():
            return replace(s, bracket=headsup.evolve(s.bracket, event))
        case MatchSeated():
            return _match_seated(s, event)
        case SatelliteSeatWon():
            won = s.seats_won.get(event.player_id, 0) + event.seats * event.seat_value
            return replace(s, seats_won={**s.seats_won, event.player_id: won})
        case TournamentFinished():
            return replace(
                s, status=FINISHED, results=event.results,
                clock=_stopped(s.clock, parse_time(event.finished_at)),
            )  # fmt: skip
        case _ if isinstance(event, deals.DEAL_EVENTS):
            return replace(s, deal=deals.evolve(s.deal, event))
        case _ if isinstance(event, bounties.BOUNTY_EVENTS):
            if isinstance(event, BountyPlaced) and event.paid_by == "entrant":
                ticket = s.players[event.player_id].paid_with != "cash"
                s = _paid(s, event.player_id, 0, 0, event.amount, by_ticket=ticket)
            return replace(s, bounty=bounties.evolve(s.bounty, event))
        case _ if isinstance(event, payments.PAYMENT_EVENTS):
            return replace(s, payments=payments.evolve(s.payments, event))
        case ChipRaceRun():
            players = dict(s.players)
            for ps in event.stacks:
                players[ps.player_id] = replace(players[ps.player_id], stack=ps.final_stack)
            return replace(s, players=players, chips_issued=s.chips_issued + event.chips_added)
        case _ if isinstance(event, penalties.PENALTY_EVENTS):
            return replace(s, penalties=penalties.evolve(s.penalties, event))
        case PlayerDisqualified():
            p = s.players[event.player_id]
            s = _unseat(s, p)
            group = s.eliminations[-1].group + 1 if s.eliminations else 1
            elimination = Elimination(
                p.player_id, event.entry_number, event.place, event.place, 0, group
            )
            p = replace(p, status=ELIMINATED, table_id=None, seat=None, stack=0)
            return replace(
                _with_player(s, p), eliminations=(*s.eliminations, elimination),
                chips_issued=s.chips_issued - event.chips_removed,
            )  # fmt: skip
        case RebuyRequested():
            return replace(s, pending_rebuys=s.pending_rebuys | {event.player_id})
        case StartScheduled():  # a new time (a delay): the clock starts it then
            return replace(s, scheduled_start=parse_time(event.start_at), start_missed=False)
        case ScheduledStartMissed():
            return replace(s, start_missed=True)
        case TournamentCancelled():
            return replace(s, status=CANCELLED, cancellation=event)
        case EarlyPayoutCredited():
            credited = {**s.early_credited, **dict.fromkeys(event.players, event.amount)}
            return replace(s, early_credited=credited)
    return s


def _paid(
    s: TournamentState, player_id: int, prize_pool: int, fee: int, bounty: int = 0,
    *, by_ticket: bool = False,
) -> TournamentState:  # fmt: skip
    """What each player paid in, and how much of it with a seat or T-Money (CXL-3 rollback
    refunds it in the same mix, TREG-11)."""
    old = s.paid.get(player_id, cancellation.Paid())
    ticket = prize_pool + fee + bounty if by_ticket else 0
    new = cancellation.Paid(
        old.prize_pool + prize_pool, old.fees + fee, old.bounties + bounty,
        old.t_money + ticket, old.t_money_fees + (fee if by_ticket else 0),
    )  # fmt: skip
    return replace(s, paid={**s.paid, player_id: new})


def _stopped(c: ClockState, at: datetime) -> ClockState:
    """The clock as it stood at ``at``, stopped for good (the tournament finished): the
    level's and break's remaining seconds frozen, no running end time, no break due."""

    def left(ends_at: datetime | None, remaining: int) -> int:
        return remaining if ends_at is None else max(0, int((ends_at - at).total_seconds()))

    return replace(
        c, level_ends_at=None, level_remaining=left(c.level_ends_at, c.level_remaining),
        break_ends_at=None, break_remaining=left(c.break_ends_at, c.break_remaining),
        break_due=None, break_after_level=None,
    )  # fmt: skip


def load(events: list[DomainEvent]) -> TournamentState | None:
    """Fold a stream's events into the state (``None`` for an empty stream)."""
    state: TournamentState | None = None
    for event in events:
        state = evolve(state, event)
    return state
