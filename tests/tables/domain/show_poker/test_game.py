"""A Show poker hand: blinds, deal irregularities, declarations and challenges, buying,
showdown and its clock, penalties and levels (catalogue section 19)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from functools import reduce

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from casino.domain_events import DomainEvent
from tables.domain.errors import HandRuleViolation
from tables.domain.show_poker.events import (
    CardBought,
    Checked,
    Declared,
    HandKilled,
    ShowMisdealt,
    ShowPotAwarded,
)
from tables.domain.show_poker.game import (
    Buy,
    Challenge,
    Check,
    DealFlop,
    Declare,
    ExpireShowdownClock,
    Fold,
    PushOverLine,
    ReportCardCount,
    ReportDeal,
    ShowCommand,
    ShowState,
    StartShowdownClock,
    StartShowHand,
    TurnCard,
    card_price,
    decide,
    evolve,
    pots,
    rabbit_hunt_allowed,
)
from tables.domain.show_poker.penalties import penalty_event, sit_out_hands
from tables.events import SeatInHand

T0 = datetime(2026, 11, 23, 22, 0, tzinfo=UTC)


def run(state: ShowState | None, *commands: ShowCommand) -> ShowState:
    for command in commands:
        state = reduce(evolve, decide(state, command), state)
    assert state is not None
    return state


def events_of(state: ShowState | None, command: ShowCommand) -> list[DomainEvent]:
    return decide(state, command)


def start(stacks: dict[int, int] | None = None, button: int = 3, **kw: object) -> ShowState:
    stacks = stacks or {1: 100, 2: 100, 3: 100}
    seats = tuple(SeatInHand(s, f"p{s}", v) for s, v in stacks.items())
    return run(None, StartShowHand("h1", 1, 1, button, seats, 10, **kw))  # type: ignore[arg-type]


def refused(state: ShowState, command: ShowCommand, code: str) -> HandRuleViolation:
    with pytest.raises(HandRuleViolation) as caught:
        decide(state, command)
    assert caught.value.code == code, caught.value
    return caught.value


def to_showdown(state: ShowState, cards: str = "9sTdJhQc2d") -> ShowState:
    """Everyone checks and buys every card."""
    for card in (cards[i : i + 2] for i in range(0, len(cards), 2)):
        while state.phase == "declaring":
            state = run(state, Check(state.pending[0]))
        while state.phase == "buying":
            state = run(state, Buy(state.pending[0]))
        state = run(state, TurnCard(card))
    return state


@pytest.mark.rule("SHOW-2")
def test_every_player_posts_one_blind() -> None:
    state = start({1: 100, 2: 100, 3: 6})
    assert state.pot == 26 and state.stacks == {1: 90, 2: 90, 3: 0}  # short: all he has


@pytest.mark.rule("SHOW-3")
def test_three_card_flop_before_any_declaration_and_eight_board_cards() -> None:
    state = start()
    refused(state, Declare(1, "a K"), "wrong_phase")
    refused(state, DealFlop("2c5d"), "wrong_card_count")
    state = to_showdown(run(state, DealFlop("2c5d7h")))
    assert len(state.board) == 8 and state.phase == "showdown"


@pytest.mark.rule("SHOW-4")
def test_absent_players_are_dead_at_the_third_flop_card() -> None:
    state = run(start(), DealFlop("2c5d7h", absent_seats=(2,)))
    assert state.seat(2).dead and state.pending == (1, 3)  # type: ignore[union-attr]


@pytest.mark.rule("SHOW-5")
def test_wrong_card_count_or_two_exposed_cards_is_a_misdeal() -> None:
    (misdeal,) = events_of(start(), ReportDeal(wrong_count_seats=(2,)))
    assert isinstance(misdeal, ShowMisdealt) and misdeal.rule == "SHOW-5"
    after = run(start(), ReportDeal(exposed=((1, "As"), (2, "Kd"))))
    assert after.misdealt and after.stacks == {1: 100, 2: 100, 3: 100}  # blinds returned
    assert events_of(start(), ReportDeal(exposed=((1, "As"),))) == []


@pytest.mark.rule("SHOW-6")
def test_too_many_cards_dead_too_few_plays_on() -> None:
    state = run(start(), DealFlop("2c5d7h"), Declare(1, "a K"))
    too_many = run(state, ReportCardCount(2, 5))
    assert too_many.seat(2).dead  # type: ignore[union-attr]
    assert events_of(state, ReportCardCount(2, 3)) == []


@pytest.mark.rule("SHOW-7")
def test_single_exposed_card_is_the_first_flop_card() -> None:
    state = start()
    refused(state, DealFlop("2c5d7h", exposed=(2, "As")), "exposed_card_not_first")
    flopped = run(state, DealFlop("As5d7h", exposed=(2, "As")))
    assert flopped.board[0] == "As" and flopped.history[-1].exposed_seat == 2  # type: ignore[attr-defined]


@pytest.mark.rule("SHOW-9")
def test_declarations_start_with_the_senior_declarer_else_left_of_the_button() -> None:
    state = run(start(button=1), DealFlop("2c5d7h"))
    assert state.pending[0] == 2  # left of the button
    state = run(state, Declare(2, "a K"), Declare(3, "sevens"), Check(1), Check(2))
    while state.phase == "buying":
        state = run(state, Buy(state.pending[0]))
    state = run(state, TurnCard("9s"))
    assert state.pending[0] == 3  # the senior declaration of the previous street


@pytest.mark.rule("SHOW-10")
def test_challenged_false_declaration_becomes_a_check_true_one_stands() -> None:
    state = run(start(), DealFlop("2c5d7h"), Declare(1, "aces"))
    bluff = run(state, Challenge(2, 1, "KsKd3c4c"))
    assert bluff.leader is None and bluff.seat(1).shown == ("Ks", "Kd", "3c", "4c")  # type: ignore[union-attr]
    true = run(state, Challenge(2, 1, "AsAd3c4c"))
    assert true.leader is not None and true.leader.seat == 1
    weaker = run(state, Declare(2, "kings"))  # does not beat aces: counts as false
    assert weaker.leader.seat == 1  # type: ignore[union-attr]
    assert run(weaker, Challenge(3, 2, "KsKd3c4c")).round[-1].false


@pytest.mark.rule("SHOW-11")
def test_fold_check_and_buy_are_binding() -> None:
    state = run(start(), DealFlop("2c5d7h"), Check(1))
    refused(state, Check(1), "not_your_turn")
    refused(state, Declare(2, "the moon"), "unreadable_declaration")
    folded = run(state, Fold(2))
    refused(folded, Declare(2, "kings"), "seat_folded")


@pytest.mark.rule("SHOW-12")
def test_chips_over_the_line_check_and_buy_every_card() -> None:
    state = run(start(), PushOverLine(2), DealFlop("2c5d7h"), Declare(1, "a K"))
    assert isinstance(state.history[-1], Checked)  # seat 2 checked automatically
    state = run(state, Check(3))
    assert state.phase == "buying" and state.pending == (3,)  # seat 2 bought already
    assert state.stacks[2] == 80


@pytest.mark.rule("SHOW-14")
def test_check_from_the_senior_declarer_redeclares() -> None:
    state = run(
        start(), DealFlop("2c5d7h"), Check(1), Declare(2, "2 with the board"), Check(3), Check(1)
    )
    while state.phase == "buying":
        state = run(state, Buy(state.pending[0]))
    state = run(state, TurnCard("9s"), Check(2))
    assert state.leader is not None and state.leader.seat == 2
    assert state.leader.declaration.ranks == (9, 7, 5, 2)  # with the board's new kicker


@pytest.mark.rule("SHOW-17")
@pytest.mark.rule("SHOW-18")
def test_buying_opens_after_everyone_responds_senior_card_free_left_first() -> None:
    state = run(start({1: 100, 2: 100, 3: 100, 4: 100}, button=4), DealFlop("2c5d7h"),
                Declare(1, "a K"), Declare(2, "sevens"))  # fmt: skip
    assert state.phase == "declaring" and state.pending == (3, 4, 1)
    state = run(state, Check(3), Check(4), Check(1))
    assert state.phase == "buying" and state.pending == (3, 4, 1)  # left of the senior
    assert isinstance(state.history[-1], CardBought) and state.history[-1].price == 0


@pytest.mark.rule("SHOW-19")
def test_card_prices_and_turning_after_everyone_bought() -> None:
    assert [card_price(10, i) for i in range(5)] == [10, 10, 10, 20, 20]
    state = run(start(), DealFlop("2c5d7h"))
    paid = []
    for card in ("9s", "Td", "Jh", "Qc", "3d"):
        while state.phase == "declaring":
            state = run(state, Check(state.pending[0]))
        refused(state, TurnCard(card), "wrong_phase")
        before = state.stacks[1]
        while state.phase == "buying":
            state = run(state, Buy(state.pending[0]))
        paid.append(before - state.stacks[1])
        state = run(state, TurnCard(card))
    assert paid == [10, 10, 10, 20, 20]


@pytest.mark.rule("SHOW-20")
@pytest.mark.rule("SHOW-21")
@pytest.mark.rule("SHOW-22")
def test_penalties_sit_out_with_blinds_paid() -> None:
    assert [sit_out_hands("declare_other_hand", n)[0] for n in (1, 2, 3)] == [2, 8, 8]
    assert [sit_out_hands("speech_play", n)[0] for n in (1, 2)] == [1, 4]
    assert sit_out_hands("speech_play", 1, players_in_pot=2)[0] == 0
    assert [sit_out_hands("out_of_turn", n)[0] for n in (1, 2, 3)] == [0, 1, 1]
    assert [sit_out_hands("out_of_turn", n, oot_increment="escalating")[0] for n in (2, 3, 4)] == [
        1,
        2,
        3,
    ]
    event = penalty_event("p2", "declare_other_hand", 2)
    assert (event.hands, event.rule, event.warning) == (8, "SHOW-20", False)
    # speech play heads-up is no offence: nothing to record, not even a warning (QA)
    with pytest.raises(HandRuleViolation) as heads_up:
        penalty_event("p2", "speech_play", 1, players_in_pot=2)
    assert (heads_up.value.code, heads_up.value.rule) == ("not_an_offence", "SHOW-21")
    assert penalty_event("p2", "speech_play", 1, players_in_pot=3).hands == 1
    state = start({1: 100, 2: 100, 3: 100}, sitting_out_paying=(2,))
    assert state.stacks[2] == 90 and state.seat(2).folded  # type: ignore[union-attr]
    refused(run(state, DealFlop("2c5d7h")), Declare(2, "a K"), "seat_not_in_hand")


@pytest.mark.rule("SHOW-23")
def test_shown_cards_stay_shown() -> None:
    state = run(start(), DealFlop("2c5d7h"), Declare(1, "aces"), Challenge(2, 1, "AsAd3c4c"))
    state = run(state, Check(2), Check(3))
    while state.phase == "buying":
        state = run(state, Buy(state.pending[0]))
    state = run(state, TurnCard("9s"))
    assert state.seat(1).shown == ("As", "Ad", "3c", "4c")  # type: ignore[union-attr]


@pytest.mark.rule("SHOW-24")
def test_rabbit_hunting_allowed_by_default() -> None:
    assert rabbit_hunt_allowed(start())
    assert not rabbit_hunt_allowed(start(rabbit_hunt_allowed=False))


def showdown_state() -> ShowState:
    return to_showdown(run(start(), DealFlop("2c5d7h")))


@pytest.mark.rule("SHOW-25")
def test_no_betting_after_the_last_card_highest_declared_and_shown_wins() -> None:
    state = showdown_state()
    refused(state, Buy(1), "wrong_phase")
    refused(state, Declare(1, "aces", shown="KsKd3c4c"), "declaration_not_shown")
    state = run(state, Declare(1, "kings", shown="KsKd3c4c"), Declare(2, "aces", shown="AsAd3h4h"),
                Declare(3, "queens", shown="Qs Qd 8c 8d"))  # fmt: skip
    state = run(state, StartShowdownClock(T0, T0 - timedelta(seconds=10)))
    state = run(state, ExpireShowdownClock(T0 + timedelta(seconds=30)))
    assert state.is_complete and state.stacks == {1: 20, 2: 260, 3: 20}  # blind + 70 each
    assert sum(state.stacks.values()) == 300


@pytest.mark.rule("SHOW-26")
def test_showdown_clock_ten_then_thirty_seconds_then_worse_hands_die() -> None:
    state = run(showdown_state(), Declare(1, "kings", shown="KsKd3c4c"))
    refused(state, StartShowdownClock(T0, T0 - timedelta(seconds=9)), "clock_not_due")
    clocked = run(state, StartShowdownClock(T0, T0 - timedelta(seconds=10)))
    assert clocked.clock_expires_at == (T0 + timedelta(seconds=30)).isoformat()
    refused(clocked, ExpireShowdownClock(T0 + timedelta(seconds=29)), "clock_not_due")
    folded = run(clocked, Fold(3))
    events = decide(folded, ExpireShowdownClock(T0 + timedelta(seconds=30)))
    killed = [e.seat for e in events if isinstance(e, HandKilled)]
    assert killed == [2] and all(e.rule == "SHOW-26" for e in events if isinstance(e, HandKilled))


@pytest.mark.rule("SHOW-27")
def test_rule_set_version_pinned_per_hand() -> None:
    assert start().started.rules_version == "5.2"


def test_uncontested_hand_is_won_without_showing() -> None:
    state = run(start(), DealFlop("2c5d7h"), Fold(1), Fold(2))
    assert state.is_complete and state.stacks == {1: 90, 2: 90, 3: 120}


RANKS = "23456789TJQKA"
DECK = [r + s for r in RANKS for s in "cdhs"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**9),
    stacks=st.lists(st.integers(1, 120), min_size=2, max_size=6),
)
def test_random_hands_conserve_chips_and_find_one_winner_per_pot(
    seed: int, stacks: list[int]
) -> None:
    rng = random.Random(seed)
    deck = DECK[:]
    rng.shuffle(deck)
    seats = {i + 1: s for i, s in enumerate(stacks)}
    holes = {s: deck[i * 4 : i * 4 + 4] for i, s in enumerate(seats)}
    board = deck[len(seats) * 4 : len(seats) * 4 + 8]
    state = start(seats, button=rng.choice(list(seats)))
    state = run(state, DealFlop("".join(board[:3])))
    turned = 3
    guard = 0
    while not state.is_complete and guard < 500:
        guard += 1
        if state.phase == "declaring":
            seat = state.pending[0]
            move = rng.random()
            if move < 0.1:
                state = run(state, Fold(seat))
            elif move < 0.5:
                top = max(holes[seat], key=lambda c: RANKS.index(c[0]))
                try:
                    state = run(state, Declare(seat, top[0]))
                except HandRuleViolation:
                    state = run(state, Check(seat))
                if rng.random() < 0.3 and state.round and not state.is_complete:
                    target = state.round[-1].seat
                    others = [s for s in state.live_seats if s != target]
                    if others and state.phase == "declaring":
                        state = run(state, Challenge(others[0], target, "".join(holes[target])))
            else:
                state = run(state, Check(seat))
        elif state.phase == "buying":
            seat = state.pending[0]
            state = run(state, Fold(seat) if rng.random() < 0.1 else Buy(seat))
        elif state.phase == "awaiting_card":
            state = run(state, TurnCard(board[turned]))
            turned += 1
        elif state.phase == "showdown":
            for seat in state.live_seats:
                top = max(holes[seat], key=lambda c: RANKS.index(c[0]))
                state = run(state, Declare(seat, top[0], shown="".join(holes[seat])))
            expected_pots = pots(state)
            state = run(state, StartShowdownClock(T0, T0 - timedelta(seconds=10)),
                        ExpireShowdownClock(T0 + timedelta(seconds=30)))  # fmt: skip
            awards = [e for e in state.history if isinstance(e, ShowPotAwarded)]
            assert len(awards) == len(expected_pots)  # exactly one winner per pot
            for award, (amount, eligible) in zip(awards, expected_pots, strict=True):
                assert (award.amount, award.eligible) == (amount, eligible)
                assert award.winner in eligible
                declared = {e.seat: (e.category, *e.ranks) for e in state.history
                            if isinstance(e, Declared) and e.shown}  # fmt: skip
                best = max(declared[s] for s in eligible if s in declared)
                assert declared[award.winner] == best
    assert state.is_complete
    assert sum(state.stacks.values()) == sum(stacks)  # chips conserved
    assert all(stack >= 0 for stack in state.stacks.values())


@pytest.mark.rule("SHOW-18")
def test_the_free_card_does_not_limit_what_the_senior_declarer_wins() -> None:
    state = run(start(), DealFlop("2c5d7h"), Check(1), Declare(2, "sevens"), Check(3), Check(1))
    state = to_showdown(state)
    assert pots(state) == [(sum(s.contributed for s in state.seats), (1, 2, 3))]  # one pot


@pytest.mark.rule("SHOW-19")
def test_a_player_who_cannot_pay_is_all_in_for_what_he_paid() -> None:
    state = to_showdown(run(start({1: 100, 2: 100, 3: 25}), DealFlop("2c5d7h")))
    # seat 3: blind 10 + 10 + 5 (all-in on the second card); the others 80 each
    assert state.stacks[3] == 0
    assert pots(state) == [(10 * 3 + 10 * 3 + 5 * 3, (1, 2, 3)), (5 * 2 + 10 * 2 + 20 * 4, (1, 2))]


@pytest.mark.rule("MIS-12")
@pytest.mark.rule("SHOW-25")
def test_a_card_is_in_one_place_at_showdown_in_a_challenge_and_when_turned() -> None:
    state = showdown_state()  # the board holds 7h
    refused(state, Declare(1, "three sevens", shown="7h7sAcKc"), "duplicate_card")
    shown = run(state, Declare(1, "kings", shown="KsKd3c4c"))
    refused(shown, Declare(2, "kings", shown="KsQsJsTs"), "duplicate_card")  # seat 1's Ks
    refused(shown, Declare(1, "a pair", shown="2h"), "wrong_card_count")  # a fifth hole card
    # a challenge shows the challenged hand: not a board card, never more than four cards
    flop = run(start(), DealFlop("2c5d7h"), Declare(1, "aces"))
    refused(flop, Challenge(2, 1, "2cAdKhKd"), "duplicate_card")
    challenged = run(flop, Challenge(2, 1, "AsAd3c4c"))
    refused(flop, Challenge(2, 1, "AsAd3c4c9s"), "wrong_card_count")
    # a declaration proven by a challenge stands: a second challenge added a card to the
    # four it showed (found by QA)
    refused(run(challenged, Declare(2, "kings")), Challenge(3, 1, "9s"), "declaration_proven")
    # a card a player showed cannot be turned onto the board
    buying = run(challenged, *(Check(s) for s in list(challenged.pending)))
    while buying.phase == "buying":
        buying = run(buying, Buy(buying.pending[0]))
    refused(buying, TurnCard("As"), "duplicate_card")


@pytest.mark.rule("SHOW-4")
@pytest.mark.rule("SHOW-5")
@pytest.mark.rule("SHOW-6")
def test_the_deal_and_the_flop_name_dealt_seats_and_a_count_comes_after_a_declaration() -> None:
    dealt = start()
    refused(dealt, ReportDeal(wrong_count_seats=(9,)), "seat_not_in_hand")  # nobody at 9
    refused(dealt, DealFlop("2c5d7h", exposed=(7, "2c")), "seat_not_in_hand")
    # everybody away at the third flop card: no hand left to play, pot or not
    refused(dealt, DealFlop("2c5d7h", absent_seats=(1, 2, 3)), "no_player_present")
    twice = events_of(dealt, DealFlop("2c5d7h", absent_seats=(2, 2)))
    assert [e.seat for e in twice if isinstance(e, HandKilled)] == [2]  # once
    # a card count at the deal is the deal report's (SHOW-5), and after the flop it waits
    # for a declaration or a purchase (SHOW-6)
    refused(dealt, ReportCardCount(1, 5), "wrong_phase")
    flopped = run(dealt, DealFlop("2c5d7h"))
    refused(flopped, ReportCardCount(flopped.pending[0], 5), "wrong_phase")
    declared = run(flopped, Declare(flopped.pending[0], "a K"))
    assert any(isinstance(e, HandKilled) for e in events_of(declared, ReportCardCount(1, 5)))


@pytest.mark.rule("SHOW-26")
def test_the_showdown_clock_cannot_be_restarted_and_a_better_hand_stops_it() -> None:
    state = run(showdown_state(), Declare(1, "kings", shown="KsKd3c4c"))
    started = run(state, StartShowdownClock(T0, T0 - timedelta(seconds=10)))
    assert started.clock_expires_at is not None
    refused(started, StartShowdownClock(T0, T0 - timedelta(seconds=10)), "clock_running")
    worse = run(started, Declare(3, "queens", shown="Qs Qd 8c 8d"))
    assert worse.clock_expires_at == started.clock_expires_at  # runs on
    better = run(worse, Declare(2, "aces", shown="AsAd3h4h"))
    assert better.clock_expires_at is None  # 10 s more with no better hand, then again
