"""Configuration validation, prize pool, payout table, rounding and ties."""

from __future__ import annotations

import pytest

from casino.errors import DomainError
from tournaments.domain import payouts
from tournaments.domain.config import (
    Break,
    Level,
    PayoutBand,
    PayoutBracket,
    TournamentConfig,
    default_payout_table,
    validate_config,
)
from tournaments.domain.payouts import Finisher

from .support import config


def test_a_valid_config_passes_and_defaults_are_the_recommended_ones() -> None:
    c = config()
    validate_config(c)
    assert (c.initial_button, c.button_rule, c.balance_placement) == (
        "high_card", "dead_button", "worst_position",
    )  # fmt: skip
    assert c.late_reg_close_at_money and c.tie_remainder == "better_hand"
    assert c.level(1).table_ante_type == "none" and c.level(4).table_ante_type == "big_blind"
    assert c.level(99) == c.levels[-1]  # past the last level the last one stays


@pytest.mark.rule("TREG-3")
def test_minimum_field_is_one_full_table_by_default() -> None:
    assert config().minimum_field == 9
    assert config(table_size=6).minimum_field == 6
    assert config(min_entrants=20).minimum_field == 20


@pytest.mark.rule("TREG-6")
def test_invalid_configs_list_every_problem() -> None:
    bad = config(
        table_size=8, starting_stack=0, levels=(Level(20, 10),), button_rule="sideways",
        payout_table=(PayoutBracket(10, (PayoutBand(2, 4000),)),), late_reg_until="18:00",
    )  # fmt: skip
    with pytest.raises(DomainError) as err:
        validate_config(bad)
    assert err.value.code == "invalid_tournament_config"
    problems = err.value.context["problems"]
    # the break after level 4 has no level 4; a stack of 0 covers no big blind
    assert len(problems) == 8, problems


@pytest.mark.rule("CLK-1")
def test_a_structure_that_contradicts_itself_is_refused() -> None:
    """Found by fuzzing: each of these was accepted."""
    levels = (Level(100, 200), Level(200, 400))
    for bad, problem in (
        (config(levels=levels, starting_stack=100), "starting_stack"),
        (config(levels=(Level(400, 800), Level(100, 200))), "level 2: the blinds"),
        (config(levels=(Level(100, 200), Level(50, 200))), "level 2: the blinds"),
    ):
        with pytest.raises(DomainError) as err:
            validate_config(bad)
        assert any(p.startswith(problem) for p in err.value.context["problems"]), err.value.context[
            "problems"
        ]
    validate_config(config(levels=levels, breaks=(), starting_stack=200))


@pytest.mark.rule("CLK-1")
def test_ante_must_match_its_type() -> None:
    with pytest.raises(DomainError):
        validate_config(config(levels=(Level(100, 200, 0, "big_blind_ante"),)))
    with pytest.raises(DomainError):
        validate_config(config(levels=(Level(100, 200, 50, "none"),)))


def test_default_payout_table_is_valid_and_pays_about_15_percent() -> None:
    table = default_payout_table()
    validate_config(config(payout_table=table))
    assert payouts.places_paid(table, 9) == 2
    assert payouts.places_paid(table, 60) == 9
    assert payouts.places_paid(table, 10_000) == 1350
    for entries in (12, 100, 555, 2000, 10_000):
        assert payouts.places_paid(table, entries) <= entries * 15 // 100 + 2


@pytest.mark.rule("TREG-1")
def test_prize_pool_excludes_fees_and_is_topped_up_to_the_guarantee() -> None:
    assert payouts.prize_pool(60 * 1000, 0) == 60_000
    assert payouts.prize_pool(60 * 1000, 100_000) == 100_000
    assert payouts.prize_pool(160_000, 100_000) == 160_000


@pytest.mark.rule("ELIM-6")
def test_place_prizes_round_down_to_the_unit_with_the_remainder_to_first() -> None:
    table = default_payout_table()
    prizes = payouts.place_prizes(61_234, table, 30, unit=100)
    assert sum(prizes) == 61_234 and len(prizes) == 5
    assert all(p % 100 == 0 for p in prizes[1:])
    assert prizes == tuple(sorted(prizes, reverse=True))
    # a field smaller than the bracket's places: what is left goes to 1st
    tiny = (PayoutBracket(10, (PayoutBand(1, 5000), PayoutBand(5, 1000))),)
    assert payouts.place_prizes(1000, tiny, 3) == (800, 100, 100)


@pytest.mark.rule("ELIM-3")
def test_tied_players_share_their_places_and_the_better_hand_gets_the_remainder() -> None:
    prizes = (5000, 3000, 2050)
    result = payouts.award(
        prizes,
        [Finisher(1, 1, 1), Finisher(2, 2, 3, tie_rank=1), Finisher(3, 2, 3, tie_rank=0)],
        unit=100,
    )
    assert result == {1: 5000, 2: 2500, 3: 2550}
    assert sum(result.values()) == sum(prizes)


@pytest.mark.rule("ELIM-4")
def test_a_tie_beyond_the_paid_places_shares_what_is_paid() -> None:
    prizes = (700, 300)
    result = payouts.award(
        prizes, [Finisher(1, 1, 1), Finisher(2, 2, 4), Finisher(3, 2, 4, 1), Finisher(4, 2, 4, 2)]
    )
    assert result == {1: 700, 2: 100, 3: 100, 4: 100}
    with pytest.raises(ValueError):
        payouts.award(prizes, [Finisher(1, 1, 2)])


@pytest.mark.rule("TREG-8")
def test_in_the_money_when_players_left_are_all_paid() -> None:
    table = default_payout_table()
    assert not payouts.in_the_money(10, table, 60)
    assert payouts.in_the_money(9, table, 60)


def test_config_is_frozen_and_hashable() -> None:
    c: TournamentConfig = config()
    assert hash(c) == hash(config())


@pytest.mark.rule("CR-1")
def test_a_breaks_chip_up_must_be_a_chip_in_play_with_a_larger_one() -> None:
    chips = (25, 100, 500)
    validate_config(config(denominations=chips))  # 25 goes at the break: fine
    for bad in (0, -25, 50, 500):  # none, not a chip, or nothing to colour up to
        brk = Break(after_level=4, minutes=10, chip_up_denomination=bad)
        with pytest.raises(DomainError) as err:
            validate_config(config(denominations=chips, breaks=(brk,)))
        assert any("chip_up_denomination" in p for p in err.value.context["problems"]), bad
    with pytest.raises(DomainError):  # no chips published: still a positive chip
        validate_config(config(breaks=(Break(4, 10, chip_up_denomination=-1),)))
