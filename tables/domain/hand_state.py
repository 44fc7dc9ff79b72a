"""The hand's state: :class:`HandState` (with its seats, its pokerkit engine and what is
legal now), ``evolve(state, event)`` and :func:`load`, and the legality helpers the rules
share (the house's minimum raise, BET-9; a raise that does not reopen the betting, BET-14;
the limit cap, BET-4). The rules that decide a command live beside it:
:mod:`tables.domain.hand_start` (dealing a hand in: blinds, straddles, SEAT-*),
:mod:`tables.domain.betting` (actions, BET-*) and :mod:`tables.domain.showdown` (board,
shows, awards, run it twice, misdeals, rabbit hunts: SD-*, MIS-*, RAKE-7/8/10);
:mod:`tables.domain.hand` dispatches a command to them. Refusal codes: the docstring of
:mod:`tables.domain.hand`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import reduce
from typing import Literal

from pokerkit import State

from casino.domain_events import DomainEvent
from tables.domain import engine, limit
from tables.domain.cards import parse_cards
from tables.domain.errors import HandRuleViolation
from tables.domain.pots import (
    Pot,
    build_pots,
    pots_while_betting,
    return_uncalled,
)
from tables.domain.seating import (
    acting_order,
    blind_seats,
    forced_bets,
)
from tables.events import (
    ActionTaken,
    BoardDealt,
    CardsMucked,
    CardsShown,
    ForcedBet,
    HandSettled,
    HandStarted,
    HandVoided,
    RabbitHunted,
    RunItTimesAgreed,
    Street,
)
from tables.ruling_events import FloorEvent

Phase = Literal["betting", "awaiting_board", "showdown", "complete"]
"""betting: a player is to act; awaiting_board: the round is closed and the next street is
to be dealt before more betting; showdown: the betting is over, the rest of the board and
the players' shows or mucks are awaited; complete: settled."""


STREETS: tuple[Street, ...] = ("flop", "turn", "river")


CARDS_PER_STREET: dict[str, int] = {"flop": 3, "turn": 1, "river": 1}


STREET_BY_BOARD_SIZE: dict[int, str] = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


GAMES = ("NLH", "PLO", "FLH")


ANTE_TYPES = ("none", "per_player", "big_blind")


MIN_RAISE_RULES = ("previous_increment", "double_last")


MODES = ("cash", "tournament")


ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")


RUN_TIMES = (2, 3)
"""How many times the rest of the board may be run (RAKE-10: at most 3 boards)."""


LIVE_POSTS = ("small_blind", "big_blind", "straddle", "posted_bb", "posted_sb")
"""Forced bets that are the seat's bet (toward its call); antes and ``dead_sb`` are not."""


PASSIVE_ACTIONS = ("fold", "check")
"""Actions a misdeal window may leave out (MIS-3: checks and folds do not count)."""


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat in the hand.

    ``bet`` is the seat's bet on the current street, ``contributed`` its total for the hand
    (antes and blinds included), ``ante`` the ante it posted; ``stack`` is what it has
    behind.
    """

    seat: int
    player_id: str
    starting_stack: int
    stack: int
    bet: int = 0
    contributed: int = 0
    ante: int = 0
    folded: bool = False
    shown: str | None = None
    mucked: bool = False

    @property
    def live(self) -> bool:
        """Still has a claim to the pot (not folded, not mucked)."""
        return not self.folded and not self.mucked

    @property
    def all_in(self) -> bool:
        """Live with no chips behind."""
        return self.live and self.stack == 0


@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do, for the tablet.

    ``to_call`` is the chips a call adds (0: he may check); ``call_to`` his street total
    after calling. ``min_raise_to`` / ``max_raise_to`` are street totals for a bet (when
    ``can_bet``) or a raise (when ``can_raise``), ``None`` when he may not bet or raise; an
    all-in below ``min_raise_to`` is always allowed. ``all_in_to`` is what an all-in puts
    him to: his whole stack, or in fixed limit the step (a call once the betting is capped).
    """

    seat: int
    to_call: int
    call_to: int
    can_check: bool
    can_fold: bool
    can_bet: bool
    can_raise: bool
    min_raise_to: int | None
    max_raise_to: int | None
    all_in_to: int


class _Engine:
    """Mutable holder of the pokerkit state of one :class:`HandState` (see module notes).

    The lock makes "take the pokerkit state for a successor" atomic, so two threads that
    evolve the same (cached) state never mutate one pokerkit object: the second rebuilds.
    """

    __slots__ = ("lock", "pk")

    def __init__(self, pk: State | None) -> None:
        self.pk = pk
        self.lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class HandState:
    """A hand as far as it has been played. Build it with :func:`evolve`.

    ``board`` holds the board cards common to every run; ``run_boards`` the cards of each
    run once the players agreed to run it more than once (empty otherwise). ``result`` is
    the settlement, ``voided`` the void (misdeal) that ended the hand instead, ``rabbit``
    a rabbit hunt recorded after it.
    """

    started: HandStarted
    seats: tuple[SeatState, ...]
    board: tuple[str, ...] = ()
    phase: Phase = "betting"
    to_act: int | None = None
    result: HandSettled | None = None
    run_boards: tuple[tuple[str, ...], ...] = ()
    voided: HandVoided | None = None
    rabbit: RabbitHunted | None = None
    order: tuple[int, ...] = field(default=(), repr=False)
    history: tuple[DomainEvent, ...] = field(default=(), repr=False, compare=False)
    _engine: _Engine = field(default_factory=lambda: _Engine(None), repr=False, compare=False)

    # -- identity and configuration -------------------------------------------------------
    @property
    def hand_id(self) -> str:
        return self.started.hand_id

    @property
    def button_seat(self) -> int:
        return self.started.button_seat

    @property
    def game(self) -> str:
        return self.started.game

    # -- progress ---------------------------------------------------------------------------
    @property
    def is_complete(self) -> bool:
        return self.phase == "complete"

    @property
    def street(self) -> str:
        """``preflop``, ``flop``, ``turn`` or ``river``: the last street dealt."""
        return STREET_BY_BOARD_SIZE[len(self.board)]

    @property
    def small_blind_seat(self) -> int | None:
        """The seat that posted the small blind (``None``: a dead small blind, SEAT-5)."""
        return self._blinds()[0]

    @property
    def big_blind_seat(self) -> int:
        """The seat that posted the big blind."""
        return self._blinds()[1]

    def _blinds(self) -> tuple[int | None, int]:
        started = self.started
        return blind_seats(
            started.button_seat, self.order, started.small_blind_seat, started.big_blind_seat
        )

    @property
    def straddles(self) -> tuple[int, ...]:
        """The seats that straddled, in order (SEAT-18/19)."""
        return tuple(p.seat for p in self.started.posts if p.kind == "straddle")

    @property
    def run_count(self) -> int:
        """How many times the board is run (1 unless the players agreed more, RAKE-10)."""
        return len(self.run_boards) or 1

    @property
    def boards(self) -> tuple[tuple[str, ...], ...]:
        """The full board of each run (one board unless run more than once)."""
        if not self.run_boards:
            return (self.board,)
        return tuple(self.board + extra for extra in self.run_boards)

    @property
    def next_street(self) -> Street | None:
        """The street the dealer may deal now, if any (of :attr:`next_run` when the board
        is run more than once; the other unfinished runs may be dealt too)."""
        if self.phase not in ("awaiting_board", "showdown"):
            return None
        for board in self.boards:
            if len(board) < 5:
                return street_after(len(board))
        return None

    @property
    def next_run(self) -> int | None:
        """The first run whose board is not complete (1 when run once), if any."""
        if self.phase not in ("awaiting_board", "showdown"):
            return None
        for run, board in enumerate(self.boards, 1):
            if len(board) < 5:
                return run
        return None

    @property
    def stacks(self) -> dict[int, int]:
        """Chips behind per seat (final stacks once complete)."""
        return {s.seat: s.stack for s in self.seats}

    @property
    def pot(self) -> int:
        """Chips in the middle: every contribution so far, current bets included."""
        return 0 if self.is_complete else sum(s.contributed for s in self.seats)

    @property
    def live_seats(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.live)

    def seat_state(self, seat: int) -> SeatState | None:
        for s in self.seats:
            if s.seat == seat:
                return s
        return None

    def pots(self) -> tuple[Pot, ...]:
        """Main and side pots as they stand, after returning any uncalled bet."""
        contributions, dead_money = pot_inputs(self.started, self.seats)
        called, _ = return_uncalled(contributions)
        return build_pots(called, self.live_seats, dead_money)

    def pots_on_screen(self) -> tuple[Pot, ...]:
        """The pots a screen shows: :meth:`pots` once the betting is over, and while a
        street is bet :func:`tables.domain.pots.pots_while_betting` (this street's bets in,
        every player still to act eligible)."""
        if self.phase != "betting":
            return self.pots()
        contributions, dead_money = pot_inputs(self.started, self.seats)
        all_in = [s.seat for s in self.seats if s.all_in]
        return pots_while_betting(contributions, self.live_seats, all_in, dead_money)

    # -- the tablet's action panel ------------------------------------------------------------
    @property
    def legal(self) -> LegalActions | None:
        """Legal action info for the player to act (``None`` when nobody is to act)."""
        if self.phase != "betting" or self.to_act is None:
            return None
        return _legal_actions(self, self._pk())

    @property
    def to_call(self) -> int | None:
        legal = self.legal
        return None if legal is None else legal.to_call

    @property
    def min_raise_to(self) -> int | None:
        legal = self.legal
        return None if legal is None else legal.min_raise_to

    @property
    def max_raise_to(self) -> int | None:
        legal = self.legal
        return None if legal is None else legal.max_raise_to

    # -- pokerkit state ownership -------------------------------------------------------------
    def _pk(self) -> State:
        """This state's pokerkit state (rebuilt when it was moved to a successor)."""
        with self._engine.lock:
            if self._engine.pk is None:
                self._engine.pk = self._rebuild_pk()
            return self._engine.pk

    def _take_pk(self) -> State:
        """Move the pokerkit state out of this state (for a successor to mutate)."""
        with self._engine.lock:
            pk, self._engine.pk = self._engine.pk, None
        return pk if pk is not None else self._rebuild_pk()

    def _rebuild_pk(self) -> State:
        rebuilt = reduce(_evolve, self.history, None)
        assert rebuilt is not None and rebuilt._engine.pk is not None
        return rebuilt._engine.pk


def evolve(state: HandState | None, event: DomainEvent) -> HandState:
    """Apply one recorded event; ``None`` + :class:`HandStarted` starts a hand."""
    new = _evolve(state, event)
    if new is None:  # pragma: no cover - _evolve only returns None for None input
        raise ValueError("no state")
    return new


def load(events: Iterable[DomainEvent]) -> HandState | None:
    """Fold a hand's events (``None`` for no events)."""
    return reduce(_evolve, events, None)


def _evolve(state: HandState | None, event: DomainEvent) -> HandState | None:
    if isinstance(event, HandStarted):
        if state is not None:
            raise ValueError("HandStarted on a started hand")
        return _start(event)
    if state is None:
        raise ValueError(f"{type(event).__name__} before HandStarted")
    history = (*state.history, event)
    if isinstance(event, FloorEvent):  # a ruling in the hand's stream (hand_rulings)
        return _successor(state, history)
    if isinstance(event, ActionTaken):
        return _apply_action(state, event, history)
    if isinstance(event, BoardDealt):
        return _apply_board(state, event, history)
    if isinstance(event, CardsShown):
        seats = update_seat(state.seats, event.seat, shown=event.cards)
        return _successor(state, history, seats=seats)
    if isinstance(event, CardsMucked):
        seats = update_seat(state.seats, event.seat, mucked=True)
        return _successor(state, history, seats=seats)
    if isinstance(event, HandSettled):
        final = {s.seat: s.stack for s in event.final_stacks}
        seats = tuple(_seat_with(s, stack=final.get(s.seat, s.stack), bet=0) for s in state.seats)
        return _successor(state, history, seats=seats, phase="complete", to_act=None, result=event)
    if isinstance(event, RunItTimesAgreed):
        return _successor(state, history, run_boards=((),) * event.times)
    if isinstance(event, HandVoided):
        final = {s.seat: s.stack for s in event.final_stacks}
        seats = tuple(_seat_with(s, stack=final.get(s.seat, s.stack), bet=0) for s in state.seats)
        return _successor(state, history, seats=seats, phase="complete", to_act=None, voided=event)
    if isinstance(event, RabbitHunted):
        seat = state.seat_state(event.seat)
        assert seat is not None
        seats = update_seat(state.seats, event.seat, stack=seat.stack - event.fee)
        return _successor(state, history, seats=seats, rabbit=event)
    raise ValueError(f"not a hand event: {type(event).__name__}")


def _successor(
    state: HandState,
    history: tuple[DomainEvent, ...],
    *,
    seats: tuple[SeatState, ...] | None = None,
    board: tuple[str, ...] | None = None,
    phase: Phase | None = None,
    to_act: int | Literal["same"] | None = "same",
    result: HandSettled | None = None,
    run_boards: tuple[tuple[str, ...], ...] | None = None,
    voided: HandVoided | None = None,
    rabbit: RabbitHunted | None = None,
    engine_box: _Engine | None = None,
) -> HandState:
    """A new state (cheaper than ``dataclasses.replace``); unchanged parts are shared."""
    return HandState(
        state.started,
        state.seats if seats is None else seats,
        state.board if board is None else board,
        state.phase if phase is None else phase,
        state.to_act if to_act == "same" else to_act,
        state.result if result is None else result,
        state.run_boards if run_boards is None else run_boards,
        state.voided if voided is None else voided,
        state.rabbit if rabbit is None else rabbit,
        state.order,
        history,
        state._engine if engine_box is None else engine_box,
    )


def _seat_with(
    s: SeatState,
    *,
    stack: int | None = None,
    bet: int | None = None,
    contributed: int | None = None,
    folded: bool | None = None,
    shown: str | None = None,
    mucked: bool | None = None,
) -> SeatState:
    return SeatState(
        s.seat,
        s.player_id,
        s.starting_stack,
        s.stack if stack is None else stack,
        s.bet if bet is None else bet,
        s.contributed if contributed is None else contributed,
        s.ante,
        s.folded if folded is None else folded,
        s.shown if shown is None else shown,
        s.mucked if mucked is None else mucked,
    )


def update_seat(
    seats: tuple[SeatState, ...],
    seat: int,
    *,
    stack: int | None = None,
    bet: int | None = None,
    contributed: int | None = None,
    folded: bool | None = None,
    shown: str | None = None,
    mucked: bool | None = None,
) -> tuple[SeatState, ...]:
    return tuple(
        _seat_with(
            s,
            stack=stack,
            bet=bet,
            contributed=contributed,
            folded=folded,
            shown=shown,
            mucked=mucked,
        )
        if s.seat == seat
        else s
        for s in seats
    )


def street_after(board_size: int) -> Street:
    return STREETS[(0, 3, 4).index(board_size)]


def _posted_seats(posts: Iterable[ForcedBet], kind: str) -> tuple[int, ...]:
    return tuple(p.seat for p in posts if p.kind == kind)


def _start(event: HandStarted) -> HandState:
    pk = engine.create_state(event)
    paid: dict[int, int] = {}
    live: dict[int, int] = {}
    for post in event.posts:
        paid[post.seat] = paid.get(post.seat, 0) + post.amount
        if post.kind in LIVE_POSTS:
            live[post.seat] = live.get(post.seat, 0) + post.amount
    antes = {p.seat: p.amount for p in event.posts if p.kind == "ante"}
    seats = tuple(
        SeatState(
            seat=s.seat,
            player_id=s.player_id,
            starting_stack=s.stack,
            stack=s.stack - paid.get(s.seat, 0),
            bet=live.get(s.seat, 0),
            contributed=paid.get(s.seat, 0),
            ante=antes.get(s.seat, 0),
        )
        for s in sorted(event.seats, key=lambda s: s.seat)
    )
    expected_posts = forced_bets(
        event.button_seat,
        event.seats,
        small_blind=event.small_blind,
        big_blind=event.big_blind,
        ante=event.ante,
        ante_type=event.ante_type,
        straddles=_posted_seats(event.posts, "straddle"),
        small_blind_seat=event.small_blind_seat,
        big_blind_seat=event.big_blind_seat,
        dead_small_blinds=_posted_seats(event.posts, "dead_sb"),
        posted_big_blinds=_posted_seats(event.posts, "posted_bb"),
        posted_small_blinds=_posted_seats(event.posts, "posted_sb"),
    )
    if event.posts != expected_posts:  # pokerkit posts these; the event must agree
        raise ValueError("HandStarted.posts disagree with the stakes and stacks")
    order = acting_order(event.button_seat, [s.seat for s in seats])
    base = HandState(started=event, seats=seats, order=order, history=(event,), _engine=_Engine(pk))
    return _with_progress(base, pk)


def _apply_action(
    state: HandState, event: ActionTaken, history: tuple[DomainEvent, ...]
) -> HandState:
    pk = state._take_pk()
    if event.action == "fold":  # in turn, or a dead hand out of turn (engine.kill)
        engine.kill(pk, state.order.index(event.seat))
        seats = update_seat(state.seats, event.seat, folded=True)
    else:
        if event.action in ("check", "call"):
            pk.check_or_call()
        else:
            pk.complete_bet_or_raise_to(event.amount_to)
        seat = state.seat_state(event.seat)
        assert seat is not None
        seats = update_seat(
            state.seats,
            event.seat,
            stack=seat.stack - event.added,
            bet=seat.bet + event.added,
            contributed=seat.contributed + event.added,
        )
    new = _successor(state, history, seats=seats, engine_box=_Engine(pk))
    return _with_progress(new, pk)


def _apply_board(
    state: HandState, event: BoardDealt, history: tuple[DomainEvent, ...]
) -> HandState:
    cards = parse_cards(event.cards)
    seats = tuple(_seat_with(s, bet=0) if s.bet else s for s in state.seats)
    if not 1 <= event.run <= state.run_count:
        raise ValueError(f"BoardDealt for run {event.run} of {state.run_count}")
    if state.run_boards:  # one run's cards (RAKE-10): pokerkit is no longer involved
        runs = list(state.run_boards)
        runs[event.run - 1] = runs[event.run - 1] + cards
        return _successor(state, history, seats=seats, run_boards=tuple(runs))
    board = state.board + cards
    if state.phase == "awaiting_board":
        pk = state._take_pk()
        engine.deal_board(pk, "".join(cards))
        new = _successor(state, history, seats=seats, board=board, engine_box=_Engine(pk))
        return _with_progress(new, pk)
    # showdown runout: pokerkit is no longer involved
    return _successor(state, history, seats=seats, board=board)


def _with_progress(state: HandState, pk: State) -> HandState:
    """Phase and player to act after pokerkit moved on (``state`` is fresh: set in place)."""
    actor = pk.actor_index
    phase: Phase
    to_act = None
    if actor is not None:
        phase, to_act = "betting", state.order[actor]
    else:
        live = [s for s in state.seats if s.live]
        with_chips = sum(1 for s in live if s.stack > 0)
        if len(live) <= 1 or len(state.board) >= 5 or with_chips <= 1:
            phase = "showdown"
        else:
            phase = "awaiting_board"
    return _successor(state, state.history, phase=phase, to_act=to_act, engine_box=state._engine)


def seat_in_hand(state: HandState, seat: int, *, rule: str = "SEAT-12") -> SeatState:
    """The seat's state in this hand.

    Raises:
        HandRuleViolation ``seat_not_in_hand``: the seat was not dealt in, citing ``rule``
        (the rule of the command that named it; SEAT-12 by default).
    """
    found = state.seat_state(seat)
    if found is None:
        raise HandRuleViolation(
            "seat_not_in_hand", rule, f"Seat {seat} is not dealt in.", seat=seat
        )
    return found


def facing(state: HandState) -> int:
    """The bet to match on this street: the largest bet and, preflop, at least the full big
    blind when the big blind posted short (SEAT-8: the others play as if it were full)."""
    top = max(s.bet for s in state.seats)
    if state.board or state.started.big_blind <= top:
        return top
    bb_seat = state.big_blind_seat
    # he posted short, or all he had went in his per-player ante
    if any(p.seat == bb_seat and p.kind in ("big_blind", "ante") for p in state.started.posts):
        return state.started.big_blind
    return top


def _street_actions(state: HandState) -> list[ActionTaken]:
    """The betting actions of the current street, in order."""
    actions: list[ActionTaken] = []
    for event in state.history:
        if isinstance(event, BoardDealt):
            actions = []
        elif isinstance(event, ActionTaken):
            actions.append(event)
    return actions


def house_reopen_refusal(state: HandState, seat: SeatState) -> HandRuleViolation | None:
    """BET-9 with BET-14 (``double_last`` tables): a player who already acted on this street
    may raise again only if a full raise by the house rule (at least twice the bet it
    raised) came after his last action; all-in raises below it do not reopen the betting.
    ``None`` when he may raise (or the table uses another rule)."""
    if state.started.min_raise_rule != "double_last":
        return None
    actions = _street_actions(state)
    mine = [i for i, a in enumerate(actions) if a.seat == seat.seat]
    if not mine:
        return None
    top = 0
    if not state.board:
        top = max((p.amount for p in state.started.posts if p.kind in LIVE_POSTS), default=0)
        if any(p.kind == "big_blind" for p in state.started.posts):
            top = max(top, state.started.big_blind)
    reopened = False
    for i, action in enumerate(actions):
        if action.action in ("bet", "raise") and action.amount_to > top:
            if i > mine[-1] and (top == 0 or action.amount_to >= 2 * top):
                reopened = True
            top = action.amount_to
    if reopened or not any(a.action in ("bet", "raise") for a in actions[mine[-1] + 1 :]):
        return None
    return HandRuleViolation(
        "raise_not_reopened",
        "BET-14",
        "An all-in below the house minimum raise (twice the bet, BET-9) did not reopen the "
        "betting: call or fold.",
        seat=seat.seat,
    )


def raise_refusal(pk: State, seat: SeatState, max_bet: int) -> HandRuleViolation | None:
    """Why the actor may not bet or raise at all (``None`` if he may)."""
    if seat.bet + seat.stack <= max_bet:
        return HandRuleViolation(
            "amount_exceeds_stack",
            "BI-6",  # table stakes: only his chips on the table play
            "The stack only covers a call (all-in).",
            seat=seat.seat,
            max_amount_to=seat.bet + seat.stack,
        )
    try:
        pk.verify_completion_betting_or_raising_to()
    except ValueError as error:
        message = str(error)
        if "Short all-in" in message or "already acted" in message:
            return HandRuleViolation(
                "raise_not_reopened",
                "BET-14",
                "A short all-in did not reopen the betting: call or fold.",
                seat=seat.seat,
            )
        if "every other player" in message:
            return HandRuleViolation(
                "opponents_all_in",
                "BET-1",
                "Every other player is all-in or folded: call or fold.",
                seat=seat.seat,
            )
        return HandRuleViolation("raise_not_allowed", "BET-4", message, seat=seat.seat)
    return None


def limit_cap_refusal(state: HandState, seat: SeatState) -> HandRuleViolation | None:
    """Fixed limit: why the actor may not bet or raise (BET-5/BET-6 cap), else ``None``."""
    if not limit.is_limit(state.game):
        return None
    lifted = state.started.limit_cap_lifted_heads_up
    live = sum(1 for s in state.seats if not s.folded)
    if not limit.cap_reached(state.history, live_players=live, lifted_heads_up=lifted):
        return None
    return HandRuleViolation(
        "raise_cap_reached",
        "BET-6" if lifted else "BET-5",
        "The betting is capped: a bet and three raises per round. Call or fold.",
        seat=seat.seat,
        raises_per_round=limit.RAISES_PER_ROUND,
    )


def last_straddle(state: HandState) -> int:
    """The last straddle posted, while it sets the preflop raise size (else 0)."""
    if state.board:
        return 0
    return max((p.amount for p in state.started.posts if p.kind == "straddle"), default=0)


def house_min_raise_to(state: HandState, pk: State, seat: SeatState, max_bet: int) -> int:
    """Minimum bet/raise street total, with the house "double the last" rule (BET-9) and,
    preflop, a raise by at least the last straddle (SEAT-18/19)."""
    minimum = pk.min_completion_betting_or_raising_to_amount
    assert minimum is not None
    if limit.is_limit(state.game):  # the fixed step (BET-5): no house minimum on top
        return min(minimum, seat.bet + seat.stack)
    if state.started.min_raise_rule == "double_last":
        minimum = max(minimum, 2 * max_bet)
    straddle = last_straddle(state)
    if straddle:
        minimum = max(minimum, max_bet + straddle)
    return min(minimum, seat.bet + seat.stack)


def _legal_actions(state: HandState, pk: State) -> LegalActions:
    assert state.to_act is not None
    seat = state.seat_state(state.to_act)
    assert seat is not None
    max_bet = facing(state)
    to_call = min(seat.stack, max_bet - seat.bet)
    can_raise_at_all = (
        limit_cap_refusal(state, seat)
        or raise_refusal(pk, seat, max_bet)
        or house_reopen_refusal(state, seat)
    ) is None
    min_to = max_to = None
    if can_raise_at_all:
        min_to = house_min_raise_to(state, pk, seat, max_bet)
        max_to = pk.max_completion_betting_or_raising_to_amount
    all_in_to = seat.bet + seat.stack
    if limit.is_limit(state.game):  # what "all in" puts in: the fixed step, or a call once
        # the betting is capped (it showed the whole stack and put in one step: found by QA)
        all_in_to = min(all_in_to, min_to) if min_to is not None else seat.bet + to_call
    return LegalActions(
        seat=seat.seat,
        to_call=to_call,
        call_to=seat.bet + to_call,
        can_check=to_call == 0,
        can_fold=not (state.started.mode == "tournament" and to_call == 0),
        can_bet=can_raise_at_all and max_bet == 0,
        can_raise=can_raise_at_all and max_bet > 0,
        min_raise_to=min_to,
        max_raise_to=max_to,
        all_in_to=all_in_to,
    )


def pot_inputs(started: HandStarted, seats: Iterable[SeatState]) -> tuple[dict[int, int], int]:
    """Contributions for the pot levels, and the dead money (a big-blind ante, dead small
    blinds): dead money is in the main pot but no seat's bet, so it never raises the level
    a seat can win from the others nor comes back as uncalled."""
    dead = {p.seat: p.amount for p in started.posts if p.kind == "dead_sb"}
    if started.ante_type == "big_blind":
        seats = list(seats)
        dead = {s.seat: dead.get(s.seat, 0) + s.ante for s in seats}
    if not dead:
        return {s.seat: s.contributed for s in seats}, 0
    return {s.seat: s.contributed - dead.get(s.seat, 0) for s in seats}, sum(dead.values())
