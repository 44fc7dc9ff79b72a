"""Random legal hands played by pokerkit, as PHH data: an oracle for the hand engine.

pokerkit (pinned) plays a hand with random actions and records it as PHH, finishing stacks
included; :mod:`tables.phh` must replay it to the same stacks. The games are the ones the
room deals: no-limit hold'em (``NT``), pot-limit Omaha (``PO``) and fixed-limit hold'em
(``FT``), 2 to 9 players, antes per player or on the big blind, straddles, short stacks and
side pots, shows and mucks in random order (a muck only where there is one pot).

Where pokerkit's model and the house rules differ, the generator keeps to the house rules,
because a file that breaks them is one a dealer could not record:

- SEAT-8: a short blind does not lower the call; pokerkit lowers it. The blinds, straddles
  and the big blind's ante are always posted in full here.
- BET-5/BET-6: a bet and three raises per round, preflop the big blind being the bet, the
  cap lifted heads-up; pokerkit allows four raises preflop.
- SEAT-18: after a straddle the minimum raise is a full straddle more; pokerkit takes the
  big blind as the increment.
"""

from __future__ import annotations

import random
import tomllib
import warnings
from typing import Any

from pokerkit import (
    Automation,
    FixedLimitTexasHoldem,
    HandHistory,
    Mode,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


def random_hand(rng: random.Random) -> dict[str, Any]:
    """One hand as PHH data (the TOML of a ``.phh`` file, parsed). Raises
    ``AssertionError`` from pokerkit's own checks on a few corner cases: draw again."""
    variant = rng.choice(["NT", "NT", "PO", "FT"])
    players = rng.choice([2, 2, 3, 4, 5, 6, 6, 7, 8, 9])
    small_blind, big_blind = rng.choice([(1, 2), (5, 10), (25, 50), (50, 100), (100, 200)])
    blinds = [small_blind, big_blind]
    if variant != "FT" and players >= 4 and rng.random() < 0.2:
        blinds.append(2 * big_blind)  # the house chain: 2x, then 4x the big blind
        if players >= 5 and rng.random() < 0.4:
            blinds.append(4 * big_blind)
    antes: int | dict[int, int] = 0
    ante_kind = rng.choice(["none", "none", "per_player", "big_blind"])
    if ante_kind == "per_player":
        antes = rng.choice([1, big_blind // 10 or 1, big_blind // 2])
    elif ante_kind == "big_blind":
        antes = {1: big_blind}
    short = rng.random() < 0.3
    stacks = [
        rng.randint(1 if short else big_blind * 10, big_blind * rng.choice([20, 100, 300]))
        for _ in range(players)
    ]
    per_player = antes if isinstance(antes, int) else 0
    big_blind_ante = big_blind if ante_kind == "big_blind" else 0
    for i, blind in enumerate(blinds):  # SEAT-8: posted in full, with a chip behind
        if players == 2 or i == 1:  # heads-up, pokerkit swaps the blinds: either is the big
            blind = big_blind + big_blind_ante
        stacks[i] = max(stacks[i], blind + per_player + 1)
    # per-player antes are live chips, as the house counts them: a player all-in for less
    # than the ante wins only what he matched (pokerkit's "ante trimming"); a big blind's
    # ante is dead money in the main pot
    live_antes = ante_kind == "per_player"
    game: Any
    if variant == "NT":
        game = NoLimitTexasHoldem(AUTOMATIONS, live_antes, antes, tuple(blinds), big_blind,
                                  mode=Mode.CASH_GAME)  # fmt: skip
    elif variant == "PO":
        game = PotLimitOmahaHoldem(AUTOMATIONS, live_antes, antes, tuple(blinds), big_blind,
                                   mode=Mode.CASH_GAME)  # fmt: skip
    else:
        game = FixedLimitTexasHoldem(AUTOMATIONS, live_antes, antes, tuple(blinds), big_blind,
                                     2 * big_blind, mode=Mode.CASH_GAME)  # fmt: skip
    # pokerkit shuffles its deck with the random module's global generator: seed it from
    # ``rng`` while the hand is dealt and played, so that one seed is one hand
    saved = random.getstate()
    random.seed(rng.getrandbits(64))
    try:
        state = game(tuple(stacks), players)
        with warnings.catch_warnings():  # pokerkit's advice ("no reason to fold")
            warnings.simplefilter("ignore", UserWarning)
            _play(rng, state, variant, blinds)
    finally:
        random.setstate(saved)
    history = HandHistory.from_game_state(game, state)
    history.finishing_stacks = list(state.stacks)
    return tomllib.loads(history.dumps())


def _play(rng: random.Random, state: Any, variant: str, blinds: list[int]) -> None:
    raises: dict[int, int] = {}
    capped_three_handed: set[int] = set()
    straddle_increment = blinds[-1]  # SEAT-18: a straddle raises by itself
    someone_showed = False
    while state.status:
        roll = rng.random()
        if state.can_show_or_muck_hole_cards():
            # a muck once somebody has shown; not with side pots, where a muck can leave a
            # pot with no live hand (the house refuses that muck, SD-16)
            stacks = zip(state.stacks, state.statuses, strict=True)
            one_pot = all(stack for stack, live in stacks if live)
            show = not (someone_showed and one_pot) or roll >= 0.4
            state.show_or_muck_hole_cards(show)
            someone_showed |= show
            continue
        street = state.street_index
        in_hand = sum(1 for live in state.statuses if live)
        cap = 3 if street == 0 else 4
        # BET-6: lifted when two are left before the third raise; reached three-handed it stays
        capped = raises.get(street, 0) >= cap and (in_hand > 2 or street in capped_three_handed)
        if state.can_fold() and state.checking_or_calling_amount and roll < 0.25:
            state.fold()
        elif not capped and state.can_complete_bet_or_raise_to() and roll < 0.55:
            raises[street] = raises.get(street, 0) + 1
            if raises[street] == cap and in_hand > 2:
                capped_three_handed.add(street)
            if variant == "FT":
                state.complete_bet_or_raise_to()
                continue
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            if street == 0 and len(blinds) > 2:
                top = max(state.bets)
                low = max(low, top + straddle_increment)
                if low > high:
                    state.check_or_call()
                    continue
            amount = rng.choice([low, high, rng.randint(low, high)])
            if street == 0 and len(blinds) > 2:
                straddle_increment = max(straddle_increment, amount - max(state.bets))
            state.complete_bet_or_raise_to(amount)
        else:
            state.check_or_call()
