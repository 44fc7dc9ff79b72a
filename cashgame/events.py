"""Events of the cage stream (``cage``): chips sold and redeemed, tournament prizes paid.

The cash game's events of the table stream (top-ups, transfers, sidebets...) are decided
by the table aggregate and live in :mod:`tables.cash_events`.
"""

from dataclasses import dataclass

from casino.domain_events import DomainEvent


@dataclass(frozen=True, slots=True)
class ChipsSold(DomainEvent):
    """The cage sold ``amount`` CZK of chips to a player for cash. ``session_id``: his open
    cash session when he was seated, else ``None``."""

    TYPE = "cashgame.ChipsSold"
    player_id: int
    amount: int
    session_id: int | None


@dataclass(frozen=True, slots=True)
class ChipsRedeemed(DomainEvent):
    """The cage paid ``amount`` CZK in cash for a player's chips. ``held``: the chips the
    records say he held away from the tables before it (CZK). ``override_reason``: set when
    the floor let him redeem more than ``held`` (the actor is in the event's metadata);
    events recorded before these fields existed have ``None``."""

    TYPE = "cashgame.ChipsRedeemed"
    player_id: int
    amount: int
    session_id: int | None
    held: int | None = None
    override_reason: str | None = None


@dataclass(frozen=True, slots=True)
class TournamentPrizePaid(DomainEvent):
    """The cage paid ``amount`` CZK in cash to a player for his finishing place in a
    tournament (entry ``entry_number``): once per entry."""

    TYPE = "cashgame.TournamentPrizePaid"
    player_id: int
    tournament_id: int
    entry_number: int
    place: int
    amount: int
