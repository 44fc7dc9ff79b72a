"""Cash-game events of the ``table-<id>`` stream: chips moving in and out between hands.

The table aggregate (:mod:`tables.domain.table`) decides them, so they live with the
tables app; their stored names keep the ``cashgame.`` prefix they were first written with
(``TYPE`` never changes). Seating and cashing out are :mod:`tables.events`; these are the
cash game's own: top-ups, refreshments paid with chips, sidebets, transfers between tables,
limit overrides, gifts, partial cash-outs, sitting out and closing a table. Amounts are
whole CZK.
"""

from dataclasses import dataclass

from casino.domain_events import DomainEvent


@dataclass(frozen=True, slots=True)
class ChipsToppedUp(DomainEvent):
    """The player at ``seat`` bought ``amount`` more chips (CZK; BI-6). Between hands they
    go on his stack at once. ``after_hand`` (v2): he declared it to the dealer during his
    hand, when nothing may be added (table stakes): the money is paid now and the chips
    reach the stack when that hand ends (:class:`DeclaredTopUpAdded`). v1 payloads read as
    ``after_hand`` false (:mod:`tables.upcasters`)."""

    TYPE = "cashgame.ChipsToppedUp"
    SCHEMA_VERSION = 2
    table_id: int
    seat: int
    player_id: int
    amount: int
    paid_with: str = "cash"  # "cash" at the table (drop) or "chips" bought at the cage
    after_hand: bool = False


@dataclass(frozen=True, slots=True)
class DeclaredTopUpAdded(DomainEvent):
    """Hand ``hand_id`` ended, and the top-up that the player at ``seat`` declared during
    it (a :class:`ChipsToppedUp` with ``after_hand``, already paid for) goes on his stack:
    ``amount`` CZK (BI-6). No money moves here."""

    TYPE = "cashgame.DeclaredTopUpAdded"
    table_id: int
    hand_id: str
    seat: int
    player_id: int
    amount: int


@dataclass(frozen=True, slots=True)
class RefreshmentPaid(DomainEvent):
    """``amount`` taken from the stack at ``seat`` for refreshments (RAKE-6)."""

    TYPE = "cashgame.RefreshmentPaid"
    table_id: int
    seat: int
    player_id: int
    amount: int


@dataclass(frozen=True, slots=True)
class TableLimitsChanged(DomainEvent):
    """The floor changed this table's buy-in limits, with the reason (BI-5)."""

    TYPE = "cashgame.TableLimitsChanged"
    table_id: int
    buy_in_min: int
    buy_in_max: int
    reason: str
    changed_by: str


@dataclass(frozen=True, slots=True)
class PlayerTransferredOut(DomainEvent):
    """The player left ``seat`` for another table of the same game, with his whole stack
    (SES-2, SES-3, SES-4)."""

    TYPE = "cashgame.PlayerTransferredOut"
    table_id: int
    seat: int
    player_id: int
    stack: int
    to_table_id: int


@dataclass(frozen=True, slots=True)
class PlayerTransferredIn(DomainEvent):
    """The player sat at ``seat`` with the stack he brought from ``from_table_id``."""

    TYPE = "cashgame.PlayerTransferredIn"
    table_id: int
    seat: int
    player_id: int
    stack: int
    from_table_id: int


@dataclass(frozen=True, slots=True)
class TableClosed(DomainEvent):
    """The floor closed the (empty) table."""

    TYPE = "cashgame.TableClosed"
    table_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class SidebetRecorded(DomainEvent):
    """Two players at the table bet ``amount`` between themselves (RAKE-5)."""

    TYPE = "cashgame.SidebetRecorded"
    table_id: int
    sidebet_id: str
    player_a: int
    player_b: int
    amount: int
    description: str


@dataclass(frozen=True, slots=True)
class SidebetSettled(DomainEvent):
    """A sidebet paid: ``amount`` moved from the loser's stack to the winner's, after the
    hand (RAKE-5). ``winner_must_rebuy``: the winner had no chips left (BI-7)."""

    TYPE = "cashgame.SidebetSettled"
    table_id: int
    sidebet_id: str
    winner: int
    loser: int
    amount: int
    winner_must_rebuy: bool


@dataclass(frozen=True, slots=True)
class SidebetCalledOff(DomainEvent):
    """An open sidebet ends with no chips moving (RAKE-5: staff do not rule on side bets):
    the two players called it off (``reason`` ``agreed``), or one of them left the table by
    a cash-out or a transfer (``player_left``, ``player_id`` the one who left), so it can no
    longer be paid at the table."""

    TYPE = "cashgame.SidebetCalledOff"
    table_id: int
    sidebet_id: str
    reason: str
    player_id: int | None = None


@dataclass(frozen=True, slots=True)
class DealerFeePaid(DomainEvent):
    """The fee for a rabbit hunt after ``hand_id``, paid to the dealer from the stack at
    ``seat`` (RAKE-8)."""

    TYPE = "cashgame.DealerFeePaid"
    table_id: int
    seat: int
    player_id: int
    amount: int
    hand_id: str


@dataclass(frozen=True, slots=True)
class ChipsGiven(DomainEvent):
    """A chip loan or gift at the table: ``amount`` moved from one stack to another with
    nobody objecting (BI-9). ``consenting``: the other players asked, who agreed."""

    TYPE = "cashgame.ChipsGiven"
    table_id: int
    from_seat: int
    to_seat: int
    amount: int
    consenting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChipGiftBlocked(DomainEvent):
    """A chip loan or gift was asked for and refused because players objected (BI-9)."""

    TYPE = "cashgame.ChipGiftBlocked"
    table_id: int
    from_seat: int
    to_seat: int
    amount: int
    objected_by: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PartialCashOut(DomainEvent):
    """The floor let a player take ``amount`` off his stack without leaving: an exception
    to SES-5, recorded with who approved it and why (SES-6)."""

    TYPE = "cashgame.PartialCashOut"
    table_id: int
    seat: int
    player_id: int
    amount: int
    approved_by: str
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerSatOut(DomainEvent):
    """The player at ``seat`` sits out from the next hand on: he keeps his seat and stack,
    is not dealt in, and owes each blind that passes his seat (SEAT-16)."""

    TYPE = "cashgame.PlayerSatOut"
    table_id: int
    seat: int
    player_id: int


@dataclass(frozen=True, slots=True)
class PlayerSatIn(DomainEvent):
    """The player at ``seat`` is back (or, a new player or one waiting, chose how to enter).

    ``post``: he posts what he owes to be dealt in at the next hand (SEAT-16: the small blind
    dead, the big blind live; SEAT-15: a new player between the button and the big blind
    posts both); otherwise he waits for the big blind when he owes blinds, and plays at once
    when he owes nothing. ``owes_small_blind`` / ``owes_big_blind``: what he owed when he
    came back (a new player not dealt a hand yet owes nothing until his first hand shows
    where he sits).
    """

    TYPE = "cashgame.PlayerSatIn"
    table_id: int
    seat: int
    player_id: int
    post: bool
    owes_small_blind: bool = False
    owes_big_blind: bool = False
