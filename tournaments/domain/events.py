"""Events of a tournament (the stream ``tournament-<id>``), decided by
:mod:`tournaments.domain.tournament`.

Every event is a frozen dataclass with JSON-friendly fields (see :mod:`casino.domain_events`):
money in CZK and stacks in chips (integers), times as ISO-8601 UTC strings (the event store
keeps payloads as JSON; :func:`iso` / :func:`tournaments.domain.config.parse_time` convert),
player and table ids as integers. Random outcomes (seat draws, button cards, table-break
draws, the final-table redraw) are stored in the events; replay never draws again.

Order of a tournament's events: ``TournamentCreated``; ``PlayerRegistered`` /
``PlayerUnregistered``; ``TournamentStarted`` (seat and button draw); then, as play goes on,
``LevelStarted`` and the other clock events, ``TableHandStarted`` and ``HandResultRecorded``
for every hand at every table, late entries (``PlayerRegistered`` with ``late`` +
``LateEntrySeated``, ``PlayerReEntered`` + ``LateEntrySeated``), ``RebuyTaken``,
``AddOnTaken``, ``PlayerEliminated``, ``TableAdded``, ``TableBroken``, ``PlayerMoved``,
``FinalTableRedrawn``; last ``TournamentFinished``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from casino.domain_events import DomainEvent
from tournaments.domain.config import Level, TournamentConfig

MoveReason = Literal["balancing", "table_broken", "wrong_seat"]
CloseReason = Literal[
    "level", "clock_time", "in_the_money", "below_full_table", "final_table", "director"
]


def iso(moment: datetime) -> str:
    """``moment`` as an ISO-8601 UTC string (``2025-03-01T18:00:00+00:00``).

    Raises:
        ValueError: a naive datetime (no time zone).
    """
    if moment.tzinfo is None:
        raise ValueError("naive datetime: times must be aware (UTC)")
    return moment.astimezone(UTC).isoformat()


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    """A player at ``seat`` of ``table_id``."""

    player_id: int
    table_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class DrawnCard:
    """The card drawn for the button at ``seat`` (``"As"``: rank then suit), SEAT-1."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """A table's first button: ``method`` ``high_card`` (with the ``cards``) or ``seat_1``."""

    table_id: int
    button_seat: int
    method: str
    cards: tuple[DrawnCard, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerStack:
    """A player dealt into a hand: his chips at its start and at its end."""

    player_id: int
    starting_stack: int
    final_stack: int


@dataclass(frozen=True, slots=True)
class Result:
    """An entry's result: place ``place`` (``place_to`` > ``place`` when tied, sharing
    those places' prizes) and its ``prize`` in CZK."""

    entry_number: int
    player_id: int
    place: int
    place_to: int
    prize: int


@dataclass(frozen=True, slots=True)
class TournamentCreated(DomainEvent):
    """A tournament was published with its configuration (TREG-6)."""

    TYPE = "tournaments.TournamentCreated"
    tournament_id: str
    config: TournamentConfig
    created_at: str


@dataclass(frozen=True, slots=True)
class PlayerRegistered(DomainEvent):
    """A paid entry (TREG-1): ``buy_in`` to the prize pool and ``fee`` to the house (CZK),
    ``stack`` chips. ``late``: registered after the start (TREG-7; a ``LateEntrySeated``
    follows). ``entry_number`` counts every entry and re-entry from 1. ``paid_with``:
    ``cash`` at the cage, a ``satellite`` seat won, or ``t_money`` (TREG-11)."""

    TYPE = "tournaments.PlayerRegistered"
    player_id: int
    entry_number: int
    buy_in: int
    fee: int
    stack: int
    late: bool
    registered_at: str
    paid_with: str = "cash"


@dataclass(frozen=True, slots=True)
class PlayerUnregistered(DomainEvent):
    """An entry withdrawn before the deadline (TREG-10); ``refund`` = buy-in + fee (CZK),
    in cash, or as T-Money when the entry was paid with a satellite seat or T-Money
    (``refund_as``, TREG-11)."""

    TYPE = "tournaments.PlayerUnregistered"
    player_id: int
    entry_number: int
    refund: int
    unregistered_at: str
    refund_as: str = "cash"  # "t_money" for a seat won in a satellite (TREG-11)


@dataclass(frozen=True, slots=True)
class PlayerReEntered(DomainEvent):
    """An eliminated player bought a new entry (TREG-9); a ``LateEntrySeated`` follows."""

    TYPE = "tournaments.PlayerReEntered"
    player_id: int
    entry_number: int
    price: int
    fee: int
    stack: int
    reentered_at: str


@dataclass(frozen=True, slots=True)
class RebuyTaken(DomainEvent):
    """``chips`` added to the player's stack for ``price`` (prize pool) + ``fee`` (house).
    ``busted``: taken with no chips left, before his table's next deal (TREG-14)."""

    TYPE = "tournaments.RebuyTaken"
    player_id: int
    price: int
    fee: int
    chips: int
    busted: bool


@dataclass(frozen=True, slots=True)
class RebuyRequested(DomainEvent):
    """During his table's hand the player asked to rebuy if it busts him (TREG-14): the
    rebuy is taken when the hand is recorded, before the next deal."""

    TYPE = "tournaments.RebuyRequested"
    player_id: int
    table_id: int


@dataclass(frozen=True, slots=True)
class EliminationPlace:
    """An entry out of the event and its provisional place range."""

    entry_number: int
    place: int
    place_to: int


@dataclass(frozen=True, slots=True)
class PlayerReinstated(DomainEvent):
    """A player the last hand at his table busted rebuys before that table deals again
    (TREG-14: "without missing a hand, i.e. before the next deal"): his elimination is
    undone and he sits in his seat again (or, when a balancing move filled it, where a
    late entry would, ``wait_for_big_blind`` as SEAT-14 says); the ``RebuyTaken`` that
    follows brings his chips. ``places``: the entries out whose provisional places move
    with one more player in play (ELIM-2)."""

    TYPE = "tournaments.PlayerReinstated"
    player_id: int
    entry_number: int
    table_id: int
    seat: int
    places: tuple[EliminationPlace, ...] = ()
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class RebuyRequestLapsed(DomainEvent):
    """A rebuy asked during the hand (:class:`RebuyRequested`) was not taken when the hand
    was recorded: ``reason`` ``not_busted`` (he has chips: no rebuy, no money), the rebuy
    rule's refusal code (e.g. ``rebuy_closed``, ``rebuy_limit``: he busted and is out).
    The cashier takes no money for it (TREG-14). A voided hand keeps the request for the
    redeal."""

    TYPE = "tournaments.RebuyRequestLapsed"
    player_id: int
    table_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class AddOnTaken(DomainEvent):
    """``chips`` added to the player's stack for ``price`` (prize pool) + ``fee`` (house)."""

    TYPE = "tournaments.AddOnTaken"
    player_id: int
    price: int
    fee: int
    chips: int


@dataclass(frozen=True, slots=True)
class TournamentStarted(DomainEvent):
    """The seat draw (TSEAT-1) and each table's first button (SEAT-1/SEAT-2).

    ``tables`` are the tables in play, ``reserve_tables`` the ones kept for late entries,
    ``break_order`` every table (reserve ones included) in the order they will be broken
    (TSEAT-4; the last one is the final table)."""

    TYPE = "tournaments.TournamentStarted"
    started_at: str
    tables: tuple[int, ...]
    reserve_tables: tuple[int, ...]
    break_order: tuple[int, ...]
    seats: tuple[SeatAssignment, ...]
    buttons: tuple[ButtonDraw, ...]


@dataclass(frozen=True, slots=True)
class TableAdded(DomainEvent):
    """A reserve table came into play (every table was full for a late entry)."""

    TYPE = "tournaments.TableAdded"
    table_id: int


@dataclass(frozen=True, slots=True)
class LateEntrySeated(DomainEvent):
    """A late entry or re-entry drew this seat at a table with the fewest players.
    ``wait_for_big_blind``: the only open seats were between the button and the big blind
    (SEAT-14); the table deals him in when the big blind reaches him."""

    TYPE = "tournaments.LateEntrySeated"
    player_id: int
    entry_number: int
    table_id: int
    seat: int
    stack: int
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class LateRegistrationClosed(DomainEvent):
    """No more late entries or re-entries (TREG-7, TREG-8, TREG-4; ``final_table``: the
    final table was drawn, TSEAT-8, and a late entry would break it up again)."""

    TYPE = "tournaments.LateRegistrationClosed"
    reason: CloseReason
    players_left: int
    entries: int


@dataclass(frozen=True, slots=True)
class LevelStarted(DomainEvent):
    """Level ``level`` runs until ``ends_at`` (CLK-1); its stakes apply to hands started
    from now on (CLK-2). ``clock_version`` changes with every clock event: a timer task
    carrying an older one does nothing."""

    TYPE = "tournaments.LevelStarted"
    level: int
    clock_version: int
    started_at: str
    ends_at: str
    small_blind: int
    big_blind: int
    ante: int
    ante_type: str


@dataclass(frozen=True, slots=True)
class ClockPaused(DomainEvent):
    """The director stopped the clock; ``remaining_seconds`` of the level (or break)."""

    TYPE = "tournaments.ClockPaused"
    clock_version: int
    paused_at: str
    remaining_seconds: int


@dataclass(frozen=True, slots=True)
class ClockResumed(DomainEvent):
    """The clock runs again; the level (or break) now ends at ``ends_at``."""

    TYPE = "tournaments.ClockResumed"
    clock_version: int
    resumed_at: str
    ends_at: str


@dataclass(frozen=True, slots=True)
class ClockAdjusted(DomainEvent):
    """The director gave the level (or the break) in progress ``seconds`` more, or took
    some off (negative). A running clock now ends at ``ends_at``; a stopped one has
    ``remaining_seconds`` left (the other is ``None``)."""

    TYPE = "tournaments.ClockAdjusted"
    clock_version: int
    adjusted_at: str
    seconds: int
    ends_at: str | None
    remaining_seconds: int | None


@dataclass(frozen=True, slots=True)
class LevelsAmended(DomainEvent):
    """The director changed the structure from level ``from_level`` on (TREG-6: published
    parameters may change, with a change log): ``levels`` is the whole structure now, every
    level before ``from_level`` as played. ``reason``: why."""

    TYPE = "tournaments.LevelsAmended"
    from_level: int
    levels: tuple[Level, ...]
    reason: str
    amended_at: str


@dataclass(frozen=True, slots=True)
class BreakDue(DomainEvent):
    """A break is due: no table starts a new hand, and it starts once every hand in
    progress has finished (CLK-7). ``after_level``: a scheduled break between levels
    (``None``: a synchronized or director's break in the middle of a level).
    ``slot``: the synchronized break time (CLK-3/CLK-4), ISO UTC."""

    TYPE = "tournaments.BreakDue"
    minutes: int
    after_level: int | None = None
    chip_up_denomination: int | None = None
    slot: str | None = None


@dataclass(frozen=True, slots=True)
class BreakStarted(DomainEvent):
    """The break runs until ``ends_at``; the level clock is stopped during it with
    ``level_remaining_seconds`` left (0 for a break between levels). ``chip_up_denomination``:
    the chip colored up during this break (CR-1), if any."""

    TYPE = "tournaments.BreakStarted"
    clock_version: int
    started_at: str
    ends_at: str
    minutes: int
    level_remaining_seconds: int
    chip_up_denomination: int | None = None


@dataclass(frozen=True, slots=True)
class BreakEnded(DomainEvent):
    """The break is over. ``level_ends_at``: the interrupted level's new end, or ``None``
    for a break between levels (a ``LevelStarted`` follows)."""

    TYPE = "tournaments.BreakEnded"
    clock_version: int
    ended_at: str
    level_ends_at: str | None = None


@dataclass(frozen=True, slots=True)
class HandForHandStarted(DomainEvent):
    """The director switched hand-for-hand on (TSEAT-9); rounds count from 1."""

    TYPE = "tournaments.HandForHandStarted"
    round: int


@dataclass(frozen=True, slots=True)
class HandForHandEnded(DomainEvent):
    """Hand-for-hand is off (``reason``: ``director`` or ``final_table``)."""

    TYPE = "tournaments.HandForHandEnded"
    reason: str


@dataclass(frozen=True, slots=True)
class HandForHandRoundCompleted(DomainEvent):
    """Every table finished its hand of ``round``; eliminations of the round follow
    (ELIM-5) and the next round may be dealt."""

    TYPE = "tournaments.HandForHandRoundCompleted"
    round: int


@dataclass(frozen=True, slots=True)
class TableHandStarted(DomainEvent):
    """A table dealt hand ``hand_number`` with these stakes (the level in force, CLK-2),
    the button and blinds the table placed, in hand-for-hand round ``hand_for_hand_round``
    (``None`` outside hand-for-hand)."""

    TYPE = "tournaments.TableHandStarted"
    table_id: int
    hand_number: int
    level: int
    small_blind: int
    big_blind: int
    ante: int
    ante_type: str
    button_seat: int | None = None
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    hand_for_hand_round: int | None = None


@dataclass(frozen=True, slots=True)
class HandResultRecorded(DomainEvent):
    """The table's hand is over: stacks at its start and end (chips are conserved: no rake
    in tournaments). ``best_hands``: player ids best hand first when reported (ELIM-3).
    ``voided`` (v2): a misdeal or void, to be redealt: it counts for nothing (not a hand of
    the level, of a penalty or of a hand-for-hand round); :mod:`tournaments.upcasters`
    reads v1 as not voided."""

    TYPE = "tournaments.HandResultRecorded"
    SCHEMA_VERSION = 2
    table_id: int
    hand_number: int
    stacks: tuple[PlayerStack, ...]
    best_hands: tuple[int, ...] = ()
    knockouts: tuple[Knockout, ...] = ()
    absent: tuple[int, ...] = ()  # ruled absent at the deal (SEAT-13), for HU-4
    voided: bool = False


@dataclass(frozen=True, slots=True)
class HandStacksCorrected(DomainEvent):
    """A dispute about the settled hand ``hand_id`` at ``table_id`` was upheld (SD-24): the
    chips moved between the stacks of players still in play, before the table's next hand
    (``stacks``: each one's chips before and after; the total is unchanged, TREG-1). The
    table's own ``tables.StacksCorrected`` moves the same chips in the same transaction."""

    TYPE = "tournaments.HandStacksCorrected"
    table_id: int
    hand_id: str
    stacks: tuple[PlayerStack, ...]


@dataclass(frozen=True, slots=True)
class Knockout:
    """A player who lost his last chips in the hand and the winners of the pot he was all-in
    in (BNTY-2), earliest position from the button first (BNTY-4)."""

    player_id: int
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerEliminated(DomainEvent):
    """A player is out (no chips after a hand). Finishing place ``place`` .. ``place_to``
    (a range when tied with others of the same hand or hand-for-hand round with an equal
    ``starting_stack``, ELIM-2..5). ``provisional``: late registration or the rebuy period
    was still open, so the places may move down as entries arrive or as a busted player
    rebuys into his seat (:class:`PlayerReinstated`; the final places are in
    ``TournamentFinished``). ``group``: players eliminated together (one hand, or one
    hand-for-hand round) share a group number, counted from 1. ``tie_rank``: order within a
    tie for the remainder (ELIM-3)."""

    TYPE = "tournaments.PlayerEliminated"
    player_id: int
    entry_number: int
    table_id: int
    hand_number: int
    starting_stack: int
    place: int
    place_to: int
    provisional: bool
    group: int
    tie_rank: int = 0
    hand_for_hand_round: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerMoved(DomainEvent):
    """The floor moves a player, stack and all (TSEAT-3..7; ``wrong_seat``: TSEAT-2, a
    player found in the wrong seat). ``wait_for_big_blind``: he may
    only be dealt in when the big blind reaches his seat (SEAT-14)."""

    TYPE = "tournaments.PlayerMoved"
    player_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: MoveReason
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class TableBroken(DomainEvent):
    """The table is closed (TSEAT-4); its players' ``PlayerMoved`` events follow (for a
    final-table redraw, ``FinalTableRedrawn`` seats them). It goes back to the reserve: a
    late entry finding every table full reopens it (``TableAdded``)."""

    TYPE = "tournaments.TableBroken"
    table_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class FinalTableRedrawn(DomainEvent):
    """The final table (TSEAT-8): every remaining player's new seat and the button."""

    TYPE = "tournaments.FinalTableRedrawn"
    table_id: int
    seats: tuple[SeatAssignment, ...]
    button: ButtonDraw


@dataclass(frozen=True, slots=True)
class TournamentFinished(DomainEvent):
    """One player has all the chips (ELIM-1): every entry's final place and prize.

    ``prize_pool`` = ``contributions`` topped up to the guarantee (``overlay`` = the
    house's top-up), CZK; the prizes sum to ``prize_pool``."""

    TYPE = "tournaments.TournamentFinished"
    finished_at: str
    winner_player_id: int
    entries: int
    contributions: int
    prize_pool: int
    overlay: int
    results: tuple[Result, ...]


# --- deals (DEAL-1..11; tournaments.domain.deals) ------------------------------------------


@dataclass(frozen=True, slots=True)
class DealShare:
    """A player's part of a deal: his ``chips`` when it was proposed and the ``amount``
    (CZK) he is paid instead of his place's prize (``entry_number``: his entry)."""

    player_id: int
    entry_number: int
    chips: int
    amount: int


@dataclass(frozen=True, slots=True)
class DealRequested(DomainEvent):
    """A remaining player asked to discuss a deal (DEAL-4)."""

    TYPE = "tournaments.DealRequested"
    player_id: int
    requested_at: str


@dataclass(frozen=True, slots=True)
class DealDiscussionStarted(DomainEvent):
    """Every remaining player asked: the final table deals no new hand (the hand in
    progress ends first) and the director is alerted (DEAL-4; the console feed shows it).
    ``clock_stopped``: the level clock was stopped with it (a ``ClockPaused`` follows) and
    runs again when the discussion ends; ``False`` in events recorded before, when a
    discussion left the clock running."""

    TYPE = "tournaments.DealDiscussionStarted"
    table_id: int
    players: tuple[int, ...]
    started_at: str
    clock_stopped: bool = False


@dataclass(frozen=True, slots=True)
class DealProposed(DomainEvent):
    """The director's proposal (DEAL-5..9): ``method`` ``icm`` / ``chip_count`` /
    ``even_split`` / ``custom``; ``remaining_prizes`` (CZK, 1st first) are the published
    prizes still to be won, ``money_on_table`` (CZK) is left for 1st place (DEAL-6) and the
    ``shares`` sum to ``sum(remaining_prizes) - money_on_table``. ICM: ``icm_method``
    (``subset_dp`` / ``monte_carlo``), its ``icm_seed`` and the largest standard error
    (CZK, 0 when exact)."""

    TYPE = "tournaments.DealProposed"
    deal_number: int
    method: str
    remaining_prizes: tuple[int, ...]
    money_on_table: int
    shares: tuple[DealShare, ...]
    icm_method: str | None
    icm_seed: int | None
    icm_standard_error: float
    proposed_at: str


@dataclass(frozen=True, slots=True)
class DealConfirmed(DomainEvent):
    """A player confirmed the numbers of deal ``deal_number`` (DEAL-5)."""

    TYPE = "tournaments.DealConfirmed"
    deal_number: int
    player_id: int
    confirmed_at: str


@dataclass(frozen=True, slots=True)
class DealAgreed(DomainEvent):
    """Every player confirmed: the ``shares`` replace the remaining payouts (DEAL-5, ELIM-6);
    ``money_on_table`` (CZK) goes to the winner on top of his share; play resumes (or the
    event ends when nothing is left to play for). No leaderboard points (DEAL-11)."""

    TYPE = "tournaments.DealAgreed"
    deal_number: int
    shares: tuple[DealShare, ...]
    money_on_table: int
    agreed_at: str


@dataclass(frozen=True, slots=True)
class DealCancelled(DomainEvent):
    """The discussion ended without a deal (a player declined, or the director called it
    off): play resumes with the published payouts. ``player_id``: who declined, if one."""

    TYPE = "tournaments.DealCancelled"
    deal_number: int
    reason: str
    player_id: int | None
    cancelled_at: str


# --- bounties (BNTY-1..8; tournaments.domain.bounties) -----------------------------------


@dataclass(frozen=True, slots=True)
class BountyAward:
    """A winner's part of a collected bounty: ``cash`` (CZK, paid at the cage) and
    ``added_to_head`` (CZK onto his own bounty: progressive knockout)."""

    player_id: int
    cash: int
    added_to_head: int


@dataclass(frozen=True, slots=True)
class BountyPlaced(DomainEvent):
    """A bounty of ``amount`` CZK on a new entry's head (BNTY-1), paid by the entrant with
    his entry (knockout, progressive) or put up by the house (fixed)."""

    TYPE = "tournaments.BountyPlaced"
    player_id: int
    entry_number: int
    amount: int
    paid_by: str


@dataclass(frozen=True, slots=True)
class BountyCollected(DomainEvent):
    """The ``amount`` CZK on ``player_id``'s head went to the winners of the pot he busted
    in (BNTY-2, BNTY-4: split, odd CZK to the earliest positions), or to himself when he
    won the event (BNTY-5)."""

    TYPE = "tournaments.BountyCollected"
    player_id: int
    amount: int
    awards: tuple[BountyAward, ...]


@dataclass(frozen=True, slots=True)
class EarlyPayoutCredited(DomainEvent):
    """The field reached the money: each remaining player is credited the minimum cash of
    ``amount`` CZK at once (ELIM-7); the rest of his prize follows at the end (ELIM-8)."""

    TYPE = "tournaments.EarlyPayoutCredited"
    players: tuple[int, ...]
    amount: int
    credited_at: str


# --- chip race (CR-1..5; tournaments.domain.chip_race) -----------------------------------


@dataclass(frozen=True, slots=True)
class ChipRaceCard:
    """A card dealt in a chip race to ``player_id`` for one leftover chip (``"As"``)."""

    player_id: int
    card: str


@dataclass(frozen=True, slots=True)
class ChipRaceRun(DomainEvent):
    """``denomination`` coloured up into ``next_denomination`` at ``table_id`` (CR-1..5):
    the ``cards`` dealt (the draw, stored once), the ``winners`` of one chip each, every
    player's stack before and after, and ``chips_added`` to the chips in play (the round-up
    and CR-5 chips)."""

    TYPE = "tournaments.ChipRaceRun"
    table_id: int
    denomination: int
    next_denomination: int
    cards: tuple[ChipRaceCard, ...]
    winners: tuple[int, ...]
    stacks: tuple[PlayerStack, ...]
    chips_added: int


# --- penalties (PEN-1..16; tournaments.domain.penalties) ---------------------------------


@dataclass(frozen=True, slots=True)
class PenaltyIssued(DomainEvent):
    """A ruling (PEN-1, PEN-16): ``kind`` ``warning`` / ``sit_out`` (``hands``) /
    ``disqualification`` for ``offence``, with its ``reason``; ``number``: the player's
    penalties so far including this one (PEN-9); ``suggested``: the ladder's step;
    ``override``: the floor departed from it. ``applies_after_hand``: his table was in a
    hand, so it takes effect when the hand ends."""

    TYPE = "tournaments.PenaltyIssued"
    player_id: int
    kind: str
    offence: str
    reason: str
    hands: int
    number: int
    suggested: str
    override: bool
    applies_after_hand: bool
    issued_at: str


@dataclass(frozen=True, slots=True)
class PenaltyStarted(DomainEvent):
    """A sit-out of ``hands`` hands (or a disqualification) takes effect now (PEN-1/2)."""

    TYPE = "tournaments.PenaltyStarted"
    player_id: int
    kind: str
    hands: int


@dataclass(frozen=True, slots=True)
class PlayerDisqualified(DomainEvent):
    """A disqualified player is out and his ``chips_removed`` leave play (PEN-2, PEN-13);
    he takes ``place`` as the next elimination."""

    TYPE = "tournaments.PlayerDisqualified"
    player_id: int
    entry_number: int
    table_id: int | None
    chips_removed: int
    place: int


@dataclass(frozen=True, slots=True)
class ConductFlagged(DomainEvent):
    """Conduct for the floor to rule on (PEN-8, PEN-10); ``automatic``: seen by the system
    (checking the nuts on the river in last position)."""

    TYPE = "tournaments.ConductFlagged"
    player_id: int
    offence: str
    detail: str
    automatic: bool
    flagged_at: str


# --- scheduling, crashes and cancellation (TREG-5, CXL-1..10) ----------------------------


@dataclass(frozen=True, slots=True)
class StartScheduled(DomainEvent):
    """The lobby start time (TREG-5), set or delayed (``delayed`` with its ``reason``)."""

    TYPE = "tournaments.StartScheduled"
    start_at: str
    delayed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class ScheduledStartMissed(DomainEvent):
    """The lobby time came with too few entries to start (TREG-5 with TREG-3): the event
    stays open for registration until the director starts it, delays it or cancels it."""

    TYPE = "tournaments.ScheduledStartMissed"
    start_at: str
    entries: int
    minimum: int


@dataclass(frozen=True, slots=True)
class TableHand:
    table_id: int
    hand_number: int


@dataclass(frozen=True, slots=True)
class HandsRolledBack(DomainEvent):
    """A server crash (CXL-1): every hand in progress goes back to its start stacks (the
    tables void them)."""

    TYPE = "tournaments.HandsRolledBack"
    hands: tuple[TableHand, ...]
    reason: str
    rolled_back_at: str


@dataclass(frozen=True, slots=True)
class SettlementShare:
    """A player's cancellation settlement: ``refund`` and ``prize``, CZK; ``fees``: the
    part of the refund that is fees. ``t_money`` (``t_money_fees`` of it fees): the part of
    the refund returned as T-Money, what he paid with a satellite seat or T-Money (CXL-3,
    TREG-11); the rest is paid in cash at the cage."""

    player_id: int
    refund: int
    prize: int
    fees: int = 0
    t_money: int = 0
    t_money_fees: int = 0


@dataclass(frozen=True, slots=True)
class TournamentCancelled(DomainEvent):
    """The event is cancelled and settled (CXL-2..9) by ``method`` (``rollback`` /
    ``roll_forward``) under the named ``policy`` and its ``policy_version``; every
    player's ``shares`` (paid at the cage)."""

    TYPE = "tournaments.TournamentCancelled"
    method: str
    policy: str
    policy_version: str
    reason: str
    in_the_money: bool
    shares: tuple[SettlementShare, ...]
    cancelled_at: str


# --- paying winnings (tournaments.domain.payments; the cage projects these) --------------


@dataclass(frozen=True, slots=True)
class PaidEntry:
    """An entry whose final prize a ``WinningsPaid`` settled: its place and prize, CZK."""

    entry_number: int
    place: int
    prize: int


@dataclass(frozen=True, slots=True)
class WinningsPaid(DomainEvent):
    """The cage paid a player in cash: ``prize`` (his places' prizes, a deal share, an early
    payout, ELIM-6..8, or a cancellation settlement), ``bounties`` (knockout bounties won,
    BNTY-*) and ``fees_refunded`` (fees given back by a cancellation, CXL-3..5), CZK.
    ``entries``: the finished entries whose prizes this payment settled (v2; the cage's
    list of prizes paid, one row per entry; :mod:`tournaments.upcasters` reads v1)."""

    TYPE = "tournaments.WinningsPaid"
    SCHEMA_VERSION = 2
    player_id: int
    prize: int
    bounties: int
    kind: str
    paid_at: str
    fees_refunded: int = 0
    entries: tuple[PaidEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class WinningsHeld(DomainEvent):
    """A player's winnings are held until a game-integrity review ends (ELIM-9)."""

    TYPE = "tournaments.WinningsHeld"
    player_id: int
    reason: str
    held_at: str


@dataclass(frozen=True, slots=True)
class WinningsReleased(DomainEvent):
    """The review is over: the held winnings may be paid (ELIM-9)."""

    TYPE = "tournaments.WinningsReleased"
    player_id: int
    reason: str
    released_at: str


# --- heads-up events (HU-1..4; tournaments.domain.headsup) ---------------------------------


@dataclass(frozen=True, slots=True)
class BracketDrawn(DomainEvent):
    """The draw of a heads-up bracket (HU-2): the ``entrants``, the round-1 ``play_in``
    pairs (every pair of round 1 when the field is a power of two), the players with a
    ``bye`` into round 2, and the number of ``rounds``."""

    TYPE = "tournaments.BracketDrawn"
    entrants: tuple[int, ...]
    play_in: tuple[tuple[int, int], ...]
    byes: tuple[int, ...]
    rounds: int


@dataclass(frozen=True, slots=True)
class MatchStarted(DomainEvent):
    """Match ``match_id`` (``r<round>m<slot>``) of the bracket: ``a`` against ``b``."""

    TYPE = "tournaments.MatchStarted"
    match_id: str
    round: int
    slot: int
    a: int
    b: int


@dataclass(frozen=True, slots=True)
class MatchEnded(DomainEvent):
    """``winner`` goes through, ``loser`` is out; ``ended_by`` ``"result"`` (the loser
    has no chips left) or ``"inactivity"`` (HU-4: the chip leader goes through)."""

    TYPE = "tournaments.MatchEnded"
    match_id: str
    winner: int
    loser: int
    ended_by: str


@dataclass(frozen=True, slots=True)
class BracketWon(DomainEvent):
    """The last match is over: ``winner`` wins the event (HU-1)."""

    TYPE = "tournaments.BracketWon"
    winner: int


@dataclass(frozen=True, slots=True)
class MatchSeated(DomainEvent):
    """The physical side of a match: both players at ``seats`` of ``table_id`` with a
    fresh ``stack`` each (chips; the event's starting stack), the ``button`` drawn, and
    ``released``: the tables the two players left, back in the reserve."""

    TYPE = "tournaments.MatchSeated"
    match_id: str
    table_id: int
    seats: tuple[SeatAssignment, ...]
    stack: int
    button: ButtonDraw
    released: tuple[int, ...] = ()


# --- satellites and T-Money (TREG-11; tournaments.domain.satellites) -----------------------


@dataclass(frozen=True, slots=True)
class SatelliteSeatWon(DomainEvent):
    """A satellite's result (TREG-11): ``player_id`` (entry ``entry_number``) won ``seats``
    in ``target_tournament_id``, each worth ``seat_value`` CZK (its buy-in, fee and bounty);
    the rest of his prize, if any, is paid in cash at the cage."""

    TYPE = "tournaments.SatelliteSeatWon"
    player_id: int
    entry_number: int
    target_tournament_id: int
    seats: int
    seat_value: int


@dataclass(frozen=True, slots=True)
class TMoneyCredited(DomainEvent):
    """T-Money (CZK) credited to the player's account (stream ``tmoney-<player id>``): a
    satellite seat he could not use, or a satellite seat given back (TREG-11). ``source``
    says which; ``balance`` after it."""

    TYPE = "tournaments.TMoneyCredited"
    player_id: int
    amount: int
    source: str
    balance: int
    at: str


@dataclass(frozen=True, slots=True)
class TMoneySpent(DomainEvent):
    """T-Money (CZK) spent on a tournament entry (``tournament_id``); ``balance`` after."""

    TYPE = "tournaments.TMoneySpent"
    player_id: int
    amount: int
    tournament_id: int
    balance: int
    at: str


TOURNAMENT_EVENT_TYPES: tuple[type[DomainEvent], ...] = (
    TournamentCreated,
    PlayerRegistered,
    PlayerUnregistered,
    PlayerReEntered,
    RebuyTaken,
    AddOnTaken,
    TournamentStarted,
    TableAdded,
    LateEntrySeated,
    LateRegistrationClosed,
    LevelStarted,
    ClockPaused,
    ClockResumed,
    ClockAdjusted,
    LevelsAmended,
    BreakDue,
    BreakStarted,
    BreakEnded,
    HandForHandStarted,
    HandForHandEnded,
    HandForHandRoundCompleted,
    TableHandStarted,
    HandResultRecorded,
    HandStacksCorrected,
    PlayerEliminated,
    PlayerMoved,
    TableBroken,
    FinalTableRedrawn,
    TournamentFinished,
    DealRequested,
    DealDiscussionStarted,
    DealProposed,
    DealConfirmed,
    DealAgreed,
    DealCancelled,
    WinningsPaid,
    WinningsHeld,
    WinningsReleased,
    BountyPlaced,
    BountyCollected,
    EarlyPayoutCredited,
    ChipRaceRun,
    PenaltyIssued,
    PenaltyStarted,
    PlayerDisqualified,
    ConductFlagged,
    StartScheduled,
    HandsRolledBack,
    TournamentCancelled,
    RebuyRequested,
    RebuyRequestLapsed,
    PlayerReinstated,
    BracketDrawn,
    MatchStarted,
    MatchEnded,
    BracketWon,
    MatchSeated,
    SatelliteSeatWon,
)
