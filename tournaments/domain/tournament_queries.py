"""Questions asked of a tournament's state without changing it: may a table deal its next
hand (hand-for-hand, breaks, the final table, tables to break: CLK-7, HFH-*, SEAT-*), the
clock's view and when the level ends or the next break starts (CLK-*), which timer
commands are due, and whether late registration is open (TREG-*).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from tournaments.domain import (
    cancellation,
    seating,
)  # fmt: skip
from tournaments.domain.config import (
    HAND_MIN_RAISE_RULE,
    TournamentConfig,
    parse_time,
)
from tournaments.domain.events import (
    Result,
    iso,
)
from tournaments.domain.tournament_commands import (
    AdvanceLevel,
    CloseLateRegistration,
    Command,
    EndBreak,
    StartBreak,
)
from tournaments.domain.tournament_state import (
    CANCELLED,
    FINISHED,
    PLAYING,
    REGISTERED,
    REGISTERING,
    RUNNING,
    TournamentState,
    levels_by_hands,
)


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


HAND_REFUSAL_DETAILS = {
    "tournament_not_running": "The tournament is not running.",
    "clock_not_started": "The clock has not started.",
    "table_not_in_play": "This table is not in play in the tournament.",
    "hand_in_progress": "A hand is in progress at this table.",
    "on_break": "The tournament is on a break.",
    "break_due": "A break is due: it starts when the hands in progress end.",
    "deal_in_discussion": "A deal is being discussed: the table waits.",
    "final_table_due": "The final table is drawn when the other hands end: wait for it.",
    "table_breaking": "This table is breaking: its players are moved first.",
    "not_enough_players": "Fewer than two players with chips sit at this table.",
    "hand_for_hand_waiting": "Hand-for-hand: the other tables finish this round first.",
}
"""What a dealer is told when his table may not deal, by :func:`hand_refusal`'s code: he
used to read "This table may not deal now." whatever he was waiting for (found by QA)."""


def hand_refusal(state: TournamentState, table_id: int) -> tuple[str, str | None] | None:
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
    if final_table_due(state):
        return "final_table_due", "TSEAT-8"
    if table_id in tables_due_to_break(state):
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
    refusal = hand_refusal(state, table_id)
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
    return hand_refusal(state, table_id) is None


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
    more breaks, clock not started, tournament finished or cancelled)."""
    c, cfg = state.clock, state.config
    if (
        state.status in (FINISHED, CANCELLED)
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
    CZK. ``average_stack``: chips in play // players left. ``late_registration_until_level``
    and ``late_registration_until`` (ISO UTC): when late registration ends, as configured
    (TREG-7), so a board can say so before the start; None when not limited that way."""

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
    late_registration_until_level: int | None = None
    late_registration_until: str | None = None


def clock_view(state: TournamentState, now: datetime) -> ClockView:
    """The public clock at ``now``. Before the clock starts it shows level 1 with its whole
    time (it read 0:00); on a break between levels, the stakes of the level that follows
    it (the board showed the finished level's blinds; both found by QA). Once the event is
    finished or cancelled nobody is left playing (``players_left`` and ``average_stack`` 0),
    and its clock stands still."""
    c = state.clock
    between = c.on_break and c.break_after_level is not None
    stakes = state.config.level(c.level + 1 if between else max(c.level, 1))
    # a finished event has nobody left playing: a deal placed the players still holding
    # chips (the board read "Finished" beside "Players left 3", found by QA)
    left = 0 if state.status in (FINISHED, CANCELLED) else state.players_left
    if c.level_ends_at is not None:
        seconds = max(0, int((c.level_ends_at - now).total_seconds()))
    elif c.level == 0:
        seconds = state.config.level(1).minutes * 60
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
        late_registration_until_level=state.config.late_reg_until_level,
        late_registration_until=state.config.late_reg_until,
    )  # fmt: skip


def late_registration_open(state: TournamentState, now: datetime) -> bool:
    """Late entries are accepted now (TREG-7): open, within the level and the clock time."""
    cfg = state.config
    if state.status != RUNNING or not state.late_reg_open:
        return False
    if cfg.late_reg_until_level is not None and state.clock.level > cfg.late_reg_until_level:
        return False
    return cfg.late_reg_until is None or now < parse_time(cfg.late_reg_until)


def _in_play(s: TournamentState) -> int:
    """Players seated, counting those with no chips whose elimination waits for the end of
    the hand-for-hand round (so that no table is held back from finishing it)."""
    return sum(1 for p in s.players.values() if p.status == PLAYING)


def _two_tables_play_on(s: TournamentState, left: int) -> bool:
    """The director set a final table smaller than a full table (TSEAT-8: "the floor or
    management decides how many players the final table has") and more players than that
    are left: two tables play on, as long as each can deal (two players or more)."""
    cfg = s.config
    smaller = cfg.final_table_players < cfg.table_size
    return smaller and left > cfg.final_table_players and left >= 4


def final_table_due(s: TournamentState) -> bool:
    """The final table is drawn now (TSEAT-8): several tables still play and no more than
    ``config.final_table_size`` players are left, or the players left fit at one table.
    With a final table smaller than a full table (``final_table_size`` 8 at 9-max) the
    tables play on until that many are left: 9 players stay on two tables."""
    if s.status != RUNNING or len(s.tables) < 2 or is_headsup(s):
        return False
    left = _in_play(s)
    if left <= s.config.final_table_players:
        return True
    if _two_tables_play_on(s, left):
        return False
    return seating.tables_needed(left, s.config.table_size) == 1


def tables_due_to_break(s: TournamentState) -> list[int]:
    """The tables to break now (TSEAT-4), first ones first in the break order, so that the
    players left fill the fewest tables; while a smaller final table is not yet due
    (TSEAT-8) two tables stay, so they are not merged into one before the final table."""
    if s.status != RUNNING or final_table_due(s) or is_headsup(s):
        return []
    left = _in_play(s)
    keep = 2 if _two_tables_play_on(s, left) else 1
    return seating.tables_to_break(left, s.open_break_order(), s.config.table_size, keep=keep)


def winners(s: TournamentState) -> tuple[Result, ...]:
    """The results placed 1st once the event is over (ELIM-1): the winner, or every player
    left when equal prizes ended it (tied for the places they share, each placed 1st);
    empty before the finish. Each of these entries reads ``winner``, none ``playing``."""
    if s.status != FINISHED:
        return ()
    return tuple(r for r in s.results if r.place == 1)


def is_headsup(s: TournamentState) -> bool:
    return s.config.format == "headsup"
