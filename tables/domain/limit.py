"""Fixed-limit betting: the bet sizes and the raise cap (BET-5, BET-6). Pure.

A fixed-limit hold'em hand (game ``"FLH"``) bets in fixed steps: the *small bet* (the big
blind) preflop and on the flop, the *big bet* (twice the big blind) on the turn and river.
pokerkit (``FixedLimitTexasHoldem``) fixes the sizes; the number of raises is ours, because
pokerkit's own cap (four completions, bets or raises per street, the big blind not counted)
is neither house rule:

* BET-5 (004, tournaments): one bet and three raises per round, always. Preflop the big
  blind is the bet, so three raises (to four small bets); after the flop a bet and three
  raises.
* BET-6 (002, floor rules): the same cap, but lifted when only two players are left in the
  hand before the third raise (heads-up raising is unlimited).

Which one applies is the table's ``limit_cap_lifted_heads_up`` (``HandStarted``); the
catalogue default is BET-6 at cash tables and BET-5 in tournaments.

An all-in for less than a full bet or raise is not a raise and does not count (pokerkit
does not let it reopen the betting either, BET-14).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from casino.domain_events import DomainEvent
from tables.events import ActionTaken, BoardDealt, HandStarted

LIMIT_GAMES = ("FLH",)
RAISES_PER_ROUND = 3
"""BET-5 / BET-6: a bet plus three raises per betting round."""


def is_limit(game: str) -> bool:
    """Whether ``game`` is played fixed-limit."""
    return game in LIMIT_GAMES


def bet_sizes(big_blind: int) -> tuple[int, int]:
    """``(small_bet, big_bet)`` for a fixed-limit table: the big blind and twice it."""
    return big_blind, 2 * big_blind


def street_bet_size(big_blind: int, board_size: int) -> int:
    """The fixed bet/raise step on the street with ``board_size`` board cards (chips/CZK):
    the small bet preflop and on the flop, the big bet on the turn and river."""
    small, big = bet_sizes(big_blind)
    return small if board_size < 4 else big


def bets_this_round(history: Iterable[DomainEvent]) -> int:
    """How many full bets and raises were made in the current betting round.

    The preflop big blind counts as the round's bet (BET-5: "one bet plus three raises");
    an all-in below a full step is not counted.
    """
    return _this_round(history)[0]


def _this_round(history: Iterable[DomainEvent]) -> tuple[int, int]:
    """``(bets and raises this round, folds since the one that reached the cap)``; the
    second is 0 while the cap is not reached."""
    count = level = board = big_blind = folds_since_cap = 0
    for event in history:
        if isinstance(event, HandStarted):
            big_blind = event.big_blind
            count, level, board, folds_since_cap = 1, big_blind, 0, 0
        elif isinstance(event, BoardDealt):
            if event.run <= 1:
                board += len(event.cards) // 2
            count = level = folds_since_cap = 0
        elif isinstance(event, ActionTaken) and event.action in ("bet", "raise"):
            step = street_bet_size(big_blind, board)
            if not event.all_in or event.amount_to - level >= step:
                count += 1
            level = max(level, event.amount_to)
        elif isinstance(event, ActionTaken) and event.action == "fold":
            folds_since_cap += count >= 1 + RAISES_PER_ROUND
    return count, folds_since_cap


def cap_reached(
    history: Sequence[DomainEvent], *, live_players: int, lifted_heads_up: bool
) -> bool:
    """Whether the raise cap stops another bet or raise in this round.

    Args:
        history: the hand's events so far.
        live_players: players still holding cards (not folded).
        lifted_heads_up: BET-6 (the cap is off when only two players are left *before the
            third raise*: a cap reached three-handed stays when a player folds after it,
            found by QA); ``False``: BET-5 (always capped).
    """
    count, folds_since_cap = _this_round(history)
    if count < 1 + RAISES_PER_ROUND:
        return False
    return not (lifted_heads_up and live_players + folds_since_cap <= 2)
