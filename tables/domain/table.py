"""The table aggregate: seats and stacks between hands, and which hand is running.

Pure Python (no Django): ``decide(state, command) -> events`` and ``evolve(state, event)``.
Every chip that reaches or leaves a seat outside a hand passes through here.

Rules: SEAT-3 (2-10 seats), BI-1 (seating is a staff action), BI-3/BI-4/BI-5 (buy-in
limits; a floor override with a reason), BI-6 (nothing added or removed during a hand;
top-ups between hands, never above the maximum), BI-7 (a sidebet winner with no chips must
re-buy the minimum), BI-10 (one seat per player; across tables the service checks the
projection), SES-2/3/4 (transfers keep the whole stack, same game and stakes, no buy-in
limits), SES-5 (a cash-out takes the whole stack), SES-7 (returning players: the service
passes the minimum it found), RAKE-5 (sidebets settle only between hands), RAKE-6
(refreshments from the stack, not in a hand, up to the limit), BI-9 (chip loans and gifts
only if nobody objects; the objection is recorded), SES-6 (partial cash-out only as an
audited floor exception), SEAT-1/SEAT-4 (button).

Button, blinds and entry (:mod:`tables.domain.blinds` plans each hand): SEAT-5 dead button
or SEAT-6 forward button (``button_rule``), SEAT-10/SEAT-11 heads-up placement, SEAT-15 vs
SES-1 new players in a running game (``cash_new_player_entry``), SEAT-16 sitting out and
missed blinds (``SitOut`` / ``SitIn``; ``missed_blind_sb_dead``), SES-2 (a transferred player
plays at once). ``HandBegan`` names the blinds, the owed posts, the players waiting for the
big blind and the blinds missed, so ``evolve`` only applies it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from casino.domain_events import DomainEvent
from casino.errors import DomainError
from tables.cash_events import (
    ChipGiftBlocked,
    ChipsGiven,
    ChipsToppedUp,
    DealerFeePaid,
    PartialCashOut,
    PlayerSatIn,
    PlayerSatOut,
    PlayerTransferredIn,
    PlayerTransferredOut,
    RefreshmentPaid,
    SidebetRecorded,
    SidebetSettled,
    TableClosed,
    TableLimitsChanged,
)
from tables.domain import blinds, rulings, showdown_procedure
from tables.domain.blinds import (
    ACTIVE,
    BUTTON_RULES,
    ENTRY_RULES,
    NEW,
    SITTING_OUT,
    WAIT_OR_POST_BOTH,
    WAITING,
    HandPlan,
    LastBlinds,
    NotEnoughPlayers,
    SeatStatus,
)
from tables.domain.commands import StartHand
from tables.domain.hand_state import ANTE_TYPES, GAMES, MIN_RAISE_RULES
from tables.domain.seating import MAX_SEATS, blind_seats
from tables.domain.seating import next_button as next_button  # callers use table.next_button
from tables.events import (
    DealtInSeat,
    HandBegan,
    HandEnded,
    PlayerCashedOut,
    PlayerSeated,
    SeatBlind,
    SeatChanged,
    SeatInHand,
    SeatStack,
    ShuffleRecorded,
    StacksCorrected,
    TableOpened,
    TournamentChipsAdded,
    TournamentPlayerSeated,
    TournamentPlayerUnseated,
)

CASH, TOURNAMENT = "cash", "tournament"
SHOW_POKER = "SHOW"
TABLE_GAMES = (*GAMES, SHOW_POKER)
"""Games a table deals: the hand engine's (NLH, PLO, FLH) and Show poker (its own
aggregate, :mod:`tables.domain.show_poker`; hands through ``/show-hands/``)."""
MODES = (CASH, TOURNAMENT)


@dataclass(frozen=True, slots=True)
class Seat:
    """An occupied seat. ``must_rebuy``: the player won a sidebet with no chips left and
    is dealt in again only after a re-buy of at least the minimum (BI-7).

    ``status`` is ``active``, ``new`` (sat down in a running game at a
    ``wait_or_post_both`` table, first hand to come), ``waiting`` (for the big blind) or
    ``sitting_out`` (see :mod:`tables.domain.blinds`). ``post``: he chose to post what he
    owes to play at once (SEAT-15/16). ``missed_small_blind`` / ``missed_big_blind``: blinds
    that passed him while he sat out (or both, for a new player between the button and the
    big blind), owed until he is dealt in (SEAT-16)."""

    seat: int
    player_id: int
    stack: int
    must_rebuy: bool = False
    status: str = ACTIVE
    post: bool = False
    missed_small_blind: bool = False
    missed_big_blind: bool = False

    @property
    def owes(self) -> bool:
        return self.missed_small_blind or self.missed_big_blind


@dataclass(frozen=True, slots=True)
class OpenSidebet:
    sidebet_id: str
    player_a: int
    player_b: int
    amount: int


@dataclass(frozen=True, slots=True)
class TableState:
    """A table as its stream says. ``seats`` in seat order; ``hand_id`` of the running hand
    and ``in_hand`` the seats dealt into it. ``button_seat``, ``small_blind_seat`` (the
    small blind's position, posted or dead) and ``big_blind_seat`` are the last hand's, all
    ``None`` when no hand was dealt since the table was empty."""

    config: TableOpened
    seats: tuple[Seat, ...] = ()
    button_seat: int | None = None
    hand_id: str | None = None
    in_hand: tuple[int, ...] = ()
    hands_played: int = 0
    sidebets: tuple[OpenSidebet, ...] = ()
    closed: bool = False
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None

    def seat(self, number: int) -> Seat | None:
        return next((s for s in self.seats if s.seat == number), None)

    def seat_of(self, player_id: int) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    @property
    def dealt_in_seats(self) -> tuple[Seat, ...]:
        """Seats that can be dealt in: seated with chips, no re-buy owed (whether they are
        dealt the next hand also depends on their status: :func:`plan_next_hand`)."""
        return tuple(s for s in self.seats if s.stack > 0 and not s.must_rebuy)


# --- commands --------------------------------------------------------------------------


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

CASH_ONLY = (
    SeatPlayer,
    CashOut,
    TopUp,
    PayRefreshment,
    ChangeLimits,
    TransferOut,
    TransferIn,
    RecordSidebet,
    SettleSidebet,
    GiveChips,
    TakePartialCashOut,
    PayDealerFee,
    CorrectStacks,
    ChangeSeat,
    SitOut,
    SitIn,
)
"""Commands of the cash game: refused at a tournament table, where seats, stacks and
blinds come from the tournament (an absent player is dealt in and posts, so nobody sits
out)."""


def buy_in_rule(config: TableOpened) -> str:
    """Catalogue rule that sets this table's buy-in limits (BI-3, BI-4 or BI-5)."""
    if config.game == "NLH" and (config.small_blind, config.big_blind) == (10, 20):
        return "BI-3"
    if config.game == "NLH" and (config.small_blind, config.big_blind) == (25, 50):
        return "BI-4"
    return "BI-5"


def same_game(a: TableOpened, b: TableOpened) -> bool:
    """Same game and stakes: a transfer keeps the stack only between such tables (SES-3)."""
    return (a.game, a.small_blind, a.big_blind, a.ante, a.ante_type) == (
        b.game,
        b.small_blind,
        b.big_blind,
        b.ante,
        b.ante_type,
    )


def _validate_config(c: TableOpened) -> None:
    problems = []
    if c.game not in TABLE_GAMES:
        problems.append(f"game must be one of {TABLE_GAMES}")
    if c.ante_type not in ANTE_TYPES:
        problems.append(f"ante_type must be one of {ANTE_TYPES}")
    if c.min_raise_rule not in MIN_RAISE_RULES:
        problems.append(f"min_raise_rule must be one of {MIN_RAISE_RULES}")
    if not (0 < c.small_blind <= c.big_blind):
        problems.append("blinds must satisfy 0 < small_blind <= big_blind")
    if c.ante < 0 or (c.ante_type == "none") != (c.ante == 0):
        problems.append("ante must be positive exactly when ante_type is not 'none'")
    if c.mode == CASH and not (0 < c.buy_in_min <= c.buy_in_max):
        problems.append("buy-in limits must satisfy 0 < buy_in_min <= buy_in_max")
    if not (0 <= c.rake_percent_bp <= 10_000) or c.rake_cap < 0:
        problems.append("rake must be 0-10000 basis points with a cap >= 0")
    if not (2 <= c.max_seats <= MAX_SEATS):
        problems.append(f"max_seats must be 2-{MAX_SEATS}")
    if c.button_rule not in BUTTON_RULES:
        problems.append(f"button_rule must be one of {BUTTON_RULES}")
    if c.cash_new_player_entry not in ENTRY_RULES:
        problems.append(f"cash_new_player_entry must be one of {ENTRY_RULES}")
    if c.mode not in MODES:
        problems.append(f"mode must be one of {MODES}")
    if c.clock_expiry not in ("dead_hand", "fold_or_check"):
        problems.append("clock_expiry must be dead_hand or fold_or_check")
    if c.hand_closed_by not in HAND_CLOSED_BY:
        problems.append(f"hand_closed_by must be one of {HAND_CLOSED_BY}")
    if c.mode == TOURNAMENT and (c.tournament_id is None or c.rake_percent_bp or c.rake_cap):
        problems.append("a tournament table names its tournament and takes no rake")
    if problems:
        raise DomainError("invalid_table_config", "; ".join(problems), rule="SEAT-3")


def _occupant(state: TableState, seat: int) -> Seat:
    occupant = state.seat(seat)
    if occupant is None:
        raise DomainError("seat_empty", f"Seat {seat} is empty.", seat=seat)
    return occupant


def _not_in_hand(state: TableState, seat: int, rule: str = "BI-6") -> None:
    if state.hand_id is not None and seat in state.in_hand:
        raise DomainError(
            "hand_in_progress",
            "Chips cannot reach or leave a seat during its hand; wait until it ends.",
            rule=rule,
            hand_id=state.hand_id,
            seat=seat,
        )


def _free_seat(state: TableState, seat: int) -> None:
    c = state.config
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


def _check_payment(paid_with: str) -> None:
    if paid_with not in PAYMENT_METHODS:
        raise DomainError(
            "invalid_payment", f"paid_with must be one of {PAYMENT_METHODS}.", paid_with=paid_with
        )


def _limits_error(code: str, detail: str, rule: str, **context: object) -> DomainError:
    return DomainError(code, detail, rule=rule, **context)


def _decide_seat(state: TableState, cmd: SeatPlayer) -> list[DomainEvent]:
    c = state.config
    _free_seat(state, cmd.seat)
    if state.seat_of(cmd.player_id) is not None:
        raise DomainError(
            "player_already_seated",
            "The player already has a seat at this table.",
            rule="BI-10",
            player_id=cmd.player_id,
        )
    limits = {"buy_in": cmd.buy_in, "buy_in_min": c.buy_in_min, "buy_in_max": c.buy_in_max}
    if cmd.returning_minimum and cmd.buy_in < cmd.returning_minimum:
        raise _limits_error(
            "buy_in_below_returning_minimum",
            f"The player left this game within the return window with "
            f"{cmd.returning_minimum}; he must buy in for at least that.",
            "SES-7",
            amount_required=cmd.returning_minimum,
            **limits,
        )
    if cmd.buy_in < c.buy_in_min:
        raise _limits_error(
            "buy_in_below_minimum",
            f"The minimum buy-in at this table is {c.buy_in_min}.",
            buy_in_rule(c),
            **limits,
        )
    ceiling = c.buy_in_max
    if cmd.return_overrides_max:
        ceiling = max(ceiling, cmd.returning_minimum)
    if cmd.buy_in > ceiling:
        raise _limits_error(
            "buy_in_above_maximum",
            f"The maximum buy-in at this table is {ceiling}.",
            buy_in_rule(c),
            **limits,
        )
    _check_payment(cmd.paid_with)
    return [PlayerSeated(c.table_id, cmd.seat, cmd.player_id, cmd.buy_in, cmd.paid_with)]


def _decide_top_up(state: TableState, cmd: TopUp) -> list[DomainEvent]:
    c = state.config
    occupant = _occupant(state, cmd.seat)
    _not_in_hand(state, cmd.seat)
    if cmd.amount <= 0:
        raise DomainError("invalid_amount", "A top-up must be a positive amount.")
    context = {
        "amount": cmd.amount,
        "stack": occupant.stack,
        "buy_in_min": c.buy_in_min,
        "buy_in_max": c.buy_in_max,
    }
    # BI-7: a broke player re-buys at least the minimum buy-in; side-bet winnings (the whole
    # stack of a player who won a side bet with no chips) are not table chips, so they count
    # toward neither limit: the re-buy itself is between the minimum and the maximum.
    if (occupant.must_rebuy or occupant.stack == 0) and cmd.amount < c.buy_in_min:
        raise DomainError(
            "rebuy_below_minimum",
            f"A player with no table chips must re-buy at least {c.buy_in_min}; side-bet "
            f"winnings are not table chips.",
            rule="BI-7",
            **context,
        )
    table_chips = 0 if occupant.must_rebuy else occupant.stack
    if table_chips + cmd.amount > c.buy_in_max:
        raise DomainError(
            "top_up_above_maximum",
            f"A top-up may bring the stack to at most {c.buy_in_max}.",
            rule="BI-6",
            **context,
        )
    _check_payment(cmd.paid_with)
    return [ChipsToppedUp(c.table_id, cmd.seat, occupant.player_id, cmd.amount, cmd.paid_with)]


def _decide_refreshment(state: TableState, cmd: PayRefreshment) -> list[DomainEvent]:
    occupant = _occupant(state, cmd.seat)
    _not_in_hand(state, cmd.seat, rule="RAKE-6")
    context = {"amount": cmd.amount, "limit": cmd.limit, "stack": occupant.stack}
    if cmd.amount <= 0:
        raise DomainError("invalid_amount", "The amount must be positive.", rule="RAKE-6")
    if cmd.amount > cmd.limit:
        raise DomainError(
            "refreshment_above_limit",
            f"Refreshments paid with chips are limited to {cmd.limit}.",
            rule="RAKE-6",
            **context,
        )
    if cmd.amount > occupant.stack:
        raise DomainError(
            "amount_exceeds_stack", "The stack is smaller than that.", rule="RAKE-6", **context
        )
    return [RefreshmentPaid(state.config.table_id, cmd.seat, occupant.player_id, cmd.amount)]


def _decide_transfer_out(state: TableState, cmd: TransferOut) -> list[DomainEvent]:
    c = state.config
    occupant = _occupant(state, cmd.seat)
    _not_in_hand(state, cmd.seat, rule="SES-4")
    if cmd.to_table.table_id == c.table_id:
        raise DomainError("transfer_to_same_table", "Choose another table.", rule="SES-4")
    if not same_game(c, cmd.to_table):
        raise DomainError(
            "transfer_game_mismatch",
            "A transfer keeps the stack only to a table of the same game and stakes; "
            "cash out and buy in instead.",
            rule="SES-3",
            to_table_id=cmd.to_table.table_id,
        )
    return [
        PlayerTransferredOut(
            c.table_id, cmd.seat, occupant.player_id, occupant.stack, cmd.to_table.table_id
        )
    ]


def _decide_transfer_in(state: TableState, cmd: TransferIn) -> list[DomainEvent]:
    c = state.config
    if state.closed:
        raise DomainError("table_closed", "The table is closed.")
    _free_seat(state, cmd.seat)
    if state.seat_of(cmd.player_id) is not None:
        raise DomainError("player_already_seated", "The player already sits here.", rule="BI-10")
    if not same_game(c, cmd.from_table):
        raise DomainError(
            "transfer_game_mismatch",
            "A transfer keeps the stack only to a table of the same game and stakes.",
            rule="SES-3",
        )
    return [
        PlayerTransferredIn(c.table_id, cmd.seat, cmd.player_id, cmd.stack, cmd.from_table.table_id)
    ]


def _decide_sidebet(state: TableState, cmd: RecordSidebet) -> list[DomainEvent]:
    for player in (cmd.player_a, cmd.player_b):
        if state.seat_of(player) is None:
            raise DomainError(
                "player_not_at_table",
                "Both players of a sidebet must be seated at the table.",
                rule="RAKE-5",
                player_id=player,
            )
    if cmd.player_a == cmd.player_b or cmd.amount <= 0:
        raise DomainError(
            "invalid_sidebet", "A sidebet is between two players for a positive amount."
        )
    if any(b.sidebet_id == cmd.sidebet_id for b in state.sidebets):
        raise DomainError("sidebet_exists", "That sidebet is already recorded.")
    return [
        SidebetRecorded(
            state.config.table_id,
            cmd.sidebet_id,
            cmd.player_a,
            cmd.player_b,
            cmd.amount,
            cmd.description,
        )
    ]


def _decide_settle(state: TableState, cmd: SettleSidebet) -> list[DomainEvent]:
    bet = next((b for b in state.sidebets if b.sidebet_id == cmd.sidebet_id), None)
    if bet is None:
        raise DomainError("sidebet_not_found", "No open sidebet with that id.")
    if cmd.winner not in (bet.player_a, bet.player_b):
        raise DomainError("invalid_winner", "The winner must be one of the two players.")
    if state.hand_id is not None:
        raise DomainError(
            "hand_in_progress",
            "Sidebet chips change hands only after the hand has ended.",
            rule="RAKE-5",
            hand_id=state.hand_id,
        )
    loser = bet.player_b if cmd.winner == bet.player_a else bet.player_a
    loser_seat, winner_seat = state.seat_of(loser), state.seat_of(cmd.winner)
    if loser_seat is None or winner_seat is None:
        raise DomainError(
            "player_not_at_table", "Both players must still be seated.", rule="RAKE-5"
        )
    if loser_seat.stack < bet.amount:
        raise DomainError(
            "amount_exceeds_stack",
            "The loser's stack does not cover the sidebet.",
            rule="RAKE-5",
            stack=loser_seat.stack,
            amount=bet.amount,
        )
    return [
        SidebetSettled(
            state.config.table_id,
            bet.sidebet_id,
            cmd.winner,
            loser,
            bet.amount,
            winner_must_rebuy=winner_seat.stack == 0,
        )
    ]


def _decide_gift(state: TableState, cmd: GiveChips) -> list[DomainEvent]:
    giver, taker = _occupant(state, cmd.from_seat), _occupant(state, cmd.to_seat)
    if not cmd.allowed:
        raise DomainError(
            "chip_transfer_not_allowed", "Chips may not change hands in this game.", rule="BI-9"
        )
    if giver.seat == taker.seat or cmd.amount <= 0:
        raise DomainError("invalid_chip_transfer", "Give a positive amount to another seat.")
    for seat in (cmd.from_seat, cmd.to_seat):
        _not_in_hand(state, seat)
    if cmd.amount > giver.stack:
        raise DomainError(
            "amount_exceeds_stack",
            "The stack is smaller than that.",
            rule="BI-8",
            stack=giver.stack,
            amount=cmd.amount,
        )
    others = tuple(s.seat for s in state.seats if s.seat not in (cmd.from_seat, cmd.to_seat))
    strangers = [seat for seat in cmd.objected_by if seat not in others]
    if strangers:
        raise DomainError(
            "objection_from_outside",
            "Only the other players at the table can object.",
            rule="BI-9",
            seats=strangers,
        )
    c = state.config
    if cmd.objected_by:  # not a refusal: the request and the objection are the record
        return [
            ChipGiftBlocked(
                c.table_id, cmd.from_seat, cmd.to_seat, cmd.amount, tuple(sorted(cmd.objected_by))
            )
        ]
    return [ChipsGiven(c.table_id, cmd.from_seat, cmd.to_seat, cmd.amount, others)]


def _decide_partial(state: TableState, cmd: TakePartialCashOut) -> list[DomainEvent]:
    occupant = _occupant(state, cmd.seat)
    if not cmd.floor_override:
        raise DomainError(
            "partial_cash_out_not_allowed",
            "A player cashes out his whole stack; only the floor may make an exception.",
            rule="SES-5",
        )
    if not cmd.reason.strip():
        raise DomainError("partial_cash_out_needs_reason", "The floor must say why.", rule="SES-6")
    _not_in_hand(state, cmd.seat)
    if not 0 < cmd.amount < occupant.stack:
        raise DomainError(
            "invalid_amount",
            "A partial cash-out leaves chips on the table; to leave, cash out.",
            rule="SES-6",
            amount=cmd.amount,
            stack=occupant.stack,
        )
    return [
        PartialCashOut(
            state.config.table_id,
            cmd.seat,
            occupant.player_id,
            cmd.amount,
            cmd.approved_by,
            cmd.reason.strip(),
        )
    ]


def _last_blinds(state: TableState) -> LastBlinds | None:
    if state.button_seat is None:
        return None
    return LastBlinds(state.button_seat, state.small_blind_seat, state.big_blind_seat)


def plan_next_hand(state: TableState, drawn_button: int | None = None) -> HandPlan:
    """Who the next hand would deal in, the button, the blinds, the owed posts and the
    players waiting (for the tablet to show before dealing, e.g. to ask a new player
    between the button and the big blind whether he posts or waits).

    Raises:
        DomainError ``not_enough_players`` (SEAT-3).
    """
    seats = [
        SeatStatus(
            seat=s.seat,
            status=s.status,
            can_play=s.stack > 0 and not s.must_rebuy,
            post=s.post,
            missed_small_blind=s.missed_small_blind,
            missed_big_blind=s.missed_big_blind,
        )
        for s in state.seats
    ]
    try:
        return blinds.plan_hand(
            seats,
            _last_blinds(state),
            button_rule=state.config.button_rule,
            missed_blind_sb_dead=state.config.missed_blind_sb_dead,
            drawn_button=drawn_button,
            max_seats=state.config.max_seats,
        )
    except NotEnoughPlayers as short:
        raise DomainError(
            "not_enough_players",
            "A hand needs at least two seated players with chips who are not sitting out"
            " or waiting for the big blind.",
            rule="SEAT-3",
            players=short.players,
        ) from None


def _decide_begin(state: TableState, cmd: BeginHand) -> list[DomainEvent]:
    c = state.config
    if state.hand_id is not None:
        raise DomainError(
            "hand_in_progress",
            "The previous hand is not finished.",
            rule="BI-6",
            hand_id=state.hand_id,
        )
    drawn = cmd.button_seat
    if drawn is not None and state.button_seat is None:
        players = plan_next_hand(state).dealt_in
        if drawn not in players:
            raise DomainError(
                "button_seat_not_in_hand",
                f"The button must be on a seat dealt in: {list(players)}.",
                rule="SEAT-1",
                button_seat=drawn,
            )
        plan = plan_next_hand(state, drawn)
    else:
        plan = plan_next_hand(state)
        if drawn is not None and drawn != plan.button_seat:
            rule = "SEAT-5" if c.button_rule == blinds.DEAD_BUTTON else "SEAT-4"
            raise DomainError(
                "button_out_of_turn",
                f"The button moves by itself, to seat {plan.button_seat}.",
                rule=rule,
                button_seat=drawn,
                expected_button_seat=plan.button_seat,
            )
    by_seat = {s.seat: s for s in state.seats}
    posts = [SeatBlind(plan.big_blind_seat, "big_blind")]
    if plan.small_blind_seat is not None:
        posts.insert(0, SeatBlind(plan.small_blind_seat, "small_blind"))
    posts += [SeatBlind(seat, kind) for seat, kind in plan.posts]
    return [
        HandBegan(
            c.table_id,
            cmd.hand_id,
            state.hands_played + 1,
            plan.button_seat,
            tuple(
                DealtInSeat(seat, by_seat[seat].player_id, by_seat[seat].stack)
                for seat in plan.dealt_in
            ),
            small_blind_seat=plan.small_blind_seat,
            big_blind_seat=plan.big_blind_seat,
            dead_small_blind_seat=plan.dead_small_blind_seat,
            posts=tuple(posts),
            waiting_seats=plan.waiting,
            missed_blinds=tuple(SeatBlind(seat, kind) for seat, kind in plan.missed),
        )
    ]


def start_hand_command(
    began: HandBegan,
    config: TableOpened,
    *,
    straddles: tuple[int, ...] = (),
    misdeal_action_threshold: int = 2,
    misdeal_counts_passive_actions: bool = True,
    misdeal_allowed_after_flop: bool = False,
    stakes: Stakes | None = None,
) -> StartHand:
    """The hand engine's :class:`StartHand` for a ``HandBegan`` of this table: the seats,
    button, blinds and owed posts it names, with the table's rake and mode and its stakes
    (or ``stakes``: a tournament's level when the hand starts, CLK-2)."""
    stakes = stakes or Stakes(config.small_blind, config.big_blind, config.ante, config.ante_type)
    owed: dict[str, list[int]] = {"dead_sb": [], "posted_bb": [], "posted_sb": []}
    for post in began.posts:
        if post.kind in owed:
            owed[post.kind].append(post.seat)
    return StartHand(
        hand_id=began.hand_id,
        table_id=began.table_id,
        hand_number=began.hand_number,
        button_seat=began.button_seat,
        seats=tuple(SeatInHand(s.seat, str(s.player_id), s.stack) for s in began.seats),
        small_blind=stakes.small_blind,
        big_blind=stakes.big_blind,
        game=config.game,  # type: ignore[arg-type]
        ante=stakes.ante,
        ante_type=stakes.ante_type,  # type: ignore[arg-type]
        min_raise_rule=config.min_raise_rule,  # type: ignore[arg-type]
        rake_percent_bp=config.rake_percent_bp,
        rake_cap=config.rake_cap,
        no_flop_no_drop=config.no_flop_no_drop,
        mode=config.mode,  # type: ignore[arg-type]
        straddles=straddles,
        misdeal_action_threshold=misdeal_action_threshold,
        misdeal_counts_passive_actions=misdeal_counts_passive_actions,
        misdeal_allowed_after_flop=misdeal_allowed_after_flop,
        small_blind_seat=began.small_blind_seat,
        big_blind_seat=began.big_blind_seat,
        dead_small_blinds=tuple(owed["dead_sb"]),
        posted_big_blinds=tuple(owed["posted_bb"]),
        posted_small_blinds=tuple(owed["posted_sb"]),
        limit_cap_lifted_heads_up=limit_cap_lifted_heads_up(config),
        all_in_face_up=showdown_procedure.all_in_face_up(
            mode=config.mode,  # type: ignore[arg-type]
            allin_faceup_in_cash=config.allin_faceup_in_cash,
        )
        is not None,
    )


def limit_cap_lifted_heads_up(config: TableOpened) -> bool:
    """Fixed limit: whether the raise cap is lifted heads-up (BET-6) or kept (BET-5): the
    table's setting, else BET-6 at cash tables and BET-5 in tournaments."""
    if config.limit_cap_lifted_heads_up is not None:
        return config.limit_cap_lifted_heads_up
    return config.mode != TOURNAMENT


def _decide_sit_out(state: TableState, cmd: SitOut) -> list[DomainEvent]:
    occupant = _occupant(state, cmd.seat)
    if occupant.status == SITTING_OUT:
        raise DomainError(
            "already_sitting_out", f"Seat {cmd.seat} is sitting out.", rule="SEAT-16", seat=cmd.seat
        )
    return [PlayerSatOut(state.config.table_id, cmd.seat, occupant.player_id)]


def _decide_sit_in(state: TableState, cmd: SitIn) -> list[DomainEvent]:
    occupant = _occupant(state, cmd.seat)
    status = occupant.status
    if status == ACTIVE or (status == NEW and not cmd.post):
        raise DomainError(
            "not_sitting_out",
            f"Seat {cmd.seat} is not sitting out or waiting for the big blind.",
            rule="SEAT-16",
            seat=cmd.seat,
            status=status,
        )
    if status == SITTING_OUT and cmd.post and not occupant.owes:
        raise DomainError(
            "nothing_owed",
            "No blind passed this seat while the player was away: he sits in without posting.",
            rule="SEAT-16",
            seat=cmd.seat,
        )
    if status == WAITING and not cmd.post and not occupant.post:
        raise DomainError(
            "must_wait_for_big_blind",
            "The player waits for the big blind; to play before it he must post the small"
            " blind (dead) and the big blind.",
            rule="SEAT-16",
            seat=cmd.seat,
            missed_small_blind=occupant.missed_small_blind,
            missed_big_blind=occupant.missed_big_blind,
        )
    return [
        PlayerSatIn(
            state.config.table_id,
            cmd.seat,
            occupant.player_id,
            cmd.post,
            owes_small_blind=occupant.missed_small_blind,
            owes_big_blind=occupant.missed_big_blind,
        )
    ]


def decide(state: TableState | None, command: Command) -> list[DomainEvent]:
    """Events that ``command`` causes at this table.

    Raises:
        DomainError: ``table_already_open``, ``table_not_open``, ``table_closed``,
            ``invalid_table_config``, ``seat_out_of_range`` (SEAT-3), ``seat_occupied``
            (BI-1), ``player_already_seated`` (BI-10), ``buy_in_below_minimum`` /
            ``buy_in_above_maximum`` (BI-3/BI-4/BI-5), ``buy_in_below_returning_minimum``
            (SES-7), ``seat_empty``, ``hand_in_progress`` (BI-6, RAKE-5, RAKE-6, SES-4),
            ``top_up_above_maximum`` (BI-6), ``rebuy_below_minimum`` (BI-7),
            ``refreshment_above_limit`` (RAKE-6), ``transfer_game_mismatch`` (SES-3),
            ``table_not_empty``, ``limit_change_needs_reason`` (BI-5), sidebet codes
            (RAKE-5), ``not_enough_players`` (SEAT-3), ``button_out_of_turn`` (SEAT-4, or
            SEAT-5 with the dead button), ``no_hand_in_progress``, ``already_sitting_out``,
            ``not_sitting_out``, ``nothing_owed``, ``must_wait_for_big_blind`` (SEAT-16).
    """
    if isinstance(command, OpenTable):
        if state is not None:
            raise DomainError("table_already_open", "This table is already open.")
        _validate_config(command.config)
        return [command.config]
    if state is None:
        raise DomainError("table_not_open", "The table is not open.")
    if state.closed and not isinstance(command, CashOut | TransferOut):
        raise DomainError("table_closed", "The table is closed.", table_id=state.config.table_id)
    c = state.config
    if c.mode == TOURNAMENT and isinstance(command, CASH_ONLY):
        raise DomainError(
            "tournament_table",
            "Seats, stacks and blinds at a tournament table come from the tournament.",
            table_id=c.table_id,
            tournament_id=c.tournament_id,
        )
    if c.mode == CASH and isinstance(command, SeatEntrant | UnseatEntrant | AddEntrantChips):
        raise DomainError("not_a_tournament_table", "This is a cash table.", table_id=c.table_id)
    match command:
        case SeatPlayer():
            return _decide_seat(state, command)
        case SeatEntrant(
            seat=seat, player_id=player_id, stack=stack, reason=reason, wait_for_big_blind=wait
        ):
            _free_seat(state, seat)
            if state.seat_of(player_id) is not None or stack <= 0:
                raise DomainError(
                    "invalid_tournament_seat",
                    "The player is already at this table, or has no chips.",
                    player_id=player_id,
                    stack=stack,
                )
            return [
                TournamentPlayerSeated(
                    c.table_id, seat, player_id, stack, c.tournament_id or 0, reason, wait
                )
            ]
        case AddEntrantChips(seat=seat, chips=chips, reason=reason):
            occupant = _occupant(state, seat)
            _not_in_hand(state, seat, rule="TREG-14")
            if chips <= 0:
                raise DomainError("invalid_chips", "Chips added must be positive.", chips=chips)
            return [
                TournamentChipsAdded(
                    c.table_id, seat, occupant.player_id, chips, c.tournament_id or 0, reason
                )
            ]
        case UnseatEntrant(seat=seat, reason=reason):
            occupant = _occupant(state, seat)
            _not_in_hand(state, seat, rule="TSEAT-3")
            return [
                TournamentPlayerUnseated(
                    c.table_id,
                    seat,
                    occupant.player_id,
                    occupant.stack,
                    c.tournament_id or 0,
                    reason,
                )
            ]
        case CashOut(seat=seat):
            occupant = _occupant(state, seat)
            _not_in_hand(state, seat)
            return [PlayerCashedOut(c.table_id, seat, occupant.player_id, occupant.stack)]
        case TopUp():
            return _decide_top_up(state, command)
        case PayRefreshment():
            return _decide_refreshment(state, command)
        case ChangeLimits(buy_in_min=low, buy_in_max=high, reason=reason, changed_by=actor):
            if not reason.strip():
                raise DomainError(
                    "limit_change_needs_reason",
                    "The floor must say why the limits change.",
                    rule="BI-5",
                )
            _validate_config(replace(c, buy_in_min=low, buy_in_max=high))
            return [TableLimitsChanged(c.table_id, low, high, reason.strip(), actor)]
        case TransferOut():
            return _decide_transfer_out(state, command)
        case TransferIn():
            return _decide_transfer_in(state, command)
        case CloseTable(reason=reason):
            if state.seats or state.hand_id is not None:
                raise DomainError(
                    "table_not_empty",
                    "Move or cash out every player before closing the table.",
                    seats=[s.seat for s in state.seats],
                )
            return [TableClosed(c.table_id, reason)]
        case RecordSidebet():
            return _decide_sidebet(state, command)
        case SettleSidebet():
            return _decide_settle(state, command)
        case GiveChips():
            return _decide_gift(state, command)
        case TakePartialCashOut():
            return _decide_partial(state, command)
        case PayDealerFee(seat=seat, amount=amount, hand_id=hand_id):
            occupant = _occupant(state, seat)
            _not_in_hand(state, seat, rule="RAKE-8")
            if not 0 < amount <= occupant.stack:
                raise DomainError(
                    "invalid_fee",
                    "The fee must be positive and covered by the stack.",
                    rule="RAKE-8",
                    amount=amount,
                    stack=occupant.stack,
                )
            return [DealerFeePaid(c.table_id, seat, occupant.player_id, amount, hand_id)]
        case CorrectStacks():
            return _decide_correction(state, command)
        case ChangeSeat():
            return _decide_seat_change(state, command)
        case RecordShuffle(step=step):
            if step not in SHUFFLE_STEPS:
                raise DomainError("invalid_shuffle_step", "first_riffle or cut.", rule="SD-25")
            if state.hand_id is not None:
                raise DomainError(
                    "hand_in_progress", "The next shuffle starts after the hand.", rule="SD-25"
                )
            return [ShuffleRecorded(c.table_id, step)]
        case BeginHand():
            return _decide_begin(state, command)
        case SitOut():
            return _decide_sit_out(state, command)
        case SitIn():
            return _decide_sit_in(state, command)
        case EndHand(hand_id=hand_id, stacks=stacks, rake=rake):
            if state.hand_id != hand_id:
                raise DomainError("no_hand_in_progress", "That hand is not running at this table.")
            return [HandEnded(c.table_id, hand_id, tuple(SeatStack(s, v) for s, v in stacks), rake)]
    raise TypeError(f"unknown command {command!r}")


def _decide_seat_change(state: TableState, cmd: ChangeSeat) -> list[DomainEvent]:
    """SEAT-17: between his hands a player takes an empty seat of the same game; further
    from the big blind he waits until the big blind reaches him (or posts), closer to it he
    plays at once (:func:`tables.domain.rulings.seat_change_entry`)."""
    occupant = _occupant(state, cmd.seat)
    _not_in_hand(state, cmd.seat, rule="SEAT-17")
    _free_seat(state, cmd.new_seat)
    waits = False
    if state.big_blind_seat is not None and occupant.status != SITTING_OUT:
        occupied = [s.seat for s in state.seats]
        entry = rulings.seat_change_entry(
            old_seat=cmd.seat, new_seat=cmd.new_seat, big_blind_seat=state.big_blind_seat,
            seats=[*occupied, state.big_blind_seat],
        )  # fmt: skip
        waits = entry == "wait_or_post"
    return [SeatChanged(state.config.table_id, cmd.seat, cmd.new_seat, occupant.player_id, waits)]


def _decide_correction(state: TableState, cmd: CorrectStacks) -> list[DomainEvent]:
    """SD-24: the chips of an upheld dispute move between the same players' stacks, never
    during a hand they are in and never below zero."""
    c = state.config
    players = dict(cmd.players)
    moved = []
    for seat, amount in cmd.adjustments:
        occupant = state.seat(seat)
        if occupant is None or occupant.player_id != players.get(seat):
            raise DomainError(
                "player_left_table",
                "A player of the disputed hand has left this seat: settle the correction "
                "with him at the cage.",
                rule="SD-24",
                seat=seat,
            )
        _not_in_hand(state, seat, rule="SD-24")
        if occupant.stack + amount < 0:
            raise DomainError(
                "correction_exceeds_stack",
                "The correction takes more chips than the stack holds.",
                rule="SD-24",
                seat=seat,
                stack=occupant.stack,
                amount=amount,
            )
        if amount:
            moved.append(SeatStack(seat, amount))
    return [StacksCorrected(c.table_id, cmd.hand_id, tuple(moved))] if moved else []


def _with_stack(state: TableState, seat: int, delta: int, **changes: object) -> TableState:
    seats = tuple(
        replace(s, stack=s.stack + delta, **changes) if s.seat == seat else s  # type: ignore[arg-type]
        for s in state.seats
    )
    return replace(state, seats=seats)


def _sit(state: TableState, seat: Seat) -> TableState:
    return replace(state, seats=tuple(sorted((*state.seats, seat), key=lambda s: s.seat)))


def _leave(state: TableState, seat: int) -> TableState:
    left = tuple(s for s in state.seats if s.seat != seat)
    if left:
        return replace(state, seats=left)
    # An empty table ends the game: the next one starts with a new button draw.
    return replace(state, seats=left, button_seat=None, small_blind_seat=None, big_blind_seat=None)


def _entry_status(state: TableState) -> str:
    """A new player in a running game waits or posts at a ``wait_or_post_both`` table
    (SEAT-15); in a new game, or at an ``immediate_no_post`` table, he plays (SES-1)."""
    if state.config.cash_new_player_entry == WAIT_OR_POST_BOTH and state.button_seat is not None:
        return NEW
    return ACTIVE


def _hand_began(state: TableState, event: HandBegan) -> TableState:
    dealt = {s.seat for s in event.seats}
    waiting = set(event.waiting_seats)
    missed_sb = {m.seat for m in event.missed_blinds if m.kind == "small_blind"}
    missed_bb = {m.seat for m in event.missed_blinds if m.kind == "big_blind"}
    seats = []
    for s in state.seats:
        if s.seat in dealt:
            s = replace(
                s, status=ACTIVE, post=False, missed_small_blind=False, missed_big_blind=False
            )
        else:
            if s.seat in waiting:
                s = replace(s, status=WAITING)
            if s.seat in missed_sb or s.seat in missed_bb:
                s = replace(
                    s,
                    missed_small_blind=s.missed_small_blind or s.seat in missed_sb,
                    missed_big_blind=s.missed_big_blind or s.seat in missed_bb,
                )
        seats.append(s)
    if event.big_blind_seat is None:  # recorded before the blinds were named: by position
        sb, bb = blind_seats(event.button_seat, dealt)
    else:
        sb = event.small_blind_seat
        if sb is None:
            sb = event.dead_small_blind_seat
        bb = event.big_blind_seat
    return replace(
        state,
        seats=tuple(seats),
        hand_id=event.hand_id,
        button_seat=event.button_seat,
        small_blind_seat=sb,
        big_blind_seat=bb,
        in_hand=tuple(s.seat for s in event.seats),
    )


def _sat_out(seat: Seat) -> Seat:
    if seat.status == NEW:  # never dealt in: to play before his big blind he posts both
        return replace(
            seat, status=SITTING_OUT, post=False, missed_small_blind=True, missed_big_blind=True
        )
    return replace(seat, status=SITTING_OUT, post=False)


def _sat_in(seat: Seat, event: PlayerSatIn) -> Seat:
    if seat.status == NEW:
        return replace(seat, post=event.post)
    if event.post or seat.owes:
        return replace(seat, status=WAITING, post=event.post)
    return replace(seat, status=ACTIVE, post=False)


def _with_seat(state: TableState, number: int, change: Callable[[Seat], Seat]) -> TableState:
    return replace(state, seats=tuple(change(s) if s.seat == number else s for s in state.seats))


def evolve(state: TableState | None, event: DomainEvent) -> TableState | None:
    """The table after ``event``."""
    if isinstance(event, TableOpened):
        return TableState(config=event)
    if state is None:
        raise ValueError(f"{event.TYPE} before TableOpened")
    match event:
        case PlayerSeated(seat=seat, player_id=player_id, buy_in=buy_in):
            return _sit(state, Seat(seat, player_id, buy_in, status=_entry_status(state)))
        case PlayerTransferredIn(seat=seat, player_id=player_id, stack=stack):
            return _sit(state, Seat(seat, player_id, stack))
        case TournamentPlayerSeated(seat=seat, player_id=player_id, stack=stack):
            # SEAT-14: between the button and the big blind he waits for the big blind
            status = WAITING if event.wait_for_big_blind else ACTIVE
            return _sit(state, Seat(seat, player_id, stack, status=status))
        case (
            PlayerCashedOut(seat=seat)
            | PlayerTransferredOut(seat=seat)
            | TournamentPlayerUnseated(seat=seat)
        ):
            return _leave(state, seat)
        case (
            ChipsToppedUp(seat=seat, amount=amount) | TournamentChipsAdded(seat=seat, chips=amount)
        ):
            return _with_stack(state, seat, amount, must_rebuy=False)
        case (
            RefreshmentPaid(seat=seat, amount=amount)
            | PartialCashOut(seat=seat, amount=amount)
            | DealerFeePaid(seat=seat, amount=amount)
        ):
            return _with_stack(state, seat, -amount)
        case ChipsGiven(from_seat=giver, to_seat=taker, amount=amount):
            return _with_stack(_with_stack(state, giver, -amount), taker, amount)
        case SeatChanged(from_seat=old, to_seat=new, waits_for_big_blind=waits):
            mover = state.seat(old)
            assert mover is not None
            arrived = replace(mover, seat=new, status=WAITING if waits else mover.status)
            others = tuple(x for x in state.seats if x.seat != old)
            return _sit(replace(state, seats=others), arrived)
        case StacksCorrected(adjustments=adjustments):
            for moved in adjustments:
                state = _with_stack(state, moved.seat, moved.stack)
            return state
        case TableLimitsChanged(buy_in_min=low, buy_in_max=high):
            return replace(state, config=replace(state.config, buy_in_min=low, buy_in_max=high))
        case TableClosed():
            return replace(state, closed=True)
        case SidebetRecorded(sidebet_id=sid, player_a=a, player_b=b, amount=amount):
            return replace(state, sidebets=(*state.sidebets, OpenSidebet(sid, a, b, amount)))
        case SidebetSettled(sidebet_id=sid, winner=winner, loser=loser, amount=amount):
            won, lost = state.seat_of(winner), state.seat_of(loser)
            assert won is not None and lost is not None
            state = _with_stack(state, lost.seat, -amount)
            state = _with_stack(state, won.seat, amount, must_rebuy=event.winner_must_rebuy)
            return replace(state, sidebets=tuple(b for b in state.sidebets if b.sidebet_id != sid))
        case HandBegan():
            return _hand_began(state, event)
        case PlayerSatOut(seat=seat):
            return _with_seat(state, seat, _sat_out)
        case PlayerSatIn(seat=seat):
            return _with_seat(state, seat, lambda s: _sat_in(s, event))
        case HandEnded(stacks=stacks):
            after = {s.seat: s.stack for s in stacks}
            seats = tuple(replace(s, stack=after.get(s.seat, s.stack)) for s in state.seats)
            return replace(
                state, seats=seats, hand_id=None, in_hand=(), hands_played=state.hands_played + 1
            )
    return state
