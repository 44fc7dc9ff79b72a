"""Betting rules not covered elsewhere: the tournament minimum raise (BET-7), binding
actions (BET-15) and the action vocabulary (BET-16)."""

from __future__ import annotations

import pytest

from tables.domain import DealBoard, TakeAction
from tables.domain.chip_reading import BettingSituation, read_chips
from tests.tables.domain.support import play, refused, start_hand


def flop(**config: object):  # type: ignore[no-untyped-def]
    state = play(None, start_hand((10_000, 10_000, 10_000), **config))
    return play(state, TakeAction(3, "call"), TakeAction(1, "call"), TakeAction(2, "check"),
                DealBoard("flop", "Qs9c4s"))  # fmt: skip


@pytest.mark.rule("BET-7")
def test_tournament_minimum_raise_is_the_previous_increment() -> None:
    state = play(flop(mode="tournament"), TakeAction(1, "bet", amount_to=100),
                 TakeAction(2, "raise", amount_to=500))  # fmt: skip
    assert state.legal is not None and state.legal.min_raise_to == 900  # + the 400 increment
    refused(state, TakeAction(3, "raise", amount_to=899), "raise_below_minimum")
    doubled = play(flop(min_raise_rule="double_last"), TakeAction(1, "bet", amount_to=100),
                   TakeAction(2, "raise", amount_to=500))  # fmt: skip
    assert doubled.legal is not None and doubled.legal.min_raise_to == 1000  # BET-9 differs


@pytest.mark.rule("BET-15")
def test_an_action_in_turn_is_binding() -> None:
    state = play(flop(), TakeAction(1, "check"))
    refused(state, TakeAction(1, "bet", amount_to=200), "not_your_turn")  # no taking it back
    announced = read_chips(
        BettingSituation(
            current_bet=400, player_bet=0, stack=3000, min_raise_to=800, big_blind=200
        ),
        [],
        announced="all_in",
    )
    assert (announced.kind, announced.amount_to, announced.rule) == ("raise", 3000, "BET-15")


@pytest.mark.rule("BET-16")
def test_only_the_recognised_vocabulary_is_recorded() -> None:
    refusal = refused(flop(), TakeAction(1, "knock"), "unknown_action")
    assert refusal.rule == "BET-16"
