"""Property tests: random legal hands keep the chips, and the state is a fold of the events.

The random hands include straddles (SEAT-18/19), boards run two or three times (RAKE-10),
misdeals and void hands (MIS-1..3, MIS-11/12) and rabbit hunts (RAKE-8), blinds placed by
the table with a dead small blind or a dead button (SEAT-5) and blinds owed by returning or
new players, dead and live (SEAT-15, SEAT-16).
"""

from __future__ import annotations

import itertools
from functools import reduce

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from casino.domain_events import DomainEvent
from tables.domain import (
    DealBoard,
    DeclareMisdeal,
    HandCommand,
    HandRuleViolation,
    HandState,
    MuckCards,
    RecordRabbitHunt,
    RunItTimes,
    ShowCards,
    StartHand,
    TakeAction,
    VoidHand,
    decide,
    evolve,
    load,
)
from tables.domain.seating import acting_order, straddle_amounts, straddle_chain
from tables.events import AnteType, Game, HandSettled, SeatInHand, TableMode

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


def _straddles(
    data: st.DataObject,
    button: int,
    stacks: dict[int, int],
    ante: int,
    ante_type: AnteType,
    big_blind_seat: int | None = None,
    owed: dict[str, tuple[int, ...]] | None = None,
) -> tuple[int, ...]:
    """A random prefix of the straddle chain that the stacks can post in full."""
    owed = owed or {}
    wanted = data.draw(st.integers(0, 3))
    chain = straddle_chain(button, stacks, big_blind_seat)[:wanted]
    live = set(owed.get("posted_big_blinds", ())) | set(owed.get("posted_small_blinds", ()))
    chosen: list[int] = []
    for seat, amount in zip(chain, straddle_amounts(10, len(chain)), strict=True):
        paid_ante = min(ante, stacks[seat]) if ante_type == "per_player" else 0
        if seat in owed.get("dead_small_blinds", ()):
            paid_ante = min(paid_ante + 5, stacks[seat])
        if seat in live or stacks[seat] - paid_ante < amount:
            break
        chosen.append(seat)
    return tuple(chosen)


def _placed_blinds(
    data: st.DataObject, button: int, seats: list[int]
) -> tuple[dict[str, int | None], dict[str, tuple[int, ...]]]:
    """Blinds placed by the table (SEAT-5: maybe a dead small blind, the button maybe on a
    seat not dealt in) and blinds owed by other seats (SEAT-15/16), or none."""
    order = acting_order(button, seats)
    if len(order) < 3 or not data.draw(st.booleans()):
        return {}, {}
    last = len(order) - (1 if button in seats else 0)  # the button may not be a blind
    bb_index = data.draw(st.integers(0, last - 1))
    sb = order[bb_index - 1] if bb_index >= 1 and data.draw(st.booleans()) else None
    bb = order[bb_index]
    others = [seat for seat in order if seat not in (sb, bb)]
    owed: dict[str, list[int]] = {"dead_small_blinds": [], "posted_big_blinds": [],
                                  "posted_small_blinds": []}  # fmt: skip
    for seat in others:
        for name in data.draw(st.sampled_from([(), (), ("dead_small_blinds",),
                              ("posted_big_blinds",), ("dead_small_blinds", "posted_big_blinds"),
                              ("posted_small_blinds", "posted_big_blinds")])):  # fmt: skip
            owed[name].append(seat)
    placed = {"small_blind_seat": sb, "big_blind_seat": bb}
    return placed, {name: tuple(seats) for name, seats in owed.items()}


@pytest.mark.rule("SEAT-18")
@pytest.mark.rule("SEAT-5")
@pytest.mark.rule("SEAT-16")
@pytest.mark.rule("RAKE-10")
@pytest.mark.rule("MIS-1")
@pytest.mark.rule("MIS-11")
@pytest.mark.rule("RAKE-8")
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
    ante = 0 if ante_type == "none" else data.draw(st.integers(1, 20))
    button = data.draw(st.integers(1, 10))
    stacks = {seat: data.draw(st.integers(1, 2000)) for seat in seats}
    mode: TableMode = data.draw(st.sampled_from(["cash", "tournament"]))
    placed, owed = _placed_blinds(data, button, seats)
    bb_seat = placed.get("big_blind_seat")
    straddles = (
        _straddles(data, button, stacks, ante, ante_type, bb_seat, owed) if mode == "cash" else ()
    )
    start = StartHand(
        hand_id="h",
        table_id=1,
        hand_number=1,
        button_seat=button,
        seats=tuple(SeatInHand(seat, f"p{seat}", stack) for seat, stack in stacks.items()),
        small_blind=5,
        big_blind=10,
        game=game,
        ante=ante,
        ante_type=ante_type,
        min_raise_rule=data.draw(st.sampled_from(["previous_increment", "double_last"])),
        rake_percent_bp=data.draw(st.sampled_from([0, 500, 1000])),
        rake_cap=data.draw(st.sampled_from([0, 30, 300])),
        no_flop_no_drop=data.draw(st.booleans()),
        mode=mode,
        straddles=straddles,
        misdeal_action_threshold=data.draw(st.integers(1, 4)),
        misdeal_counts_passive_actions=data.draw(st.booleans()),
        misdeal_allowed_after_flop=data.draw(st.booleans()),
        **placed,  # type: ignore[arg-type]
        **owed,  # type: ignore[arg-type]
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

    def refused_with(command: HandCommand, *codes: str) -> bool:
        """Run ``command``; ``False`` when it is refused with one of ``codes``."""
        try:
            run(command)
        except HandRuleViolation as refusal:
            assert refusal.code in codes, (refusal.code, refusal.detail)
            return False
        return True

    run(start)
    assert state is not None
    irregularity = data.draw(st.sampled_from(["none", "none", "none", "misdeal", "void"]))
    irregular_step = data.draw(st.integers(0, 20))
    for step in range(400):
        if state.is_complete:
            break
        if (
            step == irregular_step
            and irregularity == "misdeal"
            and refused_with(DeclareMisdeal("misdeal"), "misdeal_too_late")
        ):
            break
        if step == irregular_step and irregularity == "void":
            run(VoidHand("duplicate card"))
            break
        if (
            state.phase == "showdown"
            and state.run_count == 1
            and len(state.board) < 5
            and data.draw(st.integers(0, 3)) == 0
        ):
            times = data.draw(st.sampled_from([2, 3]))
            if mode == "tournament":
                assert not refused_with(RunItTimes(times), "run_it_not_allowed")
            else:
                run(RunItTimes(times))
                continue
        if state.phase == "betting":
            # the pots on the screens hold every chip in, and a player who may still act
            # can win each of them (QA: the button was in none before he acted)
            shown = state.pots_on_screen()
            assert sum(p.amount for p in shown) == state.pot
            can_act = {s.seat for s in state.seats if not s.all_in} & set(state.live_seats)
            assert all(can_act <= set(p.eligible_seats) for p in shown), shown
            run(data.draw(st.sampled_from(_command_options(state))))
        elif state.next_street is not None and (
            state.phase == "awaiting_board"
            or not any(s.live and s.shown is None for s in state.seats)  # all shown: deal
            or data.draw(st.booleans())
        ):
            open_runs = [r for r, board in enumerate(state.boards, 1) if len(board) < 5]
            deal_run = data.draw(st.sampled_from(open_runs))
            size = len(state.boards[deal_run - 1])
            street = {0: "flop", 3: "turn", 4: "river"}[size]
            cards = "".join(deck.pop() for _ in range(3 if street == "flop" else 1))
            run(DealBoard(street, cards, run=deal_run))  # type: ignore[arg-type]
        else:
            waiting = [s for s in state.seats if s.live and s.shown is None]
            if not waiting:  # everyone shown: deal the rest
                continue
            seat = data.draw(st.sampled_from(waiting)).seat
            if data.draw(st.integers(0, 3)) == 0:
                deliberate = data.draw(st.booleans())
                all_in = next(s for s in state.seats if s.seat == seat).all_in
                try:
                    run(MuckCards(seat, deliberate=deliberate))
                    assert deliberate or not all_in  # SD-12: never an all-in hand by chance
                    continue
                except HandRuleViolation as refusal:
                    assert refusal.code == "last_live_hand" or (
                        refusal.code == "all_in_hand_not_mucked" and all_in and not deliberate
                    ), refusal.code
            run(ShowCards(seat, "".join(deck.pop() for _ in range(hole))))
    assert state.is_complete
    event(f"straddles: {len(straddles)}")
    event(f"placed blinds: {bool(placed)}, owed posts: {sum(map(len, owed.values()))}")
    event(f"runs: {state.run_count}")
    event(f"voided: {None if state.voided is None else state.voided.kind}")
    if state.voided is not None:  # every chip went back
        assert events[-1] == state.voided and state.result is None
        assert state.stacks == stacks
        replayed_void = load(events)
        assert replayed_void is not None and replayed_void.stacks == stacks
        return
    result = state.result
    assert isinstance(result, HandSettled) and events[-1] == result
    starting = sum(s.stack for s in start.seats)
    assert sum(state.stacks.values()) + result.rake == starting
    for pot in result.pots:
        assert sum(a.amount for a in pot.winners) == pot.amount - pot.rake
        if pot.runs:
            assert len(pot.runs) == state.run_count
            assert sum(r.amount for r in pot.runs) == pot.amount - pot.rake
    assert all(stack >= 0 for stack in state.stacks.values())
    assert result.rake <= start.rake_cap
    if start.rake_percent_bp == 0 or (start.no_flop_no_drop and not any(state.boards)):
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
    # a rabbit hunt after the hand: the fee leaves the stack, the result stays
    hunter = data.draw(st.sampled_from(seats))
    fee = data.draw(st.integers(1, max(1, state.stacks[hunter])))  # RAKE-8: at least 1
    if refused_with(
        RecordRabbitHunt(hunter, deck.pop(), fee, tuple(s for s in seats if s != hunter)),
        "rabbit_hunt_not_allowed",
        "nothing_to_hunt",
        "fee_exceeds_stack",  # a hunter left with no chips cannot pay
    ):
        event("rabbit hunt")
        assert mode == "cash"
        assert state.result == result
        assert sum(state.stacks.values()) + result.rake + fee == starting
        rabbit = load(events)
        assert rabbit is not None and rabbit.stacks == state.stacks
