"""Scheduling, crash rollback and cancellation settlements (TREG-5, CXL-1..9)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from casino.errors import DomainError
from tournaments.domain import cancellation
from tournaments.domain import tournament as t
from tournaments.domain.config import BountyRule
from tournaments.domain.events import (
    HandsRolledBack,
    ScheduledStartMissed,
    StartScheduled,
    TournamentCancelled,
)

from .support import Driver, config, started


def hand(d: Driver, table_id: int, final: dict[int, int]) -> None:
    table = d.s.tables[table_id]
    number = table.hands_played + 1
    d(t.StartTableHand(table_id, number, table.button_seat, None, None))
    stacks = {p: d.s.players[p].stack for p in table.seats.values() if d.s.players[p].stack}
    d(t.RecordHandResult(table_id, number, stacks, {**stacks, **final}, 3))


def shares(event: TournamentCancelled) -> dict[int, tuple[int, int]]:
    return {x.player_id: (x.refund, x.prize) for x in event.shares}


@pytest.mark.rule("TREG-5")
def test_scheduled_start_and_a_logged_delay() -> None:
    d = Driver()
    d(t.CreateTournament("t1", config()))
    d(t.ScheduleStart("2025-03-01T18:00:00+00:00"))
    with pytest.raises(DomainError) as no_reason:
        d(t.ScheduleStart("2025-03-01T18:30:00+00:00", delay=True))
    assert no_reason.value.code == "reason_required"
    delayed = d(t.ScheduleStart("2025-03-01T18:30:00+00:00", True, "dealers late"))[0]
    assert isinstance(delayed, StartScheduled) and delayed.delayed
    assert d.s.scheduled_start is not None and d.s.scheduled_start.minute == 30
    assert cancellation.start_due(d.s.scheduled_start, d.s.scheduled_start)
    # a later time is a delay with its reason; a delay moves later; never into the past
    for command, code in (
        (t.ScheduleStart("2025-03-01T19:00:00+00:00"), "delay_required"),
        (t.ScheduleStart("2025-03-01T18:15:00+00:00", True, "oops"), "not_a_delay"),
        (t.ScheduleStart("2025-03-01T17:59:00+00:00"), "start_in_past"),
    ):
        with pytest.raises(DomainError) as refused:
            d(command)
        assert (refused.value.code, refused.value.rule) == (code, "TREG-5")
    # earlier is no delay, but the players were told a time: the reason is logged (QA)
    with pytest.raises(DomainError) as forward:
        d(t.ScheduleStart("2025-03-01T18:10:00+00:00"))
    assert (forward.value.code, forward.value.rule) == ("reason_required", "TREG-5")
    [earlier] = d(t.ScheduleStart("2025-03-01T18:10:00+00:00", False, "room full early"))
    assert isinstance(earlier, StartScheduled) and earlier.reason == "room full early"


@pytest.mark.rule("CXL-1")
def test_a_crash_rolls_back_every_hand_in_progress_to_its_start_stacks() -> None:
    d = started(18, tables=(1, 2, 3))
    before = {p: d.s.players[p].stack for p in d.s.players}
    for table_id in sorted(d.s.tables):
        table = d.s.tables[table_id]
        d(t.StartTableHand(table_id, 1, table.button_seat, None, None))
    rolled = d(t.RollBackHands())[0]
    assert isinstance(rolled, HandsRolledBack)
    assert [h.table_id for h in rolled.hands] == sorted(d.s.tables)
    # the tables void the hands: each reports its players' start stacks unchanged
    for h in rolled.hands:
        seats = d.s.tables[h.table_id].seats.values()
        stacks = {p: d.s.players[p].stack for p in seats}
        d(t.RecordHandResult(h.table_id, h.hand_number, stacks, stacks, 1))
    assert {p: d.s.players[p].stack for p in d.s.players} == before


@pytest.mark.rule("CXL-2")
@pytest.mark.rule("CXL-3")
def test_rollback_refunds_everything_paid_under_the_named_policy() -> None:
    d = started(9, tables=(1, 2), bounty=BountyRule("knockout", 300))
    event = d(t.CancelTournament("rollback", "fire alarm"))[0]
    assert isinstance(event, TournamentCancelled)
    assert event.policy == cancellation.POLICY and event.policy_version == "2026-11-v1"
    assert all(v == (1000 + 100 + 300, 0) for v in shares(event).values())
    assert d.s.status == t.CANCELLED
    # its clock stands still and nobody is left playing (it counted down on: fuzzing)
    view = t.clock_view(d.s, d.now + timedelta(hours=3))
    assert view.seconds_left == t.clock_view(d.s, d.now).seconds_left > 0
    assert (view.players_left, view.next_break_at) == (0, None)


@pytest.mark.rule("CXL-4")
@pytest.mark.rule("CXL-7")
def test_roll_forward_before_the_money_half_equally_half_by_chips() -> None:
    d = started(9, tables=(1, 2), guarantee=50_000)
    (table_id,) = d.s.tables
    hand(d, table_id, {9: 0, 1: 20_000})  # 8 left, not in the money (3 paid)
    hand(d, table_id, {1: 30_000, 2: 0})
    event = d(t.CancelTournament("roll_forward", "server down"))[0]
    assert isinstance(event, TournamentCancelled) and not event.in_the_money
    got = shares(event)
    pool = 9 * 1000  # CXL-7: the buy-ins paid, not the 50,000 guarantee
    assert sum(prize for _, prize in got.values()) == pool
    assert all(refund == 100 for refund, _ in got.values())  # the fee back
    assert set(got) == {1, 3, 4, 5, 6, 7, 8}
    equal = pool // 2 / 7
    assert got[1][1] == pytest.approx(equal + (pool - pool // 2) * 30_000 / 90_000, abs=100)
    assert got[3][1] == pytest.approx(equal + (pool - pool // 2) * 10_000 / 90_000, abs=100)


@pytest.mark.rule("CXL-5")
@pytest.mark.rule("CXL-8")
def test_roll_forward_in_the_money_smallest_prize_each_rest_by_chips() -> None:
    d = started(9, tables=(1, 2), bounty=BountyRule("fixed", 5000, (1,)))
    (table_id,) = d.s.tables
    hand(d, table_id, {p: 0 for p in range(3, 10)} | {1: 80_000})  # 2 left: in the money
    event = d(t.CancelTournament("roll_forward", "server down"))[0]
    assert isinstance(event, TournamentCancelled) and event.in_the_money
    got = shares(event)
    prizes = (5900, 3100)  # 6,500 / 3,500 bp of 9,000, rounded to 100 (two places paid)
    rest = sum(prizes) - 2 * min(prizes)  # 2,800 by chips 8:1 -> 2,488.9 / 311.1
    assert got[1] == (100, 3100 + 2500) and got[2] == (100, 3100 + 300)
    assert rest == 2800
    assert sum(p for _, p in got.values()) == sum(prizes)  # fees back, no fixed bounty


@pytest.mark.rule("CXL-4")
def test_roll_forward_pays_equal_stacks_alike_and_the_chip_leader_most() -> None:
    """QA: 9 left of 10 entries (1,000 CZK), the two halves rounded apart in hundreds paid
    three 1,000-chip players 200 and two of them 0, and the 2,015-chip leader 100."""
    remaining = {47: 1000, 48: 1000, 49: 995, 50: 1000, 51: 990, 52: 1000, 53: 1000,
                 54: 1000, 55: 1000, 56: 2015}  # fmt: skip
    remaining.pop(51)  # 9 players left
    out = {x.player_id: x.prize for x in cancellation.roll_forward(
        remaining=remaining, fees={}, heads={}, pool=1000, unawarded=[], in_the_money=False,
        unit=100,
    )}  # fmt: skip
    assert sum(out.values()) == 1000
    equal = {out[p] for p in (47, 48, 50, 52, 53, 54, 55)}
    assert len(equal) == 1  # equal stacks, equal shares
    assert out[56] == max(out.values()) > equal.pop() >= out[49] > 0
    exact = 500 / 9 + 500 * 2015 / sum(remaining.values())
    assert abs(out[56] - exact) <= exact * 0.05


@pytest.mark.rule("CXL-9")
def test_settlement_amounts_are_cash_only_and_sum_exactly() -> None:
    out = cancellation.roll_forward(
        remaining={1: 333, 2: 333, 3: 334}, fees={1: 10, 2: 10, 3: 10}, heads={},
        pool=1001, unawarded=[], in_the_money=False,
    )  # fmt: skip
    assert sum(x.prize for x in out) == 1001


@pytest.mark.rule("TREG-5")
def test_the_clock_starts_the_event_at_its_lobby_time_or_records_a_missed_start() -> None:
    d = Driver()
    d(t.CreateTournament("t1", config()))
    at = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
    assert t.scheduled_start_due(d.s, at) is None  # no time set
    d(t.ScheduleStart(at.isoformat()))
    for pid in range(1, 6):
        d(t.Register(pid))
    assert t.scheduled_start_due(d.s, at - timedelta(seconds=1)) is None  # not yet
    assert t.scheduled_start_due(d.s, at) == "missed"  # 5 entries, 9 needed (TREG-3)
    assert d(t.MissScheduledStart(), at - timedelta(seconds=1)) == []  # early: nothing
    (missed,) = d(t.MissScheduledStart(), at)
    assert isinstance(missed, ScheduledStartMissed) and (missed.entries, missed.minimum) == (5, 9)
    assert d(t.MissScheduledStart(), at) == [] and t.scheduled_start_due(d.s, at) is None  # once
    later = at + timedelta(minutes=30)
    d(t.ScheduleStart(later.isoformat(), True, "waiting for more players"))
    for pid in range(6, 10):
        d(t.Register(pid))
    assert t.scheduled_start_due(d.s, later) == "start"


@pytest.mark.rule("CXL-2")
def test_before_the_start_a_cancellation_rolls_back_and_roll_forward_is_refused() -> None:
    d = Driver()
    d(t.CreateTournament("t1", config()))
    for pid in (1, 2):
        d(t.Register(pid))
    with pytest.raises(DomainError) as refused:  # not replaced by a rollback in silence
        d(t.CancelTournament("roll_forward", "too few players"))
    assert (refused.value.code, refused.value.rule) == ("not_started", "CXL-2")
    (event,) = d(t.CancelTournament("rollback", "too few players"))
    assert isinstance(event, TournamentCancelled) and event.method == "rollback"


@pytest.mark.rule("CXL-2")
def test_a_cancelled_event_refuses_play_as_cancelled_not_as_over() -> None:
    """Every command after a cancellation cited ELIM-1, "the tournament is over", the rule
    of an event played to its end (found by QA)."""
    d = started(9)
    d(t.CancelTournament("rollback", "power cut"))
    with pytest.raises(DomainError) as refused:
        d(t.AddOn(sorted(d.s.players)[0]))
    assert (refused.value.code, refused.value.rule) == ("tournament_cancelled", "CXL-2")
