"""Events of one poker hand (the stream ``hand-<hand_id>``), recorded by the dealer tablet.

Every event is a frozen dataclass with JSON-friendly fields (see :mod:`casino.domain_events`).
Amounts are integers: CZK at cash tables, chips in tournaments. Seats are numbered 1..10
clockwise. The hand can be rebuilt from its events alone: :class:`HandStarted` carries the
seats, stakes, rake schedule, misdeal window and the forced bets (antes, blinds and
straddles) actually posted.

Order of a hand's events: one ``HandStarted``; then ``ActionTaken`` and ``BoardDealt`` as the
hand is played; in an all-in, at most one ``RunItTimesAgreed`` (then ``BoardDealt`` carries
its ``run``); at showdown ``CardsShown`` / ``CardsMucked``; and one ``HandSettled`` last.
Instead of ``HandSettled`` a hand may end with ``HandVoided`` (misdeal, MIS-1..3, or a
foreign/duplicate card, MIS-11/12: every chip goes back). After ``HandSettled`` of a cash
hand one ``RabbitHunted`` may follow (RAKE-8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from casino.domain_events import DomainEvent

Game = Literal["NLH", "PLO", "FLH"]
"""``FLH``: fixed-limit hold'em (BET-5/6, :mod:`tables.domain.limit`)."""
AnteType = Literal["none", "per_player", "big_blind"]
MinRaiseRule = Literal["previous_increment", "double_last"]
TableMode = Literal["cash", "tournament"]
PostKind = Literal[
    "ante", "small_blind", "big_blind", "straddle", "dead_sb", "posted_bb", "posted_sb"
]
"""``dead_sb``: a small blind owed for missed blinds (SEAT-16) or for starting between the
button and the big blind (SEAT-15), posted dead: it goes into the pot and does not count
toward the player's call. ``posted_bb``: a big blind posted out of position for the same
reasons, live: it counts toward the player's call and he keeps the option like the big
blind. ``posted_sb``: the owed small blind posted live (tables where
``missed_blind_sb_dead`` is off)."""
ActionKind = Literal["fold", "check", "call", "bet", "raise"]
Street = Literal["flop", "turn", "river"]
SettleMethod = Literal["uncontested", "showdown", "manual"]
VoidKind = Literal["misdeal", "void"]


@dataclass(frozen=True, slots=True)
class SeatInHand:
    """A seat dealt into the hand, with the stack it started the hand with (before posts)."""

    seat: int
    player_id: str
    stack: int


@dataclass(frozen=True, slots=True)
class ForcedBet:
    """An ante, blind, straddle or owed blind (``dead_sb``, ``posted_bb``, ``posted_sb``)
    posted at the start of the hand (short stacks post what they have; a straddle is always
    the full amount)."""

    seat: int
    kind: PostKind
    amount: int


@dataclass(frozen=True, slots=True)
class HandStarted(DomainEvent):
    """A hand was dealt: who is in, the stakes, the rake schedule, and the forced bets.

    ``seats`` are in seat-number order. ``posts`` lists antes first, then the dead small
    blinds (``dead_sb``), the small and big blind, the live owed blinds (``posted_bb``,
    ``posted_sb``), then the straddles in order (SEAT-18/19: the seat left of the big blind
    2x the big blind, each next seat 2x the previous straddle), with the amounts really
    posted.

    ``big_blind_seat`` / ``small_blind_seat`` name the seats posting the blinds when the
    table placed them (SEAT-5 dead button, SEAT-11, players waiting or posting);
    ``small_blind_seat`` is ``None`` for a dead small blind (nobody posts it), and
    ``button_seat`` may be a seat not dealt in (a dead button). When ``big_blind_seat`` is
    ``None`` (every hand recorded before) the blinds are by position: the first and second
    seat dealt in after the button, heads-up the button and the other seat (SEAT-7,
    SEAT-10).
    ``rake_percent_bp`` is in basis points (500 = 5 %); ``rake_cap`` is the most rake taken
    from the whole hand. The ``misdeal_*`` fields set the misdeal window (MIS-1..3): a
    misdeal may be declared while fewer than ``misdeal_action_threshold`` actions were taken
    (checks and folds counted only with ``misdeal_counts_passive_actions``), and after the
    flop only with ``misdeal_allowed_after_flop``.
    """

    TYPE = "tables.HandStarted"
    SCHEMA_VERSION = 1

    hand_id: str
    table_id: int
    hand_number: int
    button_seat: int
    game: Game
    small_blind: int
    big_blind: int
    ante: int
    ante_type: AnteType
    min_raise_rule: MinRaiseRule
    rake_percent_bp: int
    rake_cap: int
    no_flop_no_drop: bool
    seats: tuple[SeatInHand, ...]
    posts: tuple[ForcedBet, ...]
    mode: TableMode = "cash"
    misdeal_action_threshold: int = 2
    misdeal_counts_passive_actions: bool = True
    misdeal_allowed_after_flop: bool = False
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    limit_cap_lifted_heads_up: bool = False
    all_in_face_up: bool = False
    """SD-10/11: with a player all-in and the betting over, no live hand may be mucked
    unseen (SD-12)."""
    """Fixed limit only: BET-6 (the raise cap is lifted heads-up); ``False``: BET-5."""


@dataclass(frozen=True, slots=True)
class ActionTaken(DomainEvent):
    """A player acted in turn.

    ``action`` is the resolved kind: an "all in" command is recorded as the call, bet or
    raise it amounts to, with ``all_in=True``. ``amount_to`` is the player's total bet on
    this street after the action (0 for fold and check); ``added`` the chips moved from the
    stack by this action.
    """

    TYPE = "tables.ActionTaken"
    SCHEMA_VERSION = 1

    seat: int
    action: ActionKind
    amount_to: int
    added: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class BoardDealt(DomainEvent):
    """Board cards were turned: three on the flop (``"Qs9c4s"``), one on turn and river.

    ``run`` is the board they belong to when the players agreed to run it more than once
    (RAKE-10, after :class:`RunItTimesAgreed`): 1, 2 or 3; always 1 otherwise.
    """

    TYPE = "tables.BoardDealt"
    SCHEMA_VERSION = 1

    street: Street
    cards: str
    run: int = 1


@dataclass(frozen=True, slots=True)
class CardsShown(DomainEvent):
    """A player tabled his hole cards at showdown (``"AcKd"``; four cards in PLO)."""

    TYPE = "tables.CardsShown"
    SCHEMA_VERSION = 1

    seat: int
    cards: str


@dataclass(frozen=True, slots=True)
class CardsMucked(DomainEvent):
    """A player mucked at showdown: he gives up any claim to the pots."""

    TYPE = "tables.CardsMucked"
    SCHEMA_VERSION = 1

    seat: int


@dataclass(frozen=True, slots=True)
class SeatAmount:
    """An amount for a seat (an uncalled bet returned)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Award:
    """Chips of one pot given to one winner (after rake)."""

    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class RunShare:
    """The part of a pot played for on one board of a hand run more than once (RAKE-10).

    ``amount`` is the run's share of the pot after rake; ``winners`` split it; ``hand_rank``
    as in :class:`PotResult`, for this run's board.
    """

    run: int
    amount: int
    winners: tuple[Award, ...]
    hand_rank: int | None = None


@dataclass(frozen=True, slots=True)
class PotResult:
    """One pot and who won it.

    ``index`` is 0 for the main pot and 1, 2, ... for the side pots. ``amount`` is the
    whole pot; ``rake`` was taken from it and the winners share ``amount - rake``.
    ``hand_rank`` is the winning phevaluator rank (lower is better) when the pot was decided
    by evaluating the shown cards, else ``None``.

    When the board was run more than once (RAKE-10), ``runs`` holds each run's share and
    winners, ``winners`` the total per seat over the runs, and ``hand_rank`` is ``None``.
    """

    index: int
    amount: int
    rake: int
    eligible_seats: tuple[int, ...]
    winners: tuple[Award, ...]
    hand_rank: int | None = None
    runs: tuple[RunShare, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatStack:
    """A seat's stack after the hand."""

    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class HandSettled(DomainEvent):
    """The hand is over and the chips are moved; always the last event of a hand.

    ``pots`` are in the order they were awarded (SD-20): the outermost side pot first, the
    main pot last. Chips are conserved: the sum of ``final_stacks`` plus ``rake`` equals
    the sum of the starting stacks.
    """

    TYPE = "tables.HandSettled"
    SCHEMA_VERSION = 1

    method: SettleMethod
    uncalled: tuple[SeatAmount, ...]
    pots: tuple[PotResult, ...]
    rake: int
    final_stacks: tuple[SeatStack, ...]


@dataclass(frozen=True, slots=True)
class RunItTimesAgreed(DomainEvent):
    """All-in with the board not complete: the players agreed to run the rest of the board
    ``times`` times (2 or 3, RAKE-10; cash only). Each pot is then split across the runs."""

    TYPE = "tables.RunItTimesAgreed"
    SCHEMA_VERSION = 1

    times: int


@dataclass(frozen=True, slots=True)
class HandVoided(DomainEvent):
    """The hand is void and every chip goes back; the last event of the hand.

    ``kind`` is ``"misdeal"`` (declared within the misdeal window, MIS-1..3) or ``"void"``
    (a card with a different back or a duplicate card was found, MIS-11/MIS-12: every action
    is cancelled). ``returned`` lists each seat's antes, blinds, straddles and bets given
    back (seats that put nothing in left out); ``final_stacks`` equal the starting stacks.
    """

    TYPE = "tables.HandVoided"
    SCHEMA_VERSION = 1

    kind: VoidKind
    reason: str
    returned: tuple[SeatAmount, ...]
    final_stacks: tuple[SeatStack, ...]


@dataclass(frozen=True, slots=True)
class RabbitHunted(DomainEvent):
    """After a cash hand, ``seat`` asked to see the undealt board (the other players
    consented) and paid ``fee`` to the dealer from his stack (RAKE-8).

    ``cards`` are the undealt board cards shown, in the order they would have come. They
    never change the result and never count for the jackpot.
    """

    TYPE = "tables.RabbitHunted"
    SCHEMA_VERSION = 1

    seat: int
    cards: str
    fee: int


# --- the table stream (``table-<id>``) -------------------------------------------------------
# Opening, seating and cash-outs, and the markers of each hand: who was dealt in with what
# stacks, and the stacks the hand ended with, so a table's chips are the fold of one stream.


@dataclass(frozen=True, slots=True)
class TableOpened(DomainEvent):
    """The floor opened a table. Amounts in CZK (cash) or chips; ``rake_percent_bp`` in
    basis points (500 = 5 %).

    Blind rotation and entry (the defaults are the behaviour of tables opened before these
    settings existed):

    * ``button_rule``: ``"forward"`` (SEAT-6: the button moves to the next player dealt in,
      players may skip blinds) or ``"dead_button"`` (SEAT-5: the big blind moves first to
      the next player due; the small blind and the button follow from the last hand's
      blinds and may be dead). Catalogue live default: ``dead_button``.
    * ``cash_new_player_entry``: ``"immediate_no_post"`` (SES-1: a new player is dealt in at
      once without posting) or ``"wait_or_post_both"`` (SEAT-15: a new player who sits
      between the button and the big blind waits for the big blind or posts both blinds).
      Catalogue recommendation: ``wait_or_post_both``.
    * ``missed_blind_sb_dead``: a returning player who posts his missed blinds (SEAT-16)
      posts the small blind dead (the catalogue recommendation) or, when off, live.
    """

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
    returning_player_rule: bool = True  # SES-7; off only for a private game's agreement
    button_rule: str = "forward"
    cash_new_player_entry: str = "immediate_no_post"
    missed_blind_sb_dead: bool = True
    mode: str = "cash"  # "tournament": chips, no rake, seats from the tournament's table plan
    tournament_id: int | None = None
    limit_cap_lifted_heads_up: bool | None = None
    clock_expiry: str = "dead_hand"  # a called clock's end: BET-28 dead hand, BET-29 fold/check
    # when a settled hand closes to disputes of its reading (SD-24..26): the next hand
    # starting (003), the first riffle of the next shuffle (000) or the cut (002)
    hand_closed_by: str = "next_hand_started"
    # SD-10 (002/003): every hand face up once a player is all-in and the betting is over,
    # at cash tables too; off: the 000 rule, tournaments only (SD-11)
    allin_faceup_in_cash: bool = False
    """Fixed limit: BET-6 (cap lifted heads-up) or BET-5 (always capped); ``None``: by mode,
    BET-6 at cash tables (the floor rules), BET-5 in tournaments."""
    # BI-5: why the buy-in limits differ from the stakes' configured ones (BI-3, BI-4), as the
    # floor said when opening the table; "" when they are the configured ones or none is set
    limits_reason: str = ""


@dataclass(frozen=True, slots=True)
class PlayerSeated(DomainEvent):
    """A player sat down at ``seat`` with a buy-in of ``buy_in`` (CZK), his starting stack."""

    TYPE = "tables.PlayerSeated"
    table_id: int
    seat: int
    player_id: int
    buy_in: int
    paid_with: str = "cash"  # "cash" at the table (drop) or "chips" bought at the cage


@dataclass(frozen=True, slots=True)
class TournamentPlayerSeated(DomainEvent):
    """The tournament seated ``player_id`` at ``seat`` with ``stack`` chips: the seat draw,
    a late entry, or a move (``reason``: ``draw``, ``late_entry``, ``balancing``,
    ``table_broken``, ``final_table``). He is dealt in from the next hand without owing a
    blind (TSEAT-1, TSEAT-4, TSEAT-5, TSEAT-8)."""

    TYPE = "tables.TournamentPlayerSeated"
    table_id: int
    seat: int
    player_id: int
    stack: int
    tournament_id: int
    reason: str
    wait_for_big_blind: bool = False  # SEAT-14: seated between the button and the big blind


@dataclass(frozen=True, slots=True)
class TournamentPlayerUnseated(DomainEvent):
    """The tournament took ``player_id`` off ``seat`` with ``stack`` chips (``reason``:
    ``eliminated`` with 0 chips, or a move: ``balancing``, ``table_broken``,
    ``final_table``); a moved player's chips go with him."""

    TYPE = "tables.TournamentPlayerUnseated"
    table_id: int
    seat: int
    player_id: int
    stack: int
    tournament_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class TournamentChipsAdded(DomainEvent):
    """A rebuy or add-on put ``chips`` more in front of the player at ``seat``
    (``reason``: ``rebuy`` or ``add_on``), between hands (TREG-14)."""

    TYPE = "tables.TournamentChipsAdded"
    table_id: int
    seat: int
    player_id: int
    chips: int
    tournament_id: int
    reason: str


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
class SeatBlind:
    """A blind at a seat: ``kind`` is ``small_blind``, ``big_blind``, ``dead_sb``,
    ``posted_bb`` or ``posted_sb`` (see :data:`PostKind`)."""

    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class HandBegan(DomainEvent):
    """Hand ``hand_id`` started at the table with these seats dealt in.

    ``button_seat`` may be a seat nobody dealt in holds (a dead button, SEAT-5).
    ``small_blind_seat`` and ``big_blind_seat`` post the blinds; with the small blind dead
    (nobody posts it, SEAT-5) ``small_blind_seat`` is ``None`` and
    ``dead_small_blind_seat`` its position (an empty seat, a player sitting out or waiting,
    or a player posting owed blinds there). ``posts`` says which
    seats post which blind: the small and big blind, and the blinds owed by returning or
    new players who chose to post (``dead_sb``, ``posted_bb``, ``posted_sb``; SEAT-15,
    SEAT-16); the amounts really posted (short stacks) are in the hand's ``HandStarted``.
    ``waiting_seats`` are seated players not dealt in because they wait for the big blind;
    ``missed_blinds`` the blinds that passed players sitting out (or a new player between
    the button and the big blind) in this hand: they owe them (SEAT-16).

    Events recorded before these fields existed leave them empty: the blinds were then the
    first and second seat dealt in after the button (heads-up the button and the other).
    """

    TYPE = "tables.HandBegan"
    table_id: int
    hand_id: str
    hand_number: int
    button_seat: int
    seats: tuple[DealtInSeat, ...]
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    dead_small_blind_seat: int | None = None
    posts: tuple[SeatBlind, ...] = ()
    waiting_seats: tuple[int, ...] = ()
    missed_blinds: tuple[SeatBlind, ...] = ()


@dataclass(frozen=True, slots=True)
class HandEnded(DomainEvent):
    """Hand ``hand_id`` is settled: the dealt-in seats' stacks after it and the rake.
    ``voided`` (v2): a misdeal or void (MIS-1..3, MIS-11, MIS-12); the stacks are those of
    its start, and the button, blinds and owed blinds are as before it, for the redeal
    (:mod:`tables.upcasters` reads v1 as not voided)."""

    TYPE = "tables.HandEnded"
    SCHEMA_VERSION = 2
    table_id: int
    hand_id: str
    stacks: tuple[SeatStack, ...]
    rake: int
    voided: bool = False


@dataclass(frozen=True, slots=True)
class StacksCorrected(DomainEvent):
    """A dispute upheld after hand ``hand_id`` (SD-24..26) moved chips between the stacks
    at the table: ``adjustments`` per seat (summing to 0; the seat's player at the time).
    Follows the hand's ``tables.ResultCorrected``, in the same transaction."""

    TYPE = "tables.StacksCorrected"
    table_id: int
    hand_id: str
    adjustments: tuple[SeatStack, ...]


@dataclass(frozen=True, slots=True)
class StacksCorrectionDeferred(DomainEvent):
    """A pot-accounting dispute about hand ``hand_id`` was upheld while the next hand ran,
    before substantial action on it (SD-24): the chips of ``adjustments`` (per seat, summing
    to 0) move when the running hand ends (``tables.StacksCorrected``), or, if a stack can
    no longer pay its part then, ``tables.CorrectionUnsettled`` sends it to the cage."""

    TYPE = "tables.StacksCorrectionDeferred"
    table_id: int
    hand_id: str
    adjustments: tuple[SeatStack, ...]
    players: tuple[tuple[int, int], ...]
    """``(seat, player_id)`` of the disputed hand: the chips move only between them."""


@dataclass(frozen=True, slots=True)
class CorrectionUnsettled(DomainEvent):
    """A deferred correction (SD-24) could not move its chips when the running hand ended:
    at ``seat``, ``reason`` ``short`` (his ``stack`` no longer covers his part) or
    ``player_left`` (the disputed hand's player no longer sits there). Nothing moved at the
    table; the floor settles the ``adjustments`` between the players at the cage."""

    TYPE = "tables.CorrectionUnsettled"
    table_id: int
    hand_id: str
    adjustments: tuple[SeatStack, ...]
    seat: int
    stack: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeatChanged(DomainEvent):
    """A player moved to another seat of the same game, stack and all, between hands
    (SEAT-17). ``waits_for_big_blind``: he moved further from the big blind, so he is dealt
    in again when the big blind reaches him, unless he posts (``sit-in`` with ``post``)."""

    TYPE = "tables.SeatChanged"
    table_id: int
    from_seat: int
    to_seat: int
    player_id: int
    waits_for_big_blind: bool


@dataclass(frozen=True, slots=True)
class ShuffleRecorded(DomainEvent):
    """Between hands the dealer reports a step of the next shuffle: ``first_riffle``
    (SD-25) or ``cut`` (SD-26). Under the table's ``hand_closed_by`` rule it closes the last
    hand to disputes of its reading (:func:`tables.rulings_services.hand_closure`)."""

    TYPE = "tables.ShuffleRecorded"
    table_id: int
    step: str


HAND_EVENT_TYPES: tuple[type[DomainEvent], ...] = (
    HandStarted,
    ActionTaken,
    BoardDealt,
    CardsShown,
    CardsMucked,
    HandSettled,
    RunItTimesAgreed,
    HandVoided,
    RabbitHunted,
)
