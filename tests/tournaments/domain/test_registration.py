"""Registration, the start, late registration, re-entry, rebuys and add-ons."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from casino.errors import DomainError
from tournaments.domain import tournament as t
from tournaments.domain.config import AddOnRule, RebuyRule, ReEntryRule
from tournaments.domain.events import (
    AddOnTaken,
    LateEntrySeated,
    LateRegistrationClosed,
    PlayerRegistered,
    PlayerUnregistered,
    RebuyTaken,
    TableAdded,
    TournamentStarted,
)

from .support import T0, Driver, config, play_hand, started


def registered(n: int, **changes: object) -> Driver:
    d = Driver()
    d(t.CreateTournament("t1", config(**changes)))
    for pid in range(1, n + 1):
        d(t.Register(pid))
    return d


@pytest.mark.rule("TREG-1")
def test_an_entry_pays_buy_in_and_fee_for_the_starting_stack() -> None:
    d = registered(2)
    (e,) = d.events[-1:]
    assert e == PlayerRegistered(2, 2, 1000, 100, 10_000, False, T0.isoformat())
    assert (d.s.entries, d.s.contributions, d.s.fees, d.s.chips_issued) == (2, 2000, 200, 20_000)


@pytest.mark.rule("TREG-9")
def test_one_entry_per_player() -> None:
    d = registered(1)
    with pytest.raises(DomainError) as err:
        d(t.Register(1))
    assert (err.value.code, err.value.rule) == ("already_registered", "TREG-9")


@pytest.mark.rule("TREG-10")
def test_unregister_before_the_deadline_refunds_buy_in_and_fee() -> None:
    deadline = (T0 + timedelta(hours=1)).isoformat()
    d = registered(3, unregister_deadline=deadline)
    (e,) = d(t.Unregister(2))
    assert e == PlayerUnregistered(2, 2, 1100, T0.isoformat())
    assert (d.s.entries, d.s.contributions, d.s.fees) == (2, 2000, 200)
    d(t.Register(2))  # he may register again: a new entry
    assert d.s.players[2].entry_number == 4 and d.s.entries == 3
    with pytest.raises(DomainError) as err:
        d(t.Unregister(3), T0 + timedelta(hours=1))
    assert err.value.rule == "TREG-10"
    closed = registered(2, unregister_allowed=False)
    with pytest.raises(DomainError):
        closed(t.Unregister(1))


@pytest.mark.rule("TREG-3")
def test_the_tournament_needs_the_minimum_field_to_start() -> None:
    d = registered(8)
    with pytest.raises(DomainError) as err:
        d(t.StartTournament((1, 2), 1))
    assert (err.value.code, err.value.context["minimum"]) == ("field_too_small", 9)
    d(t.Register(9))
    (e,) = d(t.StartTournament((1, 2), 1))
    assert isinstance(e, TournamentStarted) and e.tables == (1,) and e.reserve_tables == (2,)


@pytest.mark.rule("TREG-2")
def test_every_registered_player_is_seated_with_his_stack_present_or_not() -> None:
    d = started(20, clock=False)
    assert all(p.status == t.PLAYING and p.stack == 10_000 for p in d.s.players.values())
    assert sum(len(x.seats) for x in d.s.tables.values()) == 20


@pytest.mark.rule("SEAT-1")
def test_start_stores_the_seat_draw_and_the_button_cards() -> None:
    d = started(20, clock=False, seed=4)
    e = next(e for e in d.events if isinstance(e, TournamentStarted))
    assert len(e.seats) == 20 and len(e.buttons) == 3
    for bd in e.buttons:
        assert bd.method == "high_card" and len(bd.cards) == len(d.s.tables[bd.table_id].seats)
        assert d.s.tables[bd.table_id].button_seat == bd.button_seat
    assert e.break_order == (5, 4, 3, 2, 1)  # tables 1-5 given: the first is the final table


@pytest.mark.rule("TREG-7")
def test_late_registration_until_a_level_seats_the_entrant_at_the_smallest_table() -> None:
    d = started(20, late_reg_until_level=2)
    assert d.s.late_reg_open
    sizes = {tid: len(x.seats) for tid, x in d.s.tables.items()}
    events = d(t.LateRegister(99, 5))
    assert isinstance(events[0], PlayerRegistered) and events[0].late
    seated = events[1]
    assert isinstance(seated, LateEntrySeated)
    assert sizes[seated.table_id] == min(sizes.values())
    assert d.s.players[99].table_id == seated.table_id and d.s.chips_issued == 210_000
    d(t.AdvanceLevel(1, d.s.clock.version), d.tick(minutes=20))
    d(t.AdvanceLevel(2, d.s.clock.version), d.tick(minutes=20))
    assert isinstance(d.events[-2], LateRegistrationClosed) and not d.s.late_reg_open
    with pytest.raises(DomainError) as err:
        d(t.LateRegister(100, 1))
    assert err.value.rule == "TREG-7"


@pytest.mark.rule("TREG-7")
def test_late_registration_by_clock_time() -> None:
    until = (T0 + timedelta(minutes=90)).isoformat()
    d = started(9, late_reg_until=until)
    d(t.LateRegister(50, 1), T0 + timedelta(minutes=89))
    with pytest.raises(DomainError):
        d(t.LateRegister(51, 1), T0 + timedelta(minutes=90))
    due = t.due_clock_commands(d.s, T0 + timedelta(minutes=90))
    assert t.CloseLateRegistration("clock_time") in due
    d(t.CloseLateRegistration("clock_time"))
    assert not d.s.late_reg_open


def test_a_full_room_opens_a_reserve_table_and_balances_into_it() -> None:
    d = started(18, tables=(1, 2, 3), late_reg_until_level=3)
    assert set(d.s.tables) == {1, 2}
    events = d(t.LateRegister(99, 3))
    assert TableAdded(3) in events
    sizes = sorted(len(x.seats) for x in d.s.tables.values())
    assert sizes == [6, 6, 7]


@pytest.mark.rule("TREG-8")
def test_late_registration_closes_once_the_field_is_in_the_money() -> None:
    d = started(9, late_reg_until_level=10, late_reg_close_below_full_table=False)
    rng = random.Random(1)
    while d.s.late_reg_open:
        play_hand(d, next(iter(d.s.tables)), rng)
    closed = next(e for e in d.events if isinstance(e, LateRegistrationClosed))
    assert closed.reason == "in_the_money" and closed.players_left <= 2


@pytest.mark.rule("TREG-4")
def test_late_entry_closes_below_one_full_table_by_default() -> None:
    """000 [Tourn] #8: the "absent player stack" may no longer be bought once the field is
    below one full table. It was off unless configured, unlike the rest of the 000 rules."""
    # a final table of 8 (TSEAT-8): at 9 left two tables play on, late entry open
    d = started(12, late_reg_until_level=10, late_reg_close_at_money=False,
                final_table_size=8)  # fmt: skip
    rng = random.Random(2)
    while d.s.late_reg_open:
        for tid in list(d.s.tables):
            if tid in d.s.tables and t.may_start_hand(d.s, tid):
                play_hand(d, tid, rng)
    closed = next(e for e in d.events if isinstance(e, LateRegistrationClosed))
    assert closed.reason == "below_full_table" and closed.players_left < 9


@pytest.mark.rule("TSEAT-8")
def test_drawing_the_final_table_closes_late_entry() -> None:
    """At 9 left of 10 (a full table, so TREG-4 keeps late entry open) the final table was
    drawn, and a late entry then broke it into two tables again (found by QA)."""
    d = started(10, tables=(1, 2), late_reg_until_level=10, late_reg_close_at_money=False)
    assert d.s.late_reg_open and len(d.s.tables) == 2
    table = next(iter(d.s.tables.values()))
    victim, other = sorted(table.seats.values())[:2]
    d(t.StartTableHand(table.table_id, 1))
    d(t.RecordHandResult(
        table.table_id, 1, {victim: 10_000, other: 10_000}, {victim: 0, other: 20_000}, 1
    ))  # fmt: skip
    assert d.s.players_left == 9 and len(d.s.tables) == 1  # the final table is drawn
    closed = next(e for e in d.events if isinstance(e, LateRegistrationClosed))
    assert (closed.reason, closed.players_left) == ("final_table", 9)
    with pytest.raises(DomainError) as err:
        d(t.LateRegister(99, 7))
    assert err.value.code == "late_registration_closed" and len(d.s.tables) == 1


@pytest.mark.rule("TREG-9")
def test_re_entry_after_elimination_within_its_limits() -> None:
    d = started(
        9,
        late_reg_until_level=4,
        late_reg_close_below_full_table=False,  # TREG-4 would close it at the first bust
        reentry=ReEntryRule(allowed=True, max_per_player=1, price=1000, fee=100),
    )
    table = next(iter(d.s.tables.values()))
    victim, other = sorted(table.seats.values())[:2]
    stacks = {victim: 10_000, other: 10_000}
    d(t.StartTableHand(table.table_id, 1))
    d(t.RecordHandResult(table.table_id, 1, stacks, {victim: 0, other: 20_000}, 1))
    assert d.s.players[victim].status == t.ELIMINATED
    with pytest.raises(DomainError) as err:
        d(t.LateRegister(victim, 1))
    assert err.value.code == "use_reentry"
    d(t.ReEnter(victim, 2))
    p = d.s.players[victim]
    assert (p.status, p.stack, p.entries, p.entry_number) == (t.PLAYING, 10_000, 2, 10)
    assert d.s.entries == 10 and d.s.contributions == 10_000


@pytest.mark.rule("TREG-14")
def test_a_busted_player_rebuys_before_the_next_deal() -> None:
    d = started(9, rebuy=RebuyRule(allowed=True, until_level=2, price=1000, fee=0))
    table = next(iter(d.s.tables.values()))
    a, b = sorted(table.seats.values())[:2]
    d(t.StartTableHand(table.table_id, 1))
    events = d(t.RecordHandResult(
        table.table_id, 1, {a: 10_000, b: 10_000}, {a: 0, b: 20_000}, 1, rebuys=(a,)
    ))  # fmt: skip
    assert RebuyTaken(a, 1000, 0, 10_000, True) in events
    assert d.s.players[a].stack == 10_000 and d.s.players[a].status == t.PLAYING
    assert d.s.total_chips == d.s.chips_issued == 100_000
    # a rebuy at or below the threshold, between hands only
    d(t.Rebuy(a))
    with pytest.raises(DomainError) as err:
        d(t.Rebuy(b))
    assert err.value.code == "stack_above_rebuy_threshold"


@pytest.mark.rule("CLK-5")
def test_add_on_during_its_level_and_the_break_after_it() -> None:
    d = started(9, add_on=AddOnRule(allowed=True, at_level=4, price=500, stack=15_000))
    pid = next(iter(d.s.players))
    with pytest.raises(DomainError) as err:
        d(t.AddOn(pid))
    assert err.value.code == "add_on_closed"
    for level in (1, 2, 3):
        d(t.AdvanceLevel(level, d.s.clock.version), d.tick(minutes=20))
    (e,) = d(t.AddOn(pid))
    assert e == AddOnTaken(pid, 500, 0, 15_000)
    with pytest.raises(DomainError):
        d(t.AddOn(pid))
    d(t.AdvanceLevel(4, d.s.clock.version), d.tick(minutes=20))
    assert d.s.clock.on_break and d.s.clock.level == 4
    d(t.AddOn(next(p for p in d.s.players if p != pid)))
    assert d.s.contributions == 9000 + 1000


def _bust_one(d: Driver) -> list:
    """One hand at the fullest table: its highest player id loses his stack to the lowest."""
    table_id = max(d.s.tables, key=lambda x: len(d.s.tables[x].seats))
    table = d.s.tables[table_id]
    number = table.hands_played + 1
    d(t.StartTableHand(table_id, number, table.button_seat, None, None))
    stacks = {p: d.s.players[p].stack for p in table.seats.values() if d.s.players[p].stack}
    winner, loser = min(stacks), max(stacks)
    final = {**stacks, loser: 0, winner: stacks[winner] + stacks[loser]}
    return d(t.RecordHandResult(table_id, number, stacks, final, 3))


@pytest.mark.rule("TREG-4")
@pytest.mark.parametrize("table_size", [9, 6])
def test_late_entry_stays_open_at_exactly_one_full_table_and_closes_below(
    table_size: int,
) -> None:
    # a final table one smaller (TSEAT-8): a full table's field still plays on two tables
    # (drawing the final table closes late entry too)
    d = started(table_size + 2, tables=(1, 2), table_size=table_size, late_reg_until_level=10,
                late_reg_close_below_full_table=True, late_reg_close_at_money=False,
                final_table_size=table_size - 1)  # fmt: skip
    while d.s.players_left > table_size:
        _bust_one(d)
    assert d.s.players_left == table_size and d.s.late_reg_open  # one full table: still open
    events = _bust_one(d)
    closed = [e for e in events if isinstance(e, LateRegistrationClosed)]
    assert [(e.reason, e.players_left) for e in closed] == [("below_full_table", table_size - 1)]
    assert not d.s.late_reg_open


@pytest.mark.rule("TREG-14")
def test_rebuys_are_allowed_through_the_last_rebuy_level_and_refused_after() -> None:
    d = started(9, rebuy=RebuyRule(allowed=True, until_level=2, price=1000, fee=0))
    a, b = sorted(d.s.players)[:2]
    d(t.AdvanceLevel(1, d.s.clock.version), d.tick(minutes=20))
    assert d.s.clock.level == 2  # the last level with rebuys (until_level, inclusive)
    assert RebuyTaken(a, 1000, 0, 10_000, False) in d(t.Rebuy(a))
    d(t.AdvanceLevel(2, d.s.clock.version), d.tick(minutes=20))
    assert d.s.clock.level == 3
    with pytest.raises(DomainError) as err:
        d(t.Rebuy(b))
    assert (err.value.code, err.value.rule) == ("rebuy_closed", "TREG-14")


@pytest.mark.rule("TREG-4")
def test_a_field_that_never_filled_a_table_keeps_its_late_entry() -> None:
    """TREG-4 closes late entry when the field *falls* below one full table: a six-player
    event at nine-handed tables is below one from the start, and kept late entry (and its
    re-entries) to the published level."""
    d = started(6, late_reg_until_level=3, late_reg_close_at_money=False, min_entrants=2)
    (table_id,) = d.s.tables
    rng = random.Random(4)
    while d.s.players_left > 3:
        play_hand(d, table_id, rng)
    assert d.s.late_reg_open
    assert not any(isinstance(e, LateRegistrationClosed) for e in d.events)


@pytest.mark.rule("TREG-9")
@pytest.mark.rule("TREG-14")
@pytest.mark.rule("CLK-5")
@pytest.mark.parametrize(
    ("command", "code"),
    [
        (t.ReEnter(99, seed=1), "reentry_not_allowed"),
        (t.Rebuy(99), "rebuy_not_allowed"),
        (t.RebuyIfBusted(99), "rebuy_not_allowed"),
        (t.AddOn(99), "add_on_not_allowed"),
    ],
)
def test_an_event_without_the_option_says_so_whoever_asks(command: t.Command, code: str) -> None:
    """The cage asking a rebuy, add-on or re-entry of an event that has none is told so,
    not that the player it chose has no entry (player 99 never registered; found by QA)."""
    d = started(9)
    with pytest.raises(DomainError) as err:
        d(command)
    assert err.value.code == code
