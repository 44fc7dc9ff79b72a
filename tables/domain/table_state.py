"""The table's state between hands (:class:`TableState`: seats, stacks, sidebets, the hand
running) and the checks the table's rules share: the seat's occupant, nothing moved during a
hand (BI-6), a free seat (BI-10), the payment method, the buy-in rule (BI-3/4, SES-7) and
what counts as the same game for a transfer (SES-3). ``evolve`` is in
:mod:`tables.domain.table`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from casino.errors import DomainError
from tables.cash_events import ChipsToppedUp
from tables.domain.blinds import (
    ACTIVE,
)
from tables.domain.hand_state import GAMES
from tables.domain.seating import next_button as next_button  # callers use table.next_button
from tables.domain.table_commands import (
    PAYMENT_METHODS,
)
from tables.events import (
    StacksCorrectionDeferred,
    TableOpened,
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

    @property
    def busted(self) -> bool:
        """No chips to be dealt in with after the last hand, or a re-buy owed (BI-7): at a
        cash table the player re-buys or cashes out before he plays again. (The stacks
        here are the last settled hand's, so an all-in seat is never busted mid-hand.)"""
        return self.stack <= 0 or self.must_rebuy


@dataclass(frozen=True, slots=True)
class OpenSidebet:
    sidebet_id: str
    player_a: int
    player_b: int
    amount: int


@dataclass(frozen=True, slots=True)
class PreHand:
    """What a hand's start changed at the table, kept until it ends so that a misdeal or a
    void (MIS-1..3, MIS-6, MIS-11, MIS-12) puts it back: the hand is redealt with the same
    button and blinds, and whoever posted owed blinds in it owes them again (SEAT-16).
    ``before`` / ``after``: the seats the start changed, as they were and as it left them."""

    button_seat: int | None
    small_blind_seat: int | None
    big_blind_seat: int | None
    before: tuple[Seat, ...] = ()
    after: tuple[Seat, ...] = ()


@dataclass(frozen=True, slots=True)
class TableState:
    """A table as its stream says. ``seats`` in seat order; ``hand_id`` of the running hand
    and ``in_hand`` the seats dealt into it. ``button_seat``, ``small_blind_seat`` (the
    small blind's position, posted or dead) and ``big_blind_seat`` are the last hand's, all
    ``None`` when no hand was dealt since the table was empty. ``pre_hand``: what the
    running hand's start changed (:class:`PreHand`). ``redeal_button``: the drawn button of
    a new game whose first hand was voided, for the redeal (SEAT-1)."""

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
    pre_hand: PreHand | None = None
    redeal_button: int | None = None
    deferred_corrections: tuple[StacksCorrectionDeferred, ...] = ()
    """SD-24 corrections upheld during the running hand, moved when it ends."""
    declared_top_ups: tuple[ChipsToppedUp, ...] = ()
    """BI-6: top-ups declared by players of the running hand, paid, added when it ends."""

    def top_up_after_hand(self, seat: int) -> int:
        """CZK declared as top-ups by the player at ``seat`` during the running hand and
        not yet on his stack (BI-6); 0 when none."""
        return sum(t.amount for t in self.declared_top_ups if t.seat == seat)

    def seat(self, number: int) -> Seat | None:
        return next((s for s in self.seats if s.seat == number), None)

    def seat_of(self, player_id: int) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    @property
    def dealt_in_seats(self) -> tuple[Seat, ...]:
        """Seats that can be dealt in: seated with chips, no re-buy owed (whether they are
        dealt the next hand also depends on their status: :func:`plan_next_hand`)."""
        return tuple(s for s in self.seats if s.stack > 0 and not s.must_rebuy)


CATALOGUE_LIMITS: dict[tuple[str, int, int], tuple[str, int, int]] = {
    ("NLH", 10, 20): ("BI-3", 1000, 5000),
    ("NLH", 25, 50): ("BI-4", 2000, 10000),
}
"""The buy-in limits the catalogue sets, by (game, small blind, big blind): (rule, min, max)
in CZK."""


class BuyInLimits(Protocol):
    """A table's game, stakes and buy-in limits (CZK): :class:`TableOpened`, or its row."""

    @property
    def game(self) -> str: ...
    @property
    def small_blind(self) -> int: ...
    @property
    def big_blind(self) -> int: ...
    @property
    def buy_in_min(self) -> int: ...
    @property
    def buy_in_max(self) -> int: ...


@dataclass(frozen=True, slots=True)
class BuyInRange:
    """What a player may buy in for at a table: ``low`` to ``high`` CZK, both included;
    ``rule`` sets ``low`` (SES-7 for a returning player, else the table's BI-3/4/5). ``low``
    above ``high`` (a returning stack over the maximum where the house does not let it
    override the maximum): no buy-in fits."""

    low: int
    high: int
    rule: str


def buy_in_range(
    config: BuyInLimits, *, returning_minimum: int = 0, return_overrides_max: bool = False
) -> BuyInRange:
    """The buy-in range of a player at a table (BI-3..5; SES-7: a player back within the
    return window buys in for at least ``returning_minimum``, the stack he left with, and
    where ``return_overrides_max`` may bring more than the maximum)."""
    ceiling = config.buy_in_max
    if return_overrides_max:
        ceiling = max(ceiling, returning_minimum)
    if returning_minimum > config.buy_in_min:
        return BuyInRange(low=returning_minimum, high=ceiling, rule="SES-7")
    return BuyInRange(low=config.buy_in_min, high=ceiling, rule=buy_in_rule(config))


def buy_in_rule(config: BuyInLimits) -> str:
    """Catalogue rule that sets this table's buy-in limits: BI-3 or BI-4 when the table
    keeps the limits those rules name; BI-5 for other games and for limits the players
    agreed or the floor changed (a 10/20 table at 500 to 3,000 is not BI-3's)."""
    rule = CATALOGUE_LIMITS.get((config.game, config.small_blind, config.big_blind))
    if rule is not None and (config.buy_in_min, config.buy_in_max) == rule[1:]:
        return rule[0]
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


def seat_occupant(state: TableState, seat: int) -> Seat:
    """The player at ``seat``.

    Raises:
        DomainError ``seat_out_of_range`` (SEAT-3) for a seat the table does not have (it
            said ``seat_empty`` for seat 11 of 10, found by QA), ``seat_empty``.
    """
    _seat_in_range(state, seat)
    occupant = state.seat(seat)
    if occupant is None:
        raise DomainError("seat_empty", f"Seat {seat} is empty.", seat=seat)
    return occupant


def not_in_hand(state: TableState, seat: int, rule: str = "BI-6") -> None:
    if state.hand_id is not None and seat in state.in_hand:
        raise DomainError(
            "hand_in_progress",
            "Chips cannot reach or leave a seat during its hand; wait until it ends.",
            rule=rule,
            hand_id=state.hand_id,
            seat=seat,
        )


def _seat_in_range(state: TableState, seat: int) -> None:
    c = state.config
    if not 1 <= seat <= c.max_seats:
        raise DomainError(
            "seat_out_of_range",
            f"Seats at this table are 1 to {c.max_seats}.",
            rule="SEAT-3",
            seat=seat,
            max_seats=c.max_seats,
        )


def free_seat(state: TableState, seat: int) -> None:
    _seat_in_range(state, seat)
    if state.seat(seat) is not None:
        raise DomainError("seat_occupied", f"Seat {seat} is taken.", rule="BI-1", seat=seat)


def check_payment(paid_with: str) -> None:
    if paid_with not in PAYMENT_METHODS:
        raise DomainError(
            "invalid_payment", f"paid_with must be one of {PAYMENT_METHODS}.", paid_with=paid_with
        )


def limits_error(code: str, detail: str, rule: str, **context: object) -> DomainError:
    return DomainError(code, detail, rule=rule, **context)
