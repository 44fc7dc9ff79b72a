"""Property test: a table under random floor actions, sit-outs and hands.

Players sit down, leave, sit out and come back (waiting or posting) between random hands
played through the hand engine, under every button rule and entry rule (SEAT-5, SEAT-6,
SEAT-15, SEAT-16, SES-1). Every hand the table begins is one the hand engine accepts as
placed, chips are conserved at the table, the blinds are well placed (SEAT-7, SEAT-10) and
nobody posts the big blind twice in a row (SEAT-11), and the table state survives the
snapshot codec.
"""

from __future__ import annotations

import dataclasses
import json
from functools import reduce

import dacite
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from casino.errors import DomainError
from tables.domain import HandState, TakeAction
from tables.domain import decide as hand_decide
from tables.domain import evolve as hand_evolve
from tables.domain import table as t
from tables.domain.seating import acting_order
from tables.events import HandBegan, HandSettled, TableOpened

DACITE = dacite.Config(cast=[tuple], strict=True)
CONFIG = TableOpened(
    table_id=1, name="NLH 10/20", game="NLH", small_blind=10, big_blind=20, ante=0,
    ante_type="none", buy_in_min=100, buy_in_max=5000, rake_percent_bp=500, rake_cap=300,
    no_flop_no_drop=False, min_raise_rule="previous_increment", max_seats=10,
)  # fmt: skip


def _play_out(hand: HandState, data: st.DataObject) -> HandState:
    """Random folds, calls, checks and all-ins until the hand is settled (showdown by a
    manual award of each pot to its first eligible seat)."""
    from tables.domain import AwardPots, DealBoard

    boards = iter(["2c7d9h", "Js", "Kd"])
    for _ in range(200):
        if hand.is_complete:
            return hand
        if hand.phase == "betting":
            legal = hand.legal
            assert legal is not None
            options = [TakeAction(legal.seat, "check" if legal.can_check else "call")]
            if legal.can_fold:
                options.append(TakeAction(legal.seat, "fold"))
            if legal.min_raise_to is not None:
                options.append(TakeAction(legal.seat, "all_in"))
            command = data.draw(st.sampled_from(options))
        elif hand.next_street is not None:
            command = DealBoard(hand.next_street, next(boards))  # type: ignore[assignment]
        else:
            winners = tuple((pot.eligible_seats[0],) for pot in hand.pots())
            command = AwardPots(winners)  # type: ignore[assignment]
        hand = reduce(hand_evolve, hand_decide(hand, command), hand)
    raise AssertionError("hand did not end")


def _check_placement(began: HandBegan) -> None:
    dealt = [s.seat for s in began.seats]
    order = acting_order(began.button_seat, dealt)
    bb, sb = began.big_blind_seat, began.small_blind_seat
    assert bb in dealt
    if len(dealt) == 2:  # SEAT-10
        assert sb == began.button_seat and bb != sb
    else:  # SEAT-7: the small blind just before the big blind, neither on the button
        assert bb != began.button_seat and sb != began.button_seat
        if sb is not None:
            assert order.index(sb) == order.index(bb) - 1
        else:
            assert began.dead_small_blind_seat is not None
    assert {p.seat for p in began.posts} <= set(dealt)
    assert not set(began.waiting_seats) & set(dealt)


@pytest.mark.rule("SEAT-5")
@pytest.mark.rule("SEAT-6")
@pytest.mark.rule("SEAT-11")
@pytest.mark.rule("SEAT-15")
@pytest.mark.rule("SEAT-16")
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_table_sessions_place_blinds_the_engine_accepts(data: st.DataObject) -> None:
    config = dataclasses.replace(
        CONFIG,
        button_rule=data.draw(st.sampled_from(["forward", "dead_button"])),
        cash_new_player_entry=data.draw(
            st.sampled_from(["immediate_no_post", "wait_or_post_both"])
        ),
        missed_blind_sb_dead=data.draw(st.booleans()),
    )
    state = t.evolve(None, config)
    assert state is not None
    bought, cashed, rake = 0, 0, 0
    next_player = 1
    last_bb: int | None = None
    last_dealt: set[int] = set()
    hands = 0
    for step in range(data.draw(st.integers(10, 40))):
        empty = [n for n in range(1, 11) if state.seat(n) is None]
        choices = ["hand", "hand", "hand"]
        if empty:
            choices += ["seat", "seat"]
        if state.seats:
            choices += ["leave", "sit_out", "sit_in", "sit_in"]
        choice = data.draw(st.sampled_from(choices))
        try:
            if choice == "seat":
                seat = data.draw(st.sampled_from(empty))
                buy_in = data.draw(st.sampled_from([100, 300, 1000]))
                events = t.decide(state, t.SeatPlayer(seat, next_player, buy_in))
                next_player += 1
                bought += buy_in
            elif choice == "leave":
                seat = data.draw(st.sampled_from(state.seats)).seat
                events = t.decide(state, t.CashOut(seat))
                cashed += state.seat(seat).stack  # type: ignore[union-attr]
            elif choice == "sit_out":
                events = t.decide(state, t.SitOut(data.draw(st.sampled_from(state.seats)).seat))
            elif choice == "sit_in":
                seat = data.draw(st.sampled_from(state.seats)).seat
                events = t.decide(state, t.SitIn(seat, post=data.draw(st.booleans())))
            else:
                events = t.decide(state, t.BeginHand(f"h{step}"))
        except DomainError as refusal:
            assert refusal.code in (
                "not_enough_players", "not_sitting_out", "already_sitting_out", "nothing_owed",
                "must_wait_for_big_blind",
            ), (refusal.code, refusal.detail)  # fmt: skip
            continue
        for e in events:
            state = t.evolve(state, e)
        assert state is not None
        if choice != "hand":
            continue
        (began,) = events
        assert isinstance(began, HandBegan)
        _check_placement(began)
        dealt = {s.player_id for s in began.seats}
        big_blind = next(s.player_id for s in began.seats if s.seat == began.big_blind_seat)
        repeated = last_bb is not None and last_bb in dealt and last_bb in last_dealt
        if repeated and (len(dealt) == 2 or config.button_rule == "dead_button"):
            # SEAT-11 heads-up; with the dead button nobody pays the big blind twice in a row
            # (the forward button may: a new player dealt in at once between the blinds)
            assert big_blind != last_bb
        hand = reduce(hand_evolve, hand_decide(None, t.start_hand_command(began, config)), None)
        assert hand is not None
        hand = _play_out(hand, data)
        result = hand.result
        assert isinstance(result, HandSettled)
        assert sum(s.stack for s in result.final_stacks) + result.rake == sum(
            s.stack for s in began.seats
        )
        rake += result.rake
        stacks = tuple((s.seat, s.stack) for s in result.final_stacks)
        for e in t.decide(state, t.EndHand(began.hand_id, stacks, result.rake)):
            state = t.evolve(state, e)
        assert state is not None
        hands += 1
        last_bb, last_dealt = big_blind, dealt
        event(f"{len(dealt)} dealt, {len(began.waiting_seats)} waiting, {len(began.posts)} posts")
        # chips at the table: bought in = on the table + cashed out + rake
        assert bought == sum(s.stack for s in state.seats) + cashed + rake
        payload = json.loads(json.dumps(dataclasses.asdict(state)))
        assert dacite.from_dict(t.TableState, payload, config=DACITE) == state
    event(f"hands: {min(hands, 5)}+" if hands >= 5 else f"hands: {hands}")
