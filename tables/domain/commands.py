"""Commands the dealer tablet sends for a hand (frozen dataclasses, named imperatively)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tables.events import AnteType, Game, MinRaiseRule, SeatInHand, Street, TableMode

CommandAction = Literal["fold", "check", "call", "bet", "raise", "all_in"]


@dataclass(frozen=True, slots=True)
class StartHand:
    """Deal a hand. The caller (Django side) has chosen the button and the seats dealt in.

    ``seats`` are the occupied seats dealt in (any order; 2..10 of seats 1..10) with the
    stacks they start the hand with. Antes and blinds are posted by position (SEAT-7,
    SEAT-10); a short stack posts what it has (SEAT-8).

    ``straddles`` are the seats posting a straddle, in order (cash only, SEAT-18..20): the
    seat left of the big blind posts 2x the big blind, each re-straddle is the next seat
    clockwise posting 2x the previous straddle, the button at the latest. Straddles are live
    blinds: preflop the action starts left of the last straddle, which has the option.

    ``misdeal_*`` is the misdeal window (MIS-1..3, catalogue defaults): see
    :class:`DeclareMisdeal`.

    Placed blinds (the table's ``HandBegan`` says them): ``big_blind_seat`` and
    ``small_blind_seat`` name the seats posting the blinds (SEAT-5 dead button, SEAT-11
    heads-up placement, players waiting for the big blind); ``small_blind_seat=None`` with a
    ``big_blind_seat`` is a dead small blind: nobody posts it. ``button_seat`` may then be a
    seat not dealt in (a dead button). Left out (``big_blind_seat=None``) the blinds go by
    position as above. Heads-up the button must post the small blind and the other seat the
    big blind (SEAT-10); otherwise the small blind is the seat dealt in just before the big
    blind and neither blind is the button (SEAT-7).

    Owed blinds (SEAT-15 new player between the button and the big blind, SEAT-16 missed
    blinds), posted by seats other than the blinds: ``dead_small_blinds`` post the small
    blind dead (into the pot, not toward their call), ``posted_big_blinds`` the big blind
    live (toward their call; they keep the option like the big blind) and
    ``posted_small_blinds`` the small blind live (tables where it is not dead). Not
    heads-up; a seat posting a live blind may not straddle.
    """

    hand_id: str
    table_id: int
    hand_number: int
    button_seat: int
    seats: tuple[SeatInHand, ...]
    small_blind: int
    big_blind: int
    game: Game = "NLH"
    ante: int = 0
    ante_type: AnteType = "none"
    min_raise_rule: MinRaiseRule = "previous_increment"
    rake_percent_bp: int = 0
    rake_cap: int = 0
    no_flop_no_drop: bool = True
    mode: TableMode = "cash"
    straddles: tuple[int, ...] = ()
    misdeal_action_threshold: int = 2
    misdeal_counts_passive_actions: bool = True
    misdeal_allowed_after_flop: bool = False
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None
    dead_small_blinds: tuple[int, ...] = ()
    posted_big_blinds: tuple[int, ...] = ()
    posted_small_blinds: tuple[int, ...] = ()
    limit_cap_lifted_heads_up: bool = False
    all_in_face_up: bool = False


@dataclass(frozen=True, slots=True)
class TakeAction:
    """The player in ``seat`` acts. ``amount_to`` is the street total for bet/raise.

    For fold, check, call and all_in ``amount_to`` may be left out; when given for a call it
    must match the call.
    """

    seat: int
    action: CommandAction
    amount_to: int | None = None


@dataclass(frozen=True, slots=True)
class DealBoard:
    """Turn the board cards of ``street``: three for the flop, one for turn and river.

    ``run`` is the board (1..times) the cards are for once the players agreed to run it more
    than once (:class:`RunItTimes`); each run's streets come in order, the runs in any
    order. Always 1 otherwise.
    """

    street: Street
    cards: str
    run: int = 1


@dataclass(frozen=True, slots=True)
class ShowCards:
    """A player tables his hole cards at showdown."""

    seat: int
    cards: str


@dataclass(frozen=True, slots=True)
class MuckCards:
    """A player mucks at showdown (forfeits his claim). ``deliberate``: the player threw
    his hand away on purpose; an all-in hand is never mucked otherwise (SD-12)."""

    seat: int
    deliberate: bool = False


@dataclass(frozen=True, slots=True)
class AwardPots:
    """Manual award: the dealer names the winning seats of each pot (index 0 = main pot).

    When the board was run more than once, ``winners_by_run`` names them for each run
    (one ``winners_by_pot`` per run, run 1 first) and ``winners_by_pot`` is left empty.
    """

    winners_by_pot: tuple[tuple[int, ...], ...]
    winners_by_run: tuple[tuple[tuple[int, ...], ...], ...] = ()


@dataclass(frozen=True, slots=True)
class RunItTimes:
    """The players all-in agreed to run the rest of the board ``times`` times (2 or 3).

    Allowed in cash games once the betting is over with every player left all-in (or all
    but one), and the board not complete (RAKE-10).
    """

    times: int


@dataclass(frozen=True, slots=True)
class DeclareMisdeal:
    """The dealer declares a misdeal (MIS-4..6 causes): the hand is void, every ante, blind
    and bet goes back. Allowed only within the misdeal window set at the start of the hand
    (MIS-1..3)."""

    reason: str


@dataclass(frozen=True, slots=True)
class VoidHand:
    """A card with a different back (MIS-11) or a duplicate card (MIS-12) was found in
    play: every action is cancelled and the chips go back. Allowed at any point before the
    hand is settled."""

    reason: str


@dataclass(frozen=True, slots=True)
class RecordRabbitHunt:
    """After a cash hand, ``seat`` is shown the undealt board ``cards`` and pays ``fee``
    to the dealer from his stack (RAKE-7, RAKE-8). The other players dealt in must consent:
    ``consenting_seats`` records their consent with the hunt; ``None`` needs it recorded
    before (``RecordRabbitConsent``)."""

    seat: int
    cards: str
    fee: int
    consenting_seats: tuple[int, ...] | None = None


HandCommand = (
    StartHand
    | TakeAction
    | DealBoard
    | ShowCards
    | MuckCards
    | AwardPots
    | RunItTimes
    | DeclareMisdeal
    | VoidHand
    | RecordRabbitHunt
)
