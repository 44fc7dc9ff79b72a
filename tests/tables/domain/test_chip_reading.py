"""The floor's reading of chips pushed without (or with) words: call or raise (section 6)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.chip_reading import (
    BettingSituation,
    ChipReadingPolicy,
    read_chips,
)
from tables.domain.errors import HandRuleViolation


def facing(
    current: int, *, bb: int = 400, prev: int | None = None, **kw: object
) -> BettingSituation:
    prev = prev if prev is not None else (current - bb if current > bb else bb)
    base: dict[str, object] = dict(
        current_bet=current,
        player_bet=0,
        stack=100_000,
        min_raise_to=current + prev,
        big_blind=bb,
        last_bet=bb,
        previous_raise=prev,
    )
    base.update(kw)
    return BettingSituation(**base)  # type: ignore[arg-type]


@pytest.mark.rule("BET-22")
def test_several_chips_of_one_value_catalogue_examples() -> None:
    two_thousands = read_chips(facing(1200), [[1000, 1000]])
    assert (two_thousands.kind, two_thousands.amount_to, two_thousands.returned) == (
        "call",
        1200,
        800,
    )
    four_fives = read_chips(facing(1200), [[500] * 4])
    assert (four_fives.kind, four_fives.amount_to, four_fives.rule) == ("raise", 2000, "BET-22")
    four_thousands = read_chips(facing(3200), [[1000] * 4])
    assert (four_thousands.kind, four_thousands.amount_to) == ("call", 3200)
    blinds_300_600 = read_chips(facing(600, bb=600), [[500, 500]])
    assert (blinds_300_600.kind, blinds_300_600.amount_to) == ("call", 600)


def raised_pot() -> BettingSituation:
    """Bet 100, raised to 400: the last raise was 300, the minimum re-raise is to 700."""
    return facing(400, bb=100, prev=300, last_bet=100)


@pytest.mark.rule("BET-10")
def test_fifty_percent_of_the_last_bet() -> None:
    policy = ChipReadingPolicy(incomplete_raise_base="last_bet")
    ruling = read_chips(raised_pot(), [[400, 50, 10]], policy=policy)  # raises by 60 >= 50
    assert (ruling.kind, ruling.amount_to, ruling.completed, ruling.rule) == (
        "raise",
        700,
        True,
        "BET-10",
    )
    assert read_chips(raised_pot(), [[400, 25, 10]], policy=policy).kind == "call"


@pytest.mark.rule("BET-11")
def test_one_and_a_half_times_the_bet_faced() -> None:
    policy = ChipReadingPolicy(incomplete_raise_base="bet_faced_1_5x")
    assert read_chips(raised_pot(), [[500, 100]], policy=policy).kind == "raise"  # 600 = 1.5x
    ruling = read_chips(raised_pot(), [[500, 50, 25]], policy=policy)  # 575 < 600
    assert (ruling.kind, ruling.returned, ruling.rule) == ("call", 175, "BET-11")


@pytest.mark.rule("BET-12")
def test_fifty_percent_of_the_minimum_raise() -> None:
    policy = ChipReadingPolicy(incomplete_raise_base="min_raise")
    assert read_chips(raised_pot(), [[500, 50]], policy=policy).kind == "raise"  # +150 of 300
    assert read_chips(raised_pot(), [[500, 25, 10]], policy=policy).kind == "call"  # +135
    # the same +60 that BET-10 makes a raise is a call here
    assert read_chips(raised_pot(), [[400, 50, 10]], policy=policy).kind == "call"


@pytest.mark.rule("BET-13")
def test_fifty_percent_of_the_previous_raise_is_the_default() -> None:
    ruling = read_chips(raised_pot(), [[500, 50]])  # +150 = 50 % of the previous raise (300)
    assert (ruling.kind, ruling.amount_to, ruling.completed, ruling.rule) == (
        "raise",
        700,
        True,
        "BET-13",
    )
    below = read_chips(raised_pot(), [[500, 25, 10]])
    assert (below.kind, below.amount_to, below.returned) == ("call", 400, 135)


@pytest.mark.rule("BET-20")
def test_single_chip_without_words() -> None:
    call = read_chips(facing(400), [[1000]])
    assert (call.kind, call.amount_to, call.returned) == ("call", 400, 600)
    sb = read_chips(facing(400, player_bet=200), [[1000]])  # the small blind's chip
    assert (sb.kind, sb.amount_to, sb.returned) == ("call", 400, 800)
    small = read_chips(facing(0, min_raise_to=400), [[100]])
    assert (small.kind, small.amount_to, small.completed, small.rule) == (
        "bet",
        400,
        True,
        "BET-20",
    )
    bb = facing(400, player_bet=400, bb_option=True, min_raise_to=800)
    assert read_chips(bb, [[1000]]).kind == "raise"  # 000: the big blind's chip is a raise
    as_check = read_chips(
        bb, [[1000]], policy=ChipReadingPolicy(bb_single_chip_unraised_is_raise=False)
    )
    assert as_check.kind == "check"


@pytest.mark.rule("BET-21")
def test_oversized_chip() -> None:
    assert read_chips(facing(400), [[5000]]).kind == "call"
    announced = read_chips(facing(400), [[5000]], announced="raise")
    assert (announced.kind, announced.amount_to, announced.rule) == ("raise", 5000, "BET-21")
    pot_limit = facing(400, pot_limit=True, max_raise_to=1400)
    capped = read_chips(pot_limit, [[5000]], announced="raise")
    assert (capped.amount_to, capped.returned) == (1400, 3600)
    opening = read_chips(facing(0, min_raise_to=400), [[5000]])
    assert (opening.kind, opening.amount_to) == ("bet", 5000)


@pytest.mark.rule("BET-17")
def test_string_bet_counts_the_first_motion_only() -> None:
    ruling = read_chips(facing(400), [[400], [500, 500]])
    assert (ruling.kind, ruling.amount_to, ruling.returned, ruling.rule) == (
        "call",
        400,
        1000,
        "BET-17",
    )
    words = read_chips(facing(400), [[400, 1000]], announced="call_and_raise")
    assert (words.kind, words.rule) == ("call", "BET-17")


@pytest.mark.rule("BET-18")
def test_raise_methods() -> None:
    assert read_chips(facing(400), [], announced_amount_to=1200).amount_to == 1200  # (b)
    one_move = read_chips(facing(400), [[1000, 500, 100]], announced="raise")  # (c)
    assert (one_move.kind, one_move.amount_to) == ("raise", 1600)
    allowed = ChipReadingPolicy(raise_methods_allowed=True)
    assert (
        read_chips(facing(400), [[400, 1000]], announced="call_and_raise", policy=allowed).kind
        == "raise"
    )
    short = read_chips(facing(400), [[500]], announced="raise")
    assert (short.amount_to, short.completed) == (800, True)


@pytest.mark.rule("BET-19")
def test_uncounted_pile_is_a_wager_of_its_sum() -> None:
    pile = read_chips(facing(0, min_raise_to=400), [[1000, 500, 500, 100, 25]])
    assert (pile.kind, pile.amount_to) == ("bet", 2125)
    with pytest.raises(HandRuleViolation) as caught:
        read_chips(facing(400), [])
    assert caught.value.rule == "BET-19"


@pytest.mark.rule("BET-23")
def test_pot_is_an_amount_only_in_pot_limit() -> None:
    with pytest.raises(HandRuleViolation) as caught:
        read_chips(facing(400), [], announced="pot")
    assert (caught.value.code, caught.value.rule) == ("amount_required", "BET-23")
    pot = read_chips(facing(400, pot_limit=True, max_raise_to=1400), [], announced="pot")
    assert (pot.kind, pot.amount_to) == ("raise", 1400)


@pytest.mark.rule("BET-24")
def test_caller_pays_the_true_amount_after_a_wrong_count() -> None:
    ruling = read_chips(facing(1200), [[500, 500]], announced="call")  # told 1,000
    assert (ruling.kind, ruling.amount_to, ruling.rule) == ("call", 1200, "BET-24")
    short_stack = read_chips(facing(1200, stack=900), [[500, 400]], announced="call")
    assert short_stack.amount_to == 900  # all-in


@pytest.mark.rule("BET-27")
def test_insufficient_call_must_complete_or_forfeit() -> None:
    ruling = read_chips(facing(1200), [[500, 100, 100]])
    assert (ruling.kind, ruling.amount_to, ruling.rule) == ("insufficient_call", 1200, "BET-27")
    all_in = read_chips(facing(1200, stack=700), [[500, 100, 100]])
    assert (all_in.kind, all_in.amount_to) == ("call", 700)


@given(
    current=st.integers(0, 5000),
    player=st.integers(0, 2000),
    chips=st.lists(st.sampled_from([5, 25, 100, 500, 1000, 5000]), min_size=1, max_size=8),
)
def test_every_reading_is_a_legal_amount(current: int, player: int, chips: list[int]) -> None:
    player = min(player, current)
    situation = facing(max(current, 1), player_bet=player, bb=100, prev=100)
    ruling = read_chips(situation, [chips])
    assert ruling.kind in ("call", "raise", "insufficient_call", "check")
    if ruling.kind == "raise":
        assert (
            ruling.amount_to >= situation.min_raise_to
            or ruling.amount_to == player + situation.stack
        )
    if ruling.kind == "call":
        assert ruling.amount_to == situation.current_bet
        assert ruling.returned == player + sum(chips) - situation.current_bet
