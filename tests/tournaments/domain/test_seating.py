"""The table plan (tournaments.domain.seating): draws, balancing, breaking, final table."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tournaments.domain import seating
from tournaments.domain.seating import TableLayout


def layout(table_id: int, seats: dict[int, int], button: int | None = None,
           bb: int | None = None, in_hand: bool = False, size: int = 9) -> TableLayout:  # fmt: skip
    return TableLayout(table_id, size, seats, button, bb, in_hand)


@pytest.mark.rule("TSEAT-1")
def test_seat_draw_is_balanced_random_and_repeatable() -> None:
    draw = seating.draw_seats(list(range(1, 61)), list(range(1, 11)), 9, 5)
    assert len(draw) == 60 and len(set(draw.values())) == 60
    per_table = Counter(t for t, _ in draw.values())
    assert set(per_table) == set(range(1, 8))  # 7 tables of 9 are needed
    assert max(per_table.values()) - min(per_table.values()) <= 1
    assert all(1 <= seat <= 9 for _, seat in draw.values())
    assert draw == seating.draw_seats(list(range(1, 61)), list(range(1, 11)), 9, 5)
    assert draw != seating.draw_seats(list(range(1, 61)), list(range(1, 11)), 9, 6)
    with pytest.raises(ValueError):
        seating.draw_seats(list(range(1, 61)), [1, 2], 9, 5)


@pytest.mark.rule("TSEAT-1")
def test_seat_draw_is_uniform_over_seats() -> None:
    counts: Counter[tuple[int, int]] = Counter()
    for seed in range(3000):
        counts[seating.draw_seats([1, 2, 3, 4, 5, 6], [1], 6, seed)[1]] += 1
    assert all(400 < n < 600 for n in counts.values()) and len(counts) == 6


@pytest.mark.rule("SEAT-1")
def test_high_card_draw_uses_suits_spades_hearts_diamonds_clubs() -> None:
    assert seating.card_key("As") > seating.card_key("Ah") > seating.card_key("Ad")
    assert seating.card_key("Ad") > seating.card_key("Ac") > seating.card_key("Ks")
    button, cards = seating.high_card_draw([2, 4, 7], 11)
    assert [s for s, _ in cards] == [2, 4, 7] and len({c for _, c in cards}) == 3
    assert button == max(cards, key=lambda sc: seating.card_key(sc[1]))[0]


@pytest.mark.rule("SEAT-2")
def test_button_on_seat_1_or_the_lowest_seat() -> None:
    assert seating.initial_button([1, 5, 9], "seat_1", 0) == (1, ())
    assert seating.initial_button([3, 5, 9], "seat_1", 0) == (3, ())


@pytest.mark.rule("TSEAT-5")
def test_balancing_moves_the_next_big_blind_to_the_worst_position() -> None:
    # long table: button 1, big blind 3 -> next big blind is seat 4 (player 14)
    long = layout(1, {1: 11, 2: 12, 3: 13, 4: 14, 5: 15, 6: 16, 7: 17, 8: 18}, 1, 3)
    # short table: button 2, big blind 5; seats 6 and 8 empty, seat 3 empty (zone)
    short = layout(2, {1: 21, 2: 22, 4: 24, 5: 25, 7: 27, 9: 29}, 2, 5)
    moves = seating.balance({1: long, 2: short})
    assert moves == [seating.Move(14, 1, 4, 2, 6, "balancing")]
    assert seating.next_big_blind_seat(long) == 4


@pytest.mark.rule("TSEAT-5")
def test_balancing_never_seats_a_player_between_the_button_and_the_big_blind() -> None:
    long = layout(1, {1: 11, 2: 12, 3: 13, 4: 14, 5: 15, 6: 16, 7: 17, 8: 18, 9: 19}, 1, 3)
    # the only empty seats of the short table are 3 and 4, between button 2 and big blind 5
    short = layout(2, {1: 21, 2: 22, 5: 25, 6: 26, 7: 27, 8: 28, 9: 29}, 2, 5)
    assert seating.forbidden_seats(short) == frozenset({3, 4})
    (move,) = seating.balance({1: long, 2: short})
    assert move.to_seat in (3, 4) and move.wait_for_big_blind


@pytest.mark.rule("TSEAT-5")
def test_a_moved_player_never_takes_the_last_big_blinds_empty_seat() -> None:
    """Short table: button 6, the last big blind on seat 8 busted, so seat 8 is the next
    small blind's. The balancing move put the next big blind of the long table there, and
    he posted the small blind at once (found by QA). Seat 7 is between the button and it;
    with no other seat free he waits for the big blind."""
    long = layout(1, {s: 10 + s for s in range(1, 10)}, 1, 3)
    short = layout(2, {1: 21, 2: 22, 3: 23, 4: 24, 5: 25, 6: 26, 9: 29}, 6, 8)
    assert seating.forbidden_seats(short) == frozenset({7, 8})
    (move,) = seating.balance({1: long, 2: short})
    assert move.player_id == 14 and move.wait_for_big_blind


@pytest.mark.rule("SEAT-14")
@pytest.mark.rule("TSEAT-7")
def test_the_zone_starts_at_the_next_button_the_last_small_blinds_seat() -> None:
    """Last hand: button 2, small blind 4 (since busted), big blind 6. With the dead
    button (SEAT-5) the next hand has the button on seat 4, the small blind on 6 and the
    big blind on 7: only seat 5 is between them. Seat 3 is behind the next button, so a
    player put there is dealt in and meets the blinds in turn; the zone counted from the
    last button made him wait an orbit for the big blind (found by QA)."""
    seats = {1: 21, 2: 22, 6: 26, 7: 27, 8: 28, 9: 29}
    dead = TableLayout(2, 9, seats, 2, 6, next_button_seat=4)
    assert seating.forbidden_seats(dead) == frozenset({5})
    forward = TableLayout(2, 9, seats, 2, 6)  # the forward button: counted from the last
    assert seating.forbidden_seats(forward) == frozenset({3, 4, 5})
    # a broken table's player drawn to a seat: never seat 5, and on seat 3 he plays at once
    for seed in range(40):
        (move,) = seating.break_tables({1: layout(1, {4: 14}), 2: dead}, [1], seed)
        assert move.to_seat in (3, 4) and not move.wait_for_big_blind


@pytest.mark.rule("TSEAT-6")
def test_similar_position_keeps_the_distance_to_the_big_blind() -> None:
    long = layout(1, {1: 11, 2: 12, 3: 13, 4: 14, 5: 15, 6: 16, 7: 17, 8: 18}, 1, 3)
    short = layout(2, {1: 21, 2: 22, 4: 24, 5: 25, 7: 27, 9: 29}, 2, 5)
    (move,) = seating.balance({1: long, 2: short}, policy="similar_position")
    assert move.player_id == 14 and move.to_seat == 6  # he was next big blind, still is


@pytest.mark.rule("TSEAT-3")
def test_tables_in_a_hand_give_no_player_but_may_receive_one() -> None:
    long = layout(1, {s: 10 + s for s in range(1, 10)}, 1, 3, in_hand=True)
    short = layout(2, {1: 21, 2: 22, 3: 23, 4: 24, 5: 25, 6: 26, 7: 27}, 1, 3)
    assert seating.balance({1: long, 2: short}) == []
    idle_long = layout(3, {s: 30 + s for s in range(1, 10)}, 1, 3)
    shorter = layout(2, {1: 21, 2: 22, 3: 23, 4: 24, 5: 25, 6: 26}, 1, 3, in_hand=True)
    moves = seating.balance({3: idle_long, 2: shorter})
    assert len(moves) == 1 and moves[0].from_table == 3 and moves[0].to_table == 2


@pytest.mark.rule("TSEAT-3")
def test_balancing_many_tables_ends_within_one_player() -> None:
    rng = random.Random(3)
    tables = {}
    pid = 0
    for tid in range(1, 21):
        n = rng.randint(2, 9)
        seats = {}
        for seat in rng.sample(range(1, 10), n):
            pid += 1
            seats[seat] = pid
        tables[tid] = layout(tid, seats, min(seats), None)
    moves = seating.balance(tables)
    counts = Counter({tid: len(t.seats) for tid, t in tables.items()})
    for m in moves:
        counts[m.from_table] -= 1
        counts[m.to_table] += 1
    assert max(counts.values()) - min(counts.values()) <= 1


@pytest.mark.rule("TSEAT-4")
def test_breaking_a_table_draws_seats_at_the_tables_with_the_fewest_players() -> None:
    tables = {
        1: layout(1, {1: 11, 3: 13, 5: 15}, 1, 5),
        2: layout(2, {1: 21, 2: 22, 3: 23, 4: 24, 5: 25, 6: 26}, 1, 3),
        3: layout(3, {1: 31, 2: 32, 3: 33, 4: 34, 5: 35}, 1, 3),
    }
    moves = seating.break_table(tables, 1, 7)
    assert sorted(m.player_id for m in moves) == [11, 13, 15]
    assert {m.reason for m in moves} == {"table_broken"}
    to = Counter(m.to_table for m in moves)
    assert to == {3: 2, 2: 1}  # 5 -> 6 -> 7 at table 3, one to table 2 when it ties
    assert len({(m.to_table, m.to_seat) for m in moves}) == 3
    assert seating.tables_to_break(14, [1, 2, 3], 9) == [1]
    assert seating.tables_to_break(19, [1, 2, 3], 9) == []


@pytest.mark.rule("TSEAT-7")
def test_players_from_a_broken_table_avoid_the_seats_between_button_and_big_blind() -> None:
    for seed in range(50):
        tables = {
            1: layout(1, {1: 11, 2: 12}, 1, 2),
            2: layout(2, {1: 21, 5: 25, 6: 26, 7: 27}, 1, 5),  # 2, 3, 4 are in the zone
        }
        for m in seating.break_table(tables, 1, seed):
            assert m.to_seat not in (2, 3, 4) and not m.wait_for_big_blind
        anywhere = seating.break_table(tables, 1, seed, seat_filter="any")
        assert all(not m.wait_for_big_blind for m in anywhere)


@pytest.mark.rule("SEAT-14")
def test_a_late_entrant_goes_to_the_smallest_table_outside_the_zone() -> None:
    tables = {
        1: layout(1, {1: 11, 2: 12, 3: 13, 5: 15, 6: 16}, 1, 3),
        2: layout(2, {1: 21, 5: 25, 6: 26, 7: 27}, 1, 5),
    }
    for seed in range(30):
        p = seating.late_entry_seat(tables, 99, seed)
        assert p is not None and p.table_id == 2 and p.seat in (8, 9)
    full = {1: layout(1, {s: s for s in range(1, 10)})}
    assert seating.late_entry_seat(full, 99, 1) is None


@pytest.mark.rule("TSEAT-8")
def test_final_table_redraw_draws_every_player_a_seat() -> None:
    draw = seating.final_table_draw([5, 8, 13, 21, 34, 55, 89, 144, 233], 9, 4)
    assert sorted(draw.values()) == list(range(1, 10))
    with pytest.raises(ValueError):
        seating.final_table_draw(range(11), 10, 1)
