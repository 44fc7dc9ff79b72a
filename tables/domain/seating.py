"""Positions at the table: button movement, acting order, who posts which forced bet.

Seats are numbered 1..10 clockwise (ascending, wrapping from 10 to 1).

Straddles (SEAT-18/19): the seats that may straddle are, in order, the seat left of the big
blind (UTG), then each next seat clockwise up to the button (:func:`straddle_chain`); the
first posts 2x the big blind, each next one 2x the previous straddle
(:func:`straddle_amounts`). Heads-up nobody may straddle (the seat left of the big blind is
the button, who already posts the small blind).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tables.events import AnteType, ForcedBet, SeatInHand

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


STRADDLE_MULTIPLIER = 2


def straddle_chain(button_seat: int, seats: Iterable[int]) -> tuple[int, ...]:
    """The seats that may straddle, in order: UTG, UTG+1, ... the button (SEAT-18/19).

    Empty heads-up.
    """
    order = acting_order(button_seat, seats)
    return order[2:] if len(order) > 2 else ()


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
) -> tuple[ForcedBet, ...]:
    """Antes, then the blinds, then the straddles, as posted at the start of a hand (zero
    posts left out).

    Every player posts the ante (``per_player``), or the big blind posts it for the table
    (``big_blind``). The ante is taken first, then the blind from what is left; a short
    stack posts what it has (SEAT-8). This is pokerkit's order of posting. ``straddles``
    are the straddling seats in order (validated by the caller); each posts
    :func:`straddle_amounts` (or what it has).
    """
    by_seat = {s.seat: s for s in seats}
    order = acting_order(button_seat, by_seat)
    sb_index, bb_index = blind_indices(len(order))
    left = {seat: by_seat[seat].stack for seat in order}
    posts: list[ForcedBet] = []
    if ante > 0 and ante_type != "none":
        payers = order if ante_type == "per_player" else (order[bb_index],)
        for seat in payers:
            amount = min(ante, left[seat])
            if amount:
                left[seat] -= amount
                posts.append(ForcedBet(seat=seat, kind="ante", amount=amount))
    for index, kind, blind in (
        (sb_index, "small_blind", small_blind),
        (bb_index, "big_blind", big_blind),
    ):
        seat = order[index]
        amount = min(blind, left[seat])
        if amount:
            left[seat] -= amount
            posts.append(ForcedBet(seat=seat, kind=kind, amount=amount))  # type: ignore[arg-type]
    for seat, straddle in zip(straddles, straddle_amounts(big_blind, len(straddles)), strict=True):
        amount = min(straddle, left[seat])
        if amount:
            left[seat] -= amount
            posts.append(ForcedBet(seat=seat, kind="straddle", amount=amount))
    return tuple(posts)
