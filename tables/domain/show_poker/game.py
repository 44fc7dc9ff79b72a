"""The Show poker hand aggregate: ``decide(state, command) -> events``, ``evolve``. Pure.

Show poker (house document 001, catalogue section 19) is not a pokerkit game: players do not
bet, they *declare* hands and *buy* board cards. One hand:

1. every player dealt in posts one blind (SHOW-2) and gets four hole cards; a player
   serving a sit-out penalty posts his blind too but is not dealt in (SHOW-20..22);
   deal irregularities: a wrong card count or more than one exposed card is a misdeal
   (SHOW-5), a single exposed card becomes the first flop card (SHOW-7);
2. a three-card flop (SHOW-3); hands of absent players die at the third flop card (SHOW-4);
3. a declaration round (SHOW-9..16): from the previous street's senior declarer, else left
   of the button, each live player declares, checks or folds; a declaration that beats the
   leading one reopens the round for everyone else; one that does not counts as false
   (SHOW-10); a challenged false declaration becomes a check; "check" from the previous
   senior declarer re-declares his hand (SHOW-14); a standing instruction (chips over the
   line, SHOW-12) checks and buys automatically;
4. a buying round (SHOW-17..19): the senior declarer's card is free, buy-or-fold starts
   on his left; the first three purchasable cards cost one blind, the last two two blinds;
   then one card is burned and the next turned; five purchasable cards make 8 board cards;
5. showdown (SHOW-25, SHOW-26): no betting; each player declares and shows; the highest
   hand both declared and shown wins each pot (side pots by what each put in); after 10 s
   without a better declaration a 30 s clock runs, then every hand that leads no pot dies.

If all but one fold, the last hand wins without showing. Cards shown stay shown (SHOW-23).
Refusal codes (``HandRuleViolation``): ``hand_already_started``, ``hand_not_started``,
``hand_already_complete``, ``wrong_phase`` (SHOW-17), ``not_your_turn`` (SHOW-22),
``seat_not_in_hand`` (SHOW-4), ``unreadable_declaration`` (SHOW-11), ``nothing_to_challenge``
/ ``invalid_challenge`` (SHOW-10), ``wrong_card_count`` (SHOW-3), ``exposed_card_not_first``
(SHOW-7), ``clock_not_due`` / ``clock_not_running`` / ``pot_without_declaration`` (SHOW-26),
``board_not_declarable`` (SHOW-8), ``invalid_config`` (SHOW-2).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import reduce
from typing import Literal

from casino.domain_events import DomainEvent
from tables.domain.cards import check_no_duplicates, parse_cards
from tables.domain.errors import HandRuleViolation
from tables.domain.show_poker.declarations import Declaration, beats, holds, parse_declaration
from tables.domain.show_poker.events import (
    CardBought,
    CardTurned,
    Challenged,
    Checked,
    Declared,
    FlopDealt,
    HandKilled,
    ShowdownClockStarted,
    ShowFolded,
    ShowHandSettled,
    ShowHandStarted,
    ShowMisdealt,
    ShowPotAwarded,
    StandingBuy,
)
from tables.events import SeatInHand

HOLE_CARDS = 4
FLOP_CARDS = 3
BOARD_CARDS = 8
PURCHASABLE = BOARD_CARDS - FLOP_CARDS
SHOWDOWN_IDLE_SECONDS = 10
SHOWDOWN_CLOCK_SECONDS = 30
Phase = Literal["deal", "declaring", "buying", "awaiting_card", "showdown", "complete"]


def card_price(blind: int, purchase_index: int) -> int:
    """SHOW-19: the first three purchasable cards cost one blind, the last two two blinds
    (``purchase_index`` 0..4)."""
    return blind if purchase_index < 3 else 2 * blind


# -- commands ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartShowHand:
    hand_id: str
    table_id: int
    hand_number: int
    button_seat: int
    seats: tuple[SeatInHand, ...]
    blind: int
    mode: Literal["cash", "tournament"] = "cash"
    sitting_out_paying: tuple[int, ...] = ()
    rabbit_hunt_allowed: bool = True
    rules_version: str = "5.2"


@dataclass(frozen=True, slots=True)
class ReportDeal:
    """At the end of the deal: hole-card counts that are wrong, and cards exposed."""

    wrong_count_seats: tuple[int, ...] = ()
    exposed: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class DealFlop:
    cards: str
    absent_seats: tuple[int, ...] = ()
    exposed: tuple[int, str] | None = None


@dataclass(frozen=True, slots=True)
class Declare:
    seat: int
    text: str
    shown: str = ""


@dataclass(frozen=True, slots=True)
class Check:
    seat: int


@dataclass(frozen=True, slots=True)
class Fold:
    seat: int


@dataclass(frozen=True, slots=True)
class Challenge:
    challenger: int
    seat: int
    cards: str


@dataclass(frozen=True, slots=True)
class PushOverLine:
    seat: int


@dataclass(frozen=True, slots=True)
class Buy:
    seat: int


@dataclass(frozen=True, slots=True)
class TurnCard:
    card: str


@dataclass(frozen=True, slots=True)
class ReportCardCount:
    """After a declaration or a purchase, ``seat`` holds ``count`` cards (SHOW-6)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class StartShowdownClock:
    now: datetime
    idle_since: datetime


@dataclass(frozen=True, slots=True)
class ExpireShowdownClock:
    now: datetime


ShowCommand = (
    StartShowHand | ReportDeal | DealFlop | Declare | Check | Fold | Challenge | PushOverLine
    | Buy | TurnCard | ReportCardCount | StartShowdownClock | ExpireShowdownClock
)  # fmt: skip


# -- state -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowSeat:
    seat: int
    player_id: str
    stack: int
    contributed: int
    folded: bool = False
    dead: bool = False
    standing_buy: bool = False
    shown: tuple[str, ...] = ()
    showdown: Declaration | None = None  # declared and shown at showdown

    @property
    def live(self) -> bool:
        return not self.folded and not self.dead


@dataclass(frozen=True, slots=True)
class RoundDeclaration:
    seat: int
    declaration: Declaration
    leading: bool
    false: bool = False  # challenged and found false: a check
    proven: bool = False  # challenged and found true: it stands, and is not challenged again


@dataclass(frozen=True, slots=True)
class ShowState:
    """A Show poker hand so far. ``leader``: the round's leading (senior) declaration;
    ``senior_prev``: the senior declarer of the previous street; ``pending``: seats still
    to act in this round, in order; ``purchases``: cards bought so far (0..5)."""

    started: ShowHandStarted
    seats: tuple[ShowSeat, ...]
    board: tuple[str, ...] = ()
    phase: Phase = "deal"
    pending: tuple[int, ...] = ()
    round: tuple[RoundDeclaration, ...] = ()
    senior_prev: int | None = None
    senior_prev_declaration: Declaration | None = None
    purchases: int = 0
    clock_expires_at: str | None = None
    misdealt: bool = False
    history: tuple[DomainEvent, ...] = field(default=(), repr=False)

    @property
    def to_act(self) -> int | None:
        return self.pending[0] if self.pending else None

    @property
    def is_complete(self) -> bool:
        return self.phase == "complete"

    @property
    def stacks(self) -> dict[int, int]:
        return {s.seat: s.stack for s in self.seats}

    @property
    def pot(self) -> int:
        return sum(s.contributed for s in self.seats)

    def seat(self, number: int) -> ShowSeat | None:
        return next((s for s in self.seats if s.seat == number), None)

    @property
    def leader(self) -> RoundDeclaration | None:
        standing = [d for d in self.round if d.leading and not d.false]
        return standing[-1] if standing else None

    @property
    def live_seats(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.live)


def clockwise(seats: Iterable[int], after: int) -> list[int]:
    """``seats`` in clockwise order starting with the first seat after ``after``."""
    ordered = sorted(seats)
    return [s for s in ordered if s > after] + [s for s in ordered if s <= after]


# -- evolve ------------------------------------------------------------------------------------


def load(events: Iterable[DomainEvent]) -> ShowState | None:
    return reduce(_evolve, events, None)


def evolve(state: ShowState | None, event: DomainEvent) -> ShowState:
    new = _evolve(state, event)
    assert new is not None
    return new


def _with_seat(state: ShowState, number: int, **changes: object) -> tuple[ShowSeat, ...]:
    return tuple(replace(s, **changes) if s.seat == number else s for s in state.seats)  # type: ignore[arg-type]


def _evolve(state: ShowState | None, event: DomainEvent) -> ShowState | None:
    if isinstance(event, ShowHandStarted):
        posted = dict(event.blinds)
        seats = tuple(
            ShowSeat(s.seat, s.player_id, s.stack - posted.get(s.seat, 0), posted.get(s.seat, 0),
                     folded=s.seat in event.sitting_out)  # SHOW-20..22: blind paid, not dealt
            for s in event.seats
        )  # fmt: skip
        return ShowState(event, seats, history=(event,))
    assert state is not None
    st = _apply(replace(state, history=(*state.history, event)), event)
    if st.phase == "declaring" and not st.pending:
        st = _open_buying(st)
    if st.phase == "buying" and not st.pending:
        st = replace(st, phase="awaiting_card")
    return st


def _open_buying(st: ShowState) -> ShowState:
    """SHOW-17/18: the senior declarer first (his card is free), then buy-or-fold from his
    left; with no declaration everyone buys, from the button's left. All-in seats skip."""
    leader = st.leader
    live = st.live_seats
    if leader is not None and leader.seat in live:
        others = [s for s in clockwise(live, leader.seat) if s != leader.seat]
        order = [leader.seat, *others]
    else:
        order = clockwise(live, st.started.button_seat)
    seats = {s.seat: s for s in st.seats}
    first = order[0] if leader is not None and leader.seat in live else None
    pending = tuple(s for s in order if s == first or seats[s].stack > 0)
    return replace(st, phase="buying", pending=pending)


def _apply(st: ShowState, event: DomainEvent) -> ShowState:
    if isinstance(event, ShowMisdealt):
        seats = tuple(replace(s, stack=s.stack + s.contributed, contributed=0) for s in st.seats)
        return replace(st, seats=seats, phase="complete", misdealt=True, pending=())
    if isinstance(event, FlopDealt):
        st = replace(st, board=tuple(parse_cards(event.cards)))
        return _open_round(st)
    if isinstance(event, HandKilled):
        st = replace(st, seats=_with_seat(st, event.seat, dead=True))
        return replace(st, pending=tuple(p for p in st.pending if p != event.seat))
    if isinstance(event, ShowFolded):
        st = replace(st, seats=_with_seat(st, event.seat, folded=True))
        return replace(st, pending=tuple(p for p in st.pending if p != event.seat))
    if isinstance(event, Declared):
        d = Declaration(event.text, event.category, event.ranks, event.cards, event.misdeclared)
        rd = RoundDeclaration(event.seat, d, event.leading)
        if st.phase == "showdown":
            shown = tuple(parse_cards(event.shown)) if event.shown else ()
            seat = st.seat(event.seat)
            assert seat is not None
            seen = tuple(dict.fromkeys((*seat.shown, *shown)))
            seats = _with_seat(st, event.seat, showdown=d, shown=seen)
            # a better hand stops the showdown clock: 10 s more without one restart it
            clock = None if event.leading else st.clock_expires_at
            return replace(st, seats=seats, round=(*st.round, rd), clock_expires_at=clock)
        pending = tuple(p for p in st.pending if p != event.seat)
        if event.leading:
            pending = tuple(p for p in clockwise(st.live_seats, event.seat) if p != event.seat)
        return replace(st, round=(*st.round, rd), pending=pending)
    if isinstance(event, Checked):
        pending = tuple(p for p in st.pending if p != event.seat)
        if event.redeclared and st.senior_prev_declaration is not None:
            again = st.senior_prev_declaration
            if "board" in again.text.lower():  # SHOW-14: new board kickers count
                again = parse_declaration(again.text, st.board)
            rd = RoundDeclaration(event.seat, again, True)
            pending = tuple(p for p in clockwise(st.live_seats, event.seat) if p != event.seat)
            return replace(st, round=(*st.round, rd), pending=pending)
        return replace(st, pending=pending)
    if isinstance(event, Challenged):
        seat = st.seat(event.seat)
        assert seat is not None
        shown = tuple(dict.fromkeys((*seat.shown, *parse_cards(event.cards))))
        st = replace(st, seats=_with_seat(st, event.seat, shown=shown))
        last = max(i for i, d in enumerate(st.round) if d.seat == event.seat)
        rounds = list(st.round)
        rounds[last] = replace(rounds[last], false=event.false, proven=not event.false)
        return replace(st, round=tuple(rounds))
    if isinstance(event, StandingBuy):
        return replace(st, seats=_with_seat(st, event.seat, standing_buy=True))
    if isinstance(event, CardBought):
        seat = st.seat(event.seat)
        assert seat is not None
        seats = _with_seat(st, event.seat, stack=seat.stack - event.price,
                           contributed=seat.contributed + event.price)  # fmt: skip
        pending = tuple(p for p in st.pending if p != event.seat)
        return replace(st, seats=seats, pending=pending)
    if isinstance(event, CardTurned):
        leader = st.leader
        board = (*st.board, event.card)
        st = replace(st, board=board, purchases=st.purchases + 1)
        if leader is not None:
            st = replace(st, senior_prev=leader.seat, senior_prev_declaration=leader.declaration)
        if len(board) == BOARD_CARDS:
            return replace(st, phase="showdown", pending=(), round=())
        return _open_round(st)
    if isinstance(event, ShowdownClockStarted):
        return replace(st, clock_expires_at=event.expires_at)
    if isinstance(event, ShowPotAwarded):
        seat = st.seat(event.winner)
        assert seat is not None
        return replace(st, seats=_with_seat(st, event.winner, stack=seat.stack + event.amount))
    if isinstance(event, ShowHandSettled):
        seats = tuple(replace(s, contributed=0) for s in st.seats)
        return replace(st, seats=seats, phase="complete", pending=())
    raise ValueError(f"not a Show poker event: {type(event).__name__}")


def _open_round(st: ShowState) -> ShowState:
    """A new declaration round (SHOW-9): from the previous senior declarer if he is still
    live, else from the first live seat left of the button."""
    live = st.live_seats
    if st.senior_prev in live:
        assert st.senior_prev is not None
        order = [st.senior_prev] + [
            s for s in clockwise(live, st.senior_prev) if s != st.senior_prev
        ]
    else:
        order = clockwise(live, st.started.button_seat)
    return replace(st, phase="declaring", pending=tuple(order), round=())


# -- decide ------------------------------------------------------------------------------------


def decide(state: ShowState | None, command: ShowCommand) -> list[DomainEvent]:
    """The events ``command`` leads to (``state`` unchanged), followed by the automatic
    ones: standing buy instructions (SHOW-12), the senior declarer's free card (SHOW-18),
    and the uncontested end.

    Raises:
        HandRuleViolation: the command is refused (codes in the module docstring).
    """
    if isinstance(command, StartShowHand):
        if state is not None:
            raise HandRuleViolation("hand_already_started", "SHOW-2", "The hand has started.")
        return [_start(command)]
    if state is None:
        raise HandRuleViolation("hand_not_started", "SHOW-2", "No hand is in progress.")
    if state.is_complete:
        raise HandRuleViolation("hand_already_complete", "SHOW-25", "The hand is over.")
    events = _decide(state, command)
    return events + _automatic(reduce(evolve, events, state))


def _automatic(state: ShowState) -> list[DomainEvent]:
    events: list[DomainEvent] = []
    while True:
        nxt = _next_automatic(state)
        if nxt is None:
            return events
        events.append(nxt)
        state = evolve(state, nxt)


def _next_automatic(state: ShowState) -> DomainEvent | None:
    if state.is_complete:
        return None
    live = state.live_seats
    if len(live) == 1 and state.phase != "deal":
        return None  # settled below
    leader = state.leader
    if state.phase == "buying" and state.pending and leader and state.pending[0] == leader.seat:
        return CardBought(leader.seat, 0)  # SHOW-18: the senior declarer's card is free
    if state.phase in ("declaring", "buying") and state.pending:
        seat = state.seat(state.pending[0])
        assert seat is not None
        if seat.standing_buy:  # SHOW-12
            if state.phase == "declaring":
                return Checked(seat.seat, redeclared=_redeclares(state, seat.seat))
            return _buy_event(state, seat)
    return None


def _settle_if_uncontested(state: ShowState) -> list[DomainEvent]:
    live = state.live_seats
    if len(live) != 1 or state.phase == "deal" or state.is_complete:
        return []
    winner = live[0]
    award = ShowPotAwarded(state.pot, winner, (winner,))
    final = evolve(state, award)
    return [award, ShowHandSettled(tuple(sorted(final.stacks.items())), uncontested=True)]


def _start(cmd: StartShowHand) -> ShowHandStarted:
    if cmd.blind <= 0:
        raise HandRuleViolation("invalid_config", "SHOW-2", "The blind must be positive.")
    dealt = [s for s in cmd.seats if s.seat not in cmd.sitting_out_paying]
    if len(dealt) < 2:
        raise HandRuleViolation("wrong_player_count", "SHOW-2", "A hand needs two players.")
    blinds = tuple((s.seat, min(cmd.blind, s.stack)) for s in cmd.seats)
    return ShowHandStarted(
        cmd.hand_id, cmd.table_id, cmd.hand_number, cmd.button_seat, cmd.blind,
        tuple(sorted(cmd.seats, key=lambda s: s.seat)), blinds, cmd.mode, cmd.rabbit_hunt_allowed,
        tuple(sorted(cmd.sitting_out_paying)), cmd.rules_version,
    )  # fmt: skip


def _seat(state: ShowState, number: int) -> ShowSeat:
    seat = state.seat(number)
    if seat is None or seat.seat in state.started.sitting_out:
        raise HandRuleViolation("seat_not_in_hand", "SHOW-4", f"Seat {number} is not dealt in.")
    return seat


def _decide(state: ShowState, cmd: ShowCommand) -> list[DomainEvent]:
    if isinstance(cmd, ReportDeal):
        return _report_deal(state, cmd)
    if isinstance(cmd, DealFlop):
        return _deal_flop(state, cmd)
    if isinstance(cmd, ReportCardCount):
        seat = _seat(state, cmd.seat)
        if state.phase == "deal":
            raise HandRuleViolation(
                "wrong_phase", "SHOW-5", "At the deal a wrong count is a misdeal: report it."
            )
        if state.purchases == 0 and not any(isinstance(e, Declared) for e in state.history):
            raise HandRuleViolation("wrong_phase", "SHOW-6", "Cards are counted after a "
                                    "declaration or a purchase.")  # fmt: skip
        if cmd.count > HOLE_CARDS and seat.live:  # SHOW-6: too many cards: dead
            return [HandKilled(seat.seat, "SHOW-6"), *_after_kill(state, seat.seat)]
        return []  # too few: he plays on with what he has (SHOW-6)
    if isinstance(cmd, StartShowdownClock):
        return _start_clock(state, cmd)
    if isinstance(cmd, ExpireShowdownClock):
        return _expire_clock(state, cmd)
    if isinstance(cmd, PushOverLine):
        seat = _seat(state, cmd.seat)
        return [] if seat.standing_buy or not seat.live else [StandingBuy(seat.seat)]
    if isinstance(cmd, Challenge):
        return _challenge(state, cmd)
    if isinstance(cmd, Fold):
        seat = _seat(state, cmd.seat)
        if not seat.live:
            raise HandRuleViolation("seat_folded", "SHOW-11", "That hand is no longer live.")
        if state.phase in ("declaring", "buying"):
            _check_turn(state, cmd.seat)
        events: list[DomainEvent] = [ShowFolded(cmd.seat)]
        return events + _settle_if_uncontested(evolve(state, events[0]))
    if isinstance(cmd, Declare):
        return _declare(state, cmd)
    if isinstance(cmd, Check):
        if state.phase != "declaring":
            raise HandRuleViolation("wrong_phase", "SHOW-17", "Not a declaration round.")
        _check_turn(state, cmd.seat)
        return [Checked(cmd.seat, redeclared=_redeclares(state, cmd.seat))]
    if isinstance(cmd, Buy):
        if state.phase != "buying":
            raise HandRuleViolation("wrong_phase", "SHOW-17", "The buying round has not opened.")
        _check_turn(state, cmd.seat)
        return [_buy_event(state, _seat(state, cmd.seat))]
    if isinstance(cmd, TurnCard):
        return _turn(state, cmd)
    raise TypeError(f"not a Show poker command: {type(cmd).__name__}")


def _after_kill(state: ShowState, seat: int) -> list[DomainEvent]:
    return _settle_if_uncontested(evolve(state, HandKilled(seat, "SHOW-6")))


def _redeclares(state: ShowState, seat: int) -> bool:
    """SHOW-14: "check" from the previous street's senior declarer re-declares his hand
    (made "with the board", the new board kickers count)."""
    return (
        seat == state.senior_prev
        and state.senior_prev_declaration is not None
        and not any(d.seat == seat for d in state.round)
    )


def _check_turn(state: ShowState, seat: int) -> None:
    if state.to_act != seat:
        raise HandRuleViolation(
            "not_your_turn",
            "SHOW-22",
            f"Seat {state.to_act} is to act, not seat {seat}: out of turn (penalty SHOW-22).",
            to_act=state.to_act,
        )


def _buy_event(state: ShowState, seat: ShowSeat) -> CardBought:
    price = card_price(state.started.blind, state.purchases)
    paid = min(price, seat.stack)
    return CardBought(seat.seat, paid, all_in=paid == seat.stack)


def _report_deal(state: ShowState, cmd: ReportDeal) -> list[DomainEvent]:
    if state.phase != "deal":
        raise HandRuleViolation("wrong_phase", "SHOW-5", "The deal is over.")
    for seat in (*cmd.wrong_count_seats, *(s for s, _ in cmd.exposed)):
        _seat(state, seat)  # a seat dealt in, or the report is refused
    if cmd.wrong_count_seats:
        return [ShowMisdealt("wrong number of hole cards", "SHOW-5")]
    if len(cmd.exposed) > 1:
        return [ShowMisdealt("more than one card exposed on the deal", "SHOW-5")]
    return []


def _deal_flop(state: ShowState, cmd: DealFlop) -> list[DomainEvent]:
    if state.phase != "deal":
        raise HandRuleViolation("wrong_phase", "SHOW-3", "The flop is already out.")
    cards = parse_cards(cmd.cards)
    if len(cards) != FLOP_CARDS:
        raise HandRuleViolation("wrong_card_count", "SHOW-3", "The flop is three cards.")
    check_no_duplicates(cards, ())
    exposed_seat = None
    absent = tuple(dict.fromkeys(_seat(state, seat).seat for seat in cmd.absent_seats))
    if not [s for s in state.live_seats if s not in absent]:
        raise HandRuleViolation(
            "no_player_present", "SHOW-4",
            "Every player is away at the flop: no hand can be played. The floor rules "
            "(a misdeal).",
        )  # fmt: skip
    if cmd.exposed is not None:
        exposed_seat, card = cmd.exposed
        _seat(state, exposed_seat)
        if parse_cards(card)[0] != cards[0]:
            raise HandRuleViolation(
                "exposed_card_not_first",
                "SHOW-7",
                "The exposed card is the first card of the flop.",
            )
    events: list[DomainEvent] = [FlopDealt("".join(cards), exposed_seat)]
    for seat in absent:  # SHOW-4: dead at the third flop card
        events.append(HandKilled(seat, "SHOW-4"))
    after = reduce(evolve, events, state)
    return events + _settle_if_uncontested(after)


def _seen_elsewhere(state: ShowState, seat: int) -> list[str]:
    """Cards in the hand that are not ``seat``'s: the board and every other seat's shown
    cards (MIS-12: a card is in one place)."""
    return [*state.board, *(c for s in state.seats if s.seat != seat for c in s.shown)]


def _hole_cards(state: ShowState, seat: ShowSeat, cards: Iterable[str]) -> tuple[str, ...]:
    """``seat``'s hole cards known with ``cards`` shown now: never one seen elsewhere, never
    more than four (SHOW-6).

    Raises:
        HandRuleViolation: ``duplicate_card`` (MIS-12), ``wrong_card_count`` (SHOW-6).
    """
    new = [c for c in cards if c not in seat.shown]
    check_no_duplicates(new, _seen_elsewhere(state, seat.seat))
    known = tuple(dict.fromkeys((*seat.shown, *new)))
    if len(known) > HOLE_CARDS:
        raise HandRuleViolation(
            "wrong_card_count", "SHOW-6", "A player holds four hole cards.",
            seat=seat.seat, shown=list(known),
        )  # fmt: skip
    return known


def _declare(state: ShowState, cmd: Declare) -> list[DomainEvent]:
    seat = _seat(state, cmd.seat)
    if not seat.live:
        raise HandRuleViolation("seat_folded", "SHOW-11", "That hand is no longer live.")
    d = parse_declaration(cmd.text, state.board)
    if state.phase == "showdown":
        shown = parse_cards(cmd.shown) if cmd.shown else ()
        cards_known = _hole_cards(state, seat, shown)
        if not holds(d, cards_known[:HOLE_CARDS], state.board):
            raise HandRuleViolation(
                "declaration_not_shown",
                "SHOW-25",
                "At showdown a hand counts only when it is declared and shown.",
            )
        best = state.leader
        leading = beats(d, best.declaration if best else None)
        return [Declared(seat.seat, cmd.text, d.category, d.ranks, d.cards, d.misdeclared,
                         leading, "".join(shown))]  # fmt: skip
    if state.phase != "declaring":
        raise HandRuleViolation("wrong_phase", "SHOW-17", "Not a declaration round.")
    _check_turn(state, cmd.seat)
    leader = state.leader
    leading = beats(d, leader.declaration if leader else None)
    return [Declared(seat.seat, cmd.text, d.category, d.ranks, d.cards, d.misdeclared, leading)]


def _challenge(state: ShowState, cmd: Challenge) -> list[DomainEvent]:
    if state.phase != "declaring":
        raise HandRuleViolation(
            "invalid_challenge", "SHOW-10", "Challenges are made during a declaration round."
        )
    challenger = _seat(state, cmd.challenger)
    target = _seat(state, cmd.seat)
    if not challenger.live or cmd.challenger == cmd.seat:
        raise HandRuleViolation("invalid_challenge", "SHOW-10", "A live opponent challenges.")
    mine = [d for d in state.round if d.seat == target.seat and not d.false]
    if not mine:
        raise HandRuleViolation("nothing_to_challenge", "SHOW-10", "No standing declaration.")
    declared = mine[-1]
    if declared.proven:  # a second challenge added other cards to those it showed (QA)
        raise HandRuleViolation(
            "declaration_proven", "SHOW-10",
            "This declaration was challenged and proven: it stands.", seat=target.seat,
        )  # fmt: skip
    cards = parse_cards(cmd.cards)
    if len(cards) > HOLE_CARDS:
        raise HandRuleViolation("wrong_card_count", "SHOW-6", "At most four hole cards.")
    known = _hole_cards(state, target, cards)
    false = not declared.leading or not holds(declared.declaration, known, state.board)
    return [Challenged(challenger.seat, target.seat, "".join(cards), false)]


def _turn(state: ShowState, cmd: TurnCard) -> list[DomainEvent]:
    if state.phase != "awaiting_card":
        raise HandRuleViolation(
            "wrong_phase", "SHOW-19", "Every player must buy, fold or be all-in first."
        )
    cards = parse_cards(cmd.card)
    if len(cards) != 1:
        raise HandRuleViolation("wrong_card_count", "SHOW-19", "One card is turned at a time.")
    check_no_duplicates(cards, [*state.board, *(c for s in state.seats for c in s.shown)])
    return [CardTurned(cards[0])]


def _start_clock(state: ShowState, cmd: StartShowdownClock) -> list[DomainEvent]:
    leader = state.leader
    if state.phase != "showdown" or leader is None:
        raise HandRuleViolation("clock_not_due", "SHOW-26", "No declared hand leads yet.")
    if state.clock_expires_at is not None:
        raise HandRuleViolation("clock_running", "SHOW-26", "The showdown clock is running.")
    if (cmd.now - cmd.idle_since).total_seconds() < SHOWDOWN_IDLE_SECONDS:
        raise HandRuleViolation(
            "clock_not_due", "SHOW-26", "The clock starts after 10 s without a better hand."
        )
    expires = cmd.now + timedelta(seconds=SHOWDOWN_CLOCK_SECONDS)
    return [ShowdownClockStarted(cmd.now.isoformat(), expires.isoformat(), leader.seat)]


def pots(state: ShowState) -> list[tuple[int, tuple[int, ...]]]:
    """Main and side pots as ``(amount, eligible live seats)``, main pot first.

    Buying a card is not a bet: the senior declarer's free card (SHOW-18) does not limit
    what he can win. Only a player who could not pay (all-in, SHOW-19) is limited, in each
    round, to what he paid in it (and to nothing in the rounds after). The money of folded
    and dead hands stays in the pots it reached.
    """
    INF = 1 << 62
    segments: list[dict[int, int]] = [dict(state.started.blinds)]
    for e in state.history:
        if isinstance(e, CardTurned):
            segments.append({})
        elif isinstance(e, CardBought) and e.price:
            segments[-1][e.seat] = segments[-1].get(e.seat, 0) + e.price
    stack = {s.seat: s.stack for s in state.started.seats}
    live = set(state.live_seats)
    merged: list[tuple[int, tuple[int, ...]]] = []
    for paid in segments:
        caps = {}
        for seat in stack:
            stack[seat] -= paid.get(seat, 0)
            caps[seat] = paid.get(seat, 0) if stack[seat] == 0 else INF
        levels = sorted({caps[s] for s in live} | {INF})
        floor = 0
        for level in levels:
            amount = sum(max(0, min(v, level) - floor) for v in paid.values())
            eligible = tuple(sorted(s for s in live if caps[s] >= level))
            floor = level
            if not amount:
                continue
            if not eligible and merged:  # nobody live reaches it: to the last pot
                merged[-1] = (merged[-1][0] + amount, merged[-1][1])
                continue
            for i, (have, who) in enumerate(merged):
                if who == eligible:
                    merged[i] = (have + amount, who)
                    break
            else:
                merged.append((amount, eligible))
    merged.sort(key=lambda pot: -len(pot[1]))
    return merged


def _expire_clock(state: ShowState, cmd: ExpireShowdownClock) -> list[DomainEvent]:
    if state.clock_expires_at is None:
        raise HandRuleViolation("clock_not_running", "SHOW-26", "No showdown clock runs.")
    if cmd.now < datetime.fromisoformat(state.clock_expires_at):
        raise HandRuleViolation("clock_not_due", "SHOW-26", "The 30 s clock has not run out.")
    awards: list[ShowPotAwarded] = []
    for amount, eligible in pots(state):
        best: ShowSeat | None = None
        for seat_number in dict.fromkeys(d.seat for d in state.round):
            seat = state.seat(seat_number)
            if seat is None or seat.seat not in eligible or seat.showdown is None or not seat.live:
                continue
            if best is None or beats(seat.showdown, best.showdown):
                best = seat
        if best is None:
            raise HandRuleViolation(
                "pot_without_declaration",
                "SHOW-26",
                "A pot has no declared and shown hand: the tournament director rules (SHOW-27).",
                eligible=list(eligible),
            )
        awards.append(ShowPotAwarded(amount, best.seat, eligible))
    winners = {a.winner for a in awards}
    events: list[DomainEvent] = [
        HandKilled(s, "SHOW-26") for s in state.live_seats if s not in winners
    ]
    events += awards
    final = reduce(evolve, events, state)
    return [*events, ShowHandSettled(tuple(sorted(final.stacks.items())), uncontested=False)]


def rabbit_hunt_allowed(state: ShowState) -> bool:
    """SHOW-24: rabbit hunting is allowed in Show poker (a setting per game, default on;
    the catalogue's conflict with RAKE-7)."""
    return state.started.rabbit_hunt_allowed
