"""Naming the winning hand (tables.domain.hand_names, SD-1, SD-2).

phevaluator, which decides the pots, is the oracle: the five cards named must be the
seat's cards and rank exactly as the best hand of all seven (or of 2 + 3 in Omaha), and the
category must be the one phevaluator's rank falls in.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards, evaluate_omaha_cards

from tables.domain.hand_names import CATEGORIES, best_hand

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "shdc"]

# phevaluator's ranks (1 best, 7462 worst) by category: the lowest rank of each, best first.
_CATEGORY_FLOORS = (
    (1, "royal_flush"), (2, "straight_flush"), (11, "four_of_a_kind"), (167, "full_house"),
    (323, "flush"), (1600, "straight"), (1610, "three_of_a_kind"), (2468, "two_pair"),
    (3326, "one_pair"), (6186, "high_card"),
)  # fmt: skip


def category_of(rank: int) -> str:
    return next(name for floor, name in reversed(_CATEGORY_FLOORS) if rank >= floor)


@pytest.mark.rule("SD-1")
@pytest.mark.parametrize(
    ("game", "board", "hole", "category", "cards"),
    [
        ("NLH", "Ks7c7h2d3s", "KhKd", "full_house", "KhKdKs7c7h"),
        ("NLH", "As2c3h4d9s", "5hKd", "straight", "5h4d3h2cAs"),  # the wheel: five-high
        ("NLH", "AhKhQhJh9s", "ThKd", "royal_flush", "AhKhQhJhTh"),
        ("NLH", "9h8h7h6h2c", "5hKd", "straight_flush", "9h8h7h6h5h"),
        ("NLH", "2c7d9hJs3d", "AhAd", "one_pair", "AhAdJs9h7d"),
        ("NLH", "2c7d9hJs3d", "AhKd", "high_card", "AhKdJs9h7d"),
        ("NLH", "2c2d9hJs3d", "9c3h", "two_pair", "9c9h3h3dJs"),  # the best two of three pairs
        ("NLH", "QcQdQh4s2d", "Qs3c", "four_of_a_kind", "QsQcQdQh4s"),
        ("FLH", "5c5d9hJs3d", "5hKd", "three_of_a_kind", "5h5c5dKdJs"),
        # Omaha: exactly two hole cards and three of the board. Four hearts on the board
        # and one in the hand is no flush (it is in hold'em); three aces in the hand are a
        # pair.
        ("NLH", "2h5h8hJhKc", "AhAs", "flush", "AhJh8h5h2h"),
        ("PLO", "2h5h8hJhKc", "AhAsKsQc", "one_pair", "AhAsKcJh8h"),
        ("PLO", "2h5h8hJhKc", "AhAsAdQc", "one_pair", "AhAsKcJh8h"),
        ("PLO", "2h5h8hJhKc", "AhKhKsQc", "flush", "AhKhJh8h5h"),
    ],
)
def test_the_winning_hand_is_named_with_its_five_cards(
    game: str, board: str, hole: str, category: str, cards: str
) -> None:
    hand = best_hand(game, [board[i : i + 2] for i in range(0, 10, 2)], hole)
    assert hand is not None
    assert (hand.category, hand.cards) == (category, cards)


@pytest.mark.parametrize(
    ("game", "board", "hole"),
    [
        ("NLH", ["2c", "7d", "9h", "Js"], "AhAd"),  # the board is not complete
        ("NLH", ["2c", "7d", "9h", "Js", "3d"], "Ah"),  # one card shown of two
        ("PLO", ["2c", "7d", "9h", "Js", "3d"], "AhAd"),  # two shown of four
        ("NLH", ["2c", "7d", "9h", "Js", "3d"], "2cAd"),  # a card twice
        ("NLH", ["2c", "7d", "9h", "Js", "3d"], "XxAd"),  # not a card
        ("STUD", ["2c", "7d", "9h", "Js", "3d"], "AhAd"),  # a game the tables do not deal
    ],
)
def test_nothing_is_named_from_cards_that_make_no_hand(
    game: str, board: list[str], hole: str
) -> None:
    assert best_hand(game, board, hole) is None


@pytest.mark.rule("SD-2")
@settings(max_examples=400, deadline=None)
@given(cards=st.permutations(DECK).map(lambda deck: deck[:9]))
def test_the_named_hand_is_the_best_hand_phevaluator_ranks(cards: list[str]) -> None:
    board, hold_em, omaha = cards[:5], "".join(cards[5:7]), "".join(cards[5:9])
    for game, hole, rank in (
        ("NLH", hold_em, evaluate_cards(*board, *cards[5:7])),
        ("PLO", omaha, evaluate_omaha_cards(*board, *cards[5:9])),
    ):
        hand = best_hand(game, board, hole)
        assert hand is not None
        five = [hand.cards[i : i + 2] for i in range(0, 10, 2)]
        assert set(five) <= set(board) | set(cards[5:9]) and len(set(five)) == 5
        if game == "PLO":
            assert len(set(five) & set(cards[5:9])) == 2  # two from the hand, three from the board
        assert evaluate_cards(*five) == rank
        assert hand.category == category_of(rank)
        assert hand.category in CATEGORIES
