"""The table aggregate: seats, buy-ins, cash-outs, and which hand is running.

Pure Python (no Django): ``decide(state, command) -> events`` and ``evolve(state, event)``.
Rules: SEAT-3 (2-10 seats), BI-1 (seating is a staff action: only staff devices reach it),
BI-3/BI-4/BI-5 (buy-in limits of the table), BI-6 (no chips in or out during a hand),
BI-10 (one seat per player at a table; across tables the service checks the projection),
SES-5 (a cash-out takes the whole stack), SEAT-4 (button moves clockwise).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tables.domain.hand import ANTE_TYPES, GAMES, MIN_RAISE_RULES
from tables.domain.seating import MAX_SEATS, next_button
from tables.events import (
    DealtInSeat,
    HandBegan,
    HandEnded,
    PlayerCashedOut,
    PlayerSeated,
    SeatStack,
    TableOpened,
)


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    player_id: int
    stack: int


@dataclass(frozen=True, slots=True)
class TableState:
    """A table as its stream says. ``seats`` in seat order; ``hand_id`` of the running hand."""

    config: TableOpened
    seats: tuple[Seat, ...] = ()
    button_seat: int | None = None
    hand_id: str | None = None
    hands_played: int = 0

    def seat(self, number: int) -> Seat | None:
        return next((s for s in self.seats if s.seat == number), None)

    def seat_of(self, player_id: int) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    @property
    def dealt_in_seats(self) -> tuple[Seat, ...]:
        """Seats that will be dealt the next hand: seated with chips."""
        return tuple(s for s in self.seats if s.stack > 0)


# --- commands --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpenTable:
    config: TableOpened


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    seat: int
    player_id: int
    buy_in: int


@dataclass(frozen=True, slots=True)
class CashOut:
    seat: int


@dataclass(frozen=True, slots=True)
class BeginHand:
    """Start a hand. ``button_seat`` is the outcome of the button draw (SEAT-1) when a game
    starts (no button yet, or the table emptied since); afterwards the button moves
    clockwise by itself (SEAT-4) and a different ``button_seat`` is refused."""

    hand_id: str
    button_seat: int | None = None


@dataclass(frozen=True, slots=True)
class EndHand:
    hand_id: str
    stacks: tuple[tuple[int, int], ...]  # (seat, stack) after the hand
    rake: int


Command = OpenTable | SeatPlayer | CashOut | BeginHand | EndHand


def buy_in_rule(config: TableOpened) -> str:
    """Catalogue rule that sets this table's buy-in limits (BI-3, BI-4 or BI-5)."""
    if config.game == "NLH" and (config.small_blind, config.big_blind) == (10, 20):
        return "BI-3"
    if config.game == "NLH" and (config.small_blind, config.big_blind) == (25, 50):
        return "BI-4"
    return "BI-5"


def _validate_config(c: TableOpened) -> None:
    problems = []
    if c.game not in GAMES:
        problems.append(f"game must be one of {GAMES}")
    if c.ante_type not in ANTE_TYPES:
        problems.append(f"ante_type must be one of {ANTE_TYPES}")
    if c.min_raise_rule not in MIN_RAISE_RULES:
        problems.append(f"min_raise_rule must be one of {MIN_RAISE_RULES}")
    if not (0 < c.small_blind <= c.big_blind):
        problems.append("blinds must satisfy 0 < small_blind <= big_blind")
    if c.ante < 0 or (c.ante_type == "none") != (c.ante == 0):
        problems.append("ante must be positive exactly when ante_type is not 'none'")
    if not (0 < c.buy_in_min <= c.buy_in_max):
        problems.append("buy-in limits must satisfy 0 < buy_in_min <= buy_in_max")
    if not (0 <= c.rake_percent_bp <= 10_000) or c.rake_cap < 0:
        problems.append("rake must be 0-10000 basis points with a cap >= 0")
    if not (2 <= c.max_seats <= MAX_SEATS):
        problems.append(f"max_seats must be 2-{MAX_SEATS}")
    if problems:
        raise DomainError("invalid_table_config", "; ".join(problems), rule="SEAT-3")


def decide(state: TableState | None, command: Command) -> list[DomainEvent]:
    """Events that ``command`` causes at this table.

    Raises:
        DomainError: ``table_already_open``, ``table_not_open``, ``invalid_table_config``,
            ``seat_out_of_range`` (SEAT-3), ``seat_occupied`` (BI-1),
            ``player_already_seated`` (BI-10), ``buy_in_below_minimum`` /
            ``buy_in_above_maximum`` (BI-3/BI-4/BI-5), ``seat_empty``,
            ``hand_in_progress`` (BI-6), ``not_enough_players`` (SEAT-3),
            ``no_hand_in_progress``.
    """
    if isinstance(command, OpenTable):
        if state is not None:
            raise DomainError("table_already_open", "This table is already open.")
        _validate_config(command.config)
        return [command.config]
    if state is None:
        raise DomainError("table_not_open", "The table is not open.")
    c = state.config
    match command:
        case SeatPlayer(seat=seat, player_id=player_id, buy_in=buy_in):
            if not 1 <= seat <= c.max_seats:
                raise DomainError(
                    "seat_out_of_range",
                    f"Seats at this table are 1 to {c.max_seats}.",
                    rule="SEAT-3",
                    seat=seat,
                    max_seats=c.max_seats,
                )
            if state.seat(seat) is not None:
                raise DomainError("seat_occupied", f"Seat {seat} is taken.", rule="BI-1", seat=seat)
            if state.seat_of(player_id) is not None:
                raise DomainError(
                    "player_already_seated",
                    "The player already has a seat at this table.",
                    rule="BI-10",
                    player_id=player_id,
                )
            if buy_in < c.buy_in_min:
                raise DomainError(
                    "buy_in_below_minimum",
                    f"The minimum buy-in at this table is {c.buy_in_min}.",
                    rule=buy_in_rule(c),
                    buy_in=buy_in,
                    buy_in_min=c.buy_in_min,
                    buy_in_max=c.buy_in_max,
                )
            if buy_in > c.buy_in_max:
                raise DomainError(
                    "buy_in_above_maximum",
                    f"The maximum buy-in at this table is {c.buy_in_max}.",
                    rule=buy_in_rule(c),
                    buy_in=buy_in,
                    buy_in_min=c.buy_in_min,
                    buy_in_max=c.buy_in_max,
                )
            return [PlayerSeated(c.table_id, seat, player_id, buy_in)]
        case CashOut(seat=seat):
            occupant = state.seat(seat)
            if occupant is None:
                raise DomainError("seat_empty", f"Seat {seat} is empty.", seat=seat)
            if state.hand_id is not None:
                raise DomainError(
                    "hand_in_progress",
                    "Chips cannot leave the table during a hand; cash out after it.",
                    rule="BI-6",
                    hand_id=state.hand_id,
                )
            return [PlayerCashedOut(c.table_id, seat, occupant.player_id, occupant.stack)]
        case BeginHand(hand_id=hand_id, button_seat=drawn):
            if state.hand_id is not None:
                raise DomainError(
                    "hand_in_progress",
                    "The previous hand is not finished.",
                    rule="BI-6",
                    hand_id=state.hand_id,
                )
            dealt = state.dealt_in_seats
            if len(dealt) < 2:
                raise DomainError(
                    "not_enough_players",
                    "A hand needs at least two seated players with chips.",
                    rule="SEAT-3",
                    players=len(dealt),
                )
            occupied = [s.seat for s in dealt]
            button = next_button(state.button_seat, occupied)
            if drawn is not None and state.button_seat is None:
                if drawn not in occupied:
                    raise DomainError(
                        "button_seat_not_in_hand",
                        f"The button must be on a seat dealt in: {occupied}.",
                        rule="SEAT-1",
                        button_seat=drawn,
                    )
                button = drawn
            elif drawn is not None and drawn != button:
                raise DomainError(
                    "button_out_of_turn",
                    f"The button moves one seat clockwise, to seat {button}.",
                    rule="SEAT-4",
                    button_seat=drawn,
                    expected_button_seat=button,
                )
            return [
                HandBegan(
                    c.table_id,
                    hand_id,
                    state.hands_played + 1,
                    button,
                    tuple(DealtInSeat(s.seat, s.player_id, s.stack) for s in dealt),
                )
            ]
        case EndHand(hand_id=hand_id, stacks=stacks, rake=rake):
            if state.hand_id != hand_id:
                raise DomainError("no_hand_in_progress", "That hand is not running at this table.")
            return [HandEnded(c.table_id, hand_id, tuple(SeatStack(s, v) for s, v in stacks), rake)]
    raise TypeError(f"unknown command {command!r}")


def evolve(state: TableState | None, event: DomainEvent) -> TableState | None:
    """The table after ``event``."""
    if isinstance(event, TableOpened):
        return TableState(config=event)
    if state is None:
        raise ValueError(f"{event.TYPE} before TableOpened")
    match event:
        case PlayerSeated(seat=seat, player_id=player_id, buy_in=buy_in):
            seated = sorted((*state.seats, Seat(seat, player_id, buy_in)), key=lambda s: s.seat)
            return replace(state, seats=tuple(seated))
        case PlayerCashedOut(seat=seat):
            left = tuple(s for s in state.seats if s.seat != seat)
            # An empty table ends the game: the next one starts with a new button draw.
            return replace(state, seats=left, button_seat=state.button_seat if left else None)
        case HandBegan(hand_id=hand_id, button_seat=button):
            return replace(state, hand_id=hand_id, button_seat=button)
        case HandEnded(stacks=stacks):
            after = {s.seat: s.stack for s in stacks}
            seats = tuple(replace(s, stack=after.get(s.seat, s.stack)) for s in state.seats)
            return replace(state, seats=seats, hand_id=None, hands_played=state.hands_played + 1)
    return state
