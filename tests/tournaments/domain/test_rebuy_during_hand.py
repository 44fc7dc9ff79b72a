"""TREG-14 through the dealer API's path: a player asks during the hand to rebuy if it
busts him; the rebuy is taken when the hand is recorded, before the next deal."""

from __future__ import annotations

from typing import Any

import pytest

from casino.errors import DomainError
from tournaments.domain import tournament as t
from tournaments.domain.config import BountyRule, RebuyRule
from tournaments.domain.events import (
    PlayerEliminated,
    PlayerReinstated,
    RebuyRequestLapsed,
    RebuyTaken,
)

from .support import started


@pytest.mark.rule("TREG-14")
def test_a_rebuy_asked_during_the_hand_saves_a_busted_player() -> None:
    d = started(9, tables=(1, 2), rebuy=RebuyRule(True, 2, 3, 1000, 100))
    (table_id,) = d.s.tables
    table = d.s.tables[table_id]
    with pytest.raises(DomainError) as between:
        d(t.RebuyIfBusted(4))
    assert between.value.code == "no_hand_in_progress"
    d(t.StartTableHand(table_id, 1, table.button_seat, None, None))
    d(t.RebuyIfBusted(4))
    d(t.RebuyIfBusted(5))
    stacks = {p: d.s.players[p].stack for p in d.s.tables[table_id].seats.values()}
    final = {**stacks, 4: 0, 5: 0, 6: 0, 1: stacks[1] + stacks[4] + stacks[5] + stacks[6]}
    events = d(t.RecordHandResult(table_id, 1, stacks, final, 2))
    rebought = {e.player_id for e in events if isinstance(e, RebuyTaken)}
    out = {e.player_id for e in events if isinstance(e, PlayerEliminated)}
    assert rebought == {4, 5} and out == {6}
    assert not any(isinstance(e, RebuyRequestLapsed) for e in events)
    # the one who did not ask is out; once his table deals again, a rebuy is refused,
    # citing the rule (QA: no rule)
    d(t.StartTableHand(table_id, 2, d.s.tables[table_id].button_seat, None, None))
    with pytest.raises(DomainError) as late:
        d(t.Rebuy(6))
    assert (late.value.code, late.value.rule) == ("player_not_playing", "TREG-14")
    assert d.s.players[4].stack == 10_000 and d.s.players[4].status == t.PLAYING
    assert d.s.pending_rebuys == frozenset()
    assert d.s.total_chips == d.s.chips_issued


@pytest.mark.rule("TREG-14")
def test_a_requested_rebuy_is_not_taken_when_he_survives_the_hand() -> None:
    d = started(9, tables=(1, 2), rebuy=RebuyRule(True, 2, 3, 1000, 100))
    (table_id,) = d.s.tables
    d(t.StartTableHand(table_id, 1, d.s.tables[table_id].button_seat, None, None))
    d(t.RebuyIfBusted(4))
    stacks = {p: d.s.players[p].stack for p in d.s.tables[table_id].seats.values()}
    events = d(t.RecordHandResult(table_id, 1, stacks, stacks, 2))
    assert not any(isinstance(e, RebuyTaken) for e in events)
    assert d.s.pending_rebuys == frozenset() and d.s.contributions == 9 * 1000
    # the log says the request lapsed, and why: the cashier takes no money (QA: it was silent)
    assert [e for e in events if isinstance(e, RebuyRequestLapsed)] == [
        RebuyRequestLapsed(4, table_id, "not_busted")
    ]


@pytest.mark.rule("TREG-14")
def test_a_requested_rebuy_stands_for_the_redeal_of_a_voided_hand() -> None:
    """A misdeal gives every chip back and the same hand is dealt again: "if I lose, I
    rebuy" still stands, nobody is charged yet, and the redeal that busts him takes it."""
    d = started(9, tables=(1, 2), rebuy=RebuyRule(True, 2, 3, 1000, 100))
    (table_id,) = d.s.tables
    d(t.StartTableHand(table_id, 1, d.s.tables[table_id].button_seat, None, None))
    d(t.RebuyIfBusted(7))
    stacks = {p: d.s.players[p].stack for p in d.s.tables[table_id].seats.values()}
    events = d(t.RecordHandResult(table_id, 1, stacks, stacks, 2, voided=True))
    assert not any(isinstance(e, RebuyRequestLapsed | RebuyTaken) for e in events)
    assert d.s.pending_rebuys == frozenset({7}) and d.s.contributions == 9 * 1000
    d(t.StartTableHand(table_id, 2, d.s.tables[table_id].button_seat, None, None))
    final = {**stacks, 7: 0, 1: stacks[1] + stacks[7]}
    events = d(t.RecordHandResult(table_id, 2, stacks, final, 2))
    assert [e.player_id for e in events if isinstance(e, RebuyTaken)] == [7]


def _bust(d: Any, table_id: int, busted: dict[int, int], number: int = 1) -> list[Any]:
    """One hand at ``table_id`` in which each of ``busted`` loses his stack to the player
    ``busted`` maps him to."""
    d(t.StartTableHand(table_id, number, d.s.tables[table_id].button_seat, None, None))
    stacks = {p: d.s.players[p].stack for p in d.s.tables[table_id].seats.values()}
    final = dict(stacks)
    for loser, winner in busted.items():
        final[winner] += final[loser]
        final[loser] = 0
    return d(t.RecordHandResult(table_id, number, stacks, final, 2))


@pytest.mark.rule("TREG-14")
def test_a_busted_player_rebuys_after_the_hand_before_his_table_deals_again() -> None:
    """ "Without missing a hand, i.e. before the next deal": the cashier sells the rebuy
    after the hand is recorded. He was refused as "not in play" (found by QA)."""
    d = started(9, tables=(1, 2), rebuy=RebuyRule(True, 2, 3, 1000, 100))
    (table_id,) = d.s.tables
    seat = next(s for s, p in d.s.tables[table_id].seats.items() if p == 6)
    _bust(d, table_id, {6: 1})
    assert d.s.players[6].status == t.ELIMINATED and d.s.rebuy_windows == {6: (table_id, seat)}
    left, pool = d.s.players_left, d.s.contributions
    events = d(t.Rebuy(6))
    assert events == [
        PlayerReinstated(6, d.s.players[6].entry_number, table_id, seat, ()),
        RebuyTaken(6, 1000, 100, 10_000, True),
    ]
    p = d.s.players[6]
    assert (p.status, p.table_id, p.seat, p.stack, p.rebuys) == (t.PLAYING, table_id, seat,
                                                                  10_000, 1)  # fmt: skip
    assert d.s.tables[table_id].seats[seat] == 6
    assert (d.s.players_left, d.s.contributions) == (left + 1, pool + 1000)
    assert d.s.eliminations == () and d.s.rebuy_windows == {}
    assert d.s.total_chips == d.s.chips_issued
    again = d(t.Rebuy(6))  # in play: an ordinary rebuy (his second of two), no reinstating
    assert [type(e) for e in again] == [RebuyTaken] and d.s.players[6].rebuys == 2


@pytest.mark.rule("TREG-14")
def test_the_next_deal_at_his_table_closes_the_window_and_places_hold() -> None:
    d = started(9, tables=(1, 2), rebuy=RebuyRule(True, 2, 3, 1000, 100))
    (table_id,) = d.s.tables
    _bust(d, table_id, {6: 1})
    d(t.StartTableHand(table_id, 2, d.s.tables[table_id].button_seat, None, None))
    assert d.s.rebuy_windows == {}
    with pytest.raises(DomainError) as late:
        d(t.Rebuy(6))
    assert (late.value.code, late.value.rule) == ("player_not_playing", "TREG-14")


@pytest.mark.rule("TREG-14")
@pytest.mark.rule("ELIM-3")
def test_a_tied_bust_who_rebuys_leaves_the_other_his_place_alone() -> None:
    """Two busted in one hand with equal stacks share places 8-9; when one rebuys, the
    other finishes 9th alone (after the next bust, below him)."""
    d = started(9, tables=(1, 2), rebuy=RebuyRule(True, 2, 3, 1000, 100))
    (table_id,) = d.s.tables
    out = [e for e in _bust(d, table_id, {5: 1, 6: 2}) if isinstance(e, PlayerEliminated)]
    assert {(e.player_id, e.place, e.place_to) for e in out} == {(5, 8, 9), (6, 8, 9)}
    reinstated = d(t.Rebuy(5))[0]
    assert isinstance(reinstated, PlayerReinstated)
    entry6 = d.s.players[6].entry_number
    assert [(m.entry_number, m.place, m.place_to) for m in reinstated.places] == [(entry6, 9, 9)]
    (left,) = [e for e in d.s.eliminations]
    assert (left.player_id, left.place, left.place_to) == (6, 9, 9)


@pytest.mark.rule("TREG-14")
def test_a_rebuy_after_the_bust_is_refused_where_it_cannot_be_undone() -> None:
    """In a bounty event the knockout paid his bounty: the rebuy is asked during the hand."""
    d = started(
        9, tables=(1, 2), rebuy=RebuyRule(True, 2, 3, 1000, 100),
        bounty=BountyRule("knockout", 200),
    )  # fmt: skip
    (table_id,) = d.s.tables
    _bust(d, table_id, {6: 1})
    before = d.s
    with pytest.raises(DomainError) as refused:
        d(t.Rebuy(6))
    assert (refused.value.code, refused.value.rule) == ("rebuy_window_closed", "TREG-14")
    assert d.s is before
