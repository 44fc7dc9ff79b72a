"""The list aggregate without a database: decide/evolve for every command, the no-show
policy, and property tests of the list's invariants (order is a permutation, no duplicate,
a miss moves exactly per policy, an expiry decides once)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casino.errors import DomainError, NotFound
from waitlist.domain import lists
from waitlist.domain.lists import (
    CallPlayer,
    CancelCall,
    ExpireCall,
    Join,
    Leave,
    LinkMustMove,
    ListState,
    MarkAway,
    NoShowPolicy,
    OpenList,
    PromoteInterest,
    RecordMustMove,
    SeatFromList,
    decide,
    evolve,
)
from waitlist.events import (
    CallCancelled,
    CallMissed,
    CallRenewed,
    InterestListPromoted,
    MustMoveLinked,
    MustMovePlayerMoved,
    MustMoveUnlinked,
    PlayerCalled,
    PlayerLeftList,
    PlayerListed,
    PlayerMarkedAway,
    PlayerMarkedBack,
    PlayerMovedDown,
    PlayerSeatedFromList,
)

T0 = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
DOWN_1 = NoShowPolicy("down", 1, 3)


def run(state: ListState | None, command: lists.Command) -> tuple[ListState, list]:
    events = decide(state, command)
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state, events


def a_list(*players: int, kind: str = "waiting") -> ListState:
    state, _ = run(None, OpenList("nlh-10-20", kind, "NLH", 10, 20))
    for n, player in enumerate(players):
        state, _ = run(state, Join(f"e{player}", player, "in_person", T0 + timedelta(seconds=n)))
    return state


def order(state: ListState) -> list[int]:
    return [e.player_id for e in state.entries]


def call(state: ListState, seat: int = 5, **kw: object) -> tuple[ListState, PlayerCalled]:
    command = CallPlayer(f"c{seat}", 1, seat, T0, 300, **kw)  # type: ignore[arg-type]
    state, events = run(state, command)
    assert isinstance(events[0], PlayerCalled)
    return state, events[0]


# --- opening and listing --------------------------------------------------------------------


def test_open_list_refuses_twice_and_bad_input() -> None:
    state = a_list()
    assert (state.list_kind, state.game, state.small_blind, state.big_blind) == (
        "waiting",
        "NLH",
        10,
        20,
    )
    with pytest.raises(DomainError) as again:
        decide(state, OpenList("nlh-10-20", "waiting", "NLH", 10, 20))
    assert again.value.code == "list_exists"
    for bad in (OpenList("x", "vip", "NLH", 10, 20), OpenList("x", "waiting", "NLH", 20, 10)):
        with pytest.raises(DomainError):
            decide(None, bad)
    for kind in ("waiting", "table_change"):  # a list for a game no table deals: never seats
        with pytest.raises(DomainError) as unknown:
            decide(None, OpenList("zzz-10-20", kind, "ZZZ", 10, 20))
        assert unknown.value.code == "unknown_game"
    assert decide(None, OpenList("zzz-10-20", "interest", "ZZZ", 10, 20))  # any game
    with pytest.raises(NotFound) as missing:
        decide(None, Leave(1))
    assert missing.value.code == "list_not_found"


@pytest.mark.rule("WL-1")
def test_players_join_at_the_bottom_from_anywhere_and_only_once() -> None:
    state = a_list(1, 2)
    state, events = run(state, Join("e3", 3, "phone", T0, phone_ref="c0ffee"))
    assert order(state) == [1, 2, 3]
    assert events == [
        PlayerListed("nlh-10-20", "e3", 3, "phone", T0.isoformat(), "", None, "c0ffee")
    ]
    with pytest.raises(DomainError) as twice:
        decide(state, Join("e9", 2, "console", T0))
    assert (twice.value.code, twice.value.rule, twice.value.context["position"]) == (
        "already_listed",
        "WL-1",
        2,
    )
    with pytest.raises(DomainError) as channel:
        decide(state, Join("e9", 9, "carrier_pigeon", T0))
    assert channel.value.code == "invalid_channel"
    with pytest.raises(ValueError):
        decide(state, Join("e9", 9, "console", datetime(2026, 1, 1)))  # naive time


def test_a_table_change_list_needs_the_players_table() -> None:
    state = a_list(kind="table_change")
    with pytest.raises(DomainError) as refused:
        decide(state, Join("e1", 1, "in_person", T0))
    assert refused.value.code == "not_seated_in_game"
    state, _ = run(state, Join("e1", 1, "in_person", T0, from_table_id=4))
    assert state.entries[0].from_table_id == 4


@pytest.mark.rule("WL-3")
def test_leaving_and_being_away() -> None:
    state = a_list(1, 2, 3)
    state, events = run(state, MarkAway(2, True))
    assert isinstance(events[0], PlayerMarkedAway) and state.entries[1].away
    assert decide(state, MarkAway(2, True)) == []  # already away
    state, _ = call(state)
    assert state.calls[0].player_id == 1
    state, second = call(state, seat=6)
    assert second.player_id == 3  # the away player is skipped, keeps his place
    assert order(state) == [1, 2, 3]
    with pytest.raises(DomainError) as called_away:
        decide(state, MarkAway(1, True))
    assert (called_away.value.code, called_away.value.rule) == ("player_called", "WL-3")
    state, events = run(state, MarkAway(2, False))
    assert isinstance(events[0], PlayerMarkedBack) and not state.entries[1].away

    state, events = run(state, Leave(1, "player"))
    assert [type(e) for e in events] == [CallCancelled, PlayerLeftList]
    assert events[1].reason == "player" and events[1].position == 1
    assert order(state) == [2, 3] and [c.player_id for c in state.calls] == [3]
    with pytest.raises(NotFound) as gone:
        decide(state, Leave(1))
    assert gone.value.code == "not_on_list"
    with pytest.raises(DomainError):
        decide(state, Leave(2, "bored"))


# --- calls ----------------------------------------------------------------------------------


@pytest.mark.rule("WL-2")
def test_the_next_eligible_player_is_called_with_a_deadline() -> None:
    state = a_list(1, 2, 3)
    state, called = call(state, ineligible=frozenset({1}))  # 1 already plays this game
    assert (called.player_id, called.table_id, called.seat) == (2, 1, 5)
    assert called.deadline == (T0 + timedelta(seconds=300)).isoformat()
    with pytest.raises(DomainError) as held:
        decide(state, CallPlayer("x", 1, 5, T0, 300))
    assert (held.value.code, held.value.rule) == ("seat_already_called", "WL-2")
    with pytest.raises(DomainError) as skip:
        decide(state, CallPlayer("x", 1, 6, T0, 300, player_id=3, ineligible=frozenset()))
    assert (skip.value.code, skip.value.context["next_player_id"]) == ("not_next_on_list", 1)
    with pytest.raises(DomainError) as seated:
        decide(state, CallPlayer("x", 1, 6, T0, 300, player_id=1, ineligible=frozenset({1})))
    assert seated.value.code == "player_not_eligible"
    with pytest.raises(DomainError) as twice:
        decide(state, CallPlayer("x", 1, 6, T0, 300, player_id=2))
    assert twice.value.code == "already_called"
    state, third = call(state, seat=6, player_id=1)
    assert third.player_id == 1
    state, fourth = call(state, seat=7)
    assert fourth.player_id == 3
    with pytest.raises(DomainError) as nobody:
        decide(state, CallPlayer("x", 1, 8, T0, 300))
    assert nobody.value.code == "no_eligible_player"


def test_no_calls_from_an_interest_list_and_must_move_seats_first() -> None:
    with pytest.raises(DomainError) as interest:
        decide(a_list(1, kind="interest"), CallPlayer("c", 1, 1, T0, 300))
    assert interest.value.code == "game_not_running"
    state, _ = run(a_list(1), LinkMustMove(1, 2))
    with pytest.raises(DomainError) as main:
        decide(state, CallPlayer("c", 1, 1, T0, 300, must_move_waiting=True))
    assert main.value.code == "must_move_first"
    state, called = run(state, CallPlayer("c", 2, 1, T0, 300, must_move_waiting=True))
    assert called[0].table_id == 2  # the must-move table is fed from the list


def test_cancelling_a_call_keeps_the_place() -> None:
    state, called = call(a_list(1, 2))
    state, events = run(state, CancelCall(called.call_id, "seat went to a transfer"))
    assert events == [CallCancelled("nlh-10-20", "c5", 1, "seat went to a transfer")]
    assert state.calls == () and order(state) == [1, 2]
    with pytest.raises(NotFound):
        decide(state, CancelCall("c5", "again"))


# --- no-shows -------------------------------------------------------------------------------


@pytest.mark.rule("WL-2")
@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (NoShowPolicy("down", 1, 3), [2, 1, 3, 4, 5]),
        (NoShowPolicy("down", 3, 3), [2, 3, 4, 1, 5]),
        (NoShowPolicy("down", 9, 3), [2, 3, 4, 5, 1]),
        (NoShowPolicy("bottom", 1, 3), [2, 3, 4, 5, 1]),
    ],
)
def test_a_no_show_keeps_his_name_and_moves_down_by_the_house_rule(
    policy: NoShowPolicy, expected: list[int]
) -> None:
    state, called = call(a_list(1, 2, 3, 4, 5))
    deadline = datetime.fromisoformat(called.deadline)
    assert decide(state, ExpireCall("c5", deadline - timedelta(seconds=1), policy)) == []
    state, events = run(state, ExpireCall("c5", deadline, policy))
    assert [type(e) for e in events] == [CallMissed, PlayerMovedDown]
    missed, moved = events
    assert (missed.reason, missed.misses) == ("deadline", 1)
    assert (moved.from_position, moved.to_position, moved.reason) == (
        1,
        expected.index(1) + 1,
        "no_show",
    )
    assert moved.policy == policy.label
    assert order(state) == expected
    assert state.calls == () and state.entry_of(1).misses == 1  # type: ignore[union-attr]
    assert decide(state, ExpireCall("c5", deadline + timedelta(hours=1), policy)) == []


@pytest.mark.rule("WL-2")
def test_a_timer_that_ran_long_after_the_deadline_renews_the_call_instead_of_a_miss() -> None:
    """The house's timers were down past the deadline (a server or worker outage): the
    player is not charged a miss, the call stands with a fresh deadline from the moment
    the timers came back, and that deadline is then enforced as usual."""
    state, called = call(a_list(1, 2, 3))
    deadline = datetime.fromisoformat(called.deadline)
    limit = timedelta(seconds=60)

    def expire(now: datetime) -> ExpireCall:
        return ExpireCall("c5", now, DOWN_1, late_limit=limit, call_seconds=300)

    # within the limit: a timer that ran a little late still charges the miss
    on_time = decide(state, expire(deadline + limit))
    assert [type(e) for e in on_time] == [CallMissed, PlayerMovedDown]

    back = deadline + timedelta(minutes=20)
    state, events = run(state, expire(back))
    assert events == [
        CallRenewed(
            "nlh-10-20", "c5", 1, called.deadline, (back + timedelta(seconds=300)).isoformat(),
            20 * 60,
        )
    ]  # fmt: skip
    assert state.calls[0].deadline == (back + timedelta(seconds=300)).isoformat()
    assert order(state) == [1, 2, 3] and state.entry_of(1).misses == 0  # type: ignore[union-attr]
    assert decide(state, expire(back + timedelta(seconds=299))) == []  # not due yet
    # a floor no-show needs no timer: it is charged at once, however late
    floor = decide(state, ExpireCall("c5", back, DOWN_1, by_floor=True))
    assert [type(e) for e in floor] == [CallMissed, PlayerMovedDown]
    state, events = run(state, expire(back + timedelta(seconds=300)))
    assert [type(e) for e in events] == [CallMissed, PlayerMovedDown]
    assert order(state) == [2, 1, 3] and state.calls == ()


@pytest.mark.rule("WL-2")
@pytest.mark.rule("WL-3")
def test_one_place_down_is_behind_the_next_player_called_not_one_away() -> None:
    """The no-show dropped behind a player who was away (not called) and stayed ahead of
    the player called in his place (found by QA)."""
    state, _ = run(a_list(1, 2, 3, 4), MarkAway(2, True))
    state, called = call(state)
    state, events = run(state, ExpireCall("c5", datetime.fromisoformat(called.deadline), DOWN_1))
    assert (events[-1].from_position, events[-1].to_position) == (1, 3)
    assert order(state) == [2, 3, 1, 4]  # behind 3, the next one to be called


@pytest.mark.rule("WL-2")
def test_two_no_shows_on_calls_made_together_never_jump_a_player_not_yet_called() -> None:
    policy = NoShowPolicy()  # one place down: behind the next player called
    state, first = call(a_list(1, 2, 3, 4), seat=5)
    state, second = call(state, seat=6)
    assert (first.player_id, second.player_id) == (1, 2)
    deadline = datetime.fromisoformat(first.deadline)
    state, _ = run(state, ExpireCall("c5", deadline, policy))
    assert order(state) == [2, 3, 1, 4]  # behind 3, the next one to be called
    state, _ = run(state, ExpireCall("c6", deadline, policy))
    assert order(state) == [3, 2, 1, 4]


@pytest.mark.rule("WL-2")
def test_after_the_configured_misses_he_comes_off_the_list() -> None:
    state = a_list(1, 2)
    policy = NoShowPolicy("bottom", 1, max_misses=2)
    for n, expected_kind in ((1, PlayerMovedDown), (2, PlayerLeftList)):
        state = replace(state, entries=tuple(sorted(state.entries, key=lambda e: e.player_id)))
        state, _ = call(state, seat=n, player_id=1)
        state, events = run(state, ExpireCall(f"c{n}", T0, policy, by_floor=True))
        assert events[0].misses == n and events[0].reason == "floor"
        assert isinstance(events[1], expected_kind)
    assert events[1].reason == "missed_calls"
    assert order(state) == [2]
    with pytest.raises(NotFound):  # the floor names a call that is not open
        decide(state, ExpireCall("c2", T0, policy, by_floor=True))


def test_policy_is_validated() -> None:
    with pytest.raises(ValueError):
        NoShowPolicy("sideways", 1, 3)
    with pytest.raises(ValueError):
        NoShowPolicy("down", 0, 3)
    assert NoShowPolicy("down", 2, 0).label == "down:2"


# --- seating, interest lists, must-move -----------------------------------------------------


@pytest.mark.rule("WL-2")
def test_seating_the_called_or_the_next_player_only() -> None:
    state, called = call(a_list(1, 2, 3))
    with pytest.raises(DomainError) as other:
        decide(state, SeatFromList(2, 1, 5, 1000))
    assert (other.value.code, other.value.rule) == ("seat_called_for_other_player", "WL-2")
    with pytest.raises(DomainError) as not_next:
        decide(state, SeatFromList(3, 1, 6, 1000))
    assert not_next.value.code == "not_next_on_list"
    state, events = run(state, SeatFromList(2, 1, 6, 1000))  # next uncalled player
    assert events == [PlayerSeatedFromList("nlh-10-20", "e2", 2, 1, 6, 1000, 2, None, None)]
    state, events = run(state, SeatFromList(1, 1, 5, 1500))
    assert events[0].call_id == called.call_id and events[0].position == 1
    assert order(state) == [3] and state.calls == ()
    with pytest.raises(DomainError):
        decide(a_list(1, kind="interest"), SeatFromList(1, 1, 1, 1000))


def test_table_change_seating_records_the_old_table_and_no_buy_in() -> None:
    state, _ = run(a_list(kind="table_change"), Join("e1", 1, "in_person", T0, from_table_id=3))
    state, events = run(state, SeatFromList(1, 4, 2, 999, from_table_id=3))
    assert (events[0].buy_in, events[0].from_table_id) == (0, 3)


def test_an_interest_list_starts_a_game_at_the_threshold() -> None:
    state = a_list(1, 2, kind="interest")
    with pytest.raises(DomainError) as few:
        decide(state, PromoteInterest(7, threshold=3))
    assert (few.value.code, few.value.context) == (
        "not_enough_interest",
        {"waiting": 2, "threshold": 3},
    )
    state, _ = run(state, Join("e3", 3, "phone", T0))
    state, events = run(state, PromoteInterest(7, threshold=3))
    assert events == [InterestListPromoted("nlh-10-20", 7, 3)]
    assert (state.list_kind, state.table_id) == ("waiting", 7)
    with pytest.raises(DomainError):
        decide(state, PromoteInterest(8, threshold=3))


def test_must_move_link_and_move() -> None:
    state = a_list(1)
    with pytest.raises(DomainError):
        decide(state, RecordMustMove(9, 3, 4))
    with pytest.raises(DomainError):
        decide(state, LinkMustMove(1, 1))
    assert decide(state, LinkMustMove(None, None)) == []
    state, events = run(state, LinkMustMove(1, 2))
    assert events == [MustMoveLinked("nlh-10-20", 1, 2)]
    state, events = run(state, RecordMustMove(9, 3, 4))
    assert events == [MustMovePlayerMoved("nlh-10-20", 9, 2, 3, 1, 4)]
    state, events = run(state, LinkMustMove(None, None))
    assert events == [MustMoveUnlinked("nlh-10-20")] and state.main_table_id is None


# --- properties -----------------------------------------------------------------------------

_COMMANDS = st.one_of(
    st.tuples(st.just("join"), st.integers(1, 8)),
    st.tuples(st.just("leave"), st.integers(1, 8)),
    st.tuples(st.just("away"), st.integers(1, 8)),
    st.tuples(st.just("call"), st.integers(1, 4)),
    st.tuples(st.just("expire"), st.integers(1, 4)),
    st.tuples(st.just("seat"), st.integers(1, 8)),
)


def _command(
    kind: str, n: int, now: datetime, state: ListState, policy: NoShowPolicy
) -> lists.Command:
    entry = state.entry_of(n)
    if kind == "join":
        return Join(f"e{n}-{now.timestamp()}", n, "console", now)
    if kind == "leave":
        return Leave(n)
    if kind == "away":
        return MarkAway(n, not (entry is not None and entry.away))
    if kind == "call":
        return CallPlayer(f"c{now.timestamp()}", 1, n, now, 30)
    if kind == "expire":
        return ExpireCall(state.calls[0].call_id if state.calls else "none", now, policy)
    return SeatFromList(n, 2, n, 1000)


@pytest.mark.rule("WL-1")
@pytest.mark.rule("WL-2")
@settings(max_examples=300, deadline=None)
@given(
    steps=st.lists(_COMMANDS, max_size=40),
    action=st.sampled_from(["down", "bottom"]),
    places=st.integers(1, 4),
    max_misses=st.integers(0, 3),
)
def test_any_sequence_keeps_the_list_a_permutation_and_moves_exactly_per_policy(
    steps: list[tuple[str, int]], action: str, places: int, max_misses: int
) -> None:
    policy = NoShowPolicy(action, places, max_misses)
    state = a_list()
    joined: set[int] = set()
    now = T0
    for kind, n in steps:
        now += timedelta(minutes=1)
        command = _command(kind, n, now, state, policy)
        before = state
        try:
            events = decide(state, command)
        except DomainError:
            continue  # refused: nothing changes
        for event in events:
            state = evolve(state, event)  # type: ignore[assignment]
        players = order(state)
        assert len(players) == len(set(players)), "a player twice on one list"
        joined |= {e.player_id for e in events if isinstance(e, PlayerListed)}
        assert set(players) <= joined
        assert {c.player_id for c in state.calls} <= set(players)
        assert len({(c.table_id, c.seat) for c in state.calls}) == len(state.calls)
        if isinstance(command, ExpireCall) and events:
            missed = before.call(command.call_id)
            assert missed is not None
            was = before.position_of(missed.player_id)
            others = [p for p in order(before) if p != missed.player_id]
            assert [p for p in players if p != missed.player_id] == others
            if isinstance(events[-1], PlayerMovedDown):
                now_at = state.position_of(missed.player_id)
                if action == "bottom":
                    assert now_at == len(before.entries)
                else:  # down: past ``places`` players still to be called (WL-2)
                    below = order(before)[was:]
                    passed = below[: now_at - was]  # now above him, below him before
                    called = {c.player_id for c in before.calls if c.call_id != missed.call_id}
                    called |= {e.player_id for e in before.entries if e.away}  # not called
                    uncalled = [p for p in below if p not in called]
                    assert len([p for p in passed if p not in called]) == min(places, len(uncalled))
                    assert not passed or passed[-1] not in called or len(passed) == len(below)
            else:
                assert max_misses and events[0].misses == max_misses
            # the same timer again, or the sweep after it: nothing more
            assert decide(state, command) == []
        elif not events:
            assert state == before


def test_a_v1_listing_with_its_number_still_reads_and_keeps_the_number() -> None:
    from casino.eventstore.upcasting import upcast

    v1 = {
        "list_id": "nlh-10-20",
        "entry_id": "e1",
        "player_id": 1,
        "channel": "phone",
        "listed_at": T0.isoformat(),
        "phone": "+420 777 000 111",
        "from_table_id": None,
    }
    v2 = upcast("waitlist.PlayerListed", 1, PlayerListed.SCHEMA_VERSION, v1)
    assert v2 == {**v1, "phone_ref": ""}
    state = evolve(a_list(), PlayerListed(**v2))
    assert state.entries[-1].phone == "+420 777 000 111" and state.entries[-1].phone_ref == ""
