"""The table aggregate's commands (:func:`tables.domain.table.decide` takes them): what a
dealer, the floor or the cage asks of a table. Plain values; the rules are in
:mod:`tables.domain.table` and :mod:`tables.domain.table_money`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.domain.seating import next_button as next_button  # callers use table.next_button
from tables.events import (
    TableOpened,
)


@dataclass(frozen=True, slots=True)
class OpenTable:
    config: TableOpened


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """Seat a player with a buy-in (CZK). ``returning_minimum``: the stack he left this game
    with less than the return window ago (SES-7; 0 when none); when
    ``return_overrides_max`` it may exceed the table maximum."""

    seat: int
    player_id: int
    buy_in: int
    returning_minimum: int = 0
    return_overrides_max: bool = True
    paid_with: str = "cash"


@dataclass(frozen=True, slots=True)
class CashOut:
    seat: int


@dataclass(frozen=True, slots=True)
class TopUp:
    seat: int
    amount: int
    paid_with: str = "cash"


PAYMENT_METHODS = ("cash", "chips")


@dataclass(frozen=True, slots=True)
class PayRefreshment:
    """Pay ``amount`` CZK from the stack; ``limit`` is the room's maximum (RAKE-6)."""

    seat: int
    amount: int
    limit: int


@dataclass(frozen=True, slots=True)
class ChangeLimits:
    buy_in_min: int
    buy_in_max: int
    reason: str
    changed_by: str


@dataclass(frozen=True, slots=True)
class TransferOut:
    """Move the player at ``seat`` to ``to_table`` (whose config must match)."""

    seat: int
    to_table: TableOpened


@dataclass(frozen=True, slots=True)
class TransferIn:
    seat: int
    player_id: int
    stack: int
    from_table: TableOpened


@dataclass(frozen=True, slots=True)
class CloseTable:
    reason: str


@dataclass(frozen=True, slots=True)
class RecordSidebet:
    sidebet_id: str
    player_a: int
    player_b: int
    amount: int
    description: str = ""


@dataclass(frozen=True, slots=True)
class SettleSidebet:
    sidebet_id: str
    winner: int


@dataclass(frozen=True, slots=True)
class CallOffSidebet:
    """The two players call off an open sidebet: it ends with no chips moving (RAKE-5)."""

    sidebet_id: str


@dataclass(frozen=True, slots=True)
class GiveChips:
    """A player lends or gives chips to another at the table. ``objected_by`` are the
    seats of players who object; any objection blocks it (BI-9). ``allowed`` is the room's
    chip-transfer policy for this game (cash: True; tournaments: never)."""

    from_seat: int
    to_seat: int
    amount: int
    objected_by: tuple[int, ...] = ()
    allowed: bool = True


@dataclass(frozen=True, slots=True)
class TakePartialCashOut:
    """Take ``amount`` off the stack without leaving: only as a floor exception with an
    approver and a reason (SES-5, SES-6)."""

    seat: int
    amount: int
    approved_by: str
    reason: str
    floor_override: bool = False


@dataclass(frozen=True, slots=True)
class PayDealerFee:
    """Pay the dealer ``amount`` from the stack at ``seat`` for a rabbit hunt after the
    (finished) hand ``hand_id`` (RAKE-8)."""

    seat: int
    amount: int
    hand_id: str


@dataclass(frozen=True, slots=True)
class CorrectStacks:
    """Move chips between stacks after an upheld dispute about the settled hand
    ``hand_id`` (SD-24..26): ``adjustments`` are ``(seat, amount)`` pairs summing to 0,
    each seat held by the player in ``players`` (``seat -> player_id``, from the hand)."""

    hand_id: str
    adjustments: tuple[tuple[int, int], ...]
    players: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class ChangeSeat:
    """The player at ``seat`` moves to the empty ``new_seat`` of the same game (SEAT-17)."""

    seat: int
    new_seat: int


@dataclass(frozen=True, slots=True)
class RecordShuffle:
    """The dealer reports a step of the next shuffle between hands (SD-25 ``first_riffle``,
    SD-26 ``cut``)."""

    step: str


SHUFFLE_STEPS = ("first_riffle", "cut")


HAND_CLOSED_BY = ("next_hand_started", "first_riffle", "cut")
"""When a settled hand closes (SD-24 the next hand, SD-25 the first riffle, SD-26 the cut)."""


@dataclass(frozen=True, slots=True)
class BeginHand:
    """Start a hand. ``button_seat`` is the outcome of the button draw (SEAT-1) when a game
    starts (no button yet, or the table emptied since); afterwards the button moves
    clockwise by itself (SEAT-4) and a different ``button_seat`` is refused."""

    hand_id: str
    button_seat: int | None = None


@dataclass(frozen=True, slots=True)
class SitOut:
    """The player at ``seat`` sits out from the next hand on (SEAT-16); allowed during a
    hand (he plays that one out). A new player who sits out before his first hand owes both
    blinds to come back before the big blind reaches him."""

    seat: int


@dataclass(frozen=True, slots=True)
class SitIn:
    """The player at ``seat`` comes back, or chooses how to enter (SEAT-15, SEAT-16).

    Back from sitting out: owing nothing he plays at once; owing blinds he waits for the big
    blind (``post=False``) or posts what he owes at the next hand (``post=True``: the small
    blind dead, the big blind live). A player waiting for the big blind, or a new player
    whose first hand is to come, may choose ``post=True`` (a new player then posts both
    blinds only if his first hand finds him between the button and the big blind); a
    waiting player who had chosen to post may go back to waiting with ``post=False``.
    """

    seat: int
    post: bool = False


@dataclass(frozen=True, slots=True)
class SeatEntrant:
    """Tournament tables: seat ``player_id`` at ``seat`` with ``stack`` chips (``reason``:
    see :class:`~tables.events.TournamentPlayerSeated`)."""

    seat: int
    player_id: int
    stack: int
    reason: str
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class UnseatEntrant:
    """Tournament tables: take the player off ``seat`` between hands (eliminated or moved)."""

    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class AddEntrantChips:
    """Tournament tables: a rebuy or add-on adds ``chips`` to the stack at ``seat``."""

    seat: int
    chips: int
    reason: str


@dataclass(frozen=True, slots=True)
class Stakes:
    """The blinds and ante of one hand (a tournament level's, or the table's own)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    ante_type: str = "none"


@dataclass(frozen=True, slots=True)
class EndHand:
    hand_id: str
    stacks: tuple[tuple[int, int], ...]  # (seat, stack) after the hand
    rake: int
    voided: bool = False  # a misdeal or void: the table goes back to before the hand


Command = (
    OpenTable
    | SeatPlayer
    | CashOut
    | TopUp
    | PayRefreshment
    | ChangeLimits
    | TransferOut
    | TransferIn
    | CloseTable
    | RecordSidebet
    | SettleSidebet
    | CallOffSidebet
    | GiveChips
    | TakePartialCashOut
    | PayDealerFee
    | CorrectStacks
    | RecordShuffle
    | ChangeSeat
    | BeginHand
    | EndHand
    | SitOut
    | SitIn
    | SeatEntrant
    | UnseatEntrant
    | AddEntrantChips
)
