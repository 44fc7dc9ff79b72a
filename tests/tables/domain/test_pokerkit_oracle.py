"""Random hands played by pokerkit replay to pokerkit's finishing stacks (a second oracle
beside the shared corpus): every pot, side pot and showdown the engine settles on its own,
in NLH, PLO and fixed-limit hold'em, 2-9 players. See ``pokerkit_hands`` for the few
places where the generator keeps to the house rules instead of pokerkit's model."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from tables.phh import check_finishing_stacks, parse_phh, replay
from tests.tables.domain.pokerkit_hands import random_hand


@pytest.mark.rule("SD-21")
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_pokerkit_hands_end_on_pokerkit_stacks(seed: int) -> None:
    """Chips end where pokerkit puts them; a split pot's odd chips may go otherwise (the
    house: first winner left of the button in each pot, SD-21; pokerkit merges the pots the
    same winners share), within the odd chips of the pots each seat shared."""
    try:
        data = random_hand(random.Random(seed))
    except AssertionError:  # a corner case of pokerkit's own, not a hand
        reject()
    hand = parse_phh(data, source=f"seed {seed}")
    state = replay(hand)
    assert state.result is not None
    split = [
        {award.seat: award.amount for award in pot.winners}
        for pot in state.result.pots
        if len(pot.winners) > 1
    ]
    assert check_finishing_stacks(hand.expected_stacks, state.stacks, split) == [], data
