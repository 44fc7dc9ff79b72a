"""Events of the floor's rulings during and right after a hand (stream ``hand-<hand_id>``).

They are appended to the hand's own stream, so the dealer tablet receives them with the
hand (the relay sends a hand's stream to its table's group), and they never change the
hand's chips by themselves: the hand aggregate (:mod:`tables.domain.hand`) skips them; a
ruling that moves chips is followed by the ordinary hand event (a fold, a misdeal).
See :mod:`tables.domain.hand_rulings`. Times are UTC ISO 8601 strings; amounts CZK/chips.
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.domain_events import DomainEvent


class FloorEvent(DomainEvent):
    """Marker base: a ruling recorded in a hand's stream that the hand itself ignores."""


@dataclass(frozen=True, slots=True)
class ClockCalled(FloorEvent):
    """BET-28: ``called_by`` called the clock on ``seat``; the final countdown starts at
    ``final_countdown_at`` and the hand is dead at ``expires_at``. ``clock`` numbers the
    clocks of the hand (the expiry timer carries it, so a stale timer does nothing)."""

    TYPE = "tables.ClockCalled"
    clock: int
    seat: int
    called_by: int
    called_at: str
    final_countdown_at: str
    expires_at: str
    expiry: str = "dead_hand"
    """What expiry does: ``dead_hand`` (BET-28) or ``fold_or_check`` (BET-29)."""


@dataclass(frozen=True, slots=True)
class ClockExpired(FloorEvent):
    """The clock ran out on ``seat`` (BET-28: dead hand; BET-29: fold or check); the hand
    event carrying it out follows."""

    TYPE = "tables.ClockExpired"
    clock: int
    seat: int
    outcome: str
    rule: str


@dataclass(frozen=True, slots=True)
class CardsExposed(FloorEvent):
    """``seat`` showed hole cards during the hand (BET-30..32). ``passive``: he may not bet
    or raise; ``folded``: ruled a fold (the fold follows)."""

    TYPE = "tables.CardsExposed"
    seat: int
    cards: str
    passive: bool
    folded: bool
    rule: str


@dataclass(frozen=True, slots=True)
class BurnRecorded(FloorEvent):
    """The card burned before ``street`` (BET-2), when the dealer enters it."""

    TYPE = "tables.BurnRecorded"
    street: str
    card: str


@dataclass(frozen=True, slots=True)
class OutOfTurnRecorded(FloorEvent):
    """``seat`` acted out of turn (BET-25/26); ruled when the action reaches him."""

    TYPE = "tables.OutOfTurnRecorded"
    seat: int
    action: str
    amount_to: int | None
    to_act: int


@dataclass(frozen=True, slots=True)
class ShowOrdered(FloorEvent):
    """A request to see ``seat``'s cards was granted: by ``requested_by`` (a seat; ``None``
    the floor), under ``rule`` (SD-17 floor order, SD-18 a river caller, SD-19 show one,
    show all). The dealer turns the cards up (``show/``, or for the record after the hand)."""

    TYPE = "tables.ShowOrdered"
    seat: int
    requested_by: int | None
    rule: str


@dataclass(frozen=True, slots=True)
class PenaltyHandKilled(FloorEvent):
    """``seat`` is sitting out a tournament penalty (PEN-2): dealt in, his blinds and antes
    posted, his hand killed at once. The fold follows as the hand's own event."""

    TYPE = "tables.PenaltyHandKilled"
    seat: int
    rule: str = "PEN-2"


@dataclass(frozen=True, slots=True)
class AbsenceRuled(FloorEvent):
    """``seat`` was not in his seat when the last hole card reached the button: his hand is
    dead (SEAT-12; in a tournament his blinds and antes were posted from his stack first,
    SEAT-13). The fold follows as the hand's own event."""

    TYPE = "tables.AbsenceRuled"
    seat: int
    rule: str


@dataclass(frozen=True, slots=True)
class OutOfTurnRuled(FloorEvent):
    """The action reached ``seat``, who had acted out of turn (BET-25/26). ``binding``: his
    out-of-turn ``action`` (to ``amount_to``) stands and follows as the hand's own event,
    unless ``applied`` is false (no longer legal: the dealer records what he does); not
    binding: a bet or raise came in between and he acts afresh. ``rule``, ``detail``: why."""

    TYPE = "tables.OutOfTurnRuled"
    seat: int
    binding: bool
    action: str | None
    amount_to: int | None
    applied: bool
    rule: str
    detail: str


@dataclass(frozen=True, slots=True)
class IrregularityRuled(FloorEvent):
    """The floor's ruling on an irregularity (MIS-4..21): ``cause``, ``consequence``,
    ``rule``; ``seat`` concerned; ``burn_index`` (MIS-17); ``note`` the floor's words."""

    TYPE = "tables.IrregularityRuled"
    cause: str
    consequence: str
    rule: str
    seat: int | None = None
    burn_index: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class ResultCorrected(FloorEvent):
    """A dispute upheld inside its window (SD-24..26): appended after the settlement, never
    a rewrite of it. ``kind``: reading / accounting / mucked_winner; ``adjustments``: chips
    moved per seat (sum 0), as ``(seat, amount)`` pairs."""

    TYPE = "tables.ResultCorrected"
    kind: str
    detail: str
    adjustments: tuple[tuple[int, int], ...]
    rule: str
    recorded_at: str


@dataclass(frozen=True, slots=True)
class RabbitHuntConsented(FloorEvent):
    """RAKE-8: the other players still in at the end consented to ``seat``'s rabbit hunt.
    Rabbit cards never count for the jackpot."""

    TYPE = "tables.RabbitHuntConsented"
    seat: int
    consenting_seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChopExceptionRecorded(FloorEvent):
    """RAKE-9: the floor allowed an exception to the no-chop rule of a cash all-in pot;
    ``floor`` who, ``reason`` why, ``seats`` the players who agreed."""

    TYPE = "tables.ChopExceptionRecorded"
    floor: str
    reason: str
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChipsRead(FloorEvent):
    """The dealer reported the chips ``seat`` pushed (``chips``: the values in each motion)
    and what he said; the ruling (BET-10..27) is ``kind`` to ``amount_to`` by ``rule``,
    ``returned`` chips go back. An ``insufficient_call`` (BET-27) records no action: the
    player completes the call or folds."""

    TYPE = "tables.ChipsRead"
    seat: int
    chips: tuple[tuple[int, ...], ...]
    announced: str
    kind: str
    amount_to: int
    rule: str
    returned: int
    completed: bool
