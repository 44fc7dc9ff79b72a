"""The table aggregate, pure: no database."""

import pytest

from casino.errors import DomainError
from tables.domain import table as t
from tables.events import HandBegan, PlayerCashedOut, PlayerSeated, TableOpened

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
@pytest.mark.parametrize(
    "change", [{"max_seats": 11}, {"max_seats": 1}, {"small_blind": 30}, {"buy_in_min": 6000}]
)
def test_invalid_config_is_refused(change: dict) -> None:
    from dataclasses import replace

    assert refusal(None, t.OpenTable(replace(CONFIG, **change))).code == "invalid_table_config"


@pytest.mark.rule("BI-3")
def test_buy_in_rule_ids_follow_the_stakes() -> None:
    from dataclasses import replace

    assert t.buy_in_rule(CONFIG) == "BI-3"
    assert t.buy_in_rule(replace(CONFIG, small_blind=25, big_blind=50)) == "BI-4"
    assert t.buy_in_rule(replace(CONFIG, game="PLO")) == "BI-5"


@pytest.mark.rule("BI-6")
def test_no_cash_out_while_a_hand_runs() -> None:
    state = run(t.OpenTable(CONFIG), t.SeatPlayer(1, 1, 1000), t.SeatPlayer(2, 2, 1000),
                t.BeginHand("h1"))  # fmt: skip
    err = refusal(state, t.CashOut(1))
    assert (err.code, err.rule) == ("hand_in_progress", "BI-6")
    assert refusal(state, t.BeginHand("h2")).code == "hand_in_progress"


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
