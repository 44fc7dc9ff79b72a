"""The pokerkit state behind a hand: betting legality, turn order and street progression.

pokerkit (pinned, 0.7.7) is driven with unknown hole cards (``??``): the dealer enters hole
cards only at showdown. Antes, blinds and bet collection are automated; card burning is
done with unknown cards, board cards as the tablet enters them. Chip pushing and pulling
are *not* automated and never called: pots are ours (:mod:`tables.domain.pots`). Once the
betting is over (river closed, or at most one player left with chips) the pokerkit state is
no longer touched; the rest of the board and the showdown are handled by the hand itself.

pokerkit's deck holds only unknown cards (as many as the hole cards and burns of the hand):
pokerkit never picks a card, the tablet enters every card, and card validity and duplicates
(MIS-12) are checked by the hand itself. This also keeps pokerkit's card bookkeeping cheap.
Board cards are put on top of that deck just before they are dealt.

``Mode.CASH_GAME`` at cash tables: a player may fold when he could check (pokerkit only
warns), and the all-in runout count is selected automatically (one board).
``Mode.TOURNAMENT`` in tournaments: pokerkit refuses such a fold.

Player order: index 0 is the first seat after the button, the last index the button; heads
up pokerkit itself swaps the blinds (the button posts the small blind and acts first
preflop, SEAT-10).
"""

from __future__ import annotations

import warnings
from typing import cast

from pokerkit import (
    Automation,
    Card,
    Deck,
    FixedLimitTexasHoldem,
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
    State,
)

from tables.domain.seating import acting_order, blind_seats, straddle_amounts
from tables.events import HandStarted

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
)
UNKNOWN = Card.clean("??")
HOLE_CARD_COUNT = {"NLH": 2, "PLO": 4, "FLH": 2}
BURN_COUNT = 3


class UncappedFixedLimitTexasHoldem(FixedLimitTexasHoldem):
    """Fixed-limit hold'em without pokerkit's raise cap: the house cap (BET-5, BET-6) is
    checked by the hand (:mod:`tables.domain.limit`), and BET-6 lifts it heads-up."""

    max_completion_betting_or_raising_count = None


def create_state(started: HandStarted) -> State:
    """A pokerkit state with forced bets posted and unknown hole cards dealt.

    pokerkit takes per-player blinds and antes in its player order (``raw_antes``,
    ``raw_blinds_or_straddles``): the small and big blind at their seats (by position, or
    as the table placed them: a dead small blind is simply a 0), each straddle at its seat,
    and a live owed blind (``posted_bb`` / ``posted_sb``) as a *negative* value, pokerkit's
    "post": it counts as the player's bet and he keeps the option, but it never decides who
    opens the betting. A dead small blind (``dead_sb``) is added to the player's ante:
    money in the pot that is not a bet. Ante trimming (pokerkit's return of the part of one
    ante above all the others) is off when the antes are not uniform (a big-blind ante, a
    dead small blind). Heads-up pokerkit swaps the blinds and antes of its two players
    itself (index 0 is the big blind), so they are given unswapped. Heads-up with two equal
    blinds, the small blind is given as a post too, so that the button still opens (SEAT-10).

    A short big blind (SEAT-8: he posts all he has, the others play as if the full blind
    were in; with per-player antes, even one all-in on his ante) is given to pokerkit with
    a stack of exactly his ante and the full blind:
    pokerkit then posts the full blind and has him all-in, so the call is the full big
    blind and the minimum raise is from there. The difference is never paid: pots and
    stacks are ours (:mod:`tables.domain.pots`), from what he really posted.
    """
    seats = [s.seat for s in started.seats]
    order = acting_order(started.button_seat, seats)
    stacks = {s.seat: s.stack for s in started.seats}
    count = len(order)
    sb_seat, bb_seat = blind_seats(
        started.button_seat, order, started.small_blind_seat, started.big_blind_seat
    )
    sb, bb = started.small_blind, started.big_blind
    ante_of = dict.fromkeys(order, 0)
    blind_of = dict.fromkeys(order, 0)
    if started.ante_type == "per_player":
        ante_of = dict.fromkeys(order, started.ante)
    elif started.ante_type == "big_blind":  # what he posted: a short big blind's ante is less
        ante_of[bb_seat] = sum(
            p.amount for p in started.posts if p.kind == "ante" and p.seat == bb_seat
        )
    straddlers: list[int] = []
    dead = False
    for post in started.posts:
        if post.kind == "dead_sb":
            ante_of[post.seat] += sb
            dead = True
        elif post.kind == "posted_bb":
            blind_of[post.seat] -= bb
        elif post.kind == "posted_sb":
            blind_of[post.seat] -= sb
        elif post.kind == "straddle":
            straddlers.append(post.seat)
    if sb_seat is not None:
        blind_of[sb_seat] = sb
    blind_of[bb_seat] = bb
    if count == 2 and sb_seat is not None and 0 < sb == bb:
        # SEAT-10: pokerkit opens after the larger blind and, between two equal ones, took
        # the button's, so the big blind acted first; as a "post" the small blind is still
        # a bet but no longer decides who opens
        blind_of[sb_seat] = -sb
    for seat, amount in zip(straddlers, straddle_amounts(bb, len(straddlers)), strict=True):
        blind_of[seat] = amount
    if stacks[bb_seat] < ante_of[bb_seat] + bb:
        stacks[bb_seat] = ante_of[bb_seat] + bb  # SEAT-8, see above (all in the ante too)
    antes: tuple[int, ...]
    blinds: tuple[int, ...]
    if count == 2:  # unswapped: index 0 holds the small blind's values (the button's)
        antes = (ante_of[order[1]], ante_of[order[0]])
        blinds = (blind_of[order[1]], blind_of[order[0]])
    else:
        antes = tuple(ante_of[seat] for seat in order)
        blinds = tuple(blind_of[seat] for seat in order)
    mode = Mode.TOURNAMENT if started.mode == "tournament" else Mode.CASH_GAME
    trimming = started.ante_type != "big_blind" and not dead
    game: NoLimitTexasHoldem | PotLimitOmahaHoldem | UncappedFixedLimitTexasHoldem
    if started.game == "FLH":  # the small bet is the big blind, the big bet twice it
        game = UncappedFixedLimitTexasHoldem(
            AUTOMATIONS, trimming, antes, blinds, bb, 2 * bb, mode=mode
        )
    else:
        game_type = PotLimitOmahaHoldem if started.game == "PLO" else NoLimitTexasHoldem
        game = game_type(AUTOMATIONS, trimming, antes, blinds, bb, mode=mode)
    hole_count = HOLE_CARD_COUNT[started.game]
    # an instance attribute shadowing the class's standard deck (see the module notes)
    game.deck = cast(Deck, UNKNOWN * (hole_count * count + BURN_COUNT))  # type: ignore[misc]
    state = game(tuple(stacks[seat] for seat in order), count)
    hole = UNKNOWN * hole_count
    for _ in range(count):
        state.deal_hole(hole)
    return state


def fold(state: State) -> None:
    """Fold for the actor (a fold when a check is possible is a warning in cash games)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        state.fold()


def kill(state: State, player_index: int) -> None:
    """A dead hand (SEAT-12 presence, a MIS ruling, an out-of-turn fold made binding):
    ``player_index``'s cards are mucked and he leaves every pot, his chips staying in it.

    pokerkit folds only the player to act; for him this is :func:`fold`. For anyone else it
    does what pokerkit's fold does to its actor (0.7.7, pinned): muck the cards, take him
    out of the players still to act, and end the betting round when one player is left.
    """
    if state.actor_index == player_index:
        fold(state)
        return
    if not state.statuses[player_index]:
        return
    betting = bool(state.actor_indices)
    state._muck_hole_cards(player_index)
    if player_index in state.actor_indices:
        state.actor_indices.remove(player_index)
    if betting and (not state.actor_indices or sum(state.statuses) <= 1):
        state._end_betting()


def deal_board(state: State, cards: str) -> None:
    """Burn an unknown card and turn ``cards`` (validated by the caller)."""
    state.burn_card(UNKNOWN)
    board = Card.clean(cards)
    state.deck_cards.extend(board)  # the entered cards come "from the deck": no warning
    state.deal_board(board)
