"""Show poker declarations: the shorthand parser, lowest readings, misdeclarations, and
true declarations (the document's own example, section 4)."""

from __future__ import annotations

import pytest

from tables.domain.errors import HandRuleViolation
from tables.domain.show_poker.declarations import (
    FLUSH,
    FULL_HOUSE,
    HIGH,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    beats,
    holds,
    parse_declaration,
)

BOARD = ("2c", "5d", "7h")


@pytest.mark.rule("SHOW-15")
def test_document_example_4_1_1_two_with_the_board() -> None:
    """Board 2-5-7: "2 with the board" means 2 high with a 7 and a 5 as kickers."""
    d = parse_declaration("2 with the board", BOARD)
    assert (d.category, d.ranks, d.cards) == (HIGH, (7, 5, 2), 3)
    assert holds(d, ("2s", "Kd", "Qh", "3c"), BOARD)  # he reveals the 2 of clubs' twin
    assert not holds(d, ("As", "Kd", "Qh", "3c"), BOARD)  # no 2 in hand: the board alone


@pytest.mark.rule("SHOW-15")
@pytest.mark.parametrize(
    ("text", "category", "ranks"),
    [
        ("a K", HIGH, (13,)),
        ("K", HIGH, (13,)),
        ("K high", HIGH, (13,)),
        ("a K with 9 4", HIGH, (13, 9, 4)),
        ("kings", PAIR, (13,)),
        ("sixes", PAIR, (6,)),
        ("kings with 9", PAIR, (13, 9)),
        ("pair of 7s", PAIR, (7,)),
        ("aces and kings", TWO_PAIR, (14, 13)),
        ("trip 7s", TRIPS, (7,)),
        ("set of 7s", TRIPS, (7,)),
        ("wheel", STRAIGHT, (5,)),
        ("broadway", STRAIGHT, (14,)),
        ("9 high straight", STRAIGHT, (9,)),
        ("A high flush", FLUSH, (14,)),
        ("nut flush", FLUSH, (14,)),
        ("kings full of 7s", FULL_HOUSE, (13, 7)),
        ("boat", FULL_HOUSE, (2, 3)),
        ("four jacks", QUADS, (11,)),
        ("royal flush", STRAIGHT_FLUSH, (14,)),
    ],
)
def test_shorthand(text: str, category: int, ranks: tuple[int, ...]) -> None:
    d = parse_declaration(text, BOARD)
    assert (d.category, d.ranks) == (category, ranks)


@pytest.mark.rule("SHOW-13")
def test_ambiguous_declarations_are_the_lowest_hand() -> None:
    assert parse_declaration("straight").ranks == (5,)  # a wheel
    assert parse_declaration("two pair").ranks == (3, 2)
    assert parse_declaration("boat").ranks == (2, 3)
    assert parse_declaration("trips").ranks == (2,)
    assert parse_declaration("flush").ranks == (7,)
    assert parse_declaration("a K").ranks == (13,)  # "a" the article: K-high, not A-K
    assert parse_declaration("kings").value < parse_declaration("kings with 2").value


@pytest.mark.rule("SHOW-16")
def test_six_card_hands_and_the_nuts_always_fail() -> None:
    for text in ("the nuts", "A K Q J 9 8", "pair of 7s with A K Q J"):
        d = parse_declaration(text)
        assert d.misdeclared
        assert not holds(d, ("As", "Ks", "Qs", "Js"), ("9s", "8s", "7s", "7d", "7c"))
        assert not beats(d, None)


@pytest.mark.rule("SHOW-11")
def test_only_a_complete_declaration_of_a_valid_hand_binds() -> None:
    for text in ("", "maybe something", "kings full of kings", "4 high straight"):
        with pytest.raises(HandRuleViolation) as caught:
            parse_declaration(text)
        assert caught.value.code == "unreadable_declaration"


@pytest.mark.rule("SHOW-8")
def test_board_only_hands_need_a_fifth_board_card() -> None:
    board3 = ("7c", "7d", "2h")
    sevens = parse_declaration("7s")
    assert not holds(sevens, ("As", "Kd", "Qh", "3c"), board3)  # the board alone: not yet
    assert holds(sevens, ("7s", "Kd", "Qh", "3c"), board3)  # any number of hole cards
    board5 = ("7c", "7d", "2h", "9s", "Jd")
    assert holds(sevens, ("As", "Kd", "Qh", "3c"), board5)  # five board cards: playable


@pytest.mark.rule("SHOW-10")
def test_true_declaration_of_fewer_than_five_cards_and_beating() -> None:
    d = parse_declaration("kings")
    assert d.cards == 2 and holds(d, ("Ks", "Kd", "2h", "3c"), BOARD)
    assert beats(parse_declaration("aces"), d)
    assert not beats(parse_declaration("kings"), d)  # equal does not beat
    assert beats(parse_declaration("wheel"), parse_declaration("aces and kings"))
