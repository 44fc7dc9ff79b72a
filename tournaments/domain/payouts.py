"""Prize pool, payout table and prizes per finishing place (pure integer arithmetic).

Amounts are CZK (whole units); shares are basis points (1/100 %) of the prize pool.

* Prize pool (TREG-1, ELIM-6): ``(entries + re-entries) x buy-in + rebuy prices + add-on
  prices`` (the fees go to the house and are excluded), topped up to the guarantee:
  :func:`prize_pool`. It is provisional until registration and the rebuy/add-on period
  close (TREG-15); the tournament fixes it at the end.
* Payout table: brackets by field size, each a list of shares from 1st place down
  (:class:`~tournaments.domain.config.PayoutBracket`). The default
  (:func:`tournaments.domain.config.default_payout_table`) pays about 15 % of the field, up
  to 10,000 entries (1 place up to 5 entries, 2 up to 10, 3 up to 20, 9 at 60, then 15 %
  of the bracket's smallest field): classic fixed splits up to 9 places, then a minimum
  cash of 1.5 buy-ins per paid place plus the rest in proportion to ``1/place``.
* Rounding (:func:`place_prizes`): every place is rounded down to ``unit`` CZK and the
  remainder goes to 1st place, so the prizes always add up to the pool exactly.
* Ties (ELIM-3, ELIM-4): players who went out in the same hand (or hand-for-hand round,
  ELIM-5) with equal starting stacks share the prizes of their places equally, each share
  rounded down to ``unit``; what cannot be divided goes to the tied player ranked first
  (``tie_rank`` 0: the better hand, ELIM-3, or else the first seat left of the button).
* In the money (TREG-8): players left <= places paid (:func:`in_the_money`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tournaments.domain.config import BASIS_POINTS, PayoutBracket, TournamentConfig


def prize_pool(contributions: int, guarantee: int = 0) -> int:
    """The prize pool in CZK: the players' contributions (buy-ins, re-entry, rebuy and
    add-on prices, fees excluded) topped up to the guarantee."""
    return max(contributions, guarantee)


def bracket_for(table: Sequence[PayoutBracket], entries: int) -> PayoutBracket:
    """The bracket for a field of ``entries`` (the last one for larger fields).

    Raises:
        ValueError: the table is empty.
    """
    if not table:
        raise ValueError("empty payout table")
    for bracket in table:
        if entries <= bracket.max_entries:
            return bracket
    return table[-1]


def places_paid(table: Sequence[PayoutBracket], entries: int) -> int:
    """How many places are paid for ``entries`` (never more than the entries)."""
    return min(bracket_for(table, entries).places, max(entries, 1))


def in_the_money(players_left: int, table: Sequence[PayoutBracket], entries: int) -> bool:
    """Every remaining player is paid (TREG-8: late registration then closes)."""
    return players_left <= places_paid(table, entries)


def event_prizes(pool: int, config: TournamentConfig, entries: int) -> tuple[int, ...]:
    """The event's prize per place (CZK, 1st first): a satellite's seats and leftover
    (TREG-11, :func:`tournaments.domain.satellites.prizes`), else the payout table's."""
    if config.satellite_seat_value:
        from tournaments.domain.satellites import prizes

        return prizes(pool, config.satellite_seat_value)
    return place_prizes(pool, config.payout_table, entries, config.payout_rounding_unit)


def event_in_the_money(
    players_left: int, pool: int, config: TournamentConfig, entries: int
) -> bool:
    """Every remaining player is paid (TREG-8), by the event's own prizes."""
    if config.satellite_seat_value:
        return players_left <= len(event_prizes(pool, config, entries))
    return in_the_money(players_left, config.payout_table, entries)


def place_prizes(
    pool: int, table: Sequence[PayoutBracket], entries: int, unit: int = 1
) -> tuple[int, ...]:
    """Prize per place in CZK, 1st place first, for ``places_paid`` places.

    Each place gets its share of ``pool`` rounded down to ``unit`` CZK; the remainder goes
    to 1st place, so the prizes sum to ``pool``. When the field is smaller than the
    bracket's places, the shares of the missing places are added to 1st place.

    Raises:
        ValueError: ``unit`` is not positive or ``pool`` is negative.
    """
    if unit <= 0 or pool < 0:
        raise ValueError("unit must be > 0 and pool >= 0")
    shares = bracket_for(table, entries).shares_bp()[: places_paid(table, entries)]
    prizes = [pool * bp // BASIS_POINTS // unit * unit for bp in shares]
    prizes[0] += pool - sum(prizes)
    return tuple(prizes)


@dataclass(frozen=True, slots=True)
class Finisher:
    """An entry's finishing place: ``place`` .. ``place_to`` (equal for a single place; a
    range when players tie, ELIM-3/4). ``tie_rank``: order within the tie for the
    remainder (0 first)."""

    key: int
    place: int
    place_to: int
    tie_rank: int = 0


def award(prizes: Sequence[int], finishers: Iterable[Finisher], unit: int = 1) -> dict[int, int]:
    """Prize in CZK per finisher ``key``.

    Tied finishers share the sum of their places' prizes (places past the paid ones are
    worth 0) equally, each share rounded down to ``unit``; the remainder goes to the tied
    finisher with ``tie_rank`` 0 (ELIM-3; ELIM-4 has no remainder rule).

    Raises:
        ValueError: a tie group's size differs from its range of places.
    """
    groups: dict[tuple[int, int], list[Finisher]] = {}
    for f in finishers:
        groups.setdefault((f.place, f.place_to), []).append(f)
    result: dict[int, int] = {}
    for (first, last), group in groups.items():
        if len(group) != last - first + 1:
            raise ValueError(f"places {first}-{last} shared by {len(group)} finishers")
        total = sum(prizes[p - 1] for p in range(first, last + 1) if p <= len(prizes))
        share = total // len(group) // unit * unit
        ordered = sorted(group, key=lambda f: f.tie_rank)
        for f in ordered:
            result[f.key] = share
        result[ordered[0].key] += total - share * len(group)
    return result
