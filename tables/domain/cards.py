"""Card strings as the tablet sends them: ``"Qs9c4s"``, rank ``23456789TJQKA``, suit ``cdhs``."""

from __future__ import annotations

from collections.abc import Iterable

from tables.domain.errors import HandRuleViolation

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def parse_cards(text: str) -> tuple[str, ...]:
    """Split ``text`` into two-character cards, normalised (``"qS"`` -> ``"Qs"``).

    Raises:
        HandRuleViolation: ``invalid_cards`` (MIS-13) for anything that is not a real card.
    """
    cleaned = text.replace(" ", "").replace(",", "")
    if not cleaned or len(cleaned) % 2:
        raise HandRuleViolation(
            "invalid_cards", "MIS-13", f"{text!r} is not a list of cards", cards=text
        )
    cards = []
    for i in range(0, len(cleaned), 2):
        rank, suit = cleaned[i].upper(), cleaned[i + 1].lower()
        if rank not in RANKS or suit not in SUITS:
            raise HandRuleViolation(
                "invalid_cards",
                "MIS-13",
                f"{cleaned[i : i + 2]!r} is not a card",
                cards=text,
            )
        cards.append(rank + suit)
    return tuple(cards)


def check_no_duplicates(new: Iterable[str], seen: Iterable[str]) -> None:
    """Refuse cards that repeat each other or a card already on the table.

    Raises:
        HandRuleViolation: ``duplicate_card`` (MIS-12).
    """
    known = set(seen)
    for card in new:
        if card in known:
            raise HandRuleViolation(
                "duplicate_card", "MIS-12", f"{card} is already in play", card=card
            )
        known.add(card)
