"""Events of the ``table-<id>`` stream: opening, seating, cash-outs and hand markers.

Hand-by-hand actions live in the ``hand-<uuid>`` stream (``tables.events``); the table stream
records when a hand starts (who is dealt in, with what stacks) and the stacks it ends with,
so the seats' chips are always the fold of this one stream.
"""

from dataclasses import dataclass

from casino.domain_events import DomainEvent


@dataclass(frozen=True, slots=True)
class TableOpened(DomainEvent):
    """The floor opened a table. Amounts in CZK (cash) or chips; ``rake_percent_bp`` in
    basis points (500 = 5 %)."""

    TYPE = "tables.TableOpened"
    table_id: int
    name: str
    game: str
    small_blind: int
    big_blind: int
    ante: int
    ante_type: str
    buy_in_min: int
    buy_in_max: int
    rake_percent_bp: int
    rake_cap: int
    no_flop_no_drop: bool
    min_raise_rule: str
    max_seats: int


@dataclass(frozen=True, slots=True)
class PlayerSeated(DomainEvent):
    """A player sat down at ``seat`` with a buy-in of ``buy_in`` (CZK), his starting stack."""

    TYPE = "tables.PlayerSeated"
    table_id: int
    seat: int
    player_id: int
    buy_in: int


@dataclass(frozen=True, slots=True)
class PlayerCashedOut(DomainEvent):
    """A player left ``seat`` cashing out his whole stack, ``amount`` (SES-5)."""

    TYPE = "tables.PlayerCashedOut"
    table_id: int
    seat: int
    player_id: int
    amount: int


@dataclass(frozen=True, slots=True)
class DealtInSeat:
    seat: int
    player_id: int
    stack: int


@dataclass(frozen=True, slots=True)
class HandBegan(DomainEvent):
    """Hand ``hand_id`` started at the table with these seats dealt in."""

    TYPE = "tables.HandBegan"
    table_id: int
    hand_id: str
    hand_number: int
    button_seat: int
    seats: tuple[DealtInSeat, ...]


@dataclass(frozen=True, slots=True)
class SeatStack:
    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class HandEnded(DomainEvent):
    """Hand ``hand_id`` is settled: the dealt-in seats' stacks after it and the rake."""

    TYPE = "tables.HandEnded"
    table_id: int
    hand_id: str
    stacks: tuple[SeatStack, ...]
    rake: int
