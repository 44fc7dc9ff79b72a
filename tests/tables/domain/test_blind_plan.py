"""The next-hand planner (tables.domain.blinds): button, blinds, owed and missed blinds."""

from __future__ import annotations

import pytest

from tables.domain.blinds import (
    DEAD_BUTTON,
    FORWARD,
    HandPlan,
    LastBlinds,
    NotEnoughPlayers,
    SeatStatus,
    plan_hand,
)


def seats(*numbers: int, **statuses: str) -> list[SeatStatus]:
    """Seats ``numbers``, active unless ``s<n>=status`` says otherwise."""
    return [SeatStatus(n, statuses.get(f"s{n}", "active")) for n in numbers]


def blinds(plan: HandPlan) -> tuple[int, int | None, int]:
    return plan.button_seat, plan.small_blind_seat, plan.big_blind_seat


@pytest.mark.rule("SEAT-1")
def test_a_new_game_takes_the_drawn_button_and_posts_by_position() -> None:
    plan = plan_hand(seats(2, 5, 9), None, drawn_button=5)
    assert blinds(plan) == (5, 9, 2) and plan.new_game and plan.dealt_in == (2, 5, 9)
    heads_up = plan_hand(seats(2, 5), None)
    assert blinds(heads_up) == (2, 2, 5) and heads_up.heads_up
    with pytest.raises(NotEnoughPlayers):
        plan_hand(seats(2, 5, s5="sitting_out"), LastBlinds(2, 2, 5))


@pytest.mark.rule("SEAT-5")
def test_dead_button_after_heads_up_puts_the_button_before_the_small_blind() -> None:
    # last hand heads-up: 1 button and small blind, 5 big blind; 3 joined and plays at once
    plan = plan_hand(seats(1, 3, 5), LastBlinds(1, 1, 5), button_rule=DEAD_BUTTON)
    assert blinds(plan) == (4, 5, 1) and plan.dealt_in == (1, 3, 5)
    # 6-max: the seat before seat 1 is seat 6
    plan = plan_hand(seats(1, 3, 5), LastBlinds(3, 3, 1), button_rule=DEAD_BUTTON, max_seats=6)
    assert blinds(plan) == (6, 1, 3) and plan.dealt_in == (1, 3, 5)


@pytest.mark.rule("SEAT-5")
def test_dead_button_with_the_last_big_blind_gone_has_a_dead_small_blind() -> None:
    plan = plan_hand(seats(1, 3, 5), LastBlinds(1, 3, 7), button_rule=DEAD_BUTTON)
    assert blinds(plan) == (3, None, 1) and plan.dead_small_blind_seat == 7


@pytest.mark.rule("SEAT-16")
@pytest.mark.parametrize("rule", [FORWARD, DEAD_BUTTON])
def test_blinds_passing_a_seat_sitting_out_are_missed(rule: str) -> None:
    table = seats(1, 3, 5, 7, 9, s7="sitting_out")
    plan = plan_hand(table, LastBlinds(1, 3, 5), button_rule=rule)  # the BB jumps 7
    assert blinds(plan)[2] == 9 and plan.missed == ((7, "big_blind"),)
    plan = plan_hand(table, LastBlinds(3, 5, 9), button_rule=rule)
    assert plan.missed == ((7, "small_blind"),)  # the small blind moves from 5 past 7 to 9


@pytest.mark.rule("SEAT-16")
def test_waiting_player_plays_when_the_big_blind_reaches_him_posting_player_at_once() -> None:
    table = [*seats(1, 3, 5, 9), SeatStatus(7, "waiting", missed_big_blind=True)]
    plan = plan_hand(table, LastBlinds(1, 3, 5), button_rule=DEAD_BUTTON)
    assert blinds(plan) == (3, 5, 7) and 7 in plan.dealt_in and plan.posts == ()
    table = [*seats(1, 3, 5, 9), SeatStatus(7, "waiting", post=True, missed_small_blind=True,
                                            missed_big_blind=True)]  # fmt: skip
    plan = plan_hand(table, LastBlinds(9, 1, 3), button_rule=DEAD_BUTTON)
    assert blinds(plan) == (1, 3, 5) and plan.posts == ((7, "dead_sb"), (7, "posted_bb"))
    plan = plan_hand(
        table, LastBlinds(9, 1, 3), button_rule=DEAD_BUTTON, missed_blind_sb_dead=False
    )
    assert plan.posts == ((7, "posted_sb"), (7, "posted_bb"))


@pytest.mark.rule("SEAT-15")
def test_new_player_zone_is_from_the_button_to_the_big_blind() -> None:
    # next hand: button 3, SB 5, BB the next player due after 5; a new player at 4 sits
    # between the button and the big blind (waits), at 6 he is due first (posts the BB), at
    # 8 or 2 he is after the big blind (plays at once, no post)
    for seat, dealt, bb in ((4, False, 7), (6, True, 6), (8, True, 7), (2, True, 7)):
        table = [*seats(1, 3, 5, 7, 9), SeatStatus(seat, "new")]
        plan = plan_hand(table, LastBlinds(1, 3, 5), button_rule=DEAD_BUTTON)
        assert (seat in plan.dealt_in, plan.big_blind_seat) == (dealt, bb), seat
        assert (seat in plan.became_waiting) is not dealt and plan.posts == ()
    plan = plan_hand([*seats(1, 3, 5, 9), SeatStatus(7, "new")], LastBlinds(1, 3, 5))
    assert blinds(plan) == (3, 5, 7) and 7 in plan.dealt_in  # the new player in the BB


@pytest.mark.rule("SEAT-11")
def test_forward_button_going_heads_up_gives_the_last_big_blind_the_button() -> None:
    plan = plan_hand(seats(3, 5), LastBlinds(1, 3, 5), button_rule=FORWARD)
    assert blinds(plan) == (5, 5, 3) and plan.heads_up
    plan = plan_hand(seats(3, 5), LastBlinds(1, 3, 5), button_rule=DEAD_BUTTON)
    assert blinds(plan) == (5, 5, 3)


@pytest.mark.rule("SEAT-15")
def test_new_player_on_the_button_seat_is_in_the_zone() -> None:
    # dead button: 3 left after a hand (button 1, SB 3, BB 5) and a new player took his
    # seat; the next button is seat 3 (SB 5, BB 7), so he would play the button unpaid
    table = [*seats(1, 5, 7, 9), SeatStatus(3, "new")]
    plan = plan_hand(table, LastBlinds(1, 3, 5), button_rule=DEAD_BUTTON)
    assert blinds(plan) == (3, 5, 7)
    assert 3 not in plan.dealt_in and plan.became_waiting == (3,) and plan.posts == ()
    posting = [*seats(1, 5, 7, 9), SeatStatus(3, "new", post=True)]
    plan = plan_hand(posting, LastBlinds(1, 3, 5), button_rule=DEAD_BUTTON)
    assert 3 in plan.dealt_in and plan.posts == ((3, "dead_sb"), (3, "posted_bb"))


@pytest.mark.rule("SEAT-14")
@pytest.mark.rule("SEAT-13")
def test_a_tournament_player_waiting_out_of_the_zone_is_dealt_in_once_the_button_passed() -> None:
    """A player moved from a broken table to a seat between the button and the big blind
    waited for the big blind, the cash game's way, and sat out most of an orbit (QA)."""
    table = seats(1, 2, 3, 4, 5, 6, 7, 8, s5="waiting")
    inside = plan_hand(table, LastBlinds(3, 4, 6), button_rule=DEAD_BUTTON, tournament=True)
    assert blinds(inside) == (4, 6, 7) and 5 in inside.waiting  # between button and BB
    after = LastBlinds(4, 6, 7)
    dealt = plan_hand(table, after, button_rule=DEAD_BUTTON, tournament=True)
    assert blinds(dealt) == (6, 7, 8) and 5 in dealt.dealt_in  # the button passed him
    cash = plan_hand(table, after, button_rule=DEAD_BUTTON)
    assert 5 in cash.waiting  # a cash game still waits for the big blind (SEAT-16)
