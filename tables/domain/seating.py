"""Positions at the table: button movement, acting order, who posts which forced bet.

Seats are numbered 1..10 clockwise (ascending, wrapping from 10 to 1).

Straddles (SEAT-18/19): the seats that may straddle are, in order, the seat left of the big
blind (UTG), then each next seat clockwise up to the button (:func:`straddle_chain`); the
first posts 2x the big blind, each next one 2x the previous straddle
(:func:`straddle_amounts`). Heads-up nobody may straddle (the seat left of the big blind is
the button, who already posts the small blind).

Placed blinds (SEAT-5 dead button, SEAT-11 heads-up placement, players waiting for the big
blind or posting): the table may name the small and big blind seats instead of leaving them
to position (:func:`blind_seats`). The small blind may then be dead (``None``: nobody posts
it) and the button a seat not dealt in; the straddle chain starts left of the big blind
wherever it is. Blinds owed by returning or new players (SEAT-15, SEAT-16) are posted
by other seats: a dead small blind (``dead_sb``) and live blinds (``posted_bb``,
``posted_sb``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tables.events import AnteType, ForcedBet, PostKind, SeatInHand

MAX_SEATS = 10


def next_button(previous_button: int | None, occupied_seats: Iterable[int]) -> int:
    """The button for the next hand: one occupied seat clockwise from the last one (SEAT-4).

    With no previous button (a new table) the lowest occupied seat gets it; a high-card draw
    (SEAT-1) is the caller's business. Seats between the old button and the next occupied
    seat are skipped, whether the old button seat is still occupied or not.

    Raises:
        ValueError: no seat is occupied, or a seat is outside 1..10.
    """
    seats = sorted(set(occupied_seats))
    if not seats:
        raise ValueError("no occupied seat")
    if seats[0] < 1 or seats[-1] > MAX_SEATS:
        raise ValueError("seats are numbered 1..10")
    if previous_button is None:
        return seats[0]
    for seat in seats:
        if seat > previous_button:
            return seat
    return seats[0]


def acting_order(button_seat: int, seats: Iterable[int]) -> tuple[int, ...]:
    """Seats clockwise from the first seat after the button; the button (if dealt in) last.

    This is pokerkit's player order: index 0 posts the small blind (the big blind heads-up),
    the last index is the button.
    """
    return tuple(sorted(seats, key=lambda seat: (seat - button_seat - 1) % MAX_SEATS))


def blind_indices(player_count: int) -> tuple[int, int]:
    """Indices in :func:`acting_order` of the small and the big blind (SEAT-7, SEAT-10)."""
    if player_count == 2:
        return 1, 0  # heads-up: the button posts the small blind
    return 0, 1


def first_after(seat: int, seats: Iterable[int]) -> int | None:
    """The first of ``seats`` clockwise after ``seat`` (``seat`` itself last), if any."""
    order = acting_order(seat, seats)
    return order[0] if order else None


def strictly_between(start: int, end: int, seat: int) -> bool:
    """``seat`` lies clockwise after ``start`` and before ``end`` (both excluded; nothing
    lies between a seat and itself)."""
    return 0 < (seat - start) % MAX_SEATS < (end - start) % MAX_SEATS


def blind_seats(
    button_seat: int,
    seats: Iterable[int],
    small_blind_seat: int | None = None,
    big_blind_seat: int | None = None,
) -> tuple[int | None, int]:
    """The seats that post the small and the big blind: by position (SEAT-7, SEAT-10) when
    ``big_blind_seat`` is ``None``, else as placed by the table (``small_blind_seat`` then
    ``None`` for a dead small blind)."""
    if big_blind_seat is None:
        order = acting_order(button_seat, seats)
        sb_index, bb_index = blind_indices(len(order))
        return order[sb_index], order[bb_index]
    return small_blind_seat, big_blind_seat


STRADDLE_MULTIPLIER = 2


def straddle_chain(
    button_seat: int, seats: Iterable[int], big_blind_seat: int | None = None
) -> tuple[int, ...]:
    """The seats that may straddle, in order: UTG, UTG+1, ... the button (SEAT-18/19), that
    is every seat after the big blind (by position unless ``big_blind_seat`` is given).

    Empty heads-up.
    """
    order = acting_order(button_seat, seats)
    if len(order) <= 2:
        return ()
    if big_blind_seat is None:
        return order[2:]
    return order[order.index(big_blind_seat) + 1 :]


def straddle_amounts(big_blind: int, count: int) -> tuple[int, ...]:
    """The straddle amounts: 2x the big blind, then 2x the previous straddle (SEAT-18/19)."""
    return tuple(big_blind * STRADDLE_MULTIPLIER ** (i + 1) for i in range(count))


def forced_bets(
    button_seat: int,
    seats: Sequence[SeatInHand],
    *,
    small_blind: int,
    big_blind: int,
    ante: int,
    ante_type: AnteType,
    straddles: Sequence[int] = (),
    small_blind_seat: int | None = None,
    big_blind_seat: int | None = None,
    dead_small_blinds: Sequence[int] = (),
    posted_big_blinds: Sequence[int] = (),
    posted_small_blinds: Sequence[int] = (),
) -> tuple[ForcedBet, ...]:
    """Antes, dead small blinds, the blinds, live owed blinds, then the straddles, as posted
    at the start of a hand (zero posts left out).

    Every player posts the ante (``per_player``), or the big blind posts it for the table
    (``big_blind``). The ante is taken first, then a dead small blind, then the blind or
    live post from what is left; a short stack posts what it has (SEAT-8). This is
    pokerkit's order of posting (a dead small blind is part of pokerkit's ante). A big
    blind short of his blind and the table's ante posts the blind first and the ante from
    what is left (the TDA's order for a big-blind ante): his chips in the blind can win the
    pot, an ante is dead money, and one who put all he had in the ante could win nothing
    (found by QA). ``straddles``
    are the straddling seats in order (validated by the caller); each posts
    :func:`straddle_amounts` (or what it has). The blinds are by position unless
    ``big_blind_seat`` is given (:func:`blind_seats`). ``dead_small_blinds`` post the small
    blind dead, ``posted_big_blinds`` the big blind live and ``posted_small_blinds`` the
    small blind live (SEAT-15, SEAT-16), in acting order.
    """
    by_seat = {s.seat: s for s in seats}
    order = acting_order(button_seat, by_seat)
    sb_seat, bb_seat = blind_seats(button_seat, order, small_blind_seat, big_blind_seat)
    left = {seat: by_seat[seat].stack for seat in order}
    posts: list[ForcedBet] = []

    def post(seat: int, kind: PostKind, amount: int) -> None:
        paid = min(amount, left[seat])
        if paid:
            left[seat] -= paid
            posts.append(ForcedBet(seat=seat, kind=kind, amount=paid))

    if ante > 0 and ante_type == "per_player":
        for seat in order:
            post(seat, "ante", ante)
    elif ante > 0 and ante_type != "none":  # the big blind's chips go to his blind first
        post(bb_seat, "ante", min(ante, left[bb_seat] - min(big_blind, left[bb_seat])))
    for seat in order:
        if seat in dead_small_blinds:
            post(seat, "dead_sb", small_blind)
    if sb_seat is not None:
        post(sb_seat, "small_blind", small_blind)
    post(bb_seat, "big_blind", big_blind)
    for seat in order:
        if seat in posted_big_blinds:
            post(seat, "posted_bb", big_blind)
        if seat in posted_small_blinds:
            post(seat, "posted_sb", small_blind)
    for seat, straddle in zip(straddles, straddle_amounts(big_blind, len(straddles)), strict=True):
        post(seat, "straddle", straddle)
    return tuple(posts)
