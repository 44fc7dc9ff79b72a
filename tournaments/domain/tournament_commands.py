"""A tournament's commands (:func:`tournaments.domain.tournament.decide` takes them): what
the director, the cage and the dealer tables ask of a tournament. Plain values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tournaments.domain import (
    deals,
    payments,
    penalties,
)  # fmt: skip
from tournaments.domain.config import (
    Level,
    TournamentConfig,
)


@dataclass(frozen=True, slots=True)
class CreateTournament:
    tournament_id: str
    config: TournamentConfig


@dataclass(frozen=True, slots=True)
class Register:
    """Register before the start (TREG-1, TREG-9: one entry per player), paid with cash, a
    satellite seat or T-Money (``paid_with``, TREG-11)."""

    player_id: int
    paid_with: str = "cash"


@dataclass(frozen=True, slots=True)
class Unregister:
    """Withdraw before the start and the deadline, with a refund (TREG-10)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class LateRegister:
    """Enter after the start while late registration is open (TREG-7/8); ``seed`` draws
    the seat."""

    player_id: int
    seed: int
    paid_with: str = "cash"


@dataclass(frozen=True, slots=True)
class ReEnter:
    """A new entry for an eliminated player (TREG-9, ``config.reentry``)."""

    player_id: int
    seed: int


@dataclass(frozen=True, slots=True)
class Rebuy:
    """A rebuy between hands while the stack is at or below the threshold."""

    player_id: int


@dataclass(frozen=True, slots=True)
class RebuyIfBusted:
    """During a hand: rebuy if this hand busts the player (TREG-14)."""

    player_id: int


@dataclass(frozen=True, slots=True)
class AddOn:
    player_id: int


@dataclass(frozen=True, slots=True)
class StartTournament:
    """Seat draw over ``table_ids`` (the first ones needed are used, the rest kept for
    late entries) and the button draw. ``break_order``: every table, first to break first
    (default: ``table_ids`` reversed, so the first table is the final table)."""

    table_ids: tuple[int, ...]
    seed: int
    break_order: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class StartClock:
    """Start level 1 now."""


@dataclass(frozen=True, slots=True)
class AdvanceLevel:
    """The level-end timer: ``[]`` unless ``expected_level`` and ``expected_clock_version``
    are current and the level's time is up."""

    expected_level: int
    expected_clock_version: int


@dataclass(frozen=True, slots=True)
class PauseClock:
    pass


@dataclass(frozen=True, slots=True)
class ResumeClock:
    pass


@dataclass(frozen=True, slots=True)
class AdjustClock:
    """The director corrects the clock: ``seconds`` more (positive) or fewer (negative) on
    the level or the break in progress, running or stopped (e.g. the time a room outage
    took from the players)."""

    seconds: int


@dataclass(frozen=True, slots=True)
class StartBreak:
    """A break now (the director) or at a synchronized slot (the timer, with
    ``expected_clock_version`` and ``slot``). ``minutes``: default ``sync_break_minutes``."""

    minutes: int | None = None
    expected_clock_version: int | None = None
    slot: str | None = None


@dataclass(frozen=True, slots=True)
class EndBreak:
    """End the break: the timer (with ``expected_clock_version``, only once its time is
    up) or the director (at once)."""

    expected_clock_version: int | None = None


@dataclass(frozen=True, slots=True)
class CloseLateRegistration:
    reason: str = "director"


@dataclass(frozen=True, slots=True)
class StartHandForHand:
    pass


@dataclass(frozen=True, slots=True)
class EndHandForHand:
    seed: int = 0


@dataclass(frozen=True, slots=True)
class StartTableHand:
    """Table ``table_id`` deals ``hand_number`` with the button and blinds it placed."""

    table_id: int
    hand_number: int
    button_seat: int | None = None
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None


@dataclass(frozen=True, slots=True)
class RecordHandResult:
    """The hand at ``table_id`` is settled: chips per player dealt in at its start and end.

    ``rebuys``: busted players who rebuy before the next deal (TREG-14). ``best_hands``:
    player ids, best hand first, when the dealer entered them (ELIM-3 remainder). ``seed``
    draws seats when a table is broken or the final table is drawn.
    """

    table_id: int
    hand_number: int
    starting_stacks: Mapping[int, int]
    final_stacks: Mapping[int, int]
    seed: int
    rebuys: tuple[int, ...] = ()
    best_hands: tuple[int, ...] = ()
    knockouts: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    conduct_flags: tuple[tuple[int, str, str], ...] = ()
    absent: tuple[int, ...] = ()  # players ruled absent at the deal (SEAT-13; HU-4)
    voided: bool = False  # a misdeal or void: redealt, the stacks as they were (MIS-1..12)


@dataclass(frozen=True, slots=True)
class ScheduleStart:
    """Set (or, with ``delay``, move) the lobby start time (TREG-5), ISO UTC."""

    start_at: str
    delay: bool = False
    reason: str = ""


@dataclass(frozen=True, slots=True)
class AmendLevels:
    """The director changes the published structure (TREG-6): from level ``from_level`` on
    the levels are ``levels`` (a level after the one in progress; beyond the last level to
    add to the structure). ``reason``: why, for the change log."""

    from_level: int
    levels: tuple[Level, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class CorrectSeat:
    """The floor finds a player in the wrong seat (TSEAT-2): he is moved, stack and all,
    to ``seat`` of ``table_id`` (the seat he was drawn to), between hands."""

    player_id: int
    table_id: int
    seat: int


@dataclass(frozen=True, slots=True)
class CorrectHandStacks:
    """An upheld dispute about the settled hand ``hand_id`` at ``table_id`` (SD-24) moves
    ``adjustments`` chips, ``(player_id, chips)`` summing to 0, between the stacks of its
    players, before the table's next hand."""

    table_id: int
    hand_id: str
    adjustments: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class MissScheduledStart:
    """The clock at the lobby time, with too few entries to start (TREG-5, TREG-3)."""


@dataclass(frozen=True, slots=True)
class RollBackHands:
    """After a server crash: every hand in progress back to its start stacks (CXL-1)."""

    reason: str = "server crash"


@dataclass(frozen=True, slots=True)
class CancelTournament:
    """Cancel and settle (CXL-2): ``rollback`` or ``roll_forward``; management decides."""

    method: str
    reason: str


Command = (
    CreateTournament | Register | Unregister | LateRegister | ReEnter | Rebuy | AddOn
    | StartTournament | StartClock | AdvanceLevel | PauseClock | ResumeClock | AdjustClock
    | StartBreak | EndBreak | CloseLateRegistration | StartHandForHand | EndHandForHand
    | StartTableHand | RecordHandResult | deals.DealCommand | payments.PaymentCommand
    | AmendLevels
    | penalties.PenaltyCommand | RebuyIfBusted | ScheduleStart | RollBackHands | CancelTournament
    | CorrectSeat | CorrectHandStacks | MissScheduledStart
)  # fmt: skip
