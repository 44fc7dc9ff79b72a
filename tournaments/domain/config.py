"""A tournament's configuration: structure, registration windows, entries, payouts, policies.

Pure standard library (no Django), JSON-friendly: the whole :class:`TournamentConfig` is
carried by the ``tournaments.TournamentCreated`` event and decoded back with ``dacite``, so
every field is an ``int``, ``str``, ``bool``, ``None``, a ``tuple`` or a nested frozen
dataclass. Units: prices and fees in CZK (whole units), stacks and blinds in chips, level and
break lengths in minutes, clock times as ISO-8601 UTC strings (``"2025-03-01T18:00:00+00:00"``).

Where the house documents disagree the choice is a field with the recommended default
(catalogue "Conflicts" and "Parameters"):

* ``initial_button``: ``"high_card"`` (SEAT-1, live) or ``"seat_1"`` (SEAT-2, online).
* ``button_rule``: ``"dead_button"`` (SEAT-5, live default) or ``"forward"`` (SEAT-6).
* ``balance_placement``: ``"worst_position"`` (TSEAT-5, default) or ``"similar_position"``
  (TSEAT-6).
* ``broken_table_seat_filter``: ``"not_between_button_and_big_blind"`` (TSEAT-7 / SEAT-14,
  default) or ``"any"`` (TSEAT-4: random, repeated big blinds accepted).
* ``tie_remainder``: ``"better_hand"`` (ELIM-3, default; falls back to the seat order when
  the hand ranking is not reported) or ``"left_of_button"`` (ELIM-4 has no remainder rule).
* ``breaks_mode``: ``"scheduled"`` (breaks after given levels, CLK-6/CLK-8) or
  ``"synchronized"`` (at :``sync_minute`` every ``sync_every_hours``, CLK-3/CLK-4) or
  ``"interval"`` (every ``interval_minutes`` of clock time from the start, CLK-6: a 07:25
  start with 60 minutes breaks at 08:25, 09:25 ...; breaks of ``sync_break_minutes``).
* ``min_entrants``: ``None`` means one full table (TREG-3; 9, or 6 for 6-max).
* ``deal_min_stage``: ``"final_table"`` (DEAL-3, 004, default) or ``"any"`` (000: any
  time, if every remaining player takes part). ``deals_allowed`` (DEAL-1, default on) and
  ``deal_money_on_table`` (DEAL-6: CZK the house requires left for 1st place, default 0).
* ``denominations``: the chips in play (CR-1: colour-ups are scheduled from them; empty:
  only breaks with a ``chip_up_denomination`` colour up, and no race is run).
* ``penalty_ladder`` (PEN-1/9: warning, sit-out, sit-out, disqualification) and
  ``penalty_sit_out_hands`` (default 9, one orbit at a full table; 000 allows one hand to
  several orbits, the floor may give any length).
* ``bounty`` (BNTY-1, :class:`BountyRule`); ``early_payout`` (ELIM-7/8, default off).
* ``late_reg_close_at_money`` (TREG-8, default on) and ``late_reg_close_below_full_table``
  (TREG-4, the 000 "absent player stack" cut-off; default on, as the house rule says; a
  room that sells entries below one full table turns it off per event).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise
from typing import Literal

from casino.errors import DomainError

AnteType = Literal["none", "ante", "big_blind_ante"]
"""``ante``: every player posts it; ``big_blind_ante``: the big blind posts it for the table."""
InitialButton = Literal["seat_1", "high_card"]
ButtonRule = Literal["dead_button", "forward"]
BalancePlacement = Literal["worst_position", "similar_position"]
SeatFilter = Literal["not_between_button_and_big_blind", "any"]
BreaksMode = Literal["scheduled", "synchronized", "interval"]
LevelHandsPhase = Literal["final_table", "always"]
TieRemainder = Literal["better_hand", "left_of_button"]
DealMinStage = Literal["final_table", "any"]
BountyKind = Literal["none", "knockout", "progressive", "fixed"]
EventFormat = Literal["standard", "headsup"]

ANTE_TYPES = ("none", "ante", "big_blind_ante")
TABLE_ANTE_TYPES = {"none": "none", "ante": "per_player", "big_blind_ante": "big_blind"}
"""The hand engine's names (``tables.events.AnteType``) for our ante types."""
HAND_MIN_RAISE_RULE = "previous_increment"
"""Tournament hands: the raise increment is at least the previous one (BET-7)."""
BASIS_POINTS = 10_000


@dataclass(frozen=True, slots=True)
class Level:
    """One blind level (CLK-1): blinds and ante in chips, length in minutes.

    ``ante_type`` ``"ante"``: every player dealt in posts ``ante``; ``"big_blind_ante"``:
    the big blind posts ``ante`` for the whole table; ``"none"``: ``ante`` must be 0.
    """

    small_blind: int
    big_blind: int
    ante: int = 0
    ante_type: AnteType = "none"
    minutes: int = 20

    @property
    def table_ante_type(self) -> str:
        """The hand engine's ante type (``none``, ``per_player``, ``big_blind``)."""
        return TABLE_ANTE_TYPES[self.ante_type]


@dataclass(frozen=True, slots=True)
class Break:
    """A scheduled break after level ``after_level`` (1-based) of ``minutes`` (CLK-8).

    ``chip_up_denomination``: the smallest chip taken out of play at this break (CR-1), or
    ``None``. The chip race itself is recorded by the tables (not in this module).
    """

    after_level: int
    minutes: int
    chip_up_denomination: int | None = None


@dataclass(frozen=True, slots=True)
class ReEntryRule:
    """Re-entry (TREG-9): an eliminated player buys a new entry and is seated by draw.

    ``until_level``: last level (inclusive) at which it is allowed (``None``: as long as
    late registration is open; it never outlives late registration). ``max_per_player``:
    re-entries per player (0: unlimited). ``price`` goes to the prize pool, ``fee`` to the
    house (CZK); ``stack`` in chips (0: the starting stack).
    """

    allowed: bool = False
    max_per_player: int = 1
    until_level: int | None = None
    price: int = 0
    fee: int = 0
    stack: int = 0


@dataclass(frozen=True, slots=True)
class RebuyRule:
    """Rebuys: extra chips for a price while the player's stack is at most
    ``stack_threshold`` chips (``None``: the starting stack; 0: only when busted), up to
    level ``until_level`` (inclusive), at most ``max_per_player`` times (0: unlimited). A
    busted player must rebuy before his table's next deal (TREG-14)."""

    allowed: bool = False
    max_per_player: int = 0
    until_level: int = 0
    price: int = 0
    fee: int = 0
    stack: int = 0
    stack_threshold: int | None = None


@dataclass(frozen=True, slots=True)
class AddOnRule:
    """Add-on: chips for a price, once per player (``max_per_player``), while level
    ``at_level`` runs or during the break that follows it (CLK-5: the add-on break).

    ``break_minutes``: the extra short break after ``at_level`` for taking add-ons (CLK-5,
    usually 3), in every breaks mode, when the structure has no break there already; 0:
    none beyond the structure's breaks."""

    allowed: bool = False
    at_level: int = 0
    max_per_player: int = 1
    price: int = 0
    fee: int = 0
    stack: int = 0
    break_minutes: int = 0


MAX_ENTRIES = 100_000
"""Largest field a payout bracket may name (``max_entries``); larger fields use the last."""
MAX_PAID_PLACES = 10_000
"""At most one place per basis point of the pool: a bracket never pays more places."""


@dataclass(frozen=True, slots=True)
class BountyRule:
    """Bounties (BNTY-1, :mod:`tournaments.domain.bounties`). ``kind``: ``none``,
    ``knockout``, ``progressive`` or ``fixed``; ``amount``: CZK per bounty (knockout and
    progressive: paid by each entry on top of the buy-in); ``players``: the named players
    of a fixed bounty; ``progressive_cash_bp``: the eliminator's cash share of a progressive
    bounty (the rest goes onto his own head; default half, the catalogue leaves it open)."""

    kind: BountyKind = "none"
    amount: int = 0
    players: tuple[int, ...] = ()
    progressive_cash_bp: int = 5000


@dataclass(frozen=True, slots=True)
class PayoutBand:
    """``count`` consecutive places each paid ``bp`` basis points of the prize pool."""

    count: int
    bp: int


@dataclass(frozen=True, slots=True)
class PayoutBracket:
    """Payouts for fields of up to ``max_entries`` entries (and above the previous
    bracket's): bands from 1st place down, in basis points summing to 10,000."""

    max_entries: int
    bands: tuple[PayoutBand, ...]

    @property
    def places(self) -> int:
        return sum(b.count for b in self.bands)

    def shares_bp(self) -> tuple[int, ...]:
        """Basis points per place, 1st place first.

        Raises:
            ValueError: more than :data:`MAX_PAID_PLACES` places (a share of at least
                1 bp each cannot pay more), checked before anything is allocated.
        """
        if self.places > MAX_PAID_PLACES:
            raise ValueError(f"{self.places} paid places: at most {MAX_PAID_PLACES}")
        return tuple(b.bp for b in self.bands for _ in range(b.count))


# --- the default payout table (used by tournaments.domain.payouts) ---------------------------

_CLASSIC: dict[int, tuple[int, ...]] = {
    1: (10_000,),
    2: (6500, 3500),
    3: (5000, 3000, 2000),
    4: (4500, 2700, 1700, 1100),
    5: (4000, 2500, 1600, 1100, 800),
    6: (3800, 2400, 1600, 1100, 650, 450),
    7: (3600, 2300, 1500, 1050, 700, 500, 350),
    8: (3400, 2200, 1450, 1050, 750, 500, 350, 300),
    9: (3200, 2000, 1400, 1000, 800, 600, 400, 330, 270),
}
_SMALL_FIELDS = ((5, 1), (10, 2), (20, 3), (27, 4), (33, 5), (40, 6), (46, 7), (53, 8), (66, 9))
_LARGE_FIELDS = (
    75, 100, 125, 150, 200, 250, 300, 400, 500, 600, 700, 800, 900, 1000, 1250, 1500, 1750,
    2000, 2500, 3000, 3500, 4000, 5000, 6000, 7000, 8000, 9000, 10_000,
)  # fmt: skip


def _bands(shares: Sequence[int]) -> tuple[PayoutBand, ...]:
    bands: list[PayoutBand] = []
    for bp in shares:
        if bands and bands[-1].bp == bp:
            bands[-1] = PayoutBand(bands[-1].count + 1, bp)
        else:
            bands.append(PayoutBand(1, bp))
    return tuple(bands)


def _formula_shares(field: int, paid: int) -> tuple[int, ...]:
    """``paid`` shares for a field of ``field``: 1.5 buy-ins each, the rest by ``1/place``."""
    minimum = 15_000 // field
    rest = BASIS_POINTS - minimum * paid
    scale = 10**12
    weights = [scale // place for place in range(1, paid + 1)]
    total = sum(weights)
    shares = [minimum + rest * w // total for w in weights]
    for place in range(BASIS_POINTS - sum(shares)):  # fewer than ``paid`` left over
        shares[place] += 1
    return tuple(shares)


def default_payout_table() -> tuple[PayoutBracket, ...]:
    """The default payout table (about 15 % of the field paid), fields up to 10,000.

    Larger fields use the last bracket (1,350 places); basis points are too coarse to pay
    15 % of a larger field, so such events should publish their own table.
    """
    brackets = [PayoutBracket(m, _bands(_CLASSIC[paid])) for m, paid in _SMALL_FIELDS]
    previous = _SMALL_FIELDS[-1][0]
    for max_entries in _LARGE_FIELDS:
        smallest = previous + 1
        paid = max(10, smallest * 15 // 100)
        brackets.append(PayoutBracket(max_entries, _bands(_formula_shares(smallest, paid))))
        previous = max_entries
    return tuple(brackets)


def _default_payout_table() -> tuple[PayoutBracket, ...]:
    return default_payout_table()


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Everything a tournament director publishes for an event (TREG-6).

    Money: ``buy_in`` (to the prize pool) and ``fee`` (to the house) in CZK, ``guarantee``
    in CZK (0: none). Chips: ``starting_stack``. ``table_size``: 9 or 6 (6-max).
    ``levels``: the structure (CLK-1), ``breaks``: used when ``breaks_mode`` is
    ``"scheduled"``; with ``"synchronized"`` a break of ``sync_break_minutes`` starts at
    :``sync_minute`` every ``sync_every_hours`` hours (CLK-3/CLK-4).

    Late registration (TREG-7/TREG-8) is open after the start while level
    ``late_reg_until_level`` (inclusive) runs and before ``late_reg_until`` (ISO UTC);
    both ``None`` means no late registration. It closes early once the field is in the
    money (``late_reg_close_at_money``) and, with ``late_reg_close_below_full_table``, when
    the field falls below one full table (TREG-4: fewer players left than a table seats,
    in a field of at least one full table).

    Unregistration (TREG-10): allowed before the start when ``unregister_allowed``, and
    only before ``unregister_deadline`` (ISO UTC) when one is set; refund buy-in + fee.

    ``payout_table``: brackets by field size (see :mod:`tournaments.domain.payouts`),
    amounts rounded down to ``payout_rounding_unit`` CZK, the remainder to 1st place.
    ``final_table_size``: players left when the final table is drawn (TSEAT-8; ``None``:
    ``table_size``). ``sync_every_hours``: 1 (CLK-3) or 2 (CLK-4).

    Levels by hands (SHOW-1): with ``level_hands`` > 0 a level lasts that many completed
    hands instead of its minutes, from the moment one table is left
    (``level_hands_phase = "final_table"``, the single/final-table phase) or from the start
    (``"always"``); 0: levels by the clock only.

    Heads-up events (HU-1..4): ``format = "headsup"`` plays a bracket of heads-up matches
    (``table_size`` 2; no late registration, re-entry, rebuy, add-on or colour-up). Each
    match starts with ``starting_stack`` for both players (HU-1: the structure is the
    event's; the catalogue names no carry-over, and equal stacks keep byes fair), and a
    match whose table has dealt ``headsup_inactive_hands`` hands in a row with a player
    ruled absent ends with the chip leader going through (HU-4, default 250).

    Satellites (TREG-11): with ``satellite_target`` (a tournament id) the event pays seats
    in that event, each worth ``satellite_seat_value`` CZK (its buy-in, fee and entrant
    bounty, fixed by the service when the satellite is created), the leftover in cash
    (:mod:`tournaments.domain.satellites`).
    """

    name: str
    buy_in: int
    fee: int
    starting_stack: int
    levels: tuple[Level, ...]
    table_size: int = 9
    breaks: tuple[Break, ...] = ()
    breaks_mode: BreaksMode = "scheduled"
    sync_minute: int = 55
    sync_every_hours: int = 1
    sync_break_minutes: int = 5
    interval_minutes: int = 60
    late_reg_until_level: int | None = None
    late_reg_until: str | None = None
    late_reg_close_at_money: bool = True
    late_reg_close_below_full_table: bool = True
    unregister_allowed: bool = True
    unregister_deadline: str | None = None
    reentry: ReEntryRule = field(default_factory=ReEntryRule)
    rebuy: RebuyRule = field(default_factory=RebuyRule)
    add_on: AddOnRule = field(default_factory=AddOnRule)
    guarantee: int = 0
    min_entrants: int | None = None
    payout_table: tuple[PayoutBracket, ...] = field(default_factory=_default_payout_table)
    payout_rounding_unit: int = 100
    initial_button: InitialButton = "high_card"
    button_rule: ButtonRule = "dead_button"
    balance_placement: BalancePlacement = "worst_position"
    broken_table_seat_filter: SeatFilter = "not_between_button_and_big_blind"
    final_table_size: int | None = None
    tie_remainder: TieRemainder = "better_hand"
    deals_allowed: bool = True
    deal_min_stage: DealMinStage = "final_table"
    deal_money_on_table: int = 0
    bounty: BountyRule = field(default_factory=BountyRule)
    early_payout: bool = False
    denominations: tuple[int, ...] = ()
    penalty_ladder: tuple[str, ...] = ("warning", "sit_out", "sit_out", "disqualification")
    penalty_sit_out_hands: int = 9
    level_hands: int = 0
    level_hands_phase: LevelHandsPhase = "final_table"
    format: EventFormat = "standard"
    headsup_inactive_hands: int = 250
    satellite_target: int | None = None
    satellite_seat_value: int = 0

    @property
    def minimum_field(self) -> int:
        """Entries needed to start (TREG-3): ``min_entrants`` or one full table."""
        return self.table_size if self.min_entrants is None else self.min_entrants

    @property
    def final_table_players(self) -> int:
        """Players left when the final table is drawn (TSEAT-8)."""
        return self.table_size if self.final_table_size is None else self.final_table_size

    def level(self, number: int) -> Level:
        """Level ``number`` (1-based); past the last level the last one stays in force."""
        return self.levels[min(number, len(self.levels)) - 1]

    def break_after(self, level: int) -> Break | None:
        """The break after ``level``, if any: the structure's (``scheduled`` mode), else the
        add-on break (CLK-5, any mode) when ``level`` is the add-on level."""
        if self.breaks_mode == "scheduled":
            scheduled = next((b for b in self.breaks if b.after_level == level), None)
            if scheduled is not None:
                return scheduled
        a = self.add_on
        if a.allowed and a.break_minutes and level == a.at_level:
            return Break(after_level=level, minutes=a.break_minutes)
        return None

    @property
    def reentry_stack(self) -> int:
        return self.reentry.stack or self.starting_stack

    @property
    def rebuy_stack(self) -> int:
        return self.rebuy.stack or self.starting_stack

    @property
    def add_on_stack(self) -> int:
        return self.add_on.stack or self.starting_stack

    @property
    def rebuy_threshold(self) -> int:
        t = self.rebuy.stack_threshold
        return self.starting_stack if t is None else t


def parse_time(value: str) -> datetime:
    """An ISO-8601 string as an aware UTC datetime.

    Raises:
        ValueError: not ISO-8601, or without a UTC offset.
    """
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise ValueError(f"{value!r} has no UTC offset")
    return parsed


def _headsup_problems(c: TournamentConfig) -> list[str]:
    """What a heads-up bracket cannot take (HU-1): every match is two players with the same
    starting stack, so nobody enters, rebuys or colours up once the bracket is drawn."""
    problems = []
    if c.table_size != 2:
        problems.append("a heads-up event has table_size 2")
    if c.late_reg_until_level is not None or c.late_reg_until is not None:
        problems.append("a heads-up bracket has no late registration (HU-2: drawn at start)")
    if c.reentry.allowed or c.rebuy.allowed or c.add_on.allowed:
        problems.append("a heads-up event has no re-entry, rebuy or add-on")
    if c.denominations or c.final_table_size not in (None, 2):
        problems.append("a heads-up event has no colour-up and no final table")
    if not 1 <= c.headsup_inactive_hands <= 10_000:
        problems.append("headsup_inactive_hands must be 1-10000 (HU-4)")
    return problems


BOUNTY_KINDS_WITH_AMOUNT = ("knockout", "progressive", "fixed")
"""Bounty kinds that pay an amount per bounty (BNTY-1): 0 CZK would be no bounty at all."""


def _entry_rule_problems(c: TournamentConfig, unknown_bounty_players: Sequence[int]) -> list[str]:
    """Rebuy, add-on and bounty settings that could never work (TREG-14, CLK-5, BNTY-1).

    Level 0 never runs (the clock starts at level 1): a rebuy period ending there has no
    rebuy. The add-on level is one of the published structure's levels, like a break's
    (CLK-5: the add-on break follows it). A rebuy period may run past the last level (the
    clock goes on at the last level's stakes, and rebuys with it). A bounty that pays an
    amount needs one above 0, a fixed bounty names its players, and each must be a player
    of the room (``unknown_bounty_players``, looked up by the service: the domain has no
    player registry)."""
    problems = []
    levels = len(c.levels)
    if c.rebuy.allowed and c.rebuy.until_level < 1:
        problems.append("rebuy.until_level must be >= 1: level 0 never runs (TREG-14)")
    if c.add_on.allowed and not 1 <= c.add_on.at_level <= levels:
        problems.append(f"add_on.at_level must be a level of the structure, 1-{levels} (CLK-5)")
    if c.bounty.kind in BOUNTY_KINDS_WITH_AMOUNT and c.bounty.amount <= 0:
        problems.append(f"a {c.bounty.kind} bounty needs an amount > 0 CZK (BNTY-1)")
    if c.bounty.kind == "fixed" and not c.bounty.players:
        problems.append("a fixed bounty names its players in bounty.players (BNTY-1)")
    if unknown_bounty_players:
        listed = ", ".join(str(p) for p in sorted(unknown_bounty_players))
        problems.append(f"bounty.players: no such player {listed} (BNTY-1)")
    return problems


def validate_config(
    c: TournamentConfig,
    *,
    unknown_bounty_players: Sequence[int] = (),
    now: datetime | None = None,
) -> None:
    """Check a configuration before a tournament is created (TREG-6).

    ``unknown_bounty_players``: the ids in ``bounty.players`` that are not players of the
    room (the service looks them up), reported with the other problems. ``now`` (aware UTC,
    at publishing): ``late_reg_until`` and ``unregister_deadline`` must be after it (a
    deadline already past would close late registration or unregistering before they
    open).

    Raises:
        DomainError: ``invalid_tournament_config`` listing every problem (rule SEAT-3 for
            table sizes, TREG-3 for the minimum field, CLK-1 for the structure, TREG-14 and
            CLK-5 for the rebuy and add-on levels, BNTY-1 for bounties; times must carry
            their UTC offset).
    """
    problems: list[str] = []
    if c.buy_in < 0 or c.fee < 0 or c.guarantee < 0:
        problems.append("buy_in, fee and guarantee must be >= 0 CZK")
    if c.starting_stack <= 0:
        problems.append("starting_stack must be > 0 chips")
    if c.format == "headsup":
        problems += _headsup_problems(c)
    elif c.format != "standard":
        problems.append("format must be 'standard' or 'headsup'")
    elif c.table_size not in (6, 9):
        problems.append("table_size must be 9 or 6 (6-max)")
    if not c.levels:
        problems.append("the structure needs at least one level")
    for i, lv in enumerate(c.levels, 1):
        if not 0 < lv.small_blind <= lv.big_blind:
            problems.append(f"level {i}: blinds must satisfy 0 < small_blind <= big_blind")
        if lv.ante_type not in ANTE_TYPES:
            problems.append(f"level {i}: ante_type must be one of {ANTE_TYPES}")
        elif lv.ante < 0 or (lv.ante_type == "none") != (lv.ante == 0):
            problems.append(f"level {i}: ante must be > 0 exactly when ante_type is not 'none'")
        if lv.minutes <= 0:
            problems.append(f"level {i}: minutes must be > 0")
    for b in c.breaks:
        if not 1 <= b.after_level <= len(c.levels) or b.minutes <= 0:
            problems.append(f"break after level {b.after_level}: invalid level or length")
    if len({b.after_level for b in c.breaks}) != len(c.breaks):
        problems.append("at most one break after each level")
    if c.breaks_mode not in ("scheduled", "synchronized", "interval"):
        problems.append("breaks_mode must be 'scheduled', 'synchronized' or 'interval'")
    if c.interval_minutes <= 0:
        problems.append("interval_minutes must be > 0 (CLK-6)")
    if not 0 <= c.sync_minute <= 59 or c.sync_every_hours not in (1, 2):
        problems.append("sync_minute must be 0-59 and sync_every_hours 1 or 2")
    if c.sync_break_minutes <= 0:
        problems.append("sync_break_minutes must be > 0")
    if c.late_reg_until_level is not None and c.late_reg_until_level < 1:
        problems.append("late_reg_until_level must be >= 1")
    if c.levels and c.starting_stack < c.levels[0].big_blind:
        problems.append("starting_stack must cover at least the first level's big blind")
    for i, (lower, higher) in enumerate(pairwise(c.levels), 2):
        if higher.small_blind < lower.small_blind or higher.big_blind < lower.big_blind:
            problems.append(f"level {i}: the blinds must not go down (CLK-1)")
    for name in ("late_reg_until", "unregister_deadline"):
        value = getattr(c, name)
        if value is not None:
            try:
                at = parse_time(value)
            except ValueError:
                problems.append(f"{name} must be an ISO-8601 time with a UTC offset")
                continue
            if now is not None and at <= now:
                problems.append(f"{name} must be in the future")
    if c.min_entrants is not None and c.min_entrants < 2:
        problems.append("min_entrants must be >= 2")
    if not 2 <= c.final_table_players <= 10:
        problems.append("final_table_size must be 2-10 (SEAT-3)")
    elif c.format == "standard" and c.final_table_players > c.table_size:
        problems.append("final_table_size must not exceed table_size (TSEAT-8)")
    for name, rule in (("reentry", c.reentry), ("rebuy", c.rebuy), ("add_on", c.add_on)):
        if rule.price < 0 or rule.fee < 0 or rule.stack < 0 or rule.max_per_player < 0:
            problems.append(f"{name}: price, fee, stack and max_per_player must be >= 0")
    if not 0 <= c.level_hands <= 1000 or c.level_hands_phase not in ("final_table", "always"):
        problems.append("level_hands must be 0-1000, level_hands_phase final_table or always")
    if not 0 <= c.add_on.break_minutes <= 60 or (
        c.add_on.break_minutes and not (c.add_on.allowed and c.add_on.at_level)
    ):
        problems.append("add_on.break_minutes must be 0-60, and needs an add-on level (CLK-5)")
    if c.bounty.kind not in ("none", "knockout", "progressive", "fixed"):
        problems.append("bounty.kind must be none, knockout, progressive or fixed")
    if c.bounty.amount < 0 or not 0 <= c.bounty.progressive_cash_bp <= BASIS_POINTS:
        problems.append("bounty.amount must be >= 0 CZK and progressive_cash_bp 0-10000")
    ds = sorted(c.denominations)
    if any(d <= 0 for d in ds) or any(b % a for a, b in pairwise(ds)):
        problems.append("denominations must be > 0, each a multiple of the one below (CR-2)")
    for b in c.breaks:
        chip = b.chip_up_denomination
        if chip is not None and (chip <= 0 or (ds and chip not in ds[:-1])):
            problems.append(
                f"break after level {b.after_level}: chip_up_denomination must be a chip in "
                "play with a larger one to colour up to (CR-1)"
            )
    if not c.penalty_ladder or any(
        k not in ("warning", "sit_out", "disqualification") for k in c.penalty_ladder
    ):
        problems.append("penalty_ladder: warning, sit_out or disqualification steps (PEN-1)")
    if c.penalty_sit_out_hands <= 0:
        problems.append("penalty_sit_out_hands must be > 0")
    if c.deal_money_on_table < 0:
        problems.append("deal_money_on_table must be >= 0 CZK (DEAL-6)")
    if (c.satellite_target is None) != (c.satellite_seat_value == 0) or (
        c.satellite_seat_value < 0
    ):
        problems.append("a satellite needs its target event and a seat value > 0 (TREG-11)")
    if c.payout_rounding_unit <= 0:
        problems.append("payout_rounding_unit must be > 0 CZK")
    if not c.payout_table:
        problems.append("payout_table needs at least one bracket")
    previous = 0
    for br in c.payout_table:
        if br.max_entries <= previous:
            problems.append("payout brackets must have increasing max_entries")
        previous = br.max_entries
        if br.max_entries > MAX_ENTRIES or br.places > min(MAX_PAID_PLACES, br.max_entries):
            # checked first: shares_bp() would build a tuple of ``places`` shares
            problems.append(
                f"payout bracket <= {br.max_entries}: at most {MAX_ENTRIES} entries and "
                f"{MAX_PAID_PLACES} places, never more places than entries"
            )
            continue
        shares = br.shares_bp()
        if sum(shares) != BASIS_POINTS or any(s < 0 for s in shares):
            problems.append(f"payout bracket <= {br.max_entries}: shares must sum to 10000 bp")
        elif list(shares) != sorted(shares, reverse=True):
            problems.append(f"payout bracket <= {br.max_entries}: shares must not increase")
        if br.places > br.max_entries:
            problems.append(f"payout bracket <= {br.max_entries}: more places than entries")
    for name, value in (
        ("initial_button", c.initial_button),
        ("button_rule", c.button_rule),
        ("balance_placement", c.balance_placement),
        ("broken_table_seat_filter", c.broken_table_seat_filter),
        ("tie_remainder", c.tie_remainder),
        ("deal_min_stage", c.deal_min_stage),
    ):
        allowed = _CHOICES[name]
        if value not in allowed:
            problems.append(f"{name} must be one of {allowed}")
    problems += _entry_rule_problems(c, unknown_bounty_players)
    if problems:
        raise DomainError(
            "invalid_tournament_config", "; ".join(problems), rule="TREG-6", problems=problems
        )


_CHOICES: dict[str, tuple[str, ...]] = {
    "initial_button": ("seat_1", "high_card"),
    "button_rule": ("dead_button", "forward"),
    "balance_placement": ("worst_position", "similar_position"),
    "broken_table_seat_filter": ("not_between_button_and_big_blind", "any"),
    "tie_remainder": ("better_hand", "left_of_button"),
    "deal_min_stage": ("final_table", "any"),
}
