"""Events of one Show poker hand (stream ``show-hand-<hand_id>``). Amounts CZK or chips;
times UTC ISO 8601 strings. See :mod:`tables.domain.show_poker.game`."""

from __future__ import annotations

from dataclasses import dataclass

from casino.domain_events import DomainEvent
from tables.events import SeatInHand


@dataclass(frozen=True, slots=True)
class ShowHandStarted(DomainEvent):
    """Every player dealt in posted one blind (SHOW-2; a short stack posts all he has) and
    got four hole cards face down (SHOW-3). ``blinds`` are ``(seat, amount)`` posted."""

    TYPE = "show.HandStarted"
    hand_id: str
    table_id: int
    hand_number: int
    button_seat: int
    blind: int
    seats: tuple[SeatInHand, ...]
    blinds: tuple[tuple[int, int], ...]
    mode: str = "cash"
    rabbit_hunt_allowed: bool = True
    sitting_out: tuple[int, ...] = ()
    rules_version: str = "5.2"
    """The Show poker rule-set version the hand is played under (SHOW-27)."""
    """Seats serving a sit-out penalty: blind posted, not dealt in (SHOW-20..22)."""


@dataclass(frozen=True, slots=True)
class ShowMisdealt(DomainEvent):
    """The hand is abandoned and every blind returned (SHOW-5)."""

    TYPE = "show.Misdealt"
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class FlopDealt(DomainEvent):
    """The three-card flop (SHOW-3). ``exposed_seat``: a hole card exposed on the deal
    became the first flop card, and that seat got the would-be first flop card (SHOW-7)."""

    TYPE = "show.FlopDealt"
    cards: str
    exposed_seat: int | None = None


@dataclass(frozen=True, slots=True)
class HandKilled(DomainEvent):
    """``seat``'s hand is dead (SHOW-4 absent at the third flop card, SHOW-6 too many cards,
    SHOW-26 the showdown clock)."""

    TYPE = "show.HandKilled"
    seat: int
    rule: str


@dataclass(frozen=True, slots=True)
class Declared(DomainEvent):
    """``seat`` declared ``text``, parsed once: ``category``/``ranks``/``cards``;
    ``misdeclared`` (SHOW-16); ``leading``: it beats the round's leading declaration (else
    it counts as false, SHOW-10); ``shown``: cards shown with it (at showdown)."""

    TYPE = "show.Declared"
    seat: int
    text: str
    category: int
    ranks: tuple[int, ...]
    cards: int
    misdeclared: bool
    leading: bool
    shown: str = ""


@dataclass(frozen=True, slots=True)
class Checked(DomainEvent):
    """``seat`` checked; ``redeclared``: he was the previous street's senior declarer, so
    his check re-declares his hand (SHOW-14)."""

    TYPE = "show.Checked"
    seat: int
    redeclared: bool = False


@dataclass(frozen=True, slots=True)
class ShowFolded(DomainEvent):
    TYPE = "show.Folded"
    seat: int


@dataclass(frozen=True, slots=True)
class Challenged(DomainEvent):
    """``challenger`` challenged ``seat``'s declaration; ``seat`` showed ``cards``. ``false``:
    the cards do not make it (or it did not beat the previous one): it becomes a check
    (SHOW-10). Shown cards stay shown (SHOW-23)."""

    TYPE = "show.Challenged"
    challenger: int
    seat: int
    cards: str
    false: bool


@dataclass(frozen=True, slots=True)
class StandingBuy(DomainEvent):
    """``seat`` pushed chips over the line: he checks and buys every following card
    (SHOW-12)."""

    TYPE = "show.StandingBuy"
    seat: int


@dataclass(frozen=True, slots=True)
class CardBought(DomainEvent):
    """``seat`` bought the next card for ``price`` (SHOW-19; 0 for the senior declarer,
    SHOW-18); ``all_in``: he paid all he had."""

    TYPE = "show.CardBought"
    seat: int
    price: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class CardTurned(DomainEvent):
    """One card burned, the next turned face up (SHOW-19)."""

    TYPE = "show.CardTurned"
    card: str


@dataclass(frozen=True, slots=True)
class ShowdownClockStarted(DomainEvent):
    """No better declaration for 10 s: a 30-second clock (SHOW-26)."""

    TYPE = "show.ShowdownClockStarted"
    started_at: str
    expires_at: str
    leader: int


@dataclass(frozen=True, slots=True)
class ShowPotAwarded(DomainEvent):
    """One pot: ``amount`` to ``winner`` among ``eligible`` (SHOW-25)."""

    TYPE = "show.PotAwarded"
    amount: int
    winner: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ShowHandSettled(DomainEvent):
    """The hand is over; ``final_stacks`` as ``(seat, stack)``."""

    TYPE = "show.HandSettled"
    final_stacks: tuple[tuple[int, int], ...]
    uncontested: bool


@dataclass(frozen=True, slots=True)
class SitOutPenalty(DomainEvent):
    """A Show poker penalty recorded on the player (stream ``player-<id>``): sit out
    ``hands`` hands, blinds still paid (SHOW-20..22)."""

    TYPE = "show.SitOutPenalty"
    player_id: str
    offence: str
    occurrence: int
    hands: int
    warning: bool
    rule: str


@dataclass(frozen=True, slots=True)
class PenaltyHandServed(DomainEvent):
    """One hand of a Show poker sit-out served (SHOW-20..22): a completed hand at which the
    player's seat posted its blind and was not dealt in (stream ``show-penalties-<id>``). A
    misdealt hand is dealt again and does not count."""

    TYPE = "show.PenaltyHandServed"
    player_id: str
    hand_id: str
