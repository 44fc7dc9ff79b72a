"""The hand aggregate: ``decide(state, command) -> events`` and ``evolve(state, event)``.

``decide`` never changes ``state``: it returns the events a command leads to, or raises
:class:`HandRuleViolation`. ``evolve`` returns a new :class:`HandState`; a hand is loaded by
folding its events from ``None``::

    state = functools.reduce(evolve, events, None)

Betting legality comes from pokerkit (:mod:`tables.domain.engine`), with the house's
"double the last bet" minimum raise (BET-9) as an extra check. Pots, rake and odd chips are
ours (:mod:`tables.domain.pots`); hands are evaluated with phevaluator.

Refusal codes (:class:`HandRuleViolation` ``code`` / ``rule``):

* start: ``hand_already_started``, ``wrong_player_count`` / ``invalid_seat`` /
  ``duplicate_player`` (SEAT-3), ``seat_has_no_chips`` (SEAT-8), ``invalid_button``
  (SEAT-4), ``unsupported_game`` (BET-4), ``invalid_stakes`` (SEAT-7), ``invalid_config``
  (BET-8; MIS-1 for the misdeal window), ``invalid_rake`` (RAKE-1);
* placed blinds (start): ``invalid_blind_seat`` (SEAT-5: a blind not dealt in, both blinds on
  one seat, a small blind without the big blind's seat; SEAT-10: heads-up the button must
  post the small blind), ``blinds_out_of_order`` (SEAT-7: the small blind is the seat dealt
  in just before the big blind, neither blind on the button);
* owed blinds (start): ``seat_not_in_hand`` (SEAT-12), ``invalid_post`` (SEAT-16: posted
  twice, by a blind, or heads-up);
* straddles (start): ``straddle_not_allowed`` (SEAT-18: tournament, heads-up, or a seat
  posting an owed blind live),
  ``seat_not_in_hand`` (SEAT-12), ``mississippi_straddle_not_allowed`` (SEAT-20: not the
  seat left of the big blind, or not the next seat of the chain), ``straddle_past_button``
  (SEAT-19), ``straddle_exceeds_stack`` (SEAT-18: a straddle is posted in full);
* any command: ``hand_not_started``, ``hand_already_complete`` (SD-25), ``seat_not_in_hand``
  (SEAT-12), ``seat_folded``;
* actions: ``unknown_action`` (BET-16), ``no_betting_now`` (BET-1), ``not_your_turn``
  (BET-25), ``fold_not_allowed`` (tournament, nothing to call), ``check_not_allowed``,
  ``nothing_to_call``, ``bet_not_allowed``, ``nothing_to_raise`` (BET-1), ``amount_required``
  (BET-18), ``amount_exceeds_stack`` (BET-24), ``bet_below_minimum`` (BET-3),
  ``raise_below_minimum`` (BET-8, BET-9 under ``double_last``, SEAT-18 below twice the
  straddle preflop), ``bet_above_pot_limit`` /
  ``raise_above_pot_limit`` (BET-4), ``raise_not_reopened`` (BET-14), ``opponents_all_in``
  (BET-1);
* board: ``betting_round_not_complete`` (BET-1), ``wrong_board_street`` (BET-2),
  ``wrong_card_count`` (MIS-17), ``invalid_cards`` (MIS-13), ``duplicate_card`` (MIS-12),
  ``invalid_run`` (RAKE-10: no such run);
* run it more than once: ``run_it_not_allowed`` (RAKE-10: tournament),
  ``invalid_run_count`` (RAKE-10: 2 or 3), ``run_count_already_set`` (RAKE-10),
  ``run_it_not_available`` (RAKE-10: not an all-in with the board to come);
* showdown: ``not_at_showdown`` (BET-31), ``wrong_card_count`` (SD-3),
  ``cards_already_shown`` (SD-3), ``cards_already_mucked`` (SD-7), ``last_live_hand``
  (SD-16), ``invalid_cards``, ``duplicate_card``;
* manual award: ``not_at_showdown`` (SD-1), ``board_not_complete`` (SD-2),
  ``wrong_pot_count`` / ``pot_without_winner`` / ``seat_not_eligible`` (SD-20),
  ``duplicate_winner`` (SD-21), ``wrong_run_count`` (RAKE-10: winners per run);
* misdeal / void: ``reason_required`` (MIS-1 / MIS-11), ``misdeal_too_late`` (MIS-1 when
  any action counts, MIS-2 for a threshold of 3 or more, MIS-3 when only active actions
  count or the flop is out);
* rabbit hunt: ``rabbit_hunt_not_allowed`` (RAKE-7: tournament), ``hand_not_complete``,
  ``hand_voided``, ``rabbit_hunt_already_recorded``, ``invalid_fee``,
  ``fee_exceeds_stack``, ``nothing_to_hunt``, ``wrong_card_count`` (RAKE-8),
  ``invalid_cards``, ``duplicate_card``.

Straddles (SEAT-18..20) are live blinds posted with the blinds (``HandStarted.posts``, kind
``straddle``); pokerkit gets them as ``blinds_or_straddles`` (``(sb, bb, 2bb, 4bb, ...)`` in
its player order, index 2 being the seat left of the big blind), so it opens the preflop
action left of the largest forced bet and gives the last straddler the option. pokerkit's
minimum raise over a straddle is one big blind; the house minimum preflop is a raise by
the last straddle (to twice the straddle), an extra check like BET-9. pokerkit ignores
straddles heads-up (it keeps only the two blinds), so heads-up straddles are refused.

Placed and owed blinds (SEAT-5, SEAT-10/11, SEAT-15, SEAT-16; the table decides them, see
:mod:`tables.domain.blinds`): :class:`StartHand` may name the big blind's seat and the small
blind's (``None``: a dead small blind) instead of leaving them to position, with the button
on a seat not dealt in (a dead button), and seats posting owed blinds. pokerkit takes all of
it per player (``raw_blinds_or_straddles`` / ``raw_antes`` in its player order, see
:func:`tables.domain.engine.create_state`): a dead small blind is a 0 in that player's
place; a live owed blind (``posted_bb``, ``posted_sb``) is a negative value, pokerkit's
"post", which is the player's bet (toward his call, with the option when the action comes
back) but never decides who opens; a dead owed small blind (``dead_sb``) is added to the
player's ante, so it is in pokerkit's pot (pot limit counts it) without being a bet. Our
pots treat a ``dead_sb`` like a big-blind ante: dead money in the main pot, never part of a
seat's level nor returned as uncalled. pokerkit swaps the blinds of a heads-up hand itself,
so it can only express the button posting the small blind heads-up: a heads-up dead small
blind, or owed blinds heads-up, are refused (the table never asks for them, SEAT-10).

Run it more than once (RAKE-10): pokerkit decides betting only. Once the betting is over
it is not touched, so the runs are ours: after :class:`RunItTimesAgreed`, ``board`` keeps
the cards common to every run and ``run_boards`` each run's own cards; the showdown ranks
every live hand on each run's board and :mod:`tables.domain.pots` splits each pot across the
runs (rules there). pokerkit's own runout selection (``select_runout_count``) is automated
to one board.

A misdeal (:class:`DeclareMisdeal`) counts the recorded actions against the window in
``HandStarted``; a void (:class:`VoidHand`) has no window. Both end the hand with
:class:`HandVoided` (state complete, ``result`` ``None``, stacks back to the start). A rabbit
hunt after a settled cash hand takes the fee from the requester's stack (``stacks``), never
from ``result``.

A short big blind (SEAT-8) posts all he has and is all-in; the others play as if the full
blind were posted: preflop the bet to match is at least the full big blind
(:func:`_facing`), so the call is the full blind and the minimum raise is from there
(pokerkit is given the blind in full, see :func:`tables.domain.engine.create_state`).

On ``double_last`` tables (BET-9) an all-in raise below the house minimum (twice the bet it
raises) is incomplete: it does not reopen the betting for a player who already acted on the
street (BET-14), even when it is a full raise by pokerkit's previous-increment measure
(:func:`_house_reopen_refusal`).

Implementation note: the pokerkit state is mutable and costly to copy, so a
:class:`HandState` does not copy it. ``evolve`` moves it to the new state; an older state
whose pokerkit state was moved on rebuilds its own (by folding its events again) the first
time it needs it. Observable behaviour is that of an immutable value; a state object is not
meant to be shared between threads.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import reduce
from typing import Literal

from phevaluator import evaluate_cards, evaluate_omaha_cards
from pokerkit import State

from casino.domain_events import DomainEvent
from tables.domain import engine, limit
from tables.domain.cards import check_no_duplicates, parse_cards
from tables.domain.commands import (
    AwardPots,
    DealBoard,
    DeclareMisdeal,
    HandCommand,
    MuckCards,
    RecordRabbitHunt,
    RunItTimes,
    ShowCards,
    StartHand,
    TakeAction,
    VoidHand,
)
from tables.domain.errors import HandRuleViolation
from tables.domain.pots import (
    Pot,
    PotDecider,
    PotDecision,
    Settlement,
    build_pots,
    return_uncalled,
    settle_pots,
)
from tables.domain.seating import (
    MAX_SEATS,
    acting_order,
    blind_seats,
    forced_bets,
    straddle_amounts,
    straddle_chain,
)
from tables.events import (
    ActionKind,
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
    SeatAmount,
    SeatInHand,
    SeatStack,
    SettleMethod,
    Street,
    VoidKind,
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
    all-in below ``min_raise_to`` is always allowed. ``all_in_to`` is his all-in total.
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
                return _street_after(len(board))
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
        contributions, dead_money = _pot_inputs(self.started, self.seats)
        called, _ = return_uncalled(contributions)
        return build_pots(called, self.live_seats, dead_money)

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


# ==========================================================================================
# evolve
# ==========================================================================================


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
        seats = _update_seat(state.seats, event.seat, shown=event.cards)
        return _successor(state, history, seats=seats)
    if isinstance(event, CardsMucked):
        seats = _update_seat(state.seats, event.seat, mucked=True)
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
        seats = _update_seat(state.seats, event.seat, stack=seat.stack - event.fee)
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


def _update_seat(
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


def _street_after(board_size: int) -> Street:
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
        seats = _update_seat(state.seats, event.seat, folded=True)
    else:
        if event.action in ("check", "call"):
            pk.check_or_call()
        else:
            pk.complete_bet_or_raise_to(event.amount_to)
        seat = state.seat_state(event.seat)
        assert seat is not None
        seats = _update_seat(
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


# ==========================================================================================
# decide
# ==========================================================================================


def decide(state: HandState | None, command: HandCommand) -> list[DomainEvent]:
    """The events ``command`` leads to; ``state`` is not changed.

    Raises:
        HandRuleViolation: the command is refused (see the codes in this module).
    """
    if isinstance(command, StartHand):
        if state is not None:
            raise HandRuleViolation(
                "hand_already_started", "SEAT-4", "This hand has already started."
            )
        return [_decide_start(command)]
    if state is None:
        raise HandRuleViolation("hand_not_started", "BET-1", "No hand is in progress.")
    if isinstance(command, RecordRabbitHunt):
        return _decide_rabbit(state, command)
    if state.is_complete:
        raise HandRuleViolation(
            "hand_already_complete", "SD-25", "The hand is over.", hand_id=state.hand_id
        )
    if isinstance(command, TakeAction):
        return _decide_action(state, command)
    if isinstance(command, DealBoard):
        return _decide_board(state, command)
    if isinstance(command, ShowCards):
        return _decide_show(state, command)
    if isinstance(command, MuckCards):
        return _decide_muck(state, command)
    if isinstance(command, AwardPots):
        return _decide_award(state, command)
    if isinstance(command, RunItTimes):
        return _decide_run_it(state, command)
    if isinstance(command, DeclareMisdeal):
        return _decide_misdeal(state, command)
    if isinstance(command, VoidHand):
        return [_void(state, "void", _reason(command.reason, "MIS-11"))]
    raise TypeError(f"not a hand command: {type(command).__name__}")


# -- StartHand --------------------------------------------------------------------------------


def _decide_start(cmd: StartHand) -> HandStarted:
    seats = sorted(cmd.seats, key=lambda s: s.seat)
    numbers = [s.seat for s in seats]
    if not 2 <= len(seats) <= MAX_SEATS:
        raise HandRuleViolation(
            "wrong_player_count",
            "SEAT-3",
            "A hand needs 2 to 10 players.",
            player_count=len(seats),
        )
    if len(set(numbers)) != len(numbers) or numbers[0] < 1 or numbers[-1] > MAX_SEATS:
        raise HandRuleViolation(
            "invalid_seat", "SEAT-3", "Seats are 1..10, each dealt in once.", seats=numbers
        )
    if len({s.player_id for s in seats}) != len(seats):
        raise HandRuleViolation(
            "duplicate_player", "SEAT-3", "A player is dealt in twice.", seats=numbers
        )
    for s in seats:
        if s.stack <= 0:
            raise HandRuleViolation(
                "seat_has_no_chips",
                "SEAT-8",
                "A seat without chips cannot be dealt in.",
                seat=s.seat,
            )
    if not 1 <= cmd.button_seat <= MAX_SEATS:
        raise HandRuleViolation(
            "invalid_button",
            "SEAT-4",
            "The button must be on seat 1..10.",
            button_seat=cmd.button_seat,
        )
    if cmd.game not in GAMES:
        raise HandRuleViolation("unsupported_game", "BET-4", "Games: NLH, PLO, FLH.", game=cmd.game)
    if (
        cmd.big_blind <= 0
        or not 0 <= cmd.small_blind <= cmd.big_blind
        or cmd.ante < 0
        or cmd.ante_type not in ANTE_TYPES
        or (cmd.ante_type == "none") != (cmd.ante == 0)
    ):
        raise HandRuleViolation(
            "invalid_stakes",
            "SEAT-7",
            "Blinds must be 0 <= small <= big, big > 0; an ante needs an ante type.",
            small_blind=cmd.small_blind,
            big_blind=cmd.big_blind,
            ante=cmd.ante,
            ante_type=cmd.ante_type,
        )
    if cmd.min_raise_rule not in MIN_RAISE_RULES or cmd.mode not in MODES:
        raise HandRuleViolation(
            "invalid_config",
            "BET-8",
            "Unknown minimum-raise rule or table mode.",
            min_raise_rule=cmd.min_raise_rule,
            mode=cmd.mode,
        )
    if not 0 <= cmd.rake_percent_bp <= 10_000 or cmd.rake_cap < 0:
        raise HandRuleViolation(
            "invalid_rake",
            "RAKE-1",
            "Rake is 0..10000 basis points with a cap >= 0.",
            rake_percent_bp=cmd.rake_percent_bp,
            rake_cap=cmd.rake_cap,
        )
    if cmd.misdeal_action_threshold < 1:
        raise HandRuleViolation(
            "invalid_config",
            "MIS-1",
            "The misdeal action threshold is at least 1.",
            misdeal_action_threshold=cmd.misdeal_action_threshold,
        )
    _check_blinds(cmd, seats)
    if cmd.straddles:
        _check_straddles(cmd, seats)
    posts = forced_bets(
        cmd.button_seat,
        seats,
        small_blind=cmd.small_blind,
        big_blind=cmd.big_blind,
        ante=cmd.ante,
        ante_type=cmd.ante_type,
        straddles=cmd.straddles,
        small_blind_seat=cmd.small_blind_seat,
        big_blind_seat=cmd.big_blind_seat,
        dead_small_blinds=cmd.dead_small_blinds,
        posted_big_blinds=cmd.posted_big_blinds,
        posted_small_blinds=cmd.posted_small_blinds,
    )
    return HandStarted(
        hand_id=cmd.hand_id,
        table_id=cmd.table_id,
        hand_number=cmd.hand_number,
        button_seat=cmd.button_seat,
        game=cmd.game,
        small_blind=cmd.small_blind,
        big_blind=cmd.big_blind,
        ante=cmd.ante,
        ante_type=cmd.ante_type,
        min_raise_rule=cmd.min_raise_rule,
        rake_percent_bp=cmd.rake_percent_bp,
        rake_cap=cmd.rake_cap,
        no_flop_no_drop=cmd.no_flop_no_drop,
        seats=tuple(seats),
        posts=posts,
        mode=cmd.mode,
        misdeal_action_threshold=cmd.misdeal_action_threshold,
        misdeal_counts_passive_actions=cmd.misdeal_counts_passive_actions,
        misdeal_allowed_after_flop=cmd.misdeal_allowed_after_flop,
        small_blind_seat=cmd.small_blind_seat if cmd.big_blind_seat is not None else None,
        big_blind_seat=cmd.big_blind_seat,
        limit_cap_lifted_heads_up=cmd.limit_cap_lifted_heads_up,
        all_in_face_up=cmd.all_in_face_up,
    )


def _check_blinds(cmd: StartHand, seats: list[SeatInHand]) -> None:
    """Placed blinds (SEAT-5, SEAT-7, SEAT-10) and owed blinds (SEAT-15, SEAT-16)."""
    numbers = [s.seat for s in seats]
    order = acting_order(cmd.button_seat, numbers)
    heads_up = len(order) == 2
    if cmd.big_blind_seat is None:
        if cmd.small_blind_seat is not None:
            raise HandRuleViolation(
                "invalid_blind_seat",
                "SEAT-5",
                "Placing the small blind needs the big blind's seat too.",
                small_blind_seat=cmd.small_blind_seat,
            )
    else:
        bb, sb = cmd.big_blind_seat, cmd.small_blind_seat
        if bb not in numbers or (sb is not None and (sb not in numbers or sb == bb)):
            raise HandRuleViolation(
                "invalid_blind_seat",
                "SEAT-5",
                "The blinds must be two different seats dealt in (no small blind: dead).",
                small_blind_seat=sb,
                big_blind_seat=bb,
            )
        if heads_up and sb != cmd.button_seat:
            raise HandRuleViolation(
                "invalid_blind_seat",
                "SEAT-10",
                "Heads-up the button posts the small blind and the other seat the big blind.",
                button_seat=cmd.button_seat,
                small_blind_seat=sb,
                big_blind_seat=bb,
            )
        bb_index = order.index(bb)
        if not heads_up and (
            bb == cmd.button_seat
            or sb == cmd.button_seat
            or (sb is not None and order.index(sb) != bb_index - 1)
        ):
            raise HandRuleViolation(
                "blinds_out_of_order",
                "SEAT-7",
                "The small blind is the seat dealt in just before the big blind, and neither"
                " blind is the button.",
                button_seat=cmd.button_seat,
                small_blind_seat=sb,
                big_blind_seat=bb,
            )
    owed = (
        ("dead_small_blinds", cmd.dead_small_blinds),
        ("posted_big_blinds", cmd.posted_big_blinds),
        ("posted_small_blinds", cmd.posted_small_blinds),
    )
    if not any(posting for _, posting in owed):
        return
    sb_seat, bb_seat = blind_seats(cmd.button_seat, order, cmd.small_blind_seat, cmd.big_blind_seat)
    for name, posting in owed:
        for seat in posting:
            if seat not in numbers:
                raise HandRuleViolation(
                    "seat_not_in_hand", "SEAT-12", f"Seat {seat} is not dealt in.", seat=seat
                )
        if heads_up or len(set(posting)) != len(posting) or {sb_seat, bb_seat} & set(posting):
            raise HandRuleViolation(
                "invalid_post",
                "SEAT-16",
                "Owed blinds are posted once each, by seats other than the blinds, and not"
                " heads-up.",
                **{name: list(posting)},
            )


def _check_straddles(cmd: StartHand, seats: list[SeatInHand]) -> None:
    """SEAT-18..20: cash only, the UTG chain up to the button, each posted in full."""
    if cmd.mode == "tournament":
        raise HandRuleViolation(
            "straddle_not_allowed",
            "SEAT-18",
            "Straddles are allowed in cash games only.",
            mode=cmd.mode,
            straddles=list(cmd.straddles),
        )
    if len(seats) == 2:
        raise HandRuleViolation(
            "straddle_not_allowed",
            "SEAT-18",
            "Heads-up nobody may straddle: the seat left of the big blind is the button,"
            " who posts the small blind.",
            player_count=2,
            straddles=list(cmd.straddles),
        )
    live_posters = set(cmd.posted_big_blinds) | set(cmd.posted_small_blinds)
    if live_posters & set(cmd.straddles):
        raise HandRuleViolation(
            "straddle_not_allowed",
            "SEAT-18",
            "A seat posting an owed blind live may not straddle.",
            straddles=list(cmd.straddles),
            seats=sorted(live_posters & set(cmd.straddles)),
        )
    by_seat = {s.seat: s for s in seats}
    chain = straddle_chain(cmd.button_seat, by_seat, cmd.big_blind_seat)
    amounts = straddle_amounts(cmd.big_blind, len(cmd.straddles))
    for i, (seat, amount) in enumerate(zip(cmd.straddles, amounts, strict=True)):
        if seat not in by_seat:
            raise HandRuleViolation(
                "seat_not_in_hand", "SEAT-12", f"Seat {seat} is not dealt in.", seat=seat
            )
        if i >= len(chain):
            raise HandRuleViolation(
                "straddle_past_button",
                "SEAT-19",
                f"The button (seat {cmd.button_seat}) is the last seat that may straddle.",
                seat=seat,
                button_seat=cmd.button_seat,
                straddle_number=i + 1,
            )
        if seat != chain[i]:
            what = "the seat left of the big blind" if i == 0 else "the next seat clockwise"
            raise HandRuleViolation(
                "mississippi_straddle_not_allowed",
                "SEAT-20",
                f"Straddle {i + 1} may only come from {what} (seat {chain[i]}), not seat {seat}.",
                seat=seat,
                expected_seat=chain[i],
                straddle_number=i + 1,
            )
        ante = min(cmd.ante, by_seat[seat].stack) if cmd.ante_type == "per_player" else 0
        if seat in cmd.dead_small_blinds:
            ante = min(ante + cmd.small_blind, by_seat[seat].stack)
        if by_seat[seat].stack - ante < amount:
            raise HandRuleViolation(
                "straddle_exceeds_stack",
                "SEAT-18",
                f"Seat {seat} cannot post the full straddle of {amount}.",
                seat=seat,
                straddle=amount,
                stack=by_seat[seat].stack,
                ante=ante,
            )


# -- TakeAction -------------------------------------------------------------------------------


def _seat_in_hand(state: HandState, seat: int) -> SeatState:
    found = state.seat_state(seat)
    if found is None:
        raise HandRuleViolation(
            "seat_not_in_hand", "SEAT-12", f"Seat {seat} is not dealt in.", seat=seat
        )
    return found


def _facing(state: HandState) -> int:
    """The bet to match on this street: the largest bet and, preflop, at least the full big
    blind when the big blind posted short (SEAT-8: the others play as if it were full)."""
    top = max(s.bet for s in state.seats)
    if state.board or state.started.big_blind <= top:
        return top
    bb_seat = state.big_blind_seat
    if any(p.seat == bb_seat and p.kind == "big_blind" for p in state.started.posts):
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


def _house_reopen_refusal(state: HandState, seat: SeatState) -> HandRuleViolation | None:
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


def _raise_refusal(pk: State, seat: SeatState, max_bet: int) -> HandRuleViolation | None:
    """Why the actor may not bet or raise at all (``None`` if he may)."""
    if seat.bet + seat.stack <= max_bet:
        return HandRuleViolation(
            "amount_exceeds_stack",
            "BET-24",
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


def _limit_cap_refusal(state: HandState, seat: SeatState) -> HandRuleViolation | None:
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


def _last_straddle(state: HandState) -> int:
    """The last straddle posted, while it sets the preflop raise size (else 0)."""
    if state.board:
        return 0
    return max((p.amount for p in state.started.posts if p.kind == "straddle"), default=0)


def _min_raise_to(state: HandState, pk: State, seat: SeatState, max_bet: int) -> int:
    """Minimum bet/raise street total, with the house "double the last" rule (BET-9) and,
    preflop, a raise by at least the last straddle (SEAT-18/19)."""
    minimum = pk.min_completion_betting_or_raising_to_amount
    assert minimum is not None
    if limit.is_limit(state.game):  # the fixed step (BET-5): no house minimum on top
        return min(minimum, seat.bet + seat.stack)
    if state.started.min_raise_rule == "double_last":
        minimum = max(minimum, 2 * max_bet)
    straddle = _last_straddle(state)
    if straddle:
        minimum = max(minimum, max_bet + straddle)
    return min(minimum, seat.bet + seat.stack)


def _legal_actions(state: HandState, pk: State) -> LegalActions:
    assert state.to_act is not None
    seat = state.seat_state(state.to_act)
    assert seat is not None
    max_bet = _facing(state)
    to_call = min(seat.stack, max_bet - seat.bet)
    can_raise_at_all = (
        _limit_cap_refusal(state, seat)
        or _raise_refusal(pk, seat, max_bet)
        or _house_reopen_refusal(state, seat)
    ) is None
    min_to = max_to = None
    if can_raise_at_all:
        min_to = _min_raise_to(state, pk, seat, max_bet)
        max_to = pk.max_completion_betting_or_raising_to_amount
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
        all_in_to=seat.bet + seat.stack,
    )


def _decide_action(state: HandState, cmd: TakeAction) -> list[DomainEvent]:
    seat = _seat_in_hand(state, cmd.seat)
    if cmd.action not in ACTIONS:
        raise HandRuleViolation(
            "unknown_action", "BET-16", f"Unknown action {cmd.action!r}.", action=cmd.action
        )
    if seat.folded:
        raise HandRuleViolation(
            "seat_folded", "BET-1", f"Seat {cmd.seat} has folded.", seat=cmd.seat
        )
    if state.phase != "betting" or state.to_act is None:
        raise HandRuleViolation(
            "no_betting_now",
            "BET-1",
            "The betting round is closed: deal the next street or go to showdown.",
            seat=cmd.seat,
            phase=state.phase,
        )
    if cmd.seat != state.to_act:
        raise HandRuleViolation(
            "not_your_turn",
            "BET-25",
            f"Seat {state.to_act} is to act, not seat {cmd.seat}.",
            seat=cmd.seat,
            to_act=state.to_act,
        )
    pk = state._pk()
    max_bet = _facing(state)
    to_call = min(seat.stack, max_bet - seat.bet)
    all_in_to = seat.bet + seat.stack
    action: str = cmd.action
    amount_to = cmd.amount_to

    if action == "all_in":
        if all_in_to <= max_bet:
            action = "call"
        else:
            refusal = (
                _limit_cap_refusal(state, seat)
                or _raise_refusal(pk, seat, max_bet)
                or _house_reopen_refusal(state, seat)
            )
            if refusal is None:
                action, amount_to = ("bet" if max_bet == 0 else "raise"), all_in_to
                if limit.is_limit(state.game):  # a limit all-in is the fixed step at most
                    amount_to = min(all_in_to, _min_raise_to(state, pk, seat, max_bet))
            elif refusal.code in ("opponents_all_in", "raise_cap_reached") and to_call > 0:
                action = "call"
            else:
                raise refusal

    if action == "fold":
        if state.started.mode == "tournament" and to_call == 0:
            raise HandRuleViolation(
                "fold_not_allowed",
                "BET-1",
                "Nothing to call: check instead of folding.",
                seat=seat.seat,
                to_call=0,
            )
        return _fold_events(state, seat)
    if action == "check":
        if to_call > 0:
            raise HandRuleViolation(
                "check_not_allowed",
                "BET-1",
                f"Seat {seat.seat} faces a bet: {to_call} to call.",
                seat=seat.seat,
                to_call=to_call,
            )
        return [ActionTaken(seat=seat.seat, action="check", amount_to=0, added=0, all_in=False)]
    if action == "call":
        if to_call == 0:
            raise HandRuleViolation(
                "nothing_to_call", "BET-1", "There is no bet to call: check.", seat=seat.seat
            )
        return [
            ActionTaken(
                seat=seat.seat,
                action="call",
                amount_to=seat.bet + to_call,
                added=to_call,
                all_in=to_call == seat.stack,
            )
        ]
    return [_bet_or_raise(state, pk, seat, action, amount_to, max_bet, to_call)]


def _bet_or_raise(
    state: HandState,
    pk: State,
    seat: SeatState,
    action: str,
    amount_to: int | None,
    max_bet: int,
    to_call: int,
) -> ActionTaken:
    is_bet = action == "bet"
    if is_bet and max_bet > 0:
        raise HandRuleViolation(
            "bet_not_allowed",
            "BET-1",
            f"There is already a bet of {max_bet}: raise instead.",
            seat=seat.seat,
            current_bet=max_bet,
        )
    if not is_bet and max_bet == 0:
        raise HandRuleViolation(
            "nothing_to_raise", "BET-1", "There is no bet to raise: bet instead.", seat=seat.seat
        )
    if amount_to is None and limit.is_limit(state.game):
        refusal = _limit_cap_refusal(state, seat) or _raise_refusal(pk, seat, max_bet)
        if refusal is not None:
            raise refusal
        amount_to = _min_raise_to(state, pk, seat, max_bet)  # the fixed step (BET-5)
    if amount_to is None:
        raise HandRuleViolation(
            "amount_required", "BET-18", f"A {action} needs an amount.", seat=seat.seat
        )
    all_in_to = seat.bet + seat.stack
    if amount_to > all_in_to:
        raise HandRuleViolation(
            "amount_exceeds_stack",
            "BET-24",
            f"Seat {seat.seat} can put in at most {all_in_to} on this street.",
            seat=seat.seat,
            amount_to=amount_to,
            max_amount_to=all_in_to,
            stack=seat.stack,
        )
    refusal = (
        _limit_cap_refusal(state, seat)
        or _raise_refusal(pk, seat, max_bet)
        or _house_reopen_refusal(state, seat)
    )
    if refusal is not None:
        raise refusal
    min_to = _min_raise_to(state, pk, seat, max_bet)
    max_to = pk.max_completion_betting_or_raising_to_amount
    assert max_to is not None
    is_all_in = amount_to == all_in_to
    if (amount_to < min_to and not is_all_in) or amount_to <= max_bet:
        if is_bet:
            code, rule = "bet_below_minimum", "BET-3"
        else:
            code = "raise_below_minimum"
            pk_min = pk.min_completion_betting_or_raising_to_amount
            assert pk_min is not None
            if amount_to < pk_min or amount_to <= max_bet:
                rule = "BET-8"
            elif amount_to < max_bet + _last_straddle(state):
                rule = "SEAT-18"
            else:
                rule = "BET-9"
        raise HandRuleViolation(
            code,
            rule,
            f"The minimum {action} is to {min_to}.",
            seat=seat.seat,
            amount_to=amount_to,
            min_raise_to=min_to,
            to_call=to_call,
        )
    if amount_to > max_to and limit.is_limit(state.game):
        raise HandRuleViolation(
            "not_the_limit_step",
            "BET-5",
            f"Fixed limit: a {action} is to {max_to} exactly.",
            seat=seat.seat,
            amount_to=amount_to,
            max_raise_to=max_to,
        )
    if amount_to > max_to:
        raise HandRuleViolation(
            "bet_above_pot_limit" if is_bet else "raise_above_pot_limit",
            "BET-4",
            f"Pot limit: the maximum {action} is to {max_to}.",
            seat=seat.seat,
            amount_to=amount_to,
            max_raise_to=max_to,
        )
    return ActionTaken(
        seat=seat.seat,
        action="bet" if is_bet else "raise",
        amount_to=amount_to,
        added=amount_to - seat.bet,
        all_in=is_all_in,
    )


def _fold_events(state: HandState, seat: SeatState) -> list[DomainEvent]:
    fold = ActionTaken(seat=seat.seat, action="fold", amount_to=0, added=0, all_in=False)
    after = _update_seat(state.seats, seat.seat, folded=True)
    live = [s.seat for s in after if s.live]
    if len(live) > 1:
        return [fold]
    winner = live[0]
    settled = _settle(state, after, "uncontested", lambda pot: PotDecision(winners=(winner,)))
    return [fold, settled]


# -- DealBoard --------------------------------------------------------------------------------


def _decide_board(state: HandState, cmd: DealBoard) -> list[DomainEvent]:
    if state.phase == "betting":
        raise HandRuleViolation(
            "betting_round_not_complete",
            "BET-1",
            f"Seat {state.to_act} is still to act.",
            to_act=state.to_act,
        )
    if not 1 <= cmd.run <= state.run_count:
        raise HandRuleViolation(
            "invalid_run",
            "RAKE-10",
            f"The board is run {state.run_count} time(s): there is no run {cmd.run}.",
            run=cmd.run,
            run_count=state.run_count,
        )
    if state.run_boards:
        size = len(state.board) + len(state.run_boards[cmd.run - 1])
        expected = None if size >= 5 else _street_after(size)
    else:
        expected = state.next_street
    if cmd.street != expected:
        raise HandRuleViolation(
            "wrong_board_street",
            "BET-2",
            f"The next street is {expected}, not {cmd.street}.",
            street=cmd.street,
            expected_street=expected,
            run=cmd.run,
        )
    cards = parse_cards(cmd.cards)
    if len(cards) != CARDS_PER_STREET[cmd.street]:
        raise HandRuleViolation(
            "wrong_card_count",
            "MIS-17",
            f"The {cmd.street} is {CARDS_PER_STREET[cmd.street]} card(s).",
            street=cmd.street,
            card_count=len(cards),
        )
    check_no_duplicates(cards, _cards_in_play(state))
    event = BoardDealt(street=cmd.street, cards="".join(cards), run=cmd.run)
    if state.phase != "showdown":
        return [event]
    return [event, *_settle_if_ready(evolve(state, event))]


def _cards_in_play(state: HandState) -> list[str]:
    cards = list(state.board)
    for extra in state.run_boards:
        cards.extend(extra)
    for s in state.seats:
        if s.shown:
            cards.extend(parse_cards(s.shown))
    return cards


# -- ShowCards / MuckCards ------------------------------------------------------------------


def _showdown_seat(state: HandState, seat_number: int) -> SeatState:
    seat = _seat_in_hand(state, seat_number)
    if seat.folded:
        raise HandRuleViolation(
            "seat_folded", "SD-16", f"Seat {seat.seat} has folded.", seat=seat.seat
        )
    if state.phase != "showdown":
        raise HandRuleViolation(
            "not_at_showdown",
            "BET-31",
            "Hands are shown or mucked only once the betting is over.",
            seat=seat.seat,
            phase=state.phase,
        )
    if seat.shown is not None:
        raise HandRuleViolation(
            "cards_already_shown", "SD-3", f"Seat {seat.seat} has shown.", seat=seat.seat
        )
    if seat.mucked:
        raise HandRuleViolation(
            "cards_already_mucked", "SD-7", f"Seat {seat.seat} has mucked.", seat=seat.seat
        )
    return seat


def _decide_show(state: HandState, cmd: ShowCards) -> list[DomainEvent]:
    seat = _showdown_seat(state, cmd.seat)
    cards = parse_cards(cmd.cards)
    needed = engine.HOLE_CARD_COUNT[state.game]
    if len(cards) != needed:
        raise HandRuleViolation(
            "wrong_card_count",
            "SD-3",
            f"Show all {needed} hole cards.",
            seat=seat.seat,
            card_count=len(cards),
            expected=needed,
        )
    check_no_duplicates(cards, _cards_in_play(state))
    event = CardsShown(seat=seat.seat, cards="".join(cards))
    return [event, *_settle_if_ready(evolve(state, event))]


def _decide_muck(state: HandState, cmd: MuckCards) -> list[DomainEvent]:
    seat = _showdown_seat(state, cmd.seat)
    if state.started.all_in_face_up and any(s.all_in for s in state.seats if s.live):
        rule = "SD-11" if state.started.mode == "tournament" else "SD-10"
        raise HandRuleViolation(
            "all_in_hands_face_up",
            "SD-12" if seat.all_in else rule,
            "A player is all-in: every live hand is turned face up; none is mucked unseen.",
            seat=seat.seat,
        )
    for pot in state.pots():
        if pot.eligible_seats == (seat.seat,) and len(state.live_seats) > 1:
            raise HandRuleViolation(
                "last_live_hand",
                "SD-16",
                f"Seat {seat.seat} is the last live hand in pot {pot.index}: show, or award"
                " the pots.",
                seat=seat.seat,
                pot_index=pot.index,
            )
    event = CardsMucked(seat=seat.seat)
    return [event, *_settle_if_ready(evolve(state, event))]


def _settle_if_ready(state: HandState) -> list[DomainEvent]:
    """``HandSettled`` when the showdown is decided, else nothing."""
    live = [s for s in state.seats if s.live]
    if len(live) == 1:
        winner = live[0].seat
        return [_settle(state, state.seats, "uncontested", lambda pot: PotDecision((winner,)))]
    boards = state.boards
    if any(len(board) < 5 for board in boards) or any(s.shown is None for s in live):
        return []
    ranks_by_run = [
        {s.seat: _rank(state.game, board, s.shown) for s in live if s.shown} for board in boards
    ]

    def best_on(ranks: dict[int, int], pot: Pot) -> PotDecision:
        best = min(ranks[seat] for seat in pot.eligible_seats)
        return PotDecision(
            winners=tuple(seat for seat in pot.eligible_seats if ranks[seat] == best),
            hand_rank=best,
        )

    def by_cards(pot: Pot) -> PotDecision | tuple[PotDecision, ...]:
        decisions = tuple(best_on(ranks, pot) for ranks in ranks_by_run)
        return decisions[0] if len(decisions) == 1 else decisions

    return [_settle(state, state.seats, "showdown", by_cards)]


def _rank(game: str, board: tuple[str, ...], shown: str) -> int:
    hole = parse_cards(shown)
    if game == "PLO":
        return int(evaluate_omaha_cards(*board, *hole))
    return int(evaluate_cards(*board, *hole))


# -- AwardPots --------------------------------------------------------------------------------


def _decide_award(state: HandState, cmd: AwardPots) -> list[DomainEvent]:
    if state.phase != "showdown":
        raise HandRuleViolation(
            "not_at_showdown",
            "SD-1",
            "Pots are awarded once the betting is over.",
            phase=state.phase,
        )
    if any(len(board) < 5 for board in state.boards):
        raise HandRuleViolation(
            "board_not_complete",
            "SD-2",
            "Deal the rest of the board before awarding the pots.",
            next_street=state.next_street,
            next_run=state.next_run,
        )
    runs = state.run_count
    by_run = cmd.winners_by_run if runs > 1 else (cmd.winners_by_pot,)
    if (runs > 1 and cmd.winners_by_pot) or (runs == 1 and cmd.winners_by_run):
        raise HandRuleViolation(
            "wrong_run_count",
            "RAKE-10",
            "Name the winners by run (winners_by_run) when the board was run more than once,"
            " by pot (winners_by_pot) otherwise.",
            run_count=runs,
        )
    if len(by_run) != runs:
        raise HandRuleViolation(
            "wrong_run_count",
            "RAKE-10",
            f"The board was run {runs} times: name the winners of each run.",
            run_count=runs,
            given=len(by_run),
        )
    pots = state.pots()
    for run, winners_by_pot in enumerate(by_run, 1):
        _check_manual_winners(pots, winners_by_pot, run if runs > 1 else None)
    chosen = [
        {pot.index: tuple(w) for pot, w in zip(pots, winners_by_pot, strict=True)}
        for winners_by_pot in by_run
    ]

    def decide_pot(pot: Pot) -> PotDecision | tuple[PotDecision, ...]:
        decisions = tuple(PotDecision(run[pot.index]) for run in chosen)
        return decisions[0] if len(decisions) == 1 else decisions

    return [_settle(state, state.seats, "manual", decide_pot)]


def _check_manual_winners(
    pots: tuple[Pot, ...], winners_by_pot: tuple[tuple[int, ...], ...], run: int | None
) -> None:
    """SD-20/SD-21 checks of one run's manual award (``run`` is ``None`` for one board)."""
    where = {} if run is None else {"run": run}
    if len(winners_by_pot) != len(pots):
        raise HandRuleViolation(
            "wrong_pot_count",
            "SD-20",
            f"There are {len(pots)} pots.",
            pot_count=len(pots),
            given=len(winners_by_pot),
            **where,
        )
    for pot, winners in zip(pots, winners_by_pot, strict=True):
        if not winners:
            raise HandRuleViolation(
                "pot_without_winner",
                "SD-20",
                f"Name the winner of pot {pot.index}.",
                pot_index=pot.index,
                **where,
            )
        if len(set(winners)) != len(winners):
            raise HandRuleViolation(
                "duplicate_winner",
                "SD-21",
                "A winner is named twice.",
                pot_index=pot.index,
                **where,
            )
        for seat in winners:
            if seat not in pot.eligible_seats:
                raise HandRuleViolation(
                    "seat_not_eligible",
                    "SD-20",
                    f"Seat {seat} cannot win pot {pot.index}.",
                    pot_index=pot.index,
                    seat=seat,
                    eligible_seats=list(pot.eligible_seats),
                    **where,
                )


# -- RunItTimes -------------------------------------------------------------------------------


def _decide_run_it(state: HandState, cmd: RunItTimes) -> list[DomainEvent]:
    if state.started.mode == "tournament":
        raise HandRuleViolation(
            "run_it_not_allowed",
            "RAKE-10",
            "The board is run once in tournaments.",
            mode=state.started.mode,
        )
    if cmd.times not in RUN_TIMES:
        raise HandRuleViolation(
            "invalid_run_count",
            "RAKE-10",
            "The rest of the board may be run 2 or 3 times.",
            times=cmd.times,
            max_times=max(RUN_TIMES),
        )
    if state.run_boards:
        raise HandRuleViolation(
            "run_count_already_set",
            "RAKE-10",
            f"The players already agreed to run it {state.run_count} times.",
            run_count=state.run_count,
        )
    live = sum(1 for s in state.seats if s.live)
    if state.phase != "showdown" or live < 2 or len(state.board) >= 5:
        raise HandRuleViolation(
            "run_it_not_available",
            "RAKE-10",
            "The board may be run more than once only when the players left are all-in"
            " (all but one at most) with the betting over and the board not complete.",
            phase=state.phase,
            board_size=len(state.board),
            live_count=live,
        )
    return [RunItTimesAgreed(times=cmd.times)]


# -- DeclareMisdeal / VoidHand ----------------------------------------------------------------


def _reason(reason: str, rule: str) -> str:
    cleaned = reason.strip()
    if not cleaned:
        raise HandRuleViolation("reason_required", rule, "Say why the hand is void.")
    return cleaned


def _decide_misdeal(state: HandState, cmd: DeclareMisdeal) -> list[DomainEvent]:
    started = state.started
    reason = _reason(cmd.reason, "MIS-1")
    threshold = started.misdeal_action_threshold
    passive = started.misdeal_counts_passive_actions
    if any(state.boards) and not started.misdeal_allowed_after_flop:
        raise HandRuleViolation(
            "misdeal_too_late",
            "MIS-3",
            "The flop is out: there is no misdeal any more; play the hand as dealt.",
            street=state.street,
            misdeal_allowed_after_flop=False,
        )
    counted = sum(
        1
        for event in state.history
        if isinstance(event, ActionTaken) and (passive or event.action not in PASSIVE_ACTIONS)
    )
    if counted >= threshold:
        rule = ("MIS-2" if threshold >= 3 else "MIS-1") if passive else "MIS-3"
        raise HandRuleViolation(
            "misdeal_too_late",
            rule,
            f"{counted} action(s) taken, the misdeal limit is {threshold}: play the hand as dealt.",
            actions_counted=counted,
            misdeal_action_threshold=threshold,
            misdeal_counts_passive_actions=passive,
        )
    return [_void(state, "misdeal", reason)]


def _void(state: HandState, kind: VoidKind, reason: str) -> HandVoided:
    """Every ante, blind, straddle and bet back to its owner (MIS-1..3, MIS-11, MIS-12)."""
    return HandVoided(
        kind=kind,
        reason=reason,
        returned=tuple(
            SeatAmount(seat=s.seat, amount=s.contributed) for s in state.seats if s.contributed
        ),
        final_stacks=tuple(SeatStack(seat=s.seat, stack=s.starting_stack) for s in state.seats),
    )


# -- RecordRabbitHunt -------------------------------------------------------------------------


def _decide_rabbit(state: HandState, cmd: RecordRabbitHunt) -> list[DomainEvent]:
    if state.started.mode == "tournament":
        raise HandRuleViolation(
            "rabbit_hunt_not_allowed",
            "RAKE-7",
            "No rabbit hunting in tournaments.",
            mode=state.started.mode,
        )
    if not state.is_complete:
        raise HandRuleViolation(
            "hand_not_complete",
            "RAKE-8",
            "The undealt cards are shown only after the hand.",
            phase=state.phase,
        )
    if state.voided is not None:
        raise HandRuleViolation(
            "hand_voided", "RAKE-8", "The hand was void: there is nothing to hunt."
        )
    if state.rabbit is not None:
        raise HandRuleViolation(
            "rabbit_hunt_already_recorded",
            "RAKE-8",
            "The undealt cards of this hand were already shown.",
            seat=state.rabbit.seat,
        )
    seat = _seat_in_hand(state, cmd.seat)
    if cmd.fee < 0:
        raise HandRuleViolation(
            "invalid_fee", "RAKE-8", "The rabbit-hunt fee cannot be negative.", fee=cmd.fee
        )
    if cmd.fee > seat.stack:
        raise HandRuleViolation(
            "fee_exceeds_stack",
            "RAKE-8",
            f"Seat {seat.seat} has {seat.stack}: the fee of {cmd.fee} is more.",
            seat=seat.seat,
            fee=cmd.fee,
            stack=seat.stack,
        )
    undealt = 5 - max(len(board) for board in state.boards)
    if undealt == 0:
        raise HandRuleViolation(
            "nothing_to_hunt", "RAKE-8", "The whole board was dealt.", seat=seat.seat
        )
    cards = parse_cards(cmd.cards)
    if len(cards) > undealt:
        raise HandRuleViolation(
            "wrong_card_count",
            "RAKE-8",
            f"At most {undealt} card(s) of the board were not dealt.",
            card_count=len(cards),
            undealt=undealt,
        )
    check_no_duplicates(cards, _cards_in_play(state))
    return [RabbitHunted(seat=seat.seat, cards="".join(cards), fee=cmd.fee)]


# -- settlement -------------------------------------------------------------------------------


def _settle(
    state: HandState,
    seats: tuple[SeatState, ...],
    method: SettleMethod,
    decide_pot: PotDecider,
) -> HandSettled:
    started = state.started
    contributions, dead_money = _pot_inputs(started, seats)
    settlement: Settlement = settle_pots(
        contributions,
        [s.seat for s in seats if s.live],
        decide_pot,
        button_seat=started.button_seat,
        rake_percent_bp=started.rake_percent_bp,
        rake_cap=started.rake_cap,
        take_rake=not (started.no_flop_no_drop and not any(state.boards)),
        dead_money=dead_money,
    )
    return HandSettled(
        method=method,
        uncalled=settlement.uncalled,
        pots=settlement.pots,
        rake=settlement.rake,
        final_stacks=tuple(
            SeatStack(seat=s.seat, stack=s.stack + settlement.payouts.get(s.seat, 0)) for s in seats
        ),
    )


def _pot_inputs(started: HandStarted, seats: Iterable[SeatState]) -> tuple[dict[int, int], int]:
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


__all__ = [
    "ActionKind",
    "HandState",
    "LegalActions",
    "Phase",
    "SeatState",
    "decide",
    "evolve",
    "load",
]
