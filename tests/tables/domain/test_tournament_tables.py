"""A table in tournament mode, pure: seats and stacks come from the tournament, cash-game
commands are refused, hands take the level's stakes and the tournament betting rules."""

from dataclasses import replace

import pytest

from casino.errors import DomainError
from tables.domain import decide as hand_decide
from tables.domain import table as t
from tables.events import HandBegan, TableOpened, TournamentPlayerSeated, TournamentPlayerUnseated

TOURNAMENT_TABLE = TableOpened(
    table_id=4, name="Main event table 1", game="NLH", small_blind=100, big_blind=200,
    ante=0, ante_type="none", buy_in_min=0, buy_in_max=0, rake_percent_bp=0, rake_cap=0,
    no_flop_no_drop=False, min_raise_rule="previous_increment", max_seats=9,
    button_rule="dead_button", mode="tournament", tournament_id=7,
)  # fmt: skip


def seated(*players: tuple[int, int, int]) -> t.TableState:
    state = t.evolve(None, TOURNAMENT_TABLE)
    assert state is not None
    for seat, player, stack in players:
        for event in t.decide(state, t.SeatEntrant(seat, player, stack, "draw")):
            state = t.evolve(state, event)  # type: ignore[assignment]
    assert state is not None
    return state


def test_entrants_are_seated_and_unseated_with_their_chips() -> None:
    state = seated((1, 11, 20_000), (5, 12, 20_000))
    assert [(s.seat, s.player_id, s.stack, s.status) for s in state.seats] == [
        (1, 11, 20_000, "active"),
        (5, 12, 20_000, "active"),
    ]
    events = t.decide(state, t.UnseatEntrant(5, "balancing"))
    assert events == [TournamentPlayerUnseated(4, 5, 12, 20_000, 7, "balancing")]
    assert t.decide(state, t.SeatEntrant(3, 13, 5_000, "late_entry")) == [
        TournamentPlayerSeated(4, 3, 13, 5_000, 7, "late_entry")
    ]


@pytest.mark.rule("TREG-1")
@pytest.mark.parametrize(
    "command",
    [
        t.SeatPlayer(3, 13, 1000),
        t.CashOut(1),
        t.TopUp(1, 500),
        t.SitOut(1),
        t.TakePartialCashOut(1, 100, "floor", "x"),
    ],
)
def test_cash_game_commands_are_refused_at_a_tournament_table(command: t.Command) -> None:
    """Tournament chips are not bought or cashed at the table (TREG-1); an absent player is
    dealt in, so nobody sits out (TREG-2)."""
    with pytest.raises(DomainError) as info:
        t.decide(seated((1, 11, 20_000), (5, 12, 20_000)), command)
    assert info.value.code == "tournament_table"


@pytest.mark.rule("PEN-4")
@pytest.mark.parametrize("allowed", [True, False])
def test_tournament_players_may_not_lend_or_give_chips(allowed: bool) -> None:
    """PEN-4: a chip gift or loan between entrants is refused at a tournament table, even
    when nobody objects and the command claims the room allows it; both stacks stay put."""
    state = seated((1, 11, 20_000), (5, 12, 20_000))
    with pytest.raises(DomainError) as info:
        t.decide(state, t.GiveChips(1, 5, 5_000, objected_by=(), allowed=allowed))
    assert info.value.code == "tournament_table"
    assert [s.stack for s in state.seats] == [20_000, 20_000]


def test_tournament_commands_are_refused_at_a_cash_table() -> None:
    cash = t.evolve(None, replace(TOURNAMENT_TABLE, mode="cash", tournament_id=None,
                                  buy_in_min=1000, buy_in_max=5000))  # fmt: skip
    with pytest.raises(DomainError) as info:
        t.decide(cash, t.SeatEntrant(1, 11, 1000, "draw"))
    assert info.value.code == "not_a_tournament_table"


@pytest.mark.parametrize(
    "change", [{"tournament_id": None}, {"rake_percent_bp": 500, "rake_cap": 100}]
)
def test_a_tournament_table_names_its_tournament_and_takes_no_rake(change: dict) -> None:
    with pytest.raises(DomainError) as info:
        t.decide(None, t.OpenTable(replace(TOURNAMENT_TABLE, **change)))
    assert info.value.code == "invalid_table_config"


@pytest.mark.rule("CLK-2")
def test_a_hand_takes_the_stakes_it_is_given_and_the_tournament_mode() -> None:
    state = seated((1, 11, 20_000), (5, 12, 20_000), (7, 13, 20_000))
    began = t.decide(state, t.BeginHand("h-1", button_seat=1))[0]
    assert isinstance(began, HandBegan)
    level = t.Stakes(small_blind=150, big_blind=300, ante=300, ante_type="big_blind")
    command = t.start_hand_command(began, state.config, stakes=level)
    assert (command.small_blind, command.big_blind, command.ante, command.mode) == (
        150,
        300,
        300,
        "tournament",
    )
    started = hand_decide(None, command)[0]
    assert (started.small_blind, started.big_blind, started.rake_percent_bp) == (150, 300, 0)


def test_a_player_is_not_unseated_during_a_hand() -> None:
    state = seated((1, 11, 20_000), (5, 12, 20_000))
    state = t.evolve(state, t.decide(state, t.BeginHand("h-1", button_seat=1))[0])  # type: ignore[assignment]
    with pytest.raises(DomainError) as info:
        t.decide(state, t.UnseatEntrant(5, "balancing"))
    assert info.value.code == "hand_in_progress"
