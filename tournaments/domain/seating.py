"""The table plan: seat draws, button draw, balancing, breaking tables, the final table.

Pure functions (no Django) over :class:`TableLayout` snapshots; randomness comes from a
``random.Random`` (or an integer seed) supplied by the caller, and the outcome (seats,
moves, cards) is what the tournament stores in its events, so a replay never draws again.

Seats are numbered 1..10 clockwise; positions reuse :mod:`tables.domain.seating`.

Positions at a table. Every table has a *reference seat* ``P`` from which the next big
blind is counted: the last (or current) hand's big blind, or, before the table's first hand,
the seat that will post the small blind (first occupied seat after the drawn button). The
player who posts the big blind next is the first occupied seat clockwise after ``P``
(exact with the dead button, SEAT-5; with the forward button, SEAT-6, as long as the last
button and small blind are still seated). An empty seat clockwise right after ``P`` is the
*worst position*: a player seated there posts the big blind in the next hand (TSEAT-5:
straight into the big blind is allowed). The *forbidden zone* is the empty seats strictly
between the button and ``P``: a player seated there would skip both blinds for nearly an
orbit (SEAT-14: not between the button and the big blind; TSEAT-5/TSEAT-7: never the small
blind, never between the small blind and the button).

Rules: TSEAT-1 (random starting seats), SEAT-1/SEAT-2 (first button: high card with suits
spades > hearts > diamonds > clubs, or seat 1), TSEAT-3 (tables within one player),
TSEAT-5/TSEAT-6 (who moves and where: ``balance_placement``), TSEAT-4/TSEAT-7 (breaking in a
fixed order, seats by draw, ``broken_table_seat_filter``), TSEAT-8 (final table redraw).
A player who can only be seated in the forbidden zone is placed with
``wait_for_big_blind=True``: the table deals him in once the big blind reaches him.

Costs: :func:`draw_seats` is O(n); :func:`balance` and :func:`break_table` are
O(m log t) for m moves over t tables (heaps keyed by player count).
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from tables.domain.seating import first_after, strictly_between

RANKS = "23456789TJQKA"
SUITS = "shdc"
"""Suit order for the high-card draw, best first (SEAT-1): spades, hearts, diamonds, clubs."""

WORST_POSITION = "worst_position"
SIMILAR_POSITION = "similar_position"
NOT_IN_ZONE = "not_between_button_and_big_blind"
ANY_SEAT = "any"


def _rng(rng: random.Random | int) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


@dataclass(frozen=True, slots=True)
class TableLayout:
    """One table of the plan: ``seats`` maps seat number -> player id.

    ``button_seat`` / ``big_blind_seat``: the last (or running) hand's, or only the drawn
    button before the first hand. ``in_hand``: a hand is running (no player may leave it).
    ``next_button_seat``: where the next hand's button will be when that is known now --
    with the dead button (SEAT-5) the last small blind's seat, even if it is empty since;
    ``None`` (the forward button, SEAT-6, or a dead small blind) counts the forbidden zone
    from ``button_seat``, which is never too narrow.
    """

    table_id: int
    max_seats: int
    seats: Mapping[int, int]
    button_seat: int | None = None
    big_blind_seat: int | None = None
    in_hand: bool = False
    next_button_seat: int | None = None


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a player sits. ``wait_for_big_blind``: only a forbidden-zone seat was free,
    he is dealt in when the big blind reaches him (SEAT-14)."""

    player_id: int
    table_id: int
    seat: int
    wait_for_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class Move:
    """A player moved, stack and all, from one seat to another (``reason``: ``balancing``
    or ``table_broken``)."""

    player_id: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str
    wait_for_big_blind: bool = False


# --- draws ------------------------------------------------------------------------------


def card_key(card: str) -> tuple[int, int]:
    """Sort key of a card such as ``"As"``: rank, then suit (spades highest, SEAT-1)."""
    return RANKS.index(card[0]), -SUITS.index(card[1])


def high_card_draw(
    seats: Iterable[int], rng: random.Random | int
) -> tuple[int, tuple[tuple[int, str], ...]]:
    """Draw for the button (SEAT-1): one card per seat from a shuffled deck, in seat
    order; the highest card, equal ranks by suit (spades > hearts > diamonds > clubs), gets
    the button. Returns ``(button_seat, ((seat, card), ...))``.

    Raises:
        ValueError: no seats, or more than 52.
    """
    ordered = sorted(seats)
    if not 0 < len(ordered) <= 52:
        raise ValueError("need 1-52 seats to draw for the button")
    deck = [r + s for r in RANKS for s in SUITS]
    cards = _rng(rng).sample(deck, len(ordered))
    drawn = tuple(zip(ordered, cards, strict=True))
    return max(drawn, key=lambda sc: card_key(sc[1]))[0], drawn


def initial_button(
    seats: Iterable[int], method: str, rng: random.Random | int
) -> tuple[int, tuple[tuple[int, str], ...]]:
    """The first button: ``"high_card"`` (SEAT-1, cards returned) or ``"seat_1"`` (SEAT-2:
    seat 1, or the lowest occupied seat when seat 1 is empty; no cards)."""
    if method == "high_card":
        return high_card_draw(seats, rng)
    return min(seats), ()


def tables_needed(players: int, table_size: int) -> int:
    """Fewest tables of ``table_size`` for ``players`` (at least 1)."""
    return max(1, -(-players // table_size))


def draw_seats(
    player_ids: Sequence[int],
    table_ids: Sequence[int],
    table_size: int,
    rng: random.Random | int,
) -> dict[int, tuple[int, int]]:
    """The starting seat draw (TSEAT-1): player id -> ``(table_id, seat)``.

    Uses the first :func:`tables_needed` of ``table_ids``; every table gets ``n // t`` or
    ``n // t + 1`` players (which tables get one more is drawn), on seats drawn at random
    from 1..``table_size``, and the players are shuffled onto those seats, so every balanced
    assignment is equally likely. O(n).

    Raises:
        ValueError: duplicate players or tables, or too few tables.
    """
    r = _rng(rng)
    if len(set(player_ids)) != len(player_ids) or len(set(table_ids)) != len(table_ids):
        raise ValueError("duplicate player or table ids")
    count = tables_needed(len(player_ids), table_size)
    if len(table_ids) < count:
        raise ValueError(f"{len(player_ids)} players need {count} tables")
    used = list(table_ids[:count])
    base, extra = divmod(len(player_ids), count)
    bigger = set(r.sample(range(count), extra))
    slots: list[tuple[int, int]] = []
    seat_numbers = range(1, table_size + 1)
    for i, table_id in enumerate(used):
        size = base + (1 if i in bigger else 0)
        slots.extend((table_id, seat) for seat in sorted(r.sample(seat_numbers, size)))
    players = list(player_ids)
    r.shuffle(players)
    return dict(zip(players, slots, strict=True))


def final_table_draw(
    player_ids: Iterable[int], seat_count: int, rng: random.Random | int
) -> dict[int, int]:
    """The final-table redraw (TSEAT-8): player id -> seat, drawn from 1..``seat_count``.

    Raises:
        ValueError: more players than seats.
    """
    players = sorted(player_ids)
    if len(players) > seat_count:
        raise ValueError(f"{len(players)} players for {seat_count} seats")
    r = _rng(rng)
    seats = r.sample(range(1, seat_count + 1), len(players))
    r.shuffle(players)
    return dict(zip(players, seats, strict=True))


# --- positions --------------------------------------------------------------------------


def reference_seat(layout: TableLayout) -> int:
    """``P``: the seat after which the next big blind is counted (module notes)."""
    if layout.big_blind_seat is not None:
        return layout.big_blind_seat
    if layout.button_seat is not None and layout.seats:
        sb = first_after(layout.button_seat, layout.seats)
        assert sb is not None
        return sb
    return 0


def next_big_blind_seat(layout: TableLayout) -> int | None:
    """The occupied seat that posts the big blind next (TSEAT-5's player), if any."""
    return first_after(reference_seat(layout), layout.seats)


def forbidden_seats(layout: TableLayout) -> frozenset[int]:
    """Empty seats strictly between the next hand's button and ``P`` (SEAT-14, TSEAT-5,
    TSEAT-7), and ``P`` itself when it is empty: the last big blind left, and his seat is
    the next small blind's (TSEAT-5: never the small blind; a player moved there posted
    it at once, found by QA). The next button is ``next_button_seat`` when known, else the
    last button. Seats behind the next button are not in it: a player there waits his turn
    for the blinds like everyone else (QA found players from a broken table made to wait
    for the big blind there, several hands)."""
    start = layout.next_button_seat if layout.next_button_seat is not None else layout.button_seat
    if start is None:
        return frozenset()
    p = reference_seat(layout)
    return frozenset(
        s
        for s in range(1, layout.max_seats + 1)
        if s not in layout.seats and (strictly_between(start, p, s) or (s == p != start))
    )


def _clockwise_empty(layout: TableLayout, seats: Mapping[int, int]) -> list[int]:
    """Empty seats clockwise from the one after ``P`` (the worst position first)."""
    p = reference_seat(layout)
    empty = [s for s in range(1, layout.max_seats + 1) if s not in seats]
    return sorted(empty, key=lambda s: (s - p - 1) % 10)


def _distance(p: int, seat: int, seats: Mapping[int, int]) -> int:
    """Occupied seats strictly between ``p`` and ``seat`` clockwise: hands before ``seat``
    posts the big blind."""
    return sum(1 for s in seats if s != seat and strictly_between(p, seat, s))


def _target(
    layout: TableLayout,
    seats: Mapping[int, int],
    policy: str,
    distance: int,
    seat_filter: str = NOT_IN_ZONE,
    rng: random.Random | None = None,
) -> tuple[int, bool] | None:
    """A seat at ``layout`` (with ``seats`` as they are now) and whether the player must
    wait for the big blind; ``None`` when the table is full.

    ``policy``: ``worst_position`` (TSEAT-5), ``similar_position`` (TSEAT-6, the seat whose
    distance to the next big blind is closest to ``distance``) or ``draw`` (random seat,
    TSEAT-4, using ``rng``)."""
    empty = _clockwise_empty(layout, seats)
    if not empty:
        return None
    zone = forbidden_seats(replace(layout, seats=seats, in_hand=False))
    allowed = empty if seat_filter == ANY_SEAT else [s for s in empty if s not in zone]
    if not allowed:
        return (rng.choice(empty) if rng is not None else empty[0]), True
    if policy == "draw":
        assert rng is not None
        return rng.choice(allowed), False
    if policy == SIMILAR_POSITION:
        p = reference_seat(layout)
        return min(allowed, key=lambda s: abs(_distance(p, s, seats) - distance)), False
    return allowed[0], False


# --- balancing and breaking -------------------------------------------------------------


class _Plan:
    """Working copy of the plan for a balancing pass: counts and seats per table."""

    def __init__(self, tables: Mapping[int, TableLayout]) -> None:
        self.layouts = tables
        self.seats: dict[int, dict[int, int]] = {}
        self.count = {tid: len(t.seats) for tid, t in tables.items()}

    def seats_of(self, table_id: int) -> dict[int, int]:
        seats = self.seats.get(table_id)
        if seats is None:
            seats = self.seats[table_id] = dict(self.layouts[table_id].seats)
        return seats

    def layout(self, table_id: int) -> TableLayout:
        return replace(self.layouts[table_id], seats=self.seats_of(table_id))

    def move(self, player: int, src: int, src_seat: int, dst: int, dst_seat: int) -> None:
        del self.seats_of(src)[src_seat]
        self.seats_of(dst)[dst_seat] = player
        self.count[src] -= 1
        self.count[dst] += 1


def balance(
    tables: Mapping[int, TableLayout],
    *,
    policy: str = WORST_POSITION,
    seat_filter: str = NOT_IN_ZONE,
) -> list[Move]:
    """Moves that bring the tables within one player of each other (TSEAT-3).

    Repeatedly the largest table not in a hand gives a player to the smallest table (in a
    hand or not: the player joins its next hand). The player moved is the one due to post
    the big blind next at his table (TSEAT-5); he goes to the worst position at the short
    table (``policy="worst_position"``, TSEAT-5) or the seat whose distance to the next
    big blind matches his (``"similar_position"``, TSEAT-6; for the next big blind that is
    also the seat posting the big blind next), never in the forbidden zone unless nothing
    else is free (then ``wait_for_big_blind``). Tables in a hand give no player: if the
    largest table is in a hand its surplus waits for its hand's end (call again then).
    Ties between tables go to the lower table id. O(m log t).
    """
    plan = _Plan(tables)
    short = [(n, tid) for tid, n in plan.count.items()]
    long = [(-n, tid) for tid, n in plan.count.items() if not tables[tid].in_hand]
    heapq.heapify(short)
    heapq.heapify(long)
    moves: list[Move] = []
    while short and long:
        while short and plan.count[short[0][1]] != short[0][0]:
            heapq.heappop(short)
        while long and plan.count[long[0][1]] != -long[0][0]:
            heapq.heappop(long)
        if not short or not long:
            break
        s_n, s_id = short[0]
        l_n, l_id = -long[0][0], long[0][1]
        if l_n - s_n <= 1:
            break
        src = plan.layout(l_id)
        p = reference_seat(src)
        mover_seat = first_after(p, src.seats)
        assert mover_seat is not None
        distance = _distance(p, mover_seat, src.seats)
        dst = plan.layout(s_id)
        target = _target(dst, dst.seats, policy, distance, seat_filter)
        assert target is not None  # the short table has fewer players than the long one
        seat, wait = target
        player = src.seats[mover_seat]
        plan.move(player, l_id, mover_seat, s_id, seat)
        moves.append(Move(player, l_id, mover_seat, s_id, seat, "balancing", wait))
        heapq.heappush(short, (plan.count[s_id], s_id))
        heapq.heappush(short, (plan.count[l_id], l_id))
        heapq.heappush(long, (-plan.count[l_id], l_id))
    return moves


def break_table(
    tables: Mapping[int, TableLayout],
    table_id: int,
    rng: random.Random | int,
    *,
    seat_filter: str = NOT_IN_ZONE,
) -> list[Move]:
    """Moves that empty ``table_id`` (TSEAT-4): see :func:`break_tables`."""
    return break_tables(tables, [table_id], rng, seat_filter=seat_filter)


def break_tables(
    tables: Mapping[int, TableLayout],
    table_ids: Sequence[int],
    rng: random.Random | int,
    *,
    seat_filter: str = NOT_IN_ZONE,
) -> list[Move]:
    """Moves that empty the tables ``table_ids``, broken in that order (TSEAT-4): each
    broken table's players, in drawn order, go to a remaining table with the fewest
    players (ties drawn) and a seat drawn among its open seats, outside the forbidden zone
    with ``seat_filter="not_between_button_and_big_blind"`` (TSEAT-7) or anywhere with
    ``"any"`` (TSEAT-4). When only zone seats are left the player waits for the big blind.
    O(t + m log t) for m players moved over t tables.

    Raises:
        ValueError: the remaining tables lack the seats, or a table to break is in a hand.
    """
    r = _rng(rng)
    breaking = set(table_ids)
    for table_id in table_ids:
        if tables[table_id].in_hand:
            raise ValueError(f"table {table_id} is in a hand")
    plan = _Plan(tables)
    others = [tid for tid in tables if tid not in breaking]
    free = sum(tables[t].max_seats - plan.count[t] for t in others)
    if free < sum(plan.count[t] for t in breaking):
        raise ValueError(f"not enough open seats to break tables {sorted(breaking)}")
    heap = [(plan.count[t], r.random(), t) for t in others if plan.count[t] < tables[t].max_seats]
    heapq.heapify(heap)
    zone_only: list[tuple[int, float, int]] = []
    moves: list[Move] = []
    for table_id in table_ids:
        players = sorted(tables[table_id].seats.items())
        r.shuffle(players)
        for from_seat, player in players:
            tid, seat, wait = _draw_destination(plan, heap, zone_only, seat_filter, r)
            plan.move(player, table_id, from_seat, tid, seat)
            moves.append(Move(player, table_id, from_seat, tid, seat, "table_broken", wait))
            if plan.count[tid] < tables[tid].max_seats and not wait:
                heapq.heappush(heap, (plan.count[tid], r.random(), tid))
            elif plan.count[tid] < tables[tid].max_seats:
                zone_only.append((plan.count[tid], r.random(), tid))
    return moves


def _draw_destination(
    plan: _Plan,
    heap: list[tuple[int, float, int]],
    zone_only: list[tuple[int, float, int]],
    seat_filter: str,
    r: random.Random,
) -> tuple[int, int, bool]:
    """Pop the table with the fewest players that has an allowed open seat and draw one.
    Tables with only zone seats left go to ``zone_only`` for good (only seating a player
    there changes its open seats). Fallback: the smallest of those, waiting for the BB."""
    while heap:
        entry = heapq.heappop(heap)
        dst = plan.layout(entry[2])
        target = _target(dst, dst.seats, "draw", 0, seat_filter, r)
        assert target is not None
        if target[1] and seat_filter != ANY_SEAT:
            zone_only.append(entry)
            continue
        return entry[2], target[0], False
    entry = min(zone_only)
    zone_only.remove(entry)
    dst = plan.layout(entry[2])
    target = _target(dst, dst.seats, "draw", 0, seat_filter, r)
    assert target is not None
    return entry[2], target[0], True


def tables_to_break(
    players: int, break_order: Sequence[int], table_size: int, *, keep: int = 1
) -> list[int]:
    """The tables to break, first ones first in ``break_order`` (TSEAT-4), so that the
    remaining tables seat ``players`` at ``table_size`` each; at least ``keep`` tables stay
    (2 while a final table smaller than a full table is not yet due, TSEAT-8)."""
    surplus = len(break_order) - max(tables_needed(players, table_size), keep)
    return list(break_order[: max(surplus, 0)])


def late_entry_seat(
    tables: Mapping[int, TableLayout],
    player_id: int,
    rng: random.Random | int,
    *,
    seat_filter: str = NOT_IN_ZONE,
) -> Placement | None:
    """A late entrant's seat: a table with the fewest players (ties drawn), a seat drawn
    among its open seats outside the forbidden zone (SEAT-14; else he waits for the big
    blind). ``None`` when every table is full. O(t)."""
    r = _rng(rng)
    open_tables = [t for t in tables.values() if len(t.seats) < t.max_seats]
    if not open_tables:
        return None
    fewest = min(len(t.seats) for t in open_tables)
    table = r.choice(sorted((t for t in open_tables if len(t.seats) == fewest),
                            key=lambda t: t.table_id))  # fmt: skip
    target = _target(table, table.seats, "draw", 0, seat_filter, r)
    assert target is not None
    return Placement(player_id, table.table_id, target[0], target[1])
