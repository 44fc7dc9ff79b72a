"""Commands the dealer tablet sends for a hand (frozen dataclasses, named imperatively)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tables.events import AnteType, Game, MinRaiseRule, SeatInHand, Street, TableMode

CommandAction = Literal["fold", "check", "call", "bet", "raise", "all_in"]


@dataclass(frozen=True, slots=True)
class StartHand:
    """Deal a hand. The caller (Django side) has chosen the button and the seats dealt in.

    ``seats`` are the occupied seats dealt in (any order; 2..10 of seats 1..10) with the
    stacks they start the hand with. Antes and blinds are posted by position (SEAT-7,
    SEAT-10); a short stack posts what it has (SEAT-8).
    """

    hand_id: str
    table_id: int
    hand_number: int
    button_seat: int
    seats: tuple[SeatInHand, ...]
    small_blind: int
    big_blind: int
    game: Game = "NLH"
    ante: int = 0
    ante_type: AnteType = "none"
    min_raise_rule: MinRaiseRule = "previous_increment"
    rake_percent_bp: int = 0
    rake_cap: int = 0
    no_flop_no_drop: bool = True
    mode: TableMode = "cash"


@dataclass(frozen=True, slots=True)
class TakeAction:
    """The player in ``seat`` acts. ``amount_to`` is the street total for bet/raise.

    For fold, check, call and all_in ``amount_to`` may be left out; when given for a call it
    must match the call.
    """

    seat: int
    action: CommandAction
    amount_to: int | None = None


@dataclass(frozen=True, slots=True)
class DealBoard:
    """Turn the board cards of ``street``: three for the flop, one for turn and river."""

    street: Street
    cards: str


@dataclass(frozen=True, slots=True)
class ShowCards:
    """A player tables his hole cards at showdown."""

    seat: int
    cards: str


@dataclass(frozen=True, slots=True)
class MuckCards:
    """A player mucks at showdown (forfeits his claim)."""

    seat: int


@dataclass(frozen=True, slots=True)
class AwardPots:
    """Manual award: the dealer names the winning seats of each pot (index 0 = main pot)."""

    winners_by_pot: tuple[tuple[int, ...], ...]


HandCommand = StartHand | TakeAction | DealBoard | ShowCards | MuckCards | AwardPots
