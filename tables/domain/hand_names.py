"""The name of a shown hand, as the dealer announces it (SD-1: the dealer reads the hand).

:func:`best_hand` takes a game code (``"NLH"``, ``"FLH"`` or ``"PLO"``), a complete board
and a seat's shown hole cards, and answers the best five-card hand they make under the
game's rules (SD-2: any 5 of 7 in hold'em; exactly 2 hole cards and 3 from the board in
Omaha), with its category. pokerkit picks the five cards; this module only names them and
orders them the way a dealer spreads them.

Categories (stable codes, the screens translate them): ``high_card``, ``one_pair``,
``two_pair``, ``three_of_a_kind``, ``straight``, ``flush``, ``full_house``,
``four_of_a_kind``, ``straight_flush``, ``royal_flush`` (the ace-high straight flush).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pokerkit import Card, OmahaHoldemHand, StandardHighHand

from tables.domain.cards import parse_cards
from tables.domain.engine import HOLE_CARD_COUNT
from tables.domain.errors import HandRuleViolation

CATEGORIES = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "royal_flush",
)  # fmt: skip
"""Every category :func:`best_hand` answers, weakest first."""

_RANK_ORDER = "23456789TJQKA"
_WHEEL = {"A", "2", "3", "4", "5"}


@dataclass(frozen=True, slots=True)
class BestHand:
    """A seat's best five cards: ``category`` (one of :data:`CATEGORIES`) and ``cards``
    (10 characters, e.g. ``"KhKdKs7c7h"``), the defining cards first, then the kickers,
    highest first (a wheel reads ``5432A``)."""

    category: str
    cards: str


def best_hand(game: str, board: Sequence[str], hole: str) -> BestHand | None:
    """The best hand ``hole`` makes with ``board`` in ``game``.

    ``board`` is a sequence of card codes (``"Ks"``); ``hole`` the shown cards as one string
    (``"KhKd"``). Answers ``None`` when the board is not complete (fewer than 5 cards) or
    the cards cannot make a hand (a wrong count or a duplicate): nothing is named then.
    """
    try:
        hole_cards, board_cards = parse_cards(hole), parse_cards("".join(board))
    except HandRuleViolation:
        return None
    if (
        len(board_cards) != 5
        or len(hole_cards) != HOLE_CARD_COUNT.get(game)
        or len({*hole_cards, *board_cards}) != len(hole_cards) + 5
    ):
        return None
    kind = OmahaHoldemHand if game == "PLO" else StandardHighHand
    hand = kind.from_game("".join(hole_cards), "".join(board_cards))
    cards = _spread(hand.cards)
    category = hand.entry.label.name.lower()
    if category == "straight_flush" and cards[0] == "A":
        category = "royal_flush"
    return BestHand(category=category, cards=cards)


def _spread(cards: Sequence[Card]) -> str:
    """The five cards as a dealer spreads them: by how many of a rank (the trips before the
    pair), then by rank, highest first; the ace of a wheel last."""
    ranks = [str(card.rank.value) for card in cards]
    counts = Counter(ranks)
    wheel = set(ranks) == _WHEEL

    def order(card: Card) -> tuple[int, int]:
        rank = str(card.rank.value)
        value = -1 if wheel and rank == "A" else _RANK_ORDER.index(rank)
        return (-counts[rank], -value)

    return "".join(f"{card.rank.value}{card.suit.value}" for card in sorted(cards, key=order))
