"""The table aggregate, pure: no database."""

import dataclasses
import json
from dataclasses import replace
from functools import reduce

import dacite
import pytest

from casino.errors import DomainError
from tables.cash_events import (
    ChipsToppedUp,
    DeclaredTopUpAdded,
    PlayerTransferredOut,
    SidebetCalledOff,
)
from tables.domain import decide as hand_decide
from tables.domain import evolve as hand_evolve
from tables.domain import table as t
from tables.events import (
    CorrectionUnsettled,
    DealtInSeat,
    HandBegan,
    PlayerCashedOut,
    PlayerSeated,
    StacksCorrectionDeferred,
    TableOpened,
)

DACITE = dacite.Config(cast=[tuple], strict=True)

CONFIG = TableOpened(
    table_id=1, name="NLH 10/20", game="NLH", small_blind=10, big_blind=20, ante=0,
    ante_type="none", buy_in_min=1000, buy_in_max=5000, rake_percent_bp=500, rake_cap=300,
    no_flop_no_drop=False, min_raise_rule="double_last", max_seats=10,
)  # fmt: skip


def run(*commands: t.Command) -> t.TableState:
    state: t.TableState | None = None
    for command in commands:
        for event in t.decide(state, command):
            state = t.evolve(state, event)
    assert state is not None
    return state


def refusal(state: t.TableState | None, command: t.Command) -> DomainError:
    with pytest.raises(DomainError) as info:
        t.decide(state, command)
    return info.value


def test_open_then_seat_then_cash_out() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(3, 7, 1500))
    assert state.seats == (t.Seat(3, 7, 1500),)
    events = t.decide(state, t.CashOut(3))
    assert events == [PlayerCashedOut(1, 3, 7, 1500)]


@pytest.mark.rule("SEAT-3")
@pytest.mark.rule("BI-5")
@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({"max_seats": 11}, "SEAT-3"),
        ({"max_seats": 1}, "SEAT-3"),
        ({"small_blind": 30}, None),  # no rule: the blinds' order is what stakes are
        ({"buy_in_min": 6000}, "BI-5"),  # it cited SEAT-3, "a table seats 2 to 10" (QA)
        ({"buy_in_min": 6000, "max_seats": 11}, None),
        ({"buy_in_min": 1, "buy_in_max": 19}, "BI-5"),  # a seat for 1 chip at 10/20 (fuzzing)
    ],
)
def test_invalid_config_is_refused_citing_the_rule_it_breaks(change: dict, rule: str) -> None:
    from dataclasses import replace

    refused = refusal(None, t.OpenTable(replace(CONFIG, **change)))
    assert (refused.code, refused.rule) == ("invalid_table_config", rule)


@pytest.mark.rule("BI-3")
@pytest.mark.rule("BI-4")
@pytest.mark.rule("BI-5")
def test_buy_in_rule_ids_follow_the_stakes_and_their_limits() -> None:
    from dataclasses import replace

    assert t.buy_in_rule(CONFIG) == "BI-3"
    bi4 = replace(CONFIG, small_blind=25, big_blind=50, buy_in_min=2000, buy_in_max=10000)
    assert t.buy_in_rule(bi4) == "BI-4"
    assert t.buy_in_rule(replace(CONFIG, game="PLO")) == "BI-5"
    # the players' own limits at 10/20 are theirs, not BI-3's 1,000 to 5,000 (BI-5)
    assert t.buy_in_rule(replace(CONFIG, buy_in_min=500, buy_in_max=3000)) == "BI-5"
    assert t.buy_in_rule(replace(bi4, buy_in_max=8000)) == "BI-5"


@pytest.mark.rule("BI-5")
def test_a_refused_buy_in_at_agreed_limits_cites_bi5_and_after_a_change_too() -> None:
    agreed = run(t.OpenTable(replace(CONFIG, buy_in_min=500, buy_in_max=3000)))
    low = refusal(agreed, t.SeatPlayer(1, 1, 400))
    assert (low.code, low.rule) == ("buy_in_below_minimum", "BI-5")
    standard = run(t.OpenTable(CONFIG))
    assert refusal(standard, t.SeatPlayer(1, 1, 400)).rule == "BI-3"
    changed = run(t.OpenTable(CONFIG), t.ChangeLimits(800, 4000, "players asked", "floor"))
    assert refusal(changed, t.SeatPlayer(1, 1, 4500)).rule == "BI-5"


@pytest.mark.rule("BI-6")
def test_no_cash_out_while_a_hand_runs() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 1, 1000), t.SeatPlayer(2, 2, 1000),
                t.BeginHand("h1"))  # fmt: skip
    err = refusal(state, t.CashOut(1))
    assert (err.code, err.rule) == ("hand_in_progress", "BI-6")
    assert refusal(state, t.BeginHand("h2")).code == "hand_in_progress"


@pytest.mark.rule("BI-6")
@pytest.mark.parametrize("voided", [False, True])
def test_a_top_up_declared_during_his_hand_goes_on_the_stack_when_it_ends(voided: bool) -> None:
    """Table stakes: chips declared to the dealer during the player's hand are paid at once
    (the event that moves the money) and reach the stack only after the hand, a misdeal
    included; another seat's top-up between his hands goes on at once."""
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 1, 1000), t.SeatPlayer(2, 2, 1000),
                t.BeginHand("h1"), t.SeatPlayer(3, 3, 1000))  # fmt: skip
    assert t.decide(state, t.TopUp(1, 500, "chips")) == [
        ChipsToppedUp(1, 1, 1, 500, "chips", after_hand=True)
    ]
    state = run_on(state, t.TopUp(1, 500, "chips"), t.TopUp(1, 1000), t.TopUp(3, 200))
    assert state.top_up_after_hand(1) == 1500 and state.seat(1).stack == 1000  # type: ignore[union-attr]
    assert state.seat(3).stack == 1200  # type: ignore[union-attr]  # not in the hand: at once
    # the maximum counts the stack he started the hand with and what he already declared
    err = refusal(state, t.TopUp(1, 2501))
    assert (err.code, err.context["top_up_after_hand"]) == ("top_up_above_maximum", 1500)
    stacks = ((1, 1000), (2, 1000)) if voided else ((1, 400), (2, 1600))  # a misdeal: as dealt
    ended = t.decide(state, t.EndHand("h1", stacks, 0 if voided else 20, voided=voided))
    assert ended[1:] == [
        DeclaredTopUpAdded(1, "h1", 1, 1, 500),
        DeclaredTopUpAdded(1, "h1", 1, 1, 1000),
    ]
    for event in ended:
        state = t.evolve(state, event)  # type: ignore[assignment]
    after_hand = 1000 if voided else 400
    assert state.seat(1).stack == after_hand + 1500  # type: ignore[union-attr]
    assert state.top_up_after_hand(1) == 0
    (began,) = t.decide(state, t.BeginHand("h2"))
    assert {s.seat: s.stack for s in began.seats}[1] == after_hand + 1500  # type: ignore[attr-defined]


@pytest.mark.rule("BI-6")
def test_a_v1_top_up_reads_as_between_hands() -> None:
    """Top-ups stored before ``after_hand`` existed (v1) were all between hands."""
    from casino.eventstore.upcasting import upcast

    data = {"table_id": 1, "seat": 1, "player_id": 1, "amount": 500, "paid_with": "cash"}
    assert upcast("cashgame.ChipsToppedUp", 1, 2, data)["after_hand"] is False


@pytest.mark.rule("SEAT-3")
def test_a_hand_needs_two_players_with_chips() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 1, 1000))
    assert refusal(state, t.BeginHand("h")).code == "not_enough_players"


@pytest.mark.rule("SEAT-4")
def test_button_moves_one_occupied_seat_clockwise() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(2, 1, 1000), t.SeatPlayer(5, 2, 1000),
                t.SeatPlayer(9, 3, 1000))  # fmt: skip
    buttons = []
    for n in range(4):
        (began,) = t.decide(state, t.BeginHand(f"h{n}"))
        assert isinstance(began, HandBegan)
        buttons.append(began.button_seat)
        state = t.evolve(state, began)
        state = t.evolve(state, t.decide(state, t.EndHand(f"h{n}", (), 0))[0])
    assert buttons == [2, 5, 9, 2]
    assert t.next_button(9, [2, 5, 9]) == 2
    assert t.next_button(3, [2, 5, 9]) == 5


@pytest.mark.rule("SEAT-1")
def test_drawn_button_starts_a_game_then_it_moves_by_itself() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 1, 1000), t.SeatPlayer(4, 2, 1000))
    (began,) = t.decide(state, t.BeginHand("h1", button_seat=4))
    assert began.button_seat == 4  # type: ignore[attr-defined]
    assert refusal(state, t.BeginHand("h1", button_seat=3)).code == "button_seat_not_in_hand"
    state = t.evolve(state, began)
    state = t.evolve(state, t.decide(state, t.EndHand("h1", ((1, 990), (4, 1010)), 0))[0])
    err = refusal(state, t.BeginHand("h2", button_seat=4))
    assert (err.code, err.rule, err.context["expected_button_seat"]) == (
        "button_out_of_turn", "SEAT-4", 1)  # fmt: skip


def test_hand_end_updates_stacks_and_a_busted_player_is_not_dealt_in() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 1, 1000), t.SeatPlayer(2, 2, 1000),
                t.SeatPlayer(3, 3, 1000), t.BeginHand("h1"))  # fmt: skip
    state = run_on(state, t.EndHand("h1", ((1, 0), (2, 2000), (3, 1000)), 0))
    assert [s.stack for s in state.seats] == [0, 2000, 1000]
    (began,) = t.decide(state, t.BeginHand("h2"))
    assert [s.seat for s in began.seats] == [2, 3]  # type: ignore[attr-defined]


def test_empty_table_needs_a_new_button_draw() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 1, 1000), t.SeatPlayer(2, 2, 1000),
                t.BeginHand("h1"))  # fmt: skip
    state = run_on(state, t.EndHand("h1", ((1, 1000), (2, 1000)), 0), t.CashOut(1), t.CashOut(2))
    assert state.button_seat is None
    assert t.evolve(state, PlayerSeated(1, 5, 9, 1000)).button_seat is None


def run_on(state: t.TableState, *commands: t.Command) -> t.TableState:
    for command in commands:
        for event in t.decide(state, command):
            new = t.evolve(state, event)
            assert new is not None
            state = new
    return state


# --- button rules, blinds, sitting out and new players (SEAT-5/6/10/11/15/16, SES-1/2) -------

DEAD = replace(CONFIG, button_rule="dead_button", cash_new_player_entry="wait_or_post_both")
FORWARD = replace(CONFIG, cash_new_player_entry="wait_or_post_both")


def deal(state: t.TableState, hand_id: str) -> tuple[t.TableState, HandBegan]:
    """Begin a hand, check the hand engine accepts it as the table placed it, end it with
    the stacks unchanged."""
    (began,) = t.decide(state, t.BeginHand(hand_id))
    assert isinstance(began, HandBegan)
    hand = reduce(hand_evolve, hand_decide(None, t.start_hand_command(began, state.config)), None)
    assert hand is not None and hand.big_blind_seat == began.big_blind_seat
    assert hand.small_blind_seat == began.small_blind_seat
    state = run_on(t.evolve(state, began), t.EndHand(hand_id, (), 0))  # type: ignore[arg-type]
    return state, began


def blinds_of(began: HandBegan) -> tuple[int, int | None, int]:
    return began.button_seat, began.small_blind_seat, began.big_blind_seat  # type: ignore[return-value]


def kinds(began: HandBegan) -> list[tuple[int, str]]:
    return [(p.seat, p.kind) for p in began.posts]


def table(config: TableOpened, *seats: int) -> t.TableState:
    return run(t.OpenTable(config), *(t.SeatPlayer(n, n, 1000) for n in seats))


@pytest.mark.rule("SEAT-5")
def test_dead_button_big_blind_moves_first_small_blind_and_button_may_be_dead() -> None:
    state = table(DEAD, 1, 3, 5, 7)
    state, h1 = deal(state, "h1")
    state, h2 = deal(state, "h2")
    assert [blinds_of(h) for h in (h1, h2)] == [(1, 3, 5), (3, 5, 7)]
    state = run_on(state, t.CashOut(7))  # the last big blind leaves: a dead small blind
    state, h3 = deal(state, "h3")
    assert blinds_of(h3) == (5, None, 1) and h3.dead_small_blind_seat == 7
    assert kinds(h3) == [(1, "big_blind")]
    state, h4 = deal(state, "h4")  # the button is the last small blind's seat, now empty
    assert blinds_of(h4) == (7, 1, 3) and [s.seat for s in h4.seats] == [1, 3, 5]
    state, h5 = deal(state, "h5")
    assert blinds_of(h5) == (1, 3, 5)


@pytest.mark.rule("SEAT-6")
def test_forward_button_skips_while_dead_button_keeps_everyone_paying() -> None:
    forward, dead = table(FORWARD, 1, 3, 5, 7), table(DEAD, 1, 3, 5, 7)
    for name in ("h1", "h2"):
        forward, _ = deal(forward, name)
        dead, _ = deal(dead, name)
    forward, dead = run_on(forward, t.CashOut(5)), run_on(dead, t.CashOut(5))  # last SB
    forward, f3 = deal(forward, "h3")
    dead, d3 = deal(dead, "h3")
    assert blinds_of(f3) == (7, 1, 3)  # 7 skips the small blind (SEAT-6)
    assert blinds_of(d3) == (5, 7, 1)  # dead button on the empty seat 5 (SEAT-5)


@pytest.mark.rule("SEAT-11")
@pytest.mark.rule("SEAT-10")
@pytest.mark.parametrize("config", [DEAD, FORWARD, CONFIG], ids=["dead", "forward", "legacy"])
@pytest.mark.parametrize("leaves", [1, 3, 5])
def test_going_heads_up_nobody_posts_the_big_blind_twice(config: TableOpened, leaves: int) -> None:
    state = table(config, 1, 3, 5)
    state, h1 = deal(state, "h1")
    assert blinds_of(h1) == (1, 3, 5)
    state = run_on(state, t.CashOut(leaves))
    state, h2 = deal(state, "h2")
    button, sb, bb = blinds_of(h2)
    assert len(h2.seats) == 2 and button == sb  # SEAT-10: the button posts the small blind
    assert bb != 5  # SEAT-11: seat 5 posted the big blind last hand
    state, h3 = deal(state, "h3")
    assert blinds_of(h3)[2] != bb and blinds_of(h3)[0] == blinds_of(h3)[1]


@pytest.mark.rule("SEAT-16")
@pytest.mark.parametrize("config", [DEAD, FORWARD], ids=["dead", "forward"])
def test_sitting_out_owes_the_blinds_that_pass_and_waits_for_the_big_blind(
    config: TableOpened,
) -> None:
    state = table(config, 1, 3, 5, 7, 9)
    state, _ = deal(state, "h1")  # button 1, SB 3, BB 5
    state = run_on(state, t.SitOut(7))
    state, h2 = deal(state, "h2")  # the big blind passes seat 7
    assert 7 not in [s.seat for s in h2.seats] and blinds_of(h2)[2] == 9
    assert [(m.seat, m.kind) for m in h2.missed_blinds] == [(7, "big_blind")]
    state, h3 = deal(state, "h3")  # the small blind passes or falls on seat 7
    assert [(m.seat, m.kind) for m in h3.missed_blinds] == [(7, "small_blind")]
    seat7 = state.seat(7)
    assert seat7 is not None and (seat7.missed_small_blind, seat7.missed_big_blind) == (True, True)
    state = run_on(state, t.SitIn(7, post=False))
    assert state.seat(7).status == "waiting"  # type: ignore[union-attr]
    dealt_at = []
    for n in range(4, 9):
        state, began = deal(state, f"h{n}")
        if 7 in [s.seat for s in began.seats]:
            dealt_at.append((n, blinds_of(began)[2], kinds(began)))
        else:
            assert 7 in began.waiting_seats
    first = dealt_at[0]
    assert first[1] == 7 and first[2][-1] == (7, "big_blind")  # dealt in as the big blind
    assert (7, "dead_sb") not in first[2]  # waiting for the big blind: nothing else owed
    assert state.seat(7) == t.Seat(7, 7, 1000)  # active again, nothing owed


@pytest.mark.rule("SEAT-16")
def test_posting_missed_blinds_plays_at_once_small_blind_dead_big_blind_live() -> None:
    state = table(DEAD, 1, 3, 5, 7, 9)
    state, _ = deal(state, "h1")
    state = run_on(state, t.SitOut(7))
    state, _ = deal(state, "h2")
    state, _ = deal(state, "h3")
    state = run_on(state, t.SitIn(7, post=True))
    state, h4 = deal(state, "h4")  # button 9, SB 1, BB 3: seat 7 is fifth to act
    assert blinds_of(h4) == (9, 1, 3)
    assert 7 in [s.seat for s in h4.seats]
    assert kinds(h4) == [(1, "small_blind"), (3, "big_blind"), (7, "dead_sb"), (7, "posted_bb")]
    hand = reduce(hand_evolve, hand_decide(None, t.start_hand_command(h4, state.config)), None)
    assert hand is not None and hand.pot == 10 + 20 + 10 + 20
    seat7 = hand.seat_state(7)
    assert seat7 is not None and (seat7.bet, seat7.contributed) == (20, 30)
    assert state.seat(7) == t.Seat(7, 7, 1000)


@pytest.mark.rule("SEAT-16")
def test_a_missed_small_blind_alone_is_posted_dead_or_live() -> None:
    for config, kind in (
        (DEAD, "dead_sb"),
        (replace(DEAD, missed_blind_sb_dead=False), "posted_sb"),
    ):
        state = table(config, 1, 3, 5, 7, 9)
        state, _ = deal(state, "h1")  # BB 5
        state = run_on(state, t.SitOut(5))  # after his big blind: only the small blind passes
        state, h2 = deal(state, "h2")
        assert h2.small_blind_seat is None and h2.dead_small_blind_seat == 5
        seat5 = state.seat(5)
        assert seat5 is not None and (seat5.missed_small_blind, seat5.missed_big_blind) == (
            True,
            False,
        )
        state = run_on(state, t.SitIn(5, post=True))
        state, h3 = deal(state, "h3")
        assert (5, kind) in kinds(h3) and (5, "posted_bb") not in kinds(h3)


@pytest.mark.rule("SEAT-16")
def test_sitting_out_and_back_before_any_blind_passes_owes_nothing() -> None:
    state = table(DEAD, 1, 3, 5, 7)
    state, _ = deal(state, "h1")  # button 1, SB 3, BB 5
    state = run_on(state, t.SitOut(1))  # the button sits out: the blinds move away from him
    state, h2 = deal(state, "h2")
    assert 1 not in [s.seat for s in h2.seats] and not h2.missed_blinds
    err = refusal(state, t.SitIn(1, post=True))
    assert (err.code, err.rule) == ("nothing_owed", "SEAT-16")
    state = run_on(state, t.SitIn(1))
    state, h3 = deal(state, "h3")
    assert 1 in [s.seat for s in h3.seats] and len(h3.posts) == 2


@pytest.mark.rule("SEAT-16")
def test_sit_out_and_sit_in_refusals() -> None:
    state = table(DEAD, 1, 3, 5, 7)
    state, _ = deal(state, "h1")
    assert refusal(state, t.SitIn(3)).code == "not_sitting_out"
    assert refusal(state, t.SitOut(4)).code == "seat_empty"
    beyond = refusal(state, t.SitOut(state.config.max_seats + 1))  # not "empty" (QA)
    assert (beyond.code, beyond.rule) == ("seat_out_of_range", "SEAT-3")
    state = run_on(state, t.SitOut(7))
    err = refusal(state, t.SitOut(7))
    assert (err.code, err.rule) == ("already_sitting_out", "SEAT-16")
    state, _ = deal(state, "h2")  # the big blind passes 7
    state = run_on(state, t.SitIn(7))
    err = refusal(state, t.SitIn(7))  # waiting: he cannot be dealt in early without posting
    assert (err.code, err.rule) == ("must_wait_for_big_blind", "SEAT-16")
    state = run_on(state, t.SitIn(7, post=True), t.SitIn(7, post=False))  # changed his mind
    assert (state.seat(7).status, state.seat(7).post) == ("waiting", False)  # type: ignore[union-attr]


@pytest.mark.rule("SEAT-16")
def test_sitting_out_during_a_hand_plays_it_out() -> None:
    state = table(DEAD, 1, 3, 5)
    state = run_on(state, t.BeginHand("h1"), t.SitOut(3))
    assert state.in_hand == (1, 3, 5)
    state = run_on(state, t.EndHand("h1", ((3, 990),), 0))
    state, h2 = deal(state, "h2")
    assert [s.seat for s in h2.seats] == [1, 5] and state.seat(3).stack == 990  # type: ignore[union-attr]


@pytest.mark.rule("SEAT-15")
def test_new_player_between_the_button_and_the_big_blind_waits_or_posts_both() -> None:
    state = table(DEAD, 1, 3, 5, 7, 9)
    state, _ = deal(state, "h1")  # button 1, SB 3, BB 5; next: button 3, SB 5, BB 7
    state = run_on(state, t.SeatPlayer(4, 4, 1000), t.SeatPlayer(8, 8, 1000))
    assert state.seat(4).status == "new"  # type: ignore[union-attr]
    preview = t.plan_next_hand(state)
    assert (preview.button_seat, preview.big_blind_seat, preview.waiting) == (3, 7, (4,))
    state, h2 = deal(state, "h2")
    dealt = [s.seat for s in h2.seats]
    assert 8 in dealt and 4 not in dealt  # 8 sits after the big blind: he plays at once
    assert h2.waiting_seats == (4,) and kinds(h2) == [(5, "small_blind"), (7, "big_blind")]
    assert state.seat(4).status == "waiting"  # type: ignore[union-attr]
    state = run_on(state, t.SitIn(4, post=True))
    state, h3 = deal(state, "h3")
    assert 4 in [s.seat for s in h3.seats]
    assert kinds(h3)[2:] == [(4, "dead_sb"), (4, "posted_bb")]


@pytest.mark.rule("SEAT-15")
def test_new_player_may_choose_to_post_before_his_first_hand() -> None:
    state = table(DEAD, 1, 3, 5, 7, 9)
    state, _ = deal(state, "h1")
    state = run_on(state, t.SeatPlayer(4, 4, 1000), t.SeatPlayer(8, 8, 1000))
    state = run_on(state, t.SitIn(4, post=True), t.SitIn(8, post=True))
    assert refusal(state, t.SitIn(4, post=False)).code == "not_sitting_out"
    state, h2 = deal(state, "h2")
    assert {4, 8} <= {s.seat for s in h2.seats}
    assert kinds(h2)[2:] == [(4, "dead_sb"), (4, "posted_bb")]  # 8 owed nothing


@pytest.mark.rule("SEAT-15")
def test_new_player_in_the_big_blind_posts_it() -> None:
    state = table(DEAD, 1, 3, 5, 9)
    state, _ = deal(state, "h1")  # button 1, SB 3, BB 5
    state = run_on(state, t.SeatPlayer(7, 7, 1000))
    state, h2 = deal(state, "h2")
    assert blinds_of(h2) == (3, 5, 7) and 7 in [s.seat for s in h2.seats]


@pytest.mark.rule("SES-1")
@pytest.mark.rule("SEAT-15")
def test_new_game_deals_everyone_in_and_immediate_entry_keeps_todays_rule() -> None:
    state = run(t.OpenTable(DEAD), t.SeatPlayer(1, 1, 1000), t.SeatPlayer(4, 4, 1000),
                t.SeatPlayer(2, 2, 1000))  # fmt: skip
    assert all(s.status == "active" for s in state.seats)  # no hand yet: a new game
    state, h1 = deal(state, "h1")
    assert [s.seat for s in h1.seats] == [1, 2, 4] and len(h1.posts) == 2
    immediate = replace(DEAD, cash_new_player_entry="immediate_no_post")
    state = table(immediate, 1, 3, 5, 7, 9)
    state, _ = deal(state, "h1")
    state = run_on(state, t.SeatPlayer(4, 4, 1000))
    state, h2 = deal(state, "h2")
    assert 4 in [s.seat for s in h2.seats] and (4, "posted_bb") not in kinds(h2)


@pytest.mark.rule("SES-2")
def test_transferred_player_plays_at_once() -> None:
    state = table(DEAD, 1, 3, 5, 7, 9)
    state, _ = deal(state, "h1")
    state = run_on(state, t.TransferIn(4, 44, 800, DEAD))
    state, h2 = deal(state, "h2")
    assert 4 in [s.seat for s in h2.seats] and len(h2.posts) == 2


@pytest.mark.rule("SEAT-5")
def test_dead_button_is_checked_and_a_drawn_button_starts_the_game() -> None:
    state = table(DEAD, 1, 4, 6, 8)
    (began,) = t.decide(state, t.BeginHand("h1", button_seat=4))  # SEAT-1 draw
    assert blinds_of(began) == (4, 6, 8)  # type: ignore[arg-type]
    state = run_on(t.evolve(state, began), t.EndHand("h1", (), 0), t.CashOut(6))  # type: ignore[arg-type]
    (h2,) = t.decide(state, t.BeginHand("h2", button_seat=6))  # the dead button
    assert blinds_of(h2) == (6, 8, 1)  # type: ignore[arg-type]
    err = refusal(state, t.BeginHand("h2", button_seat=8))
    assert (err.code, err.rule, err.context["expected_button_seat"]) == (
        "button_out_of_turn", "SEAT-5", 6)  # fmt: skip


@pytest.mark.rule("SEAT-15")
def test_new_players_wait_through_a_heads_up_hand_then_the_big_blind_reaches_them() -> None:
    state = table(DEAD, 1, 4, 6)
    (began,) = t.decide(state, t.BeginHand("h1", button_seat=4))  # SB 6, BB 1
    state = run_on(t.evolve(state, began), t.EndHand("h1", (), 0), t.CashOut(6))  # type: ignore[arg-type]
    state = run_on(state, t.SeatPlayer(7, 7, 1000), t.SeatPlayer(8, 8, 1000))
    state, h2 = deal(state, "h2")  # 7 and 8 sit between the (dead) button 6 and the BB 4
    assert blinds_of(h2) == (1, 1, 4) and h2.waiting_seats == (7, 8)
    state, h3 = deal(state, "h3")
    assert blinds_of(h3) == (1, 4, 7) and [s.seat for s in h3.seats] == [1, 4, 7]
    state, h4 = deal(state, "h4")
    assert blinds_of(h4) == (4, 7, 8) and [s.seat for s in h4.seats] == [1, 4, 7, 8]


def test_blind_settings_are_validated_and_default_to_todays_rules() -> None:
    assert (CONFIG.button_rule, CONFIG.cash_new_player_entry, CONFIG.missed_blind_sb_dead) == (
        "forward", "immediate_no_post", True)  # fmt: skip
    for wrong in (replace(CONFIG, button_rule="back"), replace(CONFIG, cash_new_player_entry="x")):
        assert refusal(None, t.OpenTable(wrong)).code == "invalid_table_config"


def test_hands_recorded_before_the_blinds_were_named_still_fold() -> None:
    state = table(CONFIG, 2, 5, 9)
    legacy = HandBegan(1, "h1", 1, 5, (DealtInSeat(2, 2, 1000), DealtInSeat(5, 5, 1000),
                                        DealtInSeat(9, 9, 1000)))  # fmt: skip
    state = run_on(t.evolve(state, legacy), t.EndHand("h1", (), 0))  # type: ignore[arg-type]
    assert (state.button_seat, state.small_blind_seat, state.big_blind_seat) == (5, 9, 2)
    state, h2 = deal(state, "h2")
    assert blinds_of(h2) == (9, 2, 5)


def test_table_state_round_trips_through_the_snapshot_codec() -> None:
    state = table(DEAD, 1, 3, 5, 7, 9)
    state, _ = deal(state, "h1")
    state = run_on(state, t.SitOut(7), t.SeatPlayer(4, 4, 1000))
    state, _ = deal(state, "h2")
    payload = json.loads(json.dumps(dataclasses.asdict(state)))
    assert dacite.from_dict(t.TableState, payload, config=DACITE) == state
    # a snapshot written before these fields existed still loads
    for seat in payload["seats"]:
        for key in ("status", "post", "missed_small_blind", "missed_big_blind"):
            del seat[key]
    for key in ("small_blind_seat", "big_blind_seat"):
        del payload[key]
    for key in ("button_rule", "cash_new_player_entry", "missed_blind_sb_dead"):
        del payload["config"][key]
    old = dacite.from_dict(t.TableState, payload, config=DACITE)
    assert old.config.button_rule == "forward" and old.seats[0].status == "active"


@pytest.mark.rule("SEAT-15")
def test_new_player_who_sits_out_before_his_first_hand_owes_both_blinds() -> None:
    state = table(DEAD, 1, 3, 5, 7)
    state, _ = deal(state, "h1")
    state = run_on(state, t.SeatPlayer(9, 9, 1000), t.SitOut(9))
    seat9 = state.seat(9)
    assert seat9 is not None and (seat9.missed_small_blind, seat9.missed_big_blind) == (True, True)
    state = run_on(state, t.SitIn(9))
    assert state.seat(9).status == "waiting"  # type: ignore[union-attr]


@pytest.mark.rule("SD-24")
def test_an_upheld_correction_moves_chips_between_the_hands_players_only() -> None:
    seated = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 11, 1000), t.SeatPlayer(2, 12, 1000))
    players = ((1, 11), (2, 12))
    moved = run_on(seated, t.CorrectStacks("h1", ((1, -150), (2, 150)), players))
    assert {s.seat: s.stack for s in moved.seats} == {1: 850, 2: 1150}
    assert sum(s.stack for s in moved.seats) == 2000  # chips only move
    too_much = refusal(seated, t.CorrectStacks("h1", ((1, -1001), (2, 1001)), players))
    assert (too_much.code, too_much.rule) == ("correction_exceeds_stack", "SD-24")
    replaced = run_on(run_on(seated, t.CashOut(1)), t.SeatPlayer(1, 99, 1000))
    assert refusal(replaced, t.CorrectStacks("h1", ((1, 10), (2, -10)), players)).code == (
        "player_left_table"
    )
    assert t.decide(seated, t.CorrectStacks("h1", ((1, 0), (2, 0)), players)) == []


@pytest.mark.rule("SD-24")
def test_an_accounting_correction_during_the_next_hand_moves_the_chips_when_it_ends() -> None:
    """A pot-accounting error may be raised until substantial action on the next hand; the
    stacks of that hand's players cannot change during it, so the chips move at its end."""
    seated = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 11, 1000), t.SeatPlayer(2, 12, 1000))
    players = ((1, 11), (2, 12))
    in_hand = run_on(seated, t.BeginHand("h2"))
    (deferred,) = t.decide(in_hand, t.CorrectStacks("h1", ((1, 10), (2, -10)), players))
    assert isinstance(deferred, StacksCorrectionDeferred)
    waiting = t.evolve(in_hand, deferred)
    assert waiting is not None and {s.seat: s.stack for s in waiting.seats} == {1: 1000, 2: 1000}
    ended = t.decide(waiting, t.EndHand("h2", ((1, 990), (2, 1010)), 0))
    assert [type(e).__name__ for e in ended] == ["HandEnded", "StacksCorrected"]
    after = reduce(t.evolve, ended, waiting)
    assert after is not None and {s.seat: s.stack for s in after.seats} == {1: 1000, 2: 1000}
    assert after.deferred_corrections == ()
    # a stack that no longer covers its part: nothing moves, the cage settles it
    short = t.evolve(in_hand, t.decide(in_hand, t.CorrectStacks("h1", ((1, 500), (2, -500)),
                                                                  players))[0])  # fmt: skip
    ended = t.decide(short, t.EndHand("h2", ((1, 1600), (2, 400)), 0))
    assert [type(e).__name__ for e in ended] == ["HandEnded", "CorrectionUnsettled"]
    unsettled = ended[1]
    assert isinstance(unsettled, CorrectionUnsettled)
    assert (unsettled.seat, unsettled.stack, unsettled.reason) == (2, 400, "short")
    after = reduce(t.evolve, ended, short)
    assert after is not None and {s.seat: s.stack for s in after.seats} == {1: 1600, 2: 400}
    # a seat of the correction out of the running hand: its player leaves and another sits
    # there before the hand ends; the chips never reach (or come from) the newcomer
    three = run_on(seated, t.SeatPlayer(3, 13, 1000), t.SitOut(3), t.BeginHand("h4"))
    assert 3 not in three.in_hand
    owing = ((1, 11), (2, 12), (3, 13))
    waiting = run_on(three, t.CorrectStacks("h1", ((1, 40), (3, -40)), owing))
    assert waiting.deferred_corrections  # seat 1 plays: the correction waits
    replaced = run_on(waiting, t.CashOut(3), t.SeatPlayer(3, 99, 1500))
    ended = t.decide(replaced, t.EndHand("h4", ((1, 1000), (2, 1000)), 0))
    assert [type(e).__name__ for e in ended] == ["HandEnded", "CorrectionUnsettled"]
    gone = ended[1]
    assert isinstance(gone, CorrectionUnsettled) and (gone.seat, gone.reason) == (3, "player_left")
    after = reduce(t.evolve, ended, replaced)
    assert after is not None
    assert {s.seat: s.stack for s in after.seats} == {1: 1000, 2: 1000, 3: 1500}
    # a player of the disputed hand gone from his seat: refused at once, hand or no hand
    replaced = run_on(run_on(seated, t.CashOut(2)), t.SeatPlayer(2, 99, 1000), t.BeginHand("h3"))
    assert refusal(replaced, t.CorrectStacks("h1", ((1, 10), (2, -10)), players)).code == (
        "player_left_table"
    )


def _deal(state: t.TableState, hand_id: str, **kw: object) -> tuple[t.TableState, HandBegan]:
    (began,) = t.decide(state, t.BeginHand(hand_id, **kw))  # type: ignore[arg-type]
    assert isinstance(began, HandBegan)
    return t.evolve(state, began), began


def _end(state: t.TableState, began: HandBegan, *, voided: bool = False) -> t.TableState:
    stacks = tuple((s.seat, s.stack) for s in began.seats)
    (ended,) = t.decide(state, t.EndHand(began.hand_id, stacks, 0, voided=voided))
    return t.evolve(state, ended)


@pytest.mark.rule("MIS-6")
@pytest.mark.rule("MIS-11")
def test_a_voided_hand_is_redealt_with_the_same_button_and_blinds() -> None:
    state = run(t.OpenTable(CONFIG), *(t.SeatPlayer(s, s, 1000) for s in (1, 2, 3, 4)))
    state, first = _deal(state, "h1", button_seat=1)
    state = _end(state, first)
    state, voided = _deal(state, "h2")
    assert (voided.button_seat, voided.small_blind_seat, voided.big_blind_seat) == (2, 3, 4)
    state = _end(state, voided, voided=True)
    assert (state.button_seat, state.small_blind_seat, state.big_blind_seat) == (1, 2, 3)
    state, redealt = _deal(state, "h3")
    assert (redealt.button_seat, redealt.small_blind_seat, redealt.big_blind_seat) == (2, 3, 4)
    # a hand that was played moves the button on as before
    state = _end(state, redealt)
    assert t.plan_next_hand(state).button_seat == 3


@pytest.mark.rule("SEAT-1")
@pytest.mark.rule("MIS-6")
def test_a_new_games_voided_first_hand_is_redealt_on_the_drawn_button() -> None:
    state = run(t.OpenTable(CONFIG), *(t.SeatPlayer(s, s, 1000) for s in (2, 5, 7)))
    state, voided = _deal(state, "h1", button_seat=5)
    state = _end(state, voided, voided=True)
    assert state.button_seat is None and state.redeal_button == 5
    state, redealt = _deal(state, "h2")
    assert redealt.button_seat == 5
    assert state.redeal_button is None


@pytest.mark.rule("SEAT-16")
@pytest.mark.rule("MIS-11")
def test_blinds_posted_in_a_voided_hand_are_owed_again() -> None:
    state = run(t.OpenTable(CONFIG), *(t.SeatPlayer(s, s, 1000) for s in (1, 2, 3, 4)))
    state, began = _deal(state, "h1", button_seat=1)
    state = _end(state, began)
    state = run_on(state, t.SitOut(4))
    for n in (2, 3):  # his big blind, then his small blind, pass while he sits out
        state, began = _deal(state, f"h{n}")
        state = _end(state, began)
    assert state.seat(4) is not None and state.seat(4).owes  # type: ignore[union-attr]
    state = run_on(state, t.SitIn(4, post=True))
    owing = state.seat(4)
    state, began = _deal(state, "h4")
    assert 4 in {s.seat for s in began.seats}
    assert not state.seat(4).owes  # type: ignore[union-attr]
    state = _end(state, began, voided=True)
    assert state.seat(4) == owing  # owes both again, and still posts them
    state, redealt = _deal(state, "h5")
    assert [p for p in redealt.posts if p.seat == 4] == [p for p in began.posts if p.seat == 4]
    assert redealt.button_seat == began.button_seat


@pytest.mark.rule("MIS-11")
@pytest.mark.rule("SEAT-16")
def test_a_sit_out_asked_for_during_a_voided_hand_stands_and_the_blinds_are_owed() -> None:
    state = run(t.OpenTable(CONFIG), *(t.SeatPlayer(s, s, 1000) for s in (1, 2, 3, 4)))
    state, began = _deal(state, "h1", button_seat=1)
    state = _end(state, began)
    state = run_on(state, t.SitOut(4))
    for n in (2, 3):
        state, began = _deal(state, f"h{n}")
        state = _end(state, began)
    owed = state.seat(4)
    assert owed is not None and owed.owes
    state = run_on(state, t.SitIn(4, post=True))
    state, began = _deal(state, "h4")
    state = run_on(state, t.SitOut(4))  # during the hand: from the next hand on
    state = _end(state, began, voided=True)
    seat = state.seat(4)
    assert seat is not None and seat.status == "sitting_out"
    assert (seat.missed_small_blind, seat.missed_big_blind) == (
        owed.missed_small_blind, owed.missed_big_blind,
    )  # fmt: skip


@pytest.mark.rule("RAKE-5")
def test_a_players_open_sidebets_are_called_off_when_he_leaves_and_by_agreement() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 1, 1000), t.SeatPlayer(2, 2, 1000),
                t.SeatPlayer(3, 3, 1000), t.RecordSidebet("a", 1, 2, 100),
                t.RecordSidebet("b", 2, 3, 100), t.RecordSidebet("c", 1, 3, 100))  # fmt: skip
    assert [b.sidebet_id for b in state.sidebets] == ["a", "b", "c"]
    assert t.decide(state, t.CashOut(1)) == [
        PlayerCashedOut(1, 1, 1, 1000),
        SidebetCalledOff(1, "a", "player_left", 1),
        SidebetCalledOff(1, "c", "player_left", 1),
    ]
    agreed = run_from(state, t.CallOffSidebet("b"))
    assert [b.sidebet_id for b in agreed.sidebets] == ["a", "c"]
    assert [s.stack for s in agreed.seats] == [1000, 1000, 1000]  # no chips move
    assert refusal(agreed, t.CallOffSidebet("b")).code == "sidebet_not_found"


def run_from(state: t.TableState, *commands: t.Command) -> t.TableState:
    for command in commands:
        for event in t.decide(state, command):
            state = t.evolve(state, event)
    return state


# --- boundaries the mutation audit found untested (SES-3, SES-6, RAKE-6, SEAT-15) ------------

PER_PLAYER_ANTE = replace(CONFIG, ante=5, ante_type="per_player")


@pytest.mark.rule("SES-3")
@pytest.mark.parametrize(
    ("here", "there"),
    [
        (CONFIG, replace(CONFIG, table_id=2, small_blind=5)),  # only the small blind
        (CONFIG, replace(CONFIG, table_id=2, big_blind=40)),  # only the big blind
        (PER_PLAYER_ANTE, replace(PER_PLAYER_ANTE, table_id=2, ante=10)),  # only the ante
        (CONFIG, replace(CONFIG, table_id=2, game="PLO")),  # only the game
    ],
    ids=["small-blind", "big-blind", "ante", "game"],
)
def test_a_transfer_needs_every_stake_and_the_game_to_match(
    here: TableOpened, there: TableOpened
) -> None:
    state = run(t.OpenTable(here), t.SeatPlayer(1, 7, 1500))
    out = refusal(state, t.TransferOut(1, there))
    assert (out.code, out.rule) == ("transfer_game_mismatch", "SES-3")
    arriving = run(t.OpenTable(there))
    into = refusal(arriving, t.TransferIn(4, 7, 1500, here))
    assert (into.code, into.rule) == ("transfer_game_mismatch", "SES-3")
    # the same game and stakes at another table (other name and buy-in limits): accepted
    same = replace(here, table_id=2, name="another", buy_in_min=2000, buy_in_max=8000)
    moved = t.decide(state, t.TransferOut(1, same))
    assert isinstance(moved[0], PlayerTransferredOut) and moved[0].stack == 1500
    assert t.decide(run(t.OpenTable(same)), t.TransferIn(4, 7, 1500, here))


@pytest.mark.rule("SES-6")
def test_a_partial_cash_out_of_the_whole_stack_is_refused() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 7, 1500))

    def partial(amount: int) -> t.TakePartialCashOut:
        return t.TakePartialCashOut(1, amount, "floor:1", "family emergency", floor_override=True)

    for amount, code in ((1500, "invalid_amount"), (1501, "amount_exceeds_stack"),
                         (0, "invalid_amount")):  # fmt: skip
        err = refusal(state, partial(amount))
        assert (err.code, err.rule) == (code, "SES-6"), amount
    (taken,) = t.decide(state, partial(1499))  # one chip stays: still a partial cash-out
    assert taken.amount == 1499  # type: ignore[attr-defined]


@pytest.mark.rule("RAKE-6")
def test_a_refreshment_of_exactly_the_limit_is_paid() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 7, 1500))
    (paid,) = t.decide(state, t.PayRefreshment(1, 100, limit=100))
    assert paid.amount == 100  # type: ignore[attr-defined]
    assert run_on(state, t.PayRefreshment(1, 100, limit=100)).seat(1).stack == 1400  # type: ignore[union-attr]
    err = refusal(state, t.PayRefreshment(1, 101, limit=100))
    assert (err.code, err.rule) == ("refreshment_above_limit", "RAKE-6")


@pytest.mark.rule("SEAT-15")
def test_new_player_on_the_dead_button_seat_waits_or_posts_both() -> None:
    state = table(DEAD, 1, 3, 5, 7, 9)
    state, _ = deal(state, "h1")  # button 1, SB 3, BB 5; next: BB 7, SB 5, button 3
    state = run_on(state, t.CashOut(3), t.SeatPlayer(3, 33, 1000))  # a new player on it
    preview = t.plan_next_hand(state)
    assert (preview.button_seat, preview.big_blind_seat, preview.waiting) == (3, 7, (3,))
    waits, h2 = deal(state, "h2")
    assert blinds_of(h2) == (3, 5, 7)
    assert 3 not in [s.seat for s in h2.seats] and h2.waiting_seats == (3,)
    assert waits.seat(3).status == "waiting"  # type: ignore[union-attr]
    posts = run_on(state, t.SitIn(3, post=True))
    _, h2 = deal(posts, "h2")
    assert 3 in [s.seat for s in h2.seats]
    assert kinds(h2)[2:] == [(3, "dead_sb"), (3, "posted_bb")]
