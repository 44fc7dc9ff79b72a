"""TREG-14 through the dealer API's path: a player asks during the hand to rebuy if it
busts him; the rebuy is taken when the hand is recorded, before the next deal."""

from __future__ import annotations

import pytest

from casino.errors import DomainError
from tournaments.domain import tournament as t
from tournaments.domain.config import RebuyRule
from tournaments.domain.events import PlayerEliminated, RebuyRequestLapsed, RebuyTaken

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
    # the one who did not ask is out: a rebuy now is refused, citing the rule (QA: no rule)
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
