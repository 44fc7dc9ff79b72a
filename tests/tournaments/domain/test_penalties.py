"""Penalties (PEN-1..16): the ladder and its record, overrides with reasons, sit-outs
(dealt in, hand killed, counted by hands), disqualification (chips removed), penalties for
conduct during a hand applied after it, and the automatic nuts-on-the-river flag."""

from __future__ import annotations

import random

import pytest

from casino.errors import DomainError
from tournaments.domain import penalties
from tournaments.domain import tournament as t
from tournaments.domain.events import (
    HandResultRecorded,
    PenaltyIssued,
    PenaltyStarted,
    PlayerDisqualified,
    PlayerEliminated,
)

from .support import Driver, play_hand, started


def table_of(d: Driver, pid: int) -> int:
    table_id = d.s.players[pid].table_id
    assert table_id is not None
    return table_id


@pytest.mark.rule("PEN-1")
@pytest.mark.rule("PEN-9")
@pytest.mark.rule("PEN-16")
def test_the_ladder_escalates_per_player_and_overrides_need_a_reason() -> None:
    d = started(18)
    first = d(penalties.IssuePenalty(3, "out_of_turn", "acted before his turn"))[0]
    assert isinstance(first, PenaltyIssued) and first.kind == "warning" and first.number == 1
    second = d(penalties.IssuePenalty(3, "out_of_turn", "again", hands=2))[0]
    assert isinstance(second, PenaltyIssued) and second.kind == "sit_out"
    with pytest.raises(DomainError) as off:
        d(penalties.IssuePenalty(3, "out_of_turn", "third time", kind="warning"))
    assert off.value.code == "penalty_off_the_ladder" and off.value.rule == "PEN-16"
    third = d(penalties.IssuePenalty(3, "out_of_turn", "floor leniency", kind="warning",
                                     override=True))[0]  # fmt: skip
    assert isinstance(third, PenaltyIssued) and third.override and third.suggested == "sit_out"
    with pytest.raises(DomainError) as no_reason:
        d(penalties.IssuePenalty(4, "stalling", "  "))
    assert no_reason.value.code == "reason_required"
    assert [r.number for r in d.s.penalties.record[3]] == [1, 2, 3]
    assert 4 not in d.s.penalties.record  # counted per player
    with pytest.raises(DomainError) as both:  # one length, never a silent choice of two
        d(penalties.IssuePenalty(4, "stalling", "again", kind="sit_out", hands=2, orbits=1,
                                 override=True))  # fmt: skip
    assert (both.value.code, both.value.rule) == ("invalid_penalty", "PEN-1")
    with pytest.raises(DomainError) as warned:  # a warning's 1000 hands were stored as 0
        d(penalties.IssuePenalty(4, "stalling", "again", kind="warning", hands=1000))
    assert (warned.value.code, warned.value.rule) == ("invalid_penalty", "PEN-1")
    assert 4 not in d.s.penalties.record


@pytest.mark.rule("PEN-2")
@pytest.mark.rule("PEN-15")
def test_a_sit_out_keeps_him_dealt_in_with_his_hand_killed_for_n_hands() -> None:
    d = started(18)
    d(penalties.IssuePenalty(5, "showing_cards", "warned before", kind="sit_out", hands=2,
                             override=True))  # fmt: skip
    table_id = table_of(d, 5)
    assert t.hand_permission(d.s, table_id).killed_hands == (5,)
    rng = random.Random(1)
    for left in (1, 0):
        events = play_hand(d, table_id, rng, bust_chance=0.0)
        result = next(e for e in events if isinstance(e, HandResultRecorded))
        assert 5 in {ps.player_id for ps in result.stacks}  # still dealt in
        assert d.s.penalties.sitting_out.get(5, 0) == left
    assert t.hand_permission(d.s, table_id).killed_hands == ()


@pytest.mark.rule("PEN-1")
def test_conduct_during_a_hand_is_penalised_after_the_hand() -> None:
    d = started(18)
    table_id = table_of(d, 7)
    table = d.s.tables[table_id]
    d(t.StartTableHand(table_id, 1, table.button_seat, None, None))
    events = d(penalties.IssuePenalty(7, "abuse", "abusive language", kind="disqualification",
                                      override=True))  # fmt: skip
    assert isinstance(events[0], PenaltyIssued) and events[0].applies_after_hand
    assert d.s.players[7].status == t.PLAYING  # not yet
    stacks = {p: d.s.players[p].stack for p in d.s.tables[table_id].seats.values()}
    issued = d.s.chips_issued
    out = d(t.RecordHandResult(table_id, 1, stacks, stacks, 4))
    dq = next(e for e in out if isinstance(e, PlayerDisqualified))
    assert any(isinstance(e, PenaltyStarted) for e in out)
    assert dq.chips_removed == stacks[7] and d.s.players[7].status == t.ELIMINATED
    assert d.s.chips_issued == issued - stacks[7] == d.s.total_chips  # chips out of play


@pytest.mark.rule("PEN-2")
@pytest.mark.rule("ELIM-2")
def test_a_player_disqualified_in_a_hand_he_busts_in_takes_the_worst_place_once() -> None:
    d = started(18)
    table_id = table_of(d, 7)
    table = d.s.tables[table_id]
    d(t.StartTableHand(table_id, 1, table.button_seat, None, None))
    d(penalties.IssuePenalty(7, "collusion", "chip dumping", kind="disqualification",
                             override=True))  # fmt: skip
    stacks = {p: d.s.players[p].stack for p in d.s.tables[table_id].seats.values()}
    winner = next(p for p in stacks if p != 7)
    final = {**stacks, 7: 0, winner: stacks[winner] + stacks[7]}  # he lost all his chips
    out = d(t.RecordHandResult(table_id, 1, stacks, final, 4))
    dq = next(e for e in out if isinstance(e, PlayerDisqualified))
    assert dq.place == 18  # he started the hand as one of 18: last
    assert not any(isinstance(e, PlayerEliminated) and e.player_id == 7 for e in out)
    rng = random.Random(3)
    bands: dict[tuple[int, int], int] = {(dq.place, dq.place): 1}
    while d.s.status == t.RUNNING and len(bands) < 4:
        for e in play_hand(d, table_of(d, winner), rng, bust_chance=0.5):
            if isinstance(e, PlayerEliminated):
                bands[(e.place, e.place_to)] = bands.get((e.place, e.place_to), 0) + 1
    taken = sorted(p for a, b in bands for p in range(a, b + 1))
    assert len(taken) == len(set(taken))  # no place given twice
    assert all(n == b - a + 1 for (a, b), n in bands.items())  # a tie holds its whole band


@pytest.mark.rule("PEN-13")
def test_disqualification_between_hands_removes_his_chips_at_once() -> None:
    d = started(18)
    chips = d.s.players[9].stack
    d(penalties.IssuePenalty(9, "chip_dumping", "collusion", kind="disqualification",
                             override=True))  # fmt: skip
    assert d.s.players[9].status == t.ELIMINATED
    assert d.s.total_chips == d.s.chips_issued == 18 * 10_000 - chips


@pytest.mark.rule("PEN-10")
def test_checking_the_nuts_on_the_river_in_last_position_is_flagged() -> None:
    board = ["Ah", "Kh", "Qh", "2c", "7d"]
    # seat 4 holds the royal flush cards J-T of hearts and only checks behind
    assert penalties.checked_nuts_on_river(board, [(2, "check"), (4, "check")],
                                           {4: ["Jh", "Th"]}) == 4  # fmt: skip
    assert penalties.checked_nuts_on_river(board, [(2, "bet"), (4, "call")],
                                           {4: ["Jh", "Th"]}) == 4  # fmt: skip
    # a raise is fine, and a non-nut hand is not flagged
    assert penalties.checked_nuts_on_river(board, [(2, "bet"), (4, "raise")],
                                           {4: ["Jh", "Th"]}) is None  # fmt: skip
    assert penalties.checked_nuts_on_river(board, [(2, "check"), (4, "check")],
                                           {4: ["As", "Ad"]}) is None  # fmt: skip


@pytest.mark.rule("PEN-8")
def test_conduct_is_recorded_for_the_floor() -> None:
    d = started(18)
    d(penalties.FlagConduct(2, "out_of_turn", "folded before the action reached him"))
    assert d.s.penalties.flags[2][0].offence == "out_of_turn"


@pytest.mark.parametrize(
    ("rule", "offence"),
    [
        pytest.param("PEN-3", "chips_hidden", marks=pytest.mark.rule("PEN-3")),
        pytest.param("PEN-5", "showing_cards", marks=pytest.mark.rule("PEN-5")),
        pytest.param("PEN-6", "avoiding_blinds", marks=pytest.mark.rule("PEN-6")),
        pytest.param("PEN-7", "talking_about_a_live_hand", marks=pytest.mark.rule("PEN-7")),
        pytest.param("PEN-11", "miscalling_hand", marks=pytest.mark.rule("PEN-11")),
        pytest.param("PEN-12", "discarding_all_in", marks=pytest.mark.rule("PEN-12")),
        pytest.param("PEN-14", "seat_handed_to_another", marks=pytest.mark.rule("PEN-14")),
        pytest.param("BNTY-7", "bounty_targeting", marks=pytest.mark.rule("BNTY-7")),
        pytest.param("DEAL-10", "chip_dumping_after_deal", marks=pytest.mark.rule("DEAL-10")),
    ],
)
def test_conduct_the_system_cannot_see_is_recorded_with_the_ruling_and_reason(
    rule: str, offence: str
) -> None:
    """PEN-3/5/6/7/11/12/14, BNTY-7, DEAL-10 are the floor's rulings: the record keeps the
    flag and the ruling with its reason, and the ladder escalates on it."""
    d = started(18)
    d(penalties.FlagConduct(6, offence, f"reported under {rule}"))
    d(penalties.IssuePenalty(6, offence, f"{rule}: ruling after review"))
    d(penalties.IssuePenalty(6, offence, f"{rule}: repeated", hands=1))
    record = d.s.penalties.record[6]
    assert [r.kind for r in record] == ["warning", "sit_out"]
    assert all(r.offence == offence and rule in r.reason for r in record)
    assert d.s.penalties.flags[6][0].offence == offence
