"""Who plays the next hand and who posts what: button, blinds, owed and missed blinds.

Pure functions (no Django) behind the table aggregate's ``BeginHand``: :func:`plan_hand`
takes the seats with their status and the last hand's blinds, and returns a
:class:`HandPlan`.

Seat status (``Seat.status`` of the table):

* ``active``: dealt in (established in the game).
* ``new``: sat down in a running game at a ``wait_or_post_both`` table (SEAT-15) and not
  dealt a hand yet. At his first hand he is dealt in at once, without posting, when his seat
  is not between the button and the big blind; in the big blind he posts it; between the
  button (included) and the big blind he waits for the big blind, or, if he chose to post
  (``post``), posts both blinds (the small blind dead, the big blind live) and plays.
* ``waiting``: waits for the big blind (a new player who sat between the button and the big
  blind, or a player back from sitting out who owes blinds and chose to wait, SEAT-16). Not
  dealt in until the big blind reaches him, unless he chose to post what he owes (``post``).
* ``sitting_out``: not dealt in; each blind that passes his seat is owed (SEAT-16).

The big blind can reach ``new`` and ``waiting`` players (they are "due"): they then post it
and play, and nothing else is owed. Players sitting out are never due.

Button rules (``TableOpened.button_rule``):

* ``forward`` (SEAT-6): the button moves to the next active player after the last button,
  the small blind is the next active player after it and the big blind the next player due
  after the small blind. Players may skip blinds after others leave.
* ``dead_button`` (SEAT-5): the big blind moves first, to the next player due after the last
  big blind; the small blind is posted by the last big blind if he is still active
  (otherwise the small blind is dead: nobody posts it); the button is the seat of the last
  small blind, even if that seat is now empty (a dead button). When the big blind reaches
  that seat (the last hand was heads-up, or everybody after the last big blind left) the
  button is the seat just before the small blind's position, dealt in or not.

Heads-up (SEAT-10, SEAT-11): when only two players would be dealt in, the button posts the
small blind and the other the big blind, and nobody posts the big blind twice in a row: with
the dead button the big blind goes to the next active player after the last big blind; with
the forward button the button moves on, unless that would give the last big blind the big
blind again, in which case the last big blind takes the button. Only the two active players
are dealt a heads-up hand: players due wait through it (new players then wait for the big
blind like those between the button and the big blind).

A new game (no hand since the table was empty, or fewer than two active players, e.g. one
player left with new players waiting) deals every seated player in without posting (SES-1
for a new game, SEAT-1 button draw when the table was empty). After an earlier hand the
blinds keep moving: with the dead button the big blind goes to the next player after the
last big blind, with the forward button the button moves on (heads-up as above).

Missed blinds (SEAT-16): a player sitting out owes the big blind when the big blind passes
his seat (it moves from the last big blind past him) and the small blind when the small
blind's position passes or lands on his seat. Back in, he either waits for the big blind or
posts what he owes at once: the small blind dead (``missed_blind_sb_dead``, the default; live
otherwise) and the big blind live. In the big blind he simply posts it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tables.domain.seating import (
    MAX_SEATS,
    acting_order,
    first_after,
    next_button,
    strictly_between,
)

ACTIVE = "active"
NEW = "new"
WAITING = "waiting"
SITTING_OUT = "sitting_out"
STATUSES = (ACTIVE, NEW, WAITING, SITTING_OUT)

FORWARD = "forward"
DEAD_BUTTON = "dead_button"
BUTTON_RULES = (FORWARD, DEAD_BUTTON)

IMMEDIATE_NO_POST = "immediate_no_post"
WAIT_OR_POST_BOTH = "wait_or_post_both"
ENTRY_RULES = (IMMEDIATE_NO_POST, WAIT_OR_POST_BOTH)


@dataclass(frozen=True, slots=True)
class SeatStatus:
    """A seated player as the planner sees him. ``can_play``: chips and no re-buy owed."""

    seat: int
    status: str = ACTIVE
    can_play: bool = True
    post: bool = False
    missed_small_blind: bool = False
    missed_big_blind: bool = False


@dataclass(frozen=True, slots=True)
class LastBlinds:
    """The last hand's button, small blind position (posted or dead) and big blind; the
    blinds are ``None`` when unknown (a table state from before they were kept)."""

    button_seat: int
    small_blind_seat: int | None = None
    big_blind_seat: int | None = None


@dataclass(frozen=True, slots=True)
class HandPlan:
    """The next hand.

    ``small_blind_seat`` posts the small blind (``None``: dead, its position is
    ``dead_small_blind_seat``). ``posts`` are the owed blinds (``(seat, kind)``, kind
    ``dead_sb``, ``posted_bb`` or ``posted_sb``), in seat order. ``waiting`` are players
    due who are not dealt in; ``became_waiting`` the new players among them who now wait for
    the big blind (they owe both blinds to play before it). ``missed`` are the blinds
    (``(seat, "small_blind" | "big_blind")``) that passed players sitting out.
    """

    button_seat: int
    small_blind_seat: int | None
    big_blind_seat: int
    dealt_in: tuple[int, ...]
    dead_small_blind_seat: int | None = None
    posts: tuple[tuple[int, str], ...] = ()
    waiting: tuple[int, ...] = ()
    became_waiting: tuple[int, ...] = ()
    missed: tuple[tuple[int, str], ...] = ()
    new_game: bool = False
    heads_up: bool = False


class NotEnoughPlayers(ValueError):
    """Fewer than two players can be dealt in."""

    def __init__(self, players: int) -> None:
        super().__init__(f"{players} player(s) can be dealt in")
        self.players = players


def plan_hand(
    seats: Sequence[SeatStatus],
    last: LastBlinds | None,
    *,
    button_rule: str = FORWARD,
    missed_blind_sb_dead: bool = True,
    drawn_button: int | None = None,
    max_seats: int = MAX_SEATS,
    tournament: bool = False,
) -> HandPlan:
    """The next hand's button, blinds, seats dealt in, owed posts and missed blinds.

    ``tournament``: a player waiting because he was seated between the button and the big
    blind (SEAT-14, TSEAT-7) is dealt in as soon as his seat is out of that zone (the
    button has passed him): in a tournament a seated player is dealt in (SEAT-13), and
    waiting for the big blind, the cash game's way, kept a player moved from a broken table
    out for most of an orbit (found by QA).

    ``last`` is ``None`` when a game starts (no hand since the table was empty): then
    ``drawn_button`` (the high-card draw, SEAT-1) is the button, else the lowest seat.
    ``max_seats``: the table's last seat number (where a dead button may wrap to).

    Raises:
        NotEnoughPlayers: fewer than two seated players can be dealt in.
    """
    playable = {s.seat: s for s in seats if s.can_play and s.status != SITTING_OUT}
    active = sorted(seat for seat, s in playable.items() if s.status == ACTIVE)
    if last is None or len(active) < 2:
        return _new_game(seats, playable, last, drawn_button, button_rule)
    due = sorted(playable)
    layout = _layout(last, active, due, button_rule, max_seats)
    if layout is not None:
        button, sb_position, bb = layout
        zone = _zone(button, bb)
        dealt, posts, waiting, became = [], [], [], []
        for seat, s in sorted(playable.items()):
            joins = s.status == NEW or (tournament and s.status == WAITING)
            if s.status == ACTIVE or seat == bb or (joins and seat not in zone):
                dealt.append(seat)
            elif s.post:
                dealt.append(seat)
                owes_sb = s.status == NEW or s.missed_small_blind
                owes_bb = s.status == NEW or s.missed_big_blind
                if owes_sb:
                    posts.append((seat, "dead_sb" if missed_blind_sb_dead else "posted_sb"))
                if owes_bb:
                    posts.append((seat, "posted_bb"))
            else:
                waiting.append(seat)
                if s.status == NEW:
                    became.append(seat)
        if len(dealt) > 2:
            sb = sb_position if playable.get(sb_position, _OUT).status == ACTIVE else None
            return HandPlan(
                button_seat=button,
                small_blind_seat=sb,
                big_blind_seat=bb,
                dealt_in=tuple(dealt),
                dead_small_blind_seat=None if sb is not None else sb_position,
                posts=tuple(posts),
                waiting=tuple(waiting),
                became_waiting=tuple(became),
                missed=_missed(seats, last, sb_position, bb, became),
            )
    button, bb = _heads_up(last, active, button_rule)
    sitting = tuple(seat for seat in due if seat not in active)
    new = tuple(seat for seat in sitting if playable[seat].status == NEW)
    return HandPlan(
        button_seat=button,
        small_blind_seat=button,
        big_blind_seat=bb,
        dealt_in=tuple(active),
        waiting=sitting,
        became_waiting=new,
        missed=_missed(seats, last, button, bb, new),
        heads_up=True,
    )


_OUT = SeatStatus(seat=0, status=SITTING_OUT, can_play=False)


def _new_game(
    seats: Sequence[SeatStatus],
    playable: dict[int, SeatStatus],
    last: LastBlinds | None,
    drawn_button: int | None,
    button_rule: str,
) -> HandPlan:
    players = sorted(playable)
    if len(players) < 2:
        raise NotEnoughPlayers(len(players))
    if last is not None and button_rule == DEAD_BUTTON and last.big_blind_seat is not None:
        # the big blind still moves first: to the next player after the last big blind
        bb = first_after(last.big_blind_seat, players)
        assert bb is not None
        before = acting_order(bb, players)  # the big blind last
        sb = before[0] if len(players) == 2 else before[-2]
        button = sb if len(players) == 2 else before[-3]
    else:
        if last is None and drawn_button is not None:
            button = drawn_button
        else:
            button = next_button(None if last is None else last.button_seat, players)
        order = acting_order(button, players)
        sb, bb = (order[1], order[0]) if len(order) == 2 else (order[0], order[1])
        if len(order) == 2 and last is not None and bb == last.big_blind_seat:  # SEAT-11
            button, sb, bb = bb, bb, sb
    missed = () if last is None else _missed(seats, last, sb, bb, ())
    return HandPlan(
        button_seat=button,
        small_blind_seat=sb,
        big_blind_seat=bb,
        dealt_in=tuple(players),
        missed=missed,
        new_game=True,
        heads_up=len(players) == 2,
    )


def _layout(
    last: LastBlinds, active: list[int], due: list[int], button_rule: str, max_seats: int
) -> tuple[int, int, int] | None:
    """Button, small blind position and big blind for three or more players, or ``None``
    when only a heads-up layout fits (see the module notes)."""
    if button_rule == DEAD_BUTTON and last.big_blind_seat is not None:
        sb_position = last.big_blind_seat
        button = last.small_blind_seat if last.small_blind_seat is not None else last.button_seat
        bb = first_after(sb_position, due)
        assert bb is not None
        if button == sb_position or not strictly_between(sb_position, button, bb):
            # the big blind reached the last small blind (the last hand was heads-up, or
            # players left): the button goes just before the small blind's position
            button = sb_position - 1 if sb_position > 1 else max_seats
            if button == bb:
                return None  # nobody else is due: heads-up
        return button, sb_position, bb
    forward_button = first_after(last.button_seat, active)
    assert forward_button is not None
    sb = first_after(forward_button, active)
    assert sb is not None
    bb = first_after(sb, due)
    if bb is None or bb == forward_button:
        return None  # two active players and nobody due between the small blind and button
    return forward_button, sb, bb


def _heads_up(last: LastBlinds, active: list[int], button_rule: str) -> tuple[int, int]:
    """Button (who posts the small blind) and big blind of a heads-up hand (SEAT-10/11)."""
    assert len(active) == 2
    if button_rule == DEAD_BUTTON and last.big_blind_seat is not None:
        bb = first_after(last.big_blind_seat, active)
        assert bb is not None
        return next(seat for seat in active if seat != bb), bb
    button = first_after(last.button_seat, active)
    assert button is not None
    bb = next(seat for seat in active if seat != button)
    if bb == last.big_blind_seat:  # SEAT-11: nobody posts the big blind twice in a row
        button, bb = bb, button
    return button, bb


def _zone(button: int, bb: int) -> frozenset[int]:
    """Seats from the button (included) to the big blind (excluded): a player starting
    there would play before paying the big blind (SEAT-14/15)."""
    between = {s for s in range(1, MAX_SEATS + 1) if strictly_between(button, bb, s)}
    return frozenset({button} | between)


def _missed(
    seats: Iterable[SeatStatus],
    last: LastBlinds,
    sb_position: int,
    bb: int,
    became_waiting: Iterable[int],
) -> tuple[tuple[int, str], ...]:
    """Blinds that passed players sitting out (SEAT-16), and both blinds for new players
    who now wait for the big blind."""
    missed: list[tuple[int, str]] = []
    waiting = set(became_waiting)
    for s in sorted(seats, key=lambda s: s.seat):
        if s.seat in waiting:
            missed += [(s.seat, "small_blind"), (s.seat, "big_blind")]
            continue
        if s.status != SITTING_OUT:
            continue
        if last.small_blind_seat is not None and (
            s.seat == sb_position or strictly_between(last.small_blind_seat, sb_position, s.seat)
        ):
            missed.append((s.seat, "small_blind"))
        if last.big_blind_seat is not None and strictly_between(last.big_blind_seat, bb, s.seat):
            missed.append((s.seat, "big_blind"))
    return tuple(missed)
