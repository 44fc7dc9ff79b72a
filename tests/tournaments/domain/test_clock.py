"""The clock: levels, stale timers, pause and resume, breaks (scheduled, synchronized)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from casino.errors import DomainError
from tournaments.domain import tournament as t
from tournaments.domain.config import AddOnRule, Level, RebuyRule, validate_config
from tournaments.domain.events import (
    AddOnTaken,
    BreakDue,
    BreakEnded,
    BreakStarted,
    ClockAdjusted,
    ClockPaused,
    ClockResumed,
    LevelsAmended,
    LevelStarted,
)

from .support import LEVELS, T0, config, play_hand, started


@pytest.mark.rule("CLK-1")
def test_levels_advance_at_their_end_time() -> None:
    d = started(9)
    (first,) = [e for e in d.events if isinstance(e, LevelStarted)]
    assert (first.level, first.small_blind, first.big_blind) == (1, 25, 50)
    assert t.level_end_at(d.s) == T0 + timedelta(minutes=20)
    assert d(t.AdvanceLevel(1, d.s.clock.version), T0 + timedelta(minutes=19)) == []  # early
    assert t.due_clock_commands(d.s, T0 + timedelta(minutes=20)) == [
        t.AdvanceLevel(1, d.s.clock.version)
    ]
    (e,) = d(t.AdvanceLevel(1, d.s.clock.version), T0 + timedelta(minutes=20))
    assert isinstance(e, LevelStarted) and e.level == 2 and e.big_blind == 100
    assert e.ends_at == (T0 + timedelta(minutes=40)).isoformat()


@pytest.mark.rule("CLK-1")
def test_stale_timers_do_nothing() -> None:
    d = started(9)
    version = d.s.clock.version
    d(t.PauseClock(), d.tick(minutes=5))
    assert d(t.AdvanceLevel(1, version), d.tick(minutes=30)) == []  # paused: version changed
    d(t.ResumeClock())
    assert d(t.AdvanceLevel(1, version), d.tick(minutes=30)) == []  # old version
    assert d(t.AdvanceLevel(7, d.s.clock.version)) == []  # wrong level
    assert len(d(t.AdvanceLevel(1, d.s.clock.version))) == 1


@pytest.mark.rule("CLK-2")
def test_a_hand_started_before_the_level_change_keeps_its_stakes() -> None:
    d = started(9)
    table = next(iter(d.s.tables))
    (started_hand,) = d(t.StartTableHand(table, 1))
    d(t.AdvanceLevel(1, d.s.clock.version), d.tick(minutes=20))
    assert started_hand.level == 1 and started_hand.big_blind == 50  # type: ignore[attr-defined]
    assert d.s.tables[table].hand_level == 1
    perm = t.hand_permission(d.s, table)
    assert not perm.allowed and perm.code == "hand_in_progress"
    assert (perm.level, perm.big_blind) == (2, 100)


def test_pause_and_resume_keep_the_time_left() -> None:
    d = started(9)
    (paused,) = d(t.PauseClock(), T0 + timedelta(minutes=5))
    assert isinstance(paused, ClockPaused) and paused.remaining_seconds == 15 * 60
    assert t.level_end_at(d.s) is None and t.due_clock_commands(d.s, d.tick(hours=3)) == []
    view = t.clock_view(d.s, d.now)
    assert view.paused and view.seconds_left == 900
    (resumed,) = d(t.ResumeClock())
    assert isinstance(resumed, ClockResumed)
    assert t.level_end_at(d.s) == d.now + timedelta(minutes=15)
    assert resumed.clock_version == paused.clock_version + 1
    with pytest.raises(DomainError):
        d(t.ResumeClock())


@pytest.mark.rule("CLK-8")
def test_pauses_keep_the_level_to_the_nearest_second() -> None:
    """Each pause cut the fraction of a second off the level's time left: 0.9 s lost, and
    thirty such pauses took half a minute from the level."""
    d = started(9)
    at = T0 + timedelta(minutes=5, milliseconds=100)  # 14 min 59.9 s left
    for _ in range(30):
        (paused,) = d(t.PauseClock(), at)
        assert isinstance(paused, ClockPaused) and paused.remaining_seconds == 15 * 60
        d(t.ResumeClock(), at + timedelta(seconds=7))
        at += timedelta(seconds=7, milliseconds=100)
    assert t.level_end_at(d.s) == at + timedelta(minutes=14, seconds=59, milliseconds=900)


@pytest.mark.rule("CLK-7")
def test_a_scheduled_break_starts_when_the_hands_in_progress_finish() -> None:
    d = started(18, tables=(1, 2))
    for level in (1, 2, 3):
        d(t.AdvanceLevel(level, d.s.clock.version), d.tick(minutes=20))
    t1, t2 = sorted(d.s.tables)
    d(t.StartTableHand(t1, 1))
    assert t.next_break_at(d.s) == d.now + timedelta(minutes=20)
    events = d(t.AdvanceLevel(4, d.s.clock.version), d.tick(minutes=20))
    assert events == [BreakDue(10, 4, 25)]
    assert t.hand_permission(d.s, t2).code == "break_due"
    with pytest.raises(DomainError):
        d(t.PauseClock())
    stacks = {p: 10_000 for p in d.s.tables[t1].seats.values()}
    events = d(t.RecordHandResult(t1, 1, stacks, stacks, 1), d.tick(minutes=2))
    (brk,) = [e for e in events if isinstance(e, BreakStarted)]
    assert brk.ends_at == (d.now + timedelta(minutes=10)).isoformat()
    assert brk.level_remaining_seconds == 0 and brk.chip_up_denomination == 25
    assert t.hand_permission(d.s, t1).code == "on_break"
    assert t.due_clock_commands(d.s, d.tick(minutes=10)) == [t.EndBreak(d.s.clock.version)]
    due = d.now
    # the break timer fires 22 s late (the server was down): the break ended when due, and
    # level 5 counts from then (it counted from the restart: found by QA)
    events = d(t.EndBreak(d.s.clock.version), due + timedelta(seconds=22))
    assert isinstance(events[0], BreakEnded) and isinstance(events[1], LevelStarted)
    assert events[1].level == 5  # type: ignore[attr-defined]
    assert events[0].ended_at == due.isoformat()  # type: ignore[attr-defined]
    assert t.level_end_at(d.s) == due + timedelta(minutes=20)


@pytest.mark.rule("CLK-8")
def test_events_without_breaks_and_the_director_s_break() -> None:
    d = started(9, breaks=())
    for level in range(1, 6):
        (e,) = d(t.AdvanceLevel(level, d.s.clock.version), d.tick(minutes=20))
        assert isinstance(e, LevelStarted)
    assert t.next_break_at(d.s) is None
    d(t.StartBreak(minutes=15), d.tick(minutes=5))
    assert d.s.clock.on_break and d.s.clock.level_remaining == 15 * 60
    d(t.EndBreak(), d.tick(minutes=3))  # the director ends it early
    assert t.level_end_at(d.s) == d.now + timedelta(minutes=15)


@pytest.mark.rule("CLK-8")
def test_a_break_ended_while_paused_keeps_the_level_and_its_time() -> None:
    """Break, pause, end the break, resume: the level's time ran under the pause and the
    resume ended the level at once, raising the blinds (found by QA)."""
    d = started(9, breaks=())
    d(t.StartBreak(minutes=5), d.tick(minutes=10))  # level 1 has 10 minutes left
    d(t.PauseClock(), d.tick(minutes=1))
    d(t.EndBreak(), d.tick(minutes=1))
    assert d.s.clock.paused and not d.s.clock.on_break
    assert d.s.clock.level == 1 and d.s.clock.level_remaining == 10 * 60
    d.tick(minutes=30)  # still paused: nothing runs
    assert t.due_clock_commands(d.s, d.now) == []
    d(t.ResumeClock())
    assert d.s.clock.level == 1 and t.level_end_at(d.s) == d.now + timedelta(minutes=10)


@pytest.mark.rule("CLK-8")
def test_a_break_between_levels_ended_while_paused_starts_the_next_level_paused() -> None:
    d = started(9)
    for level in range(1, 5):  # the break after level 4 (support.config)
        d(t.AdvanceLevel(level, d.s.clock.version), d.tick(minutes=20))
    assert d.s.clock.on_break and d.s.clock.level == 4
    d(t.PauseClock(), d.tick(minutes=2))
    d(t.EndBreak(), d.tick(minutes=1))
    assert d.s.clock.paused and d.s.clock.level == 5
    assert d.s.clock.level_remaining == 20 * 60
    d(t.ResumeClock(), d.tick(minutes=3))
    assert d.s.clock.level == 5 and t.level_end_at(d.s) == d.now + timedelta(minutes=20)


@pytest.mark.rule("CLK-3")
def test_synchronized_breaks_at_55_past_the_hour() -> None:
    start = datetime(2025, 3, 1, 7, 25, tzinfo=UTC)
    d = started(9, breaks_mode="synchronized", clock=False)
    d(t.StartClock(), start)
    slot = datetime(2025, 3, 1, 7, 55, tzinfo=UTC)
    assert t.next_break_at(d.s) == slot
    due = t.due_clock_commands(d.s, slot)
    version = d.s.clock.version
    assert due == [t.AdvanceLevel(1, version), t.StartBreak(None, version, slot.isoformat())]
    d(due[0], slot)  # level 1's timer fires late, at the slot: level 2 began at 7:45 all the same
    assert d.s.clock.level == 2 and t.level_end_at(d.s) == slot + timedelta(minutes=10)
    events = d(t.StartBreak(None, d.s.clock.version, slot.isoformat()), slot)
    assert isinstance(events[0], BreakDue) and isinstance(events[1], BreakStarted)
    assert events[1].minutes == 5 and events[1].level_remaining_seconds == 10 * 60  # type: ignore[attr-defined]
    d(t.EndBreak(d.s.clock.version), slot + timedelta(minutes=5))
    assert t.next_break_at(d.s) == datetime(2025, 3, 1, 8, 55, tzinfo=UTC)
    assert t.level_end_at(d.s) == slot + timedelta(minutes=15)


@pytest.mark.rule("CLK-4")
def test_two_hourly_synchronized_breaks() -> None:
    d = started(9, breaks_mode="synchronized", sync_every_hours=2, clock=False)
    d(t.StartClock(), datetime(2025, 3, 1, 8, 35, tzinfo=UTC))
    first = datetime(2025, 3, 1, 8, 55, tzinfo=UTC)
    assert t.next_break_at(d.s) == first
    d(t.StartBreak(None, d.s.clock.version, first.isoformat()), first)
    d(t.EndBreak(d.s.clock.version), first + timedelta(minutes=5))
    assert t.next_break_at(d.s) == datetime(2025, 3, 1, 10, 55, tzinfo=UTC)


@pytest.mark.rule("CLK-2")
def test_a_late_level_timer_does_not_shift_the_schedule() -> None:
    """The next level counted from when the timer fired: 0.2 s late after a restart, 26 s
    after a kill, and over a day's levels the schedule drifted by their sum (found by QA).
    It counts from when the level was due."""
    start = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
    d = started(20, clock=False)
    d(t.StartClock(), start)
    due = t.level_end_at(d.s)
    assert due == start + timedelta(minutes=20)
    d(t.AdvanceLevel(1, d.s.clock.version), due + timedelta(seconds=26))  # a late timer
    assert d.s.clock.level == 2
    assert t.level_end_at(d.s) == due + timedelta(minutes=20)  # not 26 s later


def test_the_clock_view_for_tablets_and_the_public_clock() -> None:
    d = started(30)
    view = t.clock_view(d.s, T0 + timedelta(minutes=5))
    assert (view.level, view.small_blind, view.big_blind, view.seconds_left) == (1, 25, 50, 900)
    assert (view.players_left, view.entries, view.average_stack) == (30, 30, 10_000)
    assert view.prize_pool == 30_000 and view.places_paid == 5
    assert view.next_break_at == (T0 + timedelta(minutes=80)).isoformat()


def test_the_clock_view_before_the_start_and_on_a_break_between_levels() -> None:
    """Before the start the clock read 0:00, and on a break between levels the board
    showed the blinds of the level just played (found by QA)."""
    d = started(9, clock=False)
    view = t.clock_view(d.s, T0)
    assert (view.level, view.seconds_left, view.small_blind) == (0, 20 * 60, 25)
    d(t.StartClock(), T0)
    for level in range(1, 5):  # the break after level 4
        d(t.AdvanceLevel(level, d.s.clock.version), d.tick(minutes=20))
    assert d.s.clock.on_break and d.s.clock.level == 4
    upcoming = d.s.config.level(5)
    view = t.clock_view(d.s, d.now)
    assert (view.small_blind, view.big_blind) == (upcoming.small_blind, upcoming.big_blind)
    assert (view.small_blind, view.big_blind) != (d.s.config.level(4).small_blind,
                                                  d.s.config.level(4).big_blind)  # fmt: skip


@pytest.mark.rule("CLK-6")
def test_interval_breaks_after_each_span_from_the_start() -> None:
    d = started(9, breaks_mode="interval", interval_minutes=60, clock=False)
    d(t.StartClock(), datetime(2025, 3, 1, 7, 25, tzinfo=UTC))
    first = datetime(2025, 3, 1, 8, 25, tzinfo=UTC)
    assert t.next_break_at(d.s) == first
    for _ in range(10):  # the timers at 08:25: level ends, then the interval break
        due = t.due_clock_commands(d.s, first)
        if not due or d.s.clock.on_break:
            break
        d(due[-1], first)
    assert d.s.clock.on_break and d.s.clock.last_sync_slot == first
    d(t.EndBreak(d.s.clock.version), first + timedelta(minutes=5))
    assert t.next_break_at(d.s) == datetime(2025, 3, 1, 9, 25, tzinfo=UTC)


@pytest.mark.rule("CLK-5")
@pytest.mark.parametrize("break_minutes", [3, 0])
def test_a_synchronized_rebuy_event_has_an_extra_add_on_break(break_minutes: int) -> None:
    start = datetime(2025, 3, 1, 7, 0, tzinfo=UTC)
    d = started(
        9, breaks_mode="synchronized", clock=False,
        rebuy=RebuyRule(allowed=True, until_level=2, price=500),
        add_on=AddOnRule(allowed=True, at_level=2, price=500, break_minutes=break_minutes),
    )  # fmt: skip
    d(t.StartClock(), start)
    d(t.AdvanceLevel(1, d.s.clock.version), start + timedelta(minutes=20))
    end_of_rebuys = start + timedelta(minutes=40)  # before the 07:55 synchronized break
    events = d(t.AdvanceLevel(2, d.s.clock.version), end_of_rebuys)
    if not break_minutes:  # no extra break: level 3 at once
        assert [type(e) for e in events] == [LevelStarted]
        return
    due, started_break = events
    assert isinstance(due, BreakDue) and due.minutes == 3 and due.after_level == 2
    assert isinstance(started_break, BreakStarted) and d.s.clock.on_break
    player = next(iter(d.s.players))
    assert isinstance(d(t.AddOn(player), end_of_rebuys + timedelta(minutes=1))[0], AddOnTaken)
    assert t.due_clock_commands(d.s, end_of_rebuys + timedelta(minutes=2)) == []
    (ended, level_3) = d(t.EndBreak(d.s.clock.version), end_of_rebuys + timedelta(minutes=3))
    assert isinstance(ended, BreakEnded) and isinstance(level_3, LevelStarted)
    assert level_3.level == 3
    assert t.next_break_at(d.s) == datetime(2025, 3, 1, 7, 55, tzinfo=UTC)  # CLK-3 still


def test_an_add_on_break_needs_an_add_on_level() -> None:
    with pytest.raises(DomainError):
        validate_config(config(add_on=AddOnRule(allowed=False, break_minutes=3)))
    validate_config(config(add_on=AddOnRule(allowed=True, at_level=2, break_minutes=3)))


@pytest.mark.rule("SHOW-1")
def test_levels_count_hands_once_one_table_is_left() -> None:
    d = started(9, tables=(1,), level_hands=3)
    assert t.levels_by_hands(d.s)  # a single table: the final-table phase from the start
    assert t.clock_view(d.s, d.now).hands_left == 3
    late = T0 + timedelta(minutes=25)  # level 1's 20 minutes are over: the clock does nothing
    assert t.due_clock_commands(d.s, late) == []
    assert d(t.AdvanceLevel(1, d.s.clock.version), late) == []
    rng = random.Random(3)
    for left in (2, 1):
        play_hand(d, 1, rng, bust_chance=0)
        assert d.s.clock.level == 1 and t.clock_view(d.s, d.now).hands_left == left
    events = play_hand(d, 1, rng, bust_chance=0)
    (level_2,) = [e for e in events if isinstance(e, LevelStarted)]
    assert level_2.level == 2 and d.s.clock.hands_in_level == 0
    assert t.clock_view(d.s, d.now).hands_left == 3


@pytest.mark.rule("SHOW-1")
def test_levels_go_by_time_while_several_tables_play() -> None:
    d = started(18, tables=(1, 2), level_hands=3)
    assert not t.levels_by_hands(d.s) and t.clock_view(d.s, d.now).hands_left is None
    rng = random.Random(4)
    for _ in range(4):
        play_hand(d, 1, rng, bust_chance=0)
    assert d.s.clock.level == 1  # hands do not end a timed level
    always = started(18, tables=(1, 2), level_hands=3, level_hands_phase="always")
    assert t.levels_by_hands(always.s)
    with pytest.raises(DomainError):
        validate_config(config(level_hands=-1))


@pytest.mark.rule("CLK-1")
def test_the_director_gives_the_level_time_back_or_takes_some_off() -> None:
    """QA: after an outage the director had no way to give the players their time back."""
    d = started(9)
    d.tick(minutes=5)
    (adjusted,) = d(t.AdjustClock(120))
    assert isinstance(adjusted, ClockAdjusted) and adjusted.seconds == 120
    assert t.level_end_at(d.s) == T0 + timedelta(minutes=22)
    assert t.clock_view(d.s, d.now).seconds_left == 17 * 60
    # the old level-end timer is stale; the new one is due two minutes later
    assert d(t.AdvanceLevel(1, d.s.clock.version - 1), T0 + timedelta(minutes=21)) == []
    assert t.due_clock_commands(d.s, T0 + timedelta(minutes=21)) == []
    # now 21 minutes in, one minute left
    d(t.AdjustClock(-30))
    assert t.level_end_at(d.s) == T0 + timedelta(minutes=21, seconds=30)
    with pytest.raises(DomainError) as too_much:
        d(t.AdjustClock(-30))  # 30 s left: at least a second must stay
    assert too_much.value.code == "clock_adjustment_too_large"
    assert too_much.value.context["remaining_seconds"] == 30
    d(t.AdjustClock(15 * 60))
    for bad in (0, 3601, -3601):
        with pytest.raises(DomainError) as refused:
            d(t.AdjustClock(bad))
        assert refused.value.code == "invalid_clock_adjustment"
    # stopped: the time left changes, and resuming runs from it
    d(t.PauseClock(), d.tick(minutes=1))
    d(t.AdjustClock(30))
    assert t.clock_view(d.s, d.now).seconds_left == 14 * 60 + 30 + 30 and d.s.clock.paused
    d(t.ResumeClock(), d.tick(hours=1))
    assert t.level_end_at(d.s) == d.now + timedelta(minutes=15)
    (level_two,) = d(t.AdvanceLevel(1, d.s.clock.version), d.now + timedelta(minutes=16))
    assert isinstance(level_two, LevelStarted) and level_two.level == 2


@pytest.mark.rule("CLK-8")
def test_the_director_lengthens_a_break_in_progress() -> None:
    d = started(9)
    for level in (1, 2, 3, 4):
        d(t.AdvanceLevel(level, d.s.clock.version), d.tick(minutes=20))
    assert d.s.clock.on_break
    ends = d.s.clock.break_ends_at
    assert ends is not None
    d(t.AdjustClock(300))
    assert d.s.clock.break_ends_at == ends + timedelta(minutes=5)
    assert t.clock_view(d.s, d.now).break_seconds_left == 15 * 60


def test_the_clock_cannot_be_corrected_before_it_starts() -> None:
    d = started(9, clock=False)
    with pytest.raises(DomainError) as refused:
        d(t.AdjustClock(60))
    assert refused.value.code == "clock_not_running"


@pytest.mark.rule("CLK-3")
def test_a_clock_started_at_55_has_its_first_synchronized_break_an_hour_later() -> None:
    start = datetime(2025, 3, 1, 7, 55, tzinfo=UTC)
    d = started(9, breaks_mode="synchronized", clock=False)
    d(t.StartClock(), start)
    assert t.next_break_at(d.s) == datetime(2025, 3, 1, 8, 55, tzinfo=UTC)
    assert not any(isinstance(c, t.StartBreak) for c in t.due_clock_commands(d.s, start))
    assert not d.s.clock.on_break


@pytest.mark.rule("TREG-6")
def test_the_director_amends_the_levels_still_to_come() -> None:
    """TREG-6: published parameters may change, kept with a change log. The structure
    could not be changed once published, nor continued past its last level."""
    d = started(9)
    faster = Level(60, 120, 0, "none", 15)
    (amended,) = d(t.AmendLevels(2, (faster, *LEVELS[2:]), "slow field"), d.tick(minutes=5))
    assert isinstance(amended, LevelsAmended) and amended.reason == "slow field"
    assert amended.levels == (LEVELS[0], faster, *LEVELS[2:]) == d.s.config.levels
    assert t.level_end_at(d.s) == T0 + timedelta(minutes=20)  # the level in progress stays
    (level_two,) = d(t.AdvanceLevel(1, d.s.clock.version), T0 + timedelta(minutes=20))
    assert isinstance(level_two, LevelStarted)
    assert (level_two.small_blind, level_two.big_blind) == (60, 120)
    assert t.level_end_at(d.s) == T0 + timedelta(minutes=35)  # its 15 minutes
    events = len(d.events)
    for from_level, code in ((1, "level_already_played"), (2, "level_already_played"),
                             (14, "invalid_structure")):  # fmt: skip  # 13: after the 12th
        with pytest.raises(DomainError) as refused:
            d(t.AmendLevels(from_level, (Level(5000, 10_000, 0, "none", 20),), "more"))
        assert (refused.value.code, refused.value.rule) == (code, "TREG-6")
    with pytest.raises(DomainError) as refused:
        d(t.AmendLevels(3, (Level(100, 200, 0, "none", 20),), "  "))  # a reason is needed
    assert refused.value.code == "invalid_structure"
    with pytest.raises(DomainError) as down:  # CLK-1: blinds never go down
        d(t.AmendLevels(3, (Level(25, 50, 0, "none", 20), *LEVELS[3:]), "cheaper"))
    assert down.value.code == "invalid_tournament_config"
    assert len(d.events) == events  # a refused change appends nothing


@pytest.mark.rule("TREG-6")
def test_levels_added_past_the_end_of_the_structure() -> None:
    """Past its last level the clock went on at the last level's stakes, for good."""
    d = started(9, levels=LEVELS[:2], breaks=())
    for level in (1, 2, 3):
        d(t.AdvanceLevel(level, d.s.clock.version), d.tick(minutes=20))
    assert d.s.clock.level == 4  # two levels past the end, at level 2's stakes
    more = (Level(100, 200, 0, "none", 20), Level(150, 300, 0, "none", 20))
    (amended,) = d(t.AmendLevels(5, more, "the structure ran out"))
    assert isinstance(amended, LevelsAmended)
    assert amended.levels == (*LEVELS[:2], LEVELS[1], LEVELS[1], *more)  # 3, 4 as played
    (level_five,) = d(t.AdvanceLevel(4, d.s.clock.version), d.tick(minutes=20))
    assert isinstance(level_five, LevelStarted) and level_five.level == 5
    assert level_five.big_blind == 200


def test_before_the_clock_starts_every_level_may_change() -> None:
    d = started(9, clock=False)
    deeper = (Level(50, 100, 0, "none", 30), *LEVELS[1:])
    (amended,) = d(t.AmendLevels(1, deeper, "deeper start"))
    assert isinstance(amended, LevelsAmended) and d.s.config.levels[0].minutes == 30
