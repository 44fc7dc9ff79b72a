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
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
    State,
)

from tables.domain.seating import acting_order
from tables.events import HandStarted

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.RUNOUT_COUNT_SELECTION,
)
UNKNOWN = Card.clean("??")
HOLE_CARD_COUNT = {"NLH": 2, "PLO": 4}
BURN_COUNT = 3


def create_state(started: HandStarted) -> State:
    """A pokerkit state with forced bets posted and unknown hole cards dealt."""
    order = acting_order(started.button_seat, [s.seat for s in started.seats])
    stacks = {s.seat: s.stack for s in started.seats}
    count = len(order)
    antes: tuple[int, ...]
    if started.ante_type == "per_player":
        antes = (started.ante,) * count
    elif started.ante_type == "big_blind":
        # index 1 is the big blind; heads-up pokerkit itself moves it to index 0.
        antes = tuple(started.ante if i == 1 else 0 for i in range(count))
    else:
        antes = (0,) * count
    game_type = PotLimitOmahaHoldem if started.game == "PLO" else NoLimitTexasHoldem
    game = game_type(
        AUTOMATIONS,
        started.ante_type != "big_blind",
        antes,
        (started.small_blind, started.big_blind),
        started.big_blind,
        mode=Mode.TOURNAMENT if started.mode == "tournament" else Mode.CASH_GAME,
    )
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


def deal_board(state: State, cards: str) -> None:
    """Burn an unknown card and turn ``cards`` (validated by the caller)."""
    state.burn_card(UNKNOWN)
    board = Card.clean(cards)
    state.deck_cards.extend(board)  # the entered cards come "from the deck": no warning
    state.deal_board(board)
