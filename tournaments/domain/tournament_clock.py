"""The tournament clock's rules: levels (CLK-1/2/3), the synchronized break and its chip
race (CLK-4/6/7, CHIP-*), the director's pause (CLK-8), the end of late registration by
level (TREG-3) and hand-for-hand's start (TSEAT-9). Levels counted in hands (a heads-up
bracket's) end here too.

Pure Python, no Django; reached through :func:`tournaments.domain.tournament.decide`.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, cast

from tournaments.domain import (
    chip_race,
    early_payouts,
)  # fmt: skip
from tournaments.domain.config import (
    TournamentConfig,
    parse_time,
    validate_config,
)
from tournaments.domain.events import (
    BreakDue,
    BreakEnded,
    BreakStarted,
    ChipRaceRun,
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    EarlyPayoutCredited,
    HandForHandStarted,
    LateRegistrationClosed,
    LevelsAmended,
    LevelStarted,
    PlayerStack,
    iso,
)
from tournaments.domain.tournament_commands import (
    AdjustClock,
    AdvanceLevel,
    AmendLevels,
    CloseLateRegistration,
    EndBreak,
    PauseClock,
    ResumeClock,
    StartBreak,
    StartClock,
    StartHandForHand,
)
from tournaments.domain.tournament_queries import (
    is_headsup,
)
from tournaments.domain.tournament_rules import (
    Builder,
    rule_error,
)
from tournaments.domain.tournament_state import (
    CANCELLED,
    FINISHED,
    PLAYING,
    RUNNING,
    TournamentState,
    levels_by_hands,
    seconds_left,
)


def _level_started(s: TournamentState, level: int, now: datetime) -> LevelStarted:
    lv = s.config.level(level)
    return LevelStarted(
        level, s.clock.version + 1, iso(now), iso(now + timedelta(minutes=lv.minutes)),
        lv.small_blind, lv.big_blind, lv.ante, lv.ante_type,
    )  # fmt: skip


def start_clock(b: Builder, cmd: StartClock, now: datetime) -> None:
    """``StartClock``: level 1 starts (CLK-1).

    Raises:
        DomainError: the tournament is not running or the clock already started."""
    s = b.state
    if s.status != RUNNING:
        raise rule_error("tournament_not_running", "Start the tournament first.")
    if s.clock.level != 0:
        raise rule_error("clock_started", "The clock is already running.")
    b.emit(_level_started(s, 1, now))


def close_late_registration_if(b: Builder, reason: str) -> None:
    """Late registration closes with ``reason`` if it is still open (TREG-3); a field
    already in the money is credited its early payout at once (ELIM-7)."""
    s = b.state
    b.emit(LateRegistrationClosed(reason, s.players_left, s.entries))  # type: ignore[arg-type]
    credit_early_payout_if_due(b)


def credit_early_payout_if_due(b: Builder) -> None:
    """ELIM-7: when the field is in the money and late registration is closed, every player
    still in is credited the minimum cash at once (``EarlyPayoutCredited``), once."""
    s = b.state
    if early_payouts.due(s):
        left = tuple(sorted(p.player_id for p in s.players.values()
                            if p.status == PLAYING and p.stack > 0))  # fmt: skip
        b.emit(EarlyPayoutCredited(
            left, early_payouts.minimum_cash(s), iso(b.now) if b.now else ""
        ))  # fmt: skip


def advance_level(b: Builder, cmd: AdvanceLevel, now: datetime) -> None:
    """``AdvanceLevel`` (the level timer): the level ends, and the next starts, or the
    break that follows it (CLK-2/4/6); a stale timer (other level or clock version) decides
    nothing."""
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
    # The level ended when it was due, however late its timer fired (a busy worker, a
    # restart): the next level counts from then, so the published schedule never drifts
    # (it drifted by each timer's lateness, 26 s after one restart; found by QA).
    _end_level(b, c.level_ends_at)


def _end_level(b: Builder, now: datetime) -> None:
    """The level is over (its time, or its hands: SHOW-1): late registration closes if it
    ends here, then its break is due, or the next level starts."""
    s, c = b.state, b.state.clock
    cfg = s.config
    if s.late_reg_open and cfg.late_reg_until_level == c.level:
        close_late_registration_if(b, "level")
    brk = cfg.break_after(c.level)
    if brk is not None:
        b.emit(BreakDue(brk.minutes, c.level, _colour_up(cfg, brk)))
        start_break_if_idle(b, now)
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


def _chip_races(b: Builder, denomination: int, seed: int) -> None:
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


def start_break_if_idle(b: Builder, now: datetime) -> None:
    """A break that is due starts once no table is in a hand (CLK-7), with its chip
    race when the break colours up a denomination (CHIP-*)."""
    s = b.state
    due = s.clock.break_due
    if due is None or any(t.in_hand for t in s.tables.values()):
        return
    c = s.clock
    if due.after_level is not None:
        remaining = 0
    elif c.level_ends_at is not None:
        remaining = seconds_left(c.level_ends_at, now)
    else:
        remaining = c.level_remaining
    b.emit(BreakStarted(
        c.version + 1, iso(now), iso(now + timedelta(minutes=due.minutes)), due.minutes,
        remaining, due.chip_up_denomination,
    ))  # fmt: skip
    if due.chip_up_denomination is not None:
        seed = int(now.timestamp() * 1000) ^ (c.version * 7919)
        _chip_races(b, due.chip_up_denomination, seed)


def pause_clock(b: Builder, cmd: PauseClock, now: datetime) -> None:
    """``PauseClock`` (CLK-8): the director stops the clock; refused while a break is due.

    Raises:
        DomainError: ``break_due`` and the clock-state refusals."""
    c = b.state.clock
    if c.level == 0 or c.paused:
        raise rule_error("clock_not_running", "The clock is not running.")
    if c.break_due is not None:
        raise rule_error("break_due", "A break is due; it starts when the hands end.", rule="CLK-7")
    ends = c.break_ends_at if c.on_break else c.level_ends_at
    remaining = 0 if ends is None else seconds_left(ends, now)
    b.emit(ClockPaused(c.version + 1, iso(now), remaining))


def resume_clock(b: Builder, cmd: ResumeClock, now: datetime) -> None:
    """``ResumeClock`` (CLK-8): the paused clock runs again from where it stopped."""
    c = b.state.clock
    if not c.paused:
        raise rule_error("clock_not_paused", "The clock is not paused.")
    remaining = c.break_remaining if c.on_break else c.level_remaining
    b.emit(ClockResumed(c.version + 1, iso(now), iso(now + timedelta(seconds=remaining))))


MAX_CLOCK_ADJUSTMENT = 3600
"""The most seconds one correction of the clock adds or takes off."""


def adjust_clock(b: Builder, cmd: AdjustClock, now: datetime) -> None:
    """``AdjustClock``: the director gives the level or the break in progress more time, or
    takes some off, running or stopped (a clock that counts hands has no time, SHOW-1).

    Raises:
        DomainError ``clock_not_running`` (not started, or a break is due and the level is
        over, CLK-7), ``clock_counts_hands`` (SHOW-1), ``invalid_clock_adjustment`` (0, or
        more than ``MAX_CLOCK_ADJUSTMENT`` either way), ``clock_adjustment_too_large``
        (taking off the whole time left: at least 1 s must stay, with
        ``remaining_seconds``)."""
    s, c = b.state, b.state.clock
    if s.status != RUNNING or c.level == 0 or (c.break_due is not None and not c.on_break):
        raise rule_error("clock_not_running", "The clock is not running.")
    if levels_by_hands(s):
        raise rule_error("clock_counts_hands", "This level ends after its hands, not by the "
                         "clock.", rule="SHOW-1")  # fmt: skip
    if cmd.seconds == 0 or abs(cmd.seconds) > MAX_CLOCK_ADJUSTMENT:
        raise rule_error(
            "invalid_clock_adjustment",
            f"Add or take off 1 to {MAX_CLOCK_ADJUSTMENT} seconds.",
            seconds=cmd.seconds,
            max_seconds=MAX_CLOCK_ADJUSTMENT,
        )
    ends = c.break_ends_at if c.on_break else c.level_ends_at
    stopped = c.break_remaining if c.on_break else c.level_remaining
    left = stopped if c.paused or ends is None else seconds_left(ends, now)
    if left + cmd.seconds < 1:
        raise rule_error(
            "clock_adjustment_too_large",
            f"Only {left} seconds are left: at least one must stay.",
            remaining_seconds=left,
            seconds=cmd.seconds,
        )
    if c.paused or ends is None:
        b.emit(ClockAdjusted(c.version + 1, iso(now), cmd.seconds, None, left + cmd.seconds))
    else:
        new_end = ends + timedelta(seconds=cmd.seconds)
        b.emit(ClockAdjusted(c.version + 1, iso(now), cmd.seconds, iso(new_end), None))


MAX_REASON = 200
"""The longest reason a director gives for a change, characters."""

MAX_STRUCTURE_LEVELS = 200
"""The most levels a structure has, as published (``tournaments.serializers.MAX_LEVELS``)."""


def amend_levels(b: Builder, cmd: AmendLevels, now: datetime) -> None:
    """``AmendLevels`` (TREG-6): the structure from ``from_level`` on becomes
    ``cmd.levels``; the level in progress and those before it stay as played. Past the
    last level the clock has gone on at the last level's stakes (:meth:`TournamentConfig.
    level`): those levels are kept as played, so the new ones start after the level in
    progress. The whole new structure is checked as publishing checks it (blinds never
    going down, CLK-1; each break after a level that exists, CLK-8).

    Raises:
        DomainError ``tournament_finished``; ``level_already_played`` (``from_level`` is the
        level in progress or one before it, with ``first_level`` the earliest that may
        change); ``invalid_structure`` (no levels, a gap after the last level, no reason);
        ``invalid_tournament_config`` (TREG-6, every problem of the new structure).
    """
    s, c, cfg = b.state, b.state.clock, b.state.config
    if s.status in (FINISHED, CANCELLED):
        raise rule_error("tournament_finished", "The tournament is over.")
    first = c.level + 1 if s.status == RUNNING else 1
    if cmd.from_level < first:
        raise rule_error(
            "level_already_played",
            f"Level {cmd.from_level} is in progress or played: change level {first} or later.",
            rule="TREG-6", from_level=cmd.from_level, first_level=first,
        )  # fmt: skip
    played = cfg.levels + (cfg.levels[-1],) * max(0, c.level - len(cfg.levels))
    count = min(cmd.from_level - 1, len(played)) + len(cmd.levels)
    if (
        not cmd.levels
        or cmd.from_level > len(played) + 1
        or count > MAX_STRUCTURE_LEVELS
        or not cmd.reason.strip()
    ):
        raise rule_error(
            "invalid_structure",
            f"Give 1 to {MAX_STRUCTURE_LEVELS} levels in all, from level {len(played) + 1} at "
            "the latest, and the reason for the change.",
            rule="TREG-6", latest_level=len(played) + 1, max_levels=MAX_STRUCTURE_LEVELS,
        )  # fmt: skip
    levels = played[: cmd.from_level - 1] + tuple(cmd.levels)
    validate_config(replace(cfg, levels=levels))
    b.emit(LevelsAmended(cmd.from_level, levels, cmd.reason.strip()[:MAX_REASON], iso(now)))


def would_stop_for_deal(s: TournamentState) -> bool:
    """DEAL-4: whether a deal discussion starting now stops the level clock, so that the
    blinds do not go up while the players talk: a running timed level does. A clock already
    stopped, on a break or with a break due (CLK-7) is left alone, and so are levels that
    count hands (SHOW-1): no hand is dealt meanwhile."""
    c = s.clock
    if c.level == 0 or c.paused or c.on_break or c.break_due is not None:
        return False
    return not levels_by_hands(s) and c.level_ends_at is not None


def stop_for_deal(b: Builder, now: datetime) -> None:
    """Stop the clock for a deal discussion (:func:`would_stop_for_deal` said so):
    ``ClockPaused`` with the level's time left."""
    c = b.state.clock
    assert c.level_ends_at is not None
    b.emit(ClockPaused(c.version + 1, iso(now), seconds_left(c.level_ends_at, now)))


def restart_after_deal(b: Builder, now: datetime) -> None:
    """The deal discussion that stopped the clock is over (agreed with money left to play
    for, or called off): the clock runs again with the level's time it had left, unless
    the director already restarted it or the event is over."""
    c = b.state.clock
    if c.paused and not c.on_break and b.state.status == RUNNING:
        ends = now + timedelta(seconds=c.level_remaining)
        b.emit(ClockResumed(c.version + 1, iso(now), iso(ends)))


def start_break(b: Builder, cmd: StartBreak, now: datetime) -> None:
    """``StartBreak``: the director calls the break now, or it is marked due and starts
    when the hands in progress end (CLK-7)."""
    s = b.state
    c = s.clock
    timer = cmd.expected_clock_version is not None
    busy = c.level == 0 or c.paused or c.on_break or c.break_due is not None
    if timer and (cmd.expected_clock_version != c.version or busy or s.status != RUNNING):
        return
    if busy:
        raise rule_error("break_not_possible", "The clock must be running, with no break due.")
    minutes = cmd.minutes or s.config.sync_break_minutes
    b.emit(BreakDue(minutes, None, None, cmd.slot))
    start_break_if_idle(b, now)


def end_break(b: Builder, cmd: EndBreak, now: datetime) -> None:
    """``EndBreak`` (the break timer or the director): play resumes, starting the next
    level when the break fell between levels (CLK-4). Ended while the clock is paused
    (CLK-8), the clock stays paused with the level's whole time left: it had started the
    level's time under the pause, and the resume then ended the level at once (QA)."""
    c = b.state.clock
    if cmd.expected_clock_version is not None:
        if (
            cmd.expected_clock_version != c.version
            or not c.on_break
            or c.break_ends_at is None
            or now < c.break_ends_at
        ):
            return
        # The break ended when it was due, however late its timer fired (a restart): the
        # levels after it keep the published schedule, as a level's end does (found by QA:
        # a break that ended while `up` was stopped ended at the restart).
        now = c.break_ends_at
    elif not c.on_break:
        raise rule_error("not_on_break", "There is no break to end.")
    if c.break_after_level is not None:
        b.emit(BreakEnded(c.version + 1, iso(now), None))
        b.emit(_level_started(b.state, c.break_after_level + 1, now))
    else:
        ends = now + timedelta(seconds=c.level_remaining)
        b.emit(BreakEnded(c.version + 1, iso(now), iso(ends)))
    if c.paused:  # CLK-8: the break is over, the clock stays stopped with the level's time
        after = b.state.clock
        remaining = seconds_left(after.level_ends_at or now, now)
        b.emit(ClockPaused(after.version + 1, iso(now), remaining))


def close_late_registration(b: Builder, cmd: CloseLateRegistration, now: datetime) -> None:
    """``CloseLateRegistration``: the director, or the timer at the configured
    level, closes late registration (TREG-3)."""
    s = b.state
    if not s.late_reg_open:
        if cmd.reason == "director":
            raise rule_error("late_registration_closed", "Late registration is closed.")
        return
    if cmd.reason == "clock_time":
        until = s.config.late_reg_until
        if until is None or now < parse_time(until):
            return
    close_late_registration_if(b, cmd.reason)


def end_level_by_hands(b: Builder, now: datetime) -> None:
    """SHOW-1: the level's hands are played: it ends as a timed level would."""
    s, c = b.state, b.state.clock
    if not levels_by_hands(s) or c.paused or c.on_break or c.break_due is not None:
        return
    if c.level and c.hands_in_level >= s.config.level_hands:
        _end_level(b, now)


def start_hand_for_hand(b: Builder, cmd: StartHandForHand, now: datetime) -> None:
    """``StartHandForHand`` (TSEAT-9): every table deals one hand at a time, the
    level clock stopped.

    Raises:
        DomainError: refused in a heads-up bracket (HU-1) or when already on."""
    s = b.state
    if s.status != RUNNING or s.hand_for_hand:
        raise rule_error("hand_for_hand_not_possible", "Hand-for-hand is on or play has not begun.")
    if is_headsup(s):
        raise rule_error("hand_for_hand_not_possible", "A heads-up bracket has no bubble.",
                     rule="HU-1")  # fmt: skip
    if len(s.tables) < 2:
        raise rule_error(
            "hand_for_hand_one_table", "Hand-for-hand needs more than one table.",
            rule="TSEAT-9",
        )  # fmt: skip
    b.emit(HandForHandStarted(1))
