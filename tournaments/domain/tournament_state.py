"""A tournament's state (:class:`TournamentState`: players, tables, clock, eliminations),
the statuses, ``evolve(state, event)`` and :func:`load`. The rules that decide are in
:mod:`tournaments.domain.tournament`; its docstring gives the rule IDs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from casino.domain_events import DomainEvent
from tournaments.domain import (
    bounties,
    cancellation,
    deals,
    headsup,
    payments,
    payouts,
    penalties,
    seating,
)  # fmt: skip
from tournaments.domain.config import (
    TournamentConfig,
    parse_time,
)
from tournaments.domain.events import (
    AddOnTaken,
    BountyPlaced,
    BracketDrawn,
    BracketWon,
    BreakDue,
    BreakEnded,
    BreakStarted,
    ChipRaceRun,
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    EarlyPayoutCredited,
    FinalTableRedrawn,
    HandForHandEnded,
    HandForHandRoundCompleted,
    HandForHandStarted,
    HandResultRecorded,
    HandStacksCorrected,
    LateEntrySeated,
    LateRegistrationClosed,
    LevelsAmended,
    LevelStarted,
    MatchEnded,
    MatchSeated,
    MatchStarted,
    PlayerDisqualified,
    PlayerEliminated,
    PlayerMoved,
    PlayerReEntered,
    PlayerRegistered,
    PlayerReinstated,
    PlayerUnregistered,
    RebuyRequested,
    RebuyRequestLapsed,
    RebuyTaken,
    Result,
    SatelliteSeatWon,
    ScheduledStartMissed,
    StartScheduled,
    TableAdded,
    TableBroken,
    TableHandStarted,
    TournamentCancelled,
    TournamentCreated,
    TournamentFinished,
    TournamentStarted,
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


@dataclass(frozen=True, slots=True)
class PlayerState:
    """A player's current (or last) entry. ``stack`` in chips; ``entries``: his entries so
    far (1 + re-entries). ``hand_start_stack`` / ``hand_table`` / ``hand_number`` /
    ``hand_rank``: his last hand (rank in the reported best hands, 0 best), for ranking a
    bust (ELIM-2..5); ``hand_round``: its hand-for-hand round, ``None`` for a hand dealt
    outside hand-for-hand (ELIM-5 groups only the busts of one round)."""

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
    hand_round: int | None = None
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

    def layout(self, button_rule: str = "dead_button") -> seating.TableLayout:
        """The table for the seating functions; with the dead button (SEAT-5) the next
        hand's button is the last small blind's seat, known once a hand had one."""
        dead = button_rule == "dead_button" and self.big_blind_seat is not None
        return seating.TableLayout(
            self.table_id, self.max_seats, self.seats, self.button_seat, self.big_blind_seat,
            self.in_hand, self.small_blind_seat if dead else None,
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
    rebuy_windows: Mapping[int, tuple[int, int]] = field(default_factory=dict)
    """Player id -> ``(table_id, seat)`` for a player the last hand at his table eliminated
    in an event with rebuys: until that table deals again he may still rebuy into his seat
    (TREG-14, :class:`PlayerReinstated`)."""
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


def levels_by_hands(state: TournamentState) -> bool:
    """Whether levels now count hands rather than minutes (SHOW-1): ``level_hands`` set,
    and one table left or ``level_hands_phase`` ``"always"``."""
    cfg = state.config
    if not cfg.level_hands or state.status != RUNNING:
        return False
    return cfg.level_hands_phase == "always" or len(state.tables) <= 1


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
    after = _evolve(state, event)
    if state is None or not (state.rebuy_windows or isinstance(event, PlayerEliminated)):
        return after
    return replace(after, rebuy_windows=_rebuy_windows(state, after, event))


def _rebuy_windows(
    before: TournamentState, after: TournamentState, event: DomainEvent
) -> Mapping[int, tuple[int, int]]:
    """TREG-14: an elimination in an event with rebuys opens the player's window to rebuy
    into his seat; his table's next deal, its breaking, the final table's draw, a re-entry
    or the rebuy itself close it."""
    windows = dict(after.rebuy_windows)
    match event:
        case PlayerEliminated():
            p = before.players[event.player_id]
            if after.config.rebuy.allowed and p.table_id is not None and p.seat is not None:
                windows[p.player_id] = (p.table_id, p.seat)
        case TableHandStarted() | TableBroken():
            windows = {pid: w for pid, w in windows.items() if w[0] != event.table_id}
        case FinalTableRedrawn() | TournamentFinished() | TournamentCancelled():
            windows = {}
        case PlayerReEntered() | PlayerReinstated():
            windows.pop(event.player_id, None)
    return windows


def _evolve(state: TournamentState | None, event: DomainEvent) -> TournamentState:
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
            if s.deal.stopped_clock:  # the director restarted it: the clock is his again,
                # and ending the talk does not restart one he stops later (found by QA)
                s = replace(s, deal=replace(s.deal, stopped_clock=False))
            if s.clock.on_break:
                return _clock(s, version=event.clock_version, paused=False, break_ends_at=ends,
                              break_remaining=0)  # fmt: skip
            return _clock(s, version=event.clock_version, paused=False, level_ends_at=ends,
                          level_remaining=0)  # fmt: skip
        case LevelsAmended():
            return replace(s, config=replace(s.config, levels=event.levels))
        case ClockAdjusted():
            left = event.remaining_seconds or 0
            if event.ends_at is None:  # a stopped clock
                key = "break_remaining" if s.clock.on_break else "level_remaining"
                return _clock(s, version=event.clock_version, **{key: left})
            key = "break_ends_at" if s.clock.on_break else "level_ends_at"
            return _clock(s, version=event.clock_version, **{key: parse_time(event.ends_at)})
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
        case HandResultRecorded(voided=True):  # redealt: it counts for nothing
            t = s.tables[event.table_id]
            s = _with_table(s, replace(t, hand_number=None, hand_level=None, hand_round=None,
                                       hands_played=t.hands_played + 1))  # fmt: skip
            if t.hand_round is not None:  # the table plays its hand of the round again
                s = replace(s, hfh_played=s.hfh_played - {event.table_id})
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
                    hand_round=t.hand_round, knocked_out_by=kos.get(ps.player_id, ()),
                )  # fmt: skip
            return replace(s, players=players)
        case HandStacksCorrected():
            players = dict(s.players)
            for ps in event.stacks:
                players[ps.player_id] = replace(players[ps.player_id], stack=ps.final_stack)
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
        case PlayerReinstated():
            p = replace(s.players[event.player_id], status=PLAYING, table_id=event.table_id,
                        seat=event.seat, stack=0,
                        wait_for_big_blind=event.wait_for_big_blind)  # fmt: skip
            s = _seat(s, p.player_id, event.table_id, event.seat)
            moved = {e.entry_number: e for e in event.places}
            eliminations = tuple(
                replace(e, place=moved[e.entry_number].place,
                        place_to=moved[e.entry_number].place_to)
                if e.entry_number in moved else e
                for e in s.eliminations if e.entry_number != event.entry_number
            )  # fmt: skip
            return replace(_with_player(s, p), eliminations=eliminations)
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
        case RebuyRequestLapsed():  # the hand's result already cleared the request
            return s
        case StartScheduled():  # a new time (a delay): the clock starts it then
            return replace(s, scheduled_start=parse_time(event.start_at), start_missed=False)
        case ScheduledStartMissed():
            return replace(s, start_missed=True)
        case TournamentCancelled():  # its clock stops there (it ran on: found by fuzzing)
            return replace(s, status=CANCELLED, cancellation=event,
                           clock=_stopped(s.clock, parse_time(event.cancelled_at)))  # fmt: skip
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


def seconds_left(ends_at: datetime, at: datetime) -> int:
    """Whole seconds from ``at`` until ``ends_at`` (UTC), to the nearest second, never
    below 0: what a pause, a break or the end of the event records of a level. Cutting the
    fraction off took up to a second from the level at each pause."""
    return max(0, round((ends_at - at).total_seconds()))


def _stopped(c: ClockState, at: datetime) -> ClockState:
    """The clock as it stood at ``at``, stopped for good (the tournament finished or was
    cancelled): the
    level's and break's remaining seconds frozen, no running end time, no break due."""

    def left(ends_at: datetime | None, remaining: int) -> int:
        return remaining if ends_at is None else seconds_left(ends_at, at)

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
