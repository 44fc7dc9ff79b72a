"""Property tests: random legal hands keep the chips, and the state is a fold of the events."""

from __future__ import annotations

import itertools
from functools import reduce

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.domain_events import DomainEvent
from tables.domain import (
    DealBoard,
    HandCommand,
    HandRuleViolation,
    HandState,
    MuckCards,
    ShowCards,
    StartHand,
    TakeAction,
    decide,
    evolve,
    load,
)
from tables.events import AnteType, Game, HandSettled, SeatInHand

DECK = tuple(r + s for r, s in itertools.product("23456789TJQKA", "cdhs"))


def _command_options(state: HandState) -> list[TakeAction]:
    legal = state.legal
    assert legal is not None
    seat = legal.seat
    options = [TakeAction(seat, "check" if legal.can_check else "call")]
    if legal.can_fold:
        options.append(TakeAction(seat, "fold"))
    if legal.min_raise_to is not None and legal.max_raise_to is not None:
        kind = "bet" if legal.can_bet else "raise"
        low, high = legal.min_raise_to, legal.max_raise_to
        options.append(TakeAction(seat, kind, low))  # type: ignore[arg-type]
        options.append(TakeAction(seat, kind, (low + high) // 2))  # type: ignore[arg-type]
        options.append(TakeAction(seat, kind, high))  # type: ignore[arg-type]
        if legal.all_in_to <= high:
            options.append(TakeAction(seat, "all_in"))
    elif legal.all_in_to <= legal.call_to:
        options.append(TakeAction(seat, "all_in"))
    return options


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_hands_conserve_chips_and_replay(data: st.DataObject) -> None:
    seats = data.draw(st.lists(st.integers(1, 10), min_size=2, max_size=10, unique=True))
    game: Game = data.draw(st.sampled_from(["NLH", "PLO"]))
    ante_type: AnteType = data.draw(st.sampled_from(["none", "per_player", "big_blind"]))
    start = StartHand(
        hand_id="h",
        table_id=1,
        hand_number=1,
        button_seat=data.draw(st.integers(1, 10)),
        seats=tuple(
            SeatInHand(seat, f"p{seat}", data.draw(st.integers(1, 2000))) for seat in seats
        ),
        small_blind=5,
        big_blind=10,
        game=game,
        ante=0 if ante_type == "none" else data.draw(st.integers(1, 20)),
        ante_type=ante_type,
        min_raise_rule=data.draw(st.sampled_from(["previous_increment", "double_last"])),
        rake_percent_bp=data.draw(st.sampled_from([0, 500, 1000])),
        rake_cap=data.draw(st.sampled_from([0, 30, 300])),
        no_flop_no_drop=data.draw(st.booleans()),
        mode=data.draw(st.sampled_from(["cash", "tournament"])),
    )
    deck = list(data.draw(st.permutations(DECK)))
    hole = 4 if game == "PLO" else 2
    events: list[DomainEvent] = []
    state: HandState | None = None

    def run(command: HandCommand) -> None:
        nonlocal state
        before = None if state is None else (state.seats, state.phase, state.board, state.to_act)
        new_events = decide(state, command)
        if state is not None:  # decide never changes the state
            assert (state.seats, state.phase, state.board, state.to_act) == before
        events.extend(new_events)
        state = reduce(evolve, new_events, state)

    run(start)
    assert state is not None
    for _ in range(400):
        if state.is_complete:
            break
        if state.phase == "betting":
            run(data.draw(st.sampled_from(_command_options(state))))
        elif state.next_street is not None and (
            state.phase == "awaiting_board" or data.draw(st.booleans())
        ):
            count = 3 if state.next_street == "flop" else 1
            cards = "".join(deck.pop() for _ in range(count))
            run(DealBoard(state.next_street, cards))
        else:
            waiting = [s for s in state.seats if s.live and s.shown is None]
            if not waiting:  # everyone shown: deal the rest
                continue
            seat = data.draw(st.sampled_from(waiting)).seat
            if data.draw(st.integers(0, 3)) == 0:
                try:
                    run(MuckCards(seat))
                    continue
                except HandRuleViolation as refusal:
                    assert refusal.code == "last_live_hand"
            run(ShowCards(seat, "".join(deck.pop() for _ in range(hole))))
    assert state.is_complete
    result = state.result
    assert isinstance(result, HandSettled) and events[-1] == result
    starting = sum(s.stack for s in start.seats)
    assert sum(state.stacks.values()) + result.rake == starting
    assert all(stack >= 0 for stack in state.stacks.values())
    assert result.rake <= start.rake_cap
    if start.rake_percent_bp == 0 or (start.no_flop_no_drop and not state.board):
        assert result.rake == 0
    awards = sum(a.amount for p in result.pots for a in p.winners)
    uncalled = sum(u.amount for u in result.uncalled)
    before_settling = load(events[:-1])
    assert before_settling is not None
    contributed = sum(s.contributed for s in before_settling.seats)
    assert contributed == awards + uncalled + result.rake
    replayed = load(events)
    assert replayed is not None
    assert replayed.stacks == state.stacks and replayed.result == result
