"""The gaming-day cut-off (casino/gaming_day.py): a night's play belongs to the evening."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from cashgame.models import ChipMovement
from casino import gaming_day


def test_the_cut_off_moves_the_small_hours_into_the_previous_day(settings: Any) -> None:
    settings.CASINO_TIME_ZONE = "Europe/Prague"  # UTC+1 in November
    settings.CASINO_GAMING_DAY_STARTS = "06:00"
    assert gaming_day.day_of(datetime(2026, 11, 21, 4, 30, tzinfo=UTC)) == date(2026, 11, 20)
    assert gaming_day.day_of(datetime(2026, 11, 21, 5, 0, tzinfo=UTC)) == date(2026, 11, 21)
    start, end = gaming_day.bounds(date(2026, 11, 20))
    assert start == datetime(2026, 11, 20, 5, 0, tzinfo=UTC)
    assert end == datetime(2026, 11, 21, 5, 0, tzinfo=UTC)
    settings.CASINO_GAMING_DAY_STARTS = "00:00"
    assert gaming_day.day_of(datetime(2026, 11, 21, 4, 30, tzinfo=UTC)) == date(2026, 11, 21)


@pytest.mark.django_db
def test_reports_group_by_gaming_day(settings: Any, tablet: Any) -> None:
    settings.CASINO_TIME_ZONE = "Europe/Prague"
    settings.CASINO_GAMING_DAY_STARTS = "06:00"
    for position, at in enumerate(
        [datetime(2026, 11, 20, 20, 0, tzinfo=UTC), datetime(2026, 11, 21, 3, 0, tzinfo=UTC),
         datetime(2026, 11, 21, 6, 0, tzinfo=UTC)], start=1,
    ):  # fmt: skip
        ChipMovement.objects.create(
            position=position, at=at, table_id=1, game="NLH", small_blind=10, big_blind=20,
            player_id=1, kind=ChipMovement.Kind.BUY_IN, amount=1000,
        )  # fmt: skip
    days = ChipMovement.objects.annotate(day=gaming_day.truncate("at")).values_list(
        "day", flat=True
    )
    assert sorted(days) == [date(2026, 11, 20), date(2026, 11, 20), date(2026, 11, 21)]
    rows = tablet.get("/api/v1/reports/drop/?date_from=2026-11-20&date_to=2026-11-20").json()
    (day,) = rows["results"] if isinstance(rows, dict) else rows
    assert day["day"] == "2026-11-20" and day["buy_ins"] == 2000


@pytest.mark.django_db
@pytest.mark.parametrize("starts", ["06:00", "00:00", "02:30", "11:45"])
def test_reports_and_the_cage_agree_on_the_day_across_the_clock_changes(
    settings: Any, starts: str
) -> None:
    """The report's day (``truncate``, in SQL) is the cage's day (``day_of``) for every
    quarter hour of the weeks around both of 2026's clock changes in Prague. Before the fix,
    06:30 on 29 March under a 06:00 cut-off was reported under 28 March."""
    settings.CASINO_TIME_ZONE = "Europe/Prague"
    settings.CASINO_GAMING_DAY_STARTS = starts
    moments = [
        first + timedelta(minutes=15 * step)
        for first in (datetime(2026, 3, 27, tzinfo=UTC), datetime(2026, 10, 23, tzinfo=UTC))
        for step in range(4 * 24 * 5)
    ]
    row = {"table_id": 1, "game": "NLH", "small_blind": 10, "big_blind": 20, "player_id": 1}
    ChipMovement.objects.bulk_create(
        ChipMovement(position=position, at=at, kind=ChipMovement.Kind.BUY_IN, amount=1000, **row)
        for position, at in enumerate(moments, start=1)
    )
    reported = dict(
        ChipMovement.objects.annotate(day=gaming_day.truncate("at")).values_list("at", "day")
    )
    wrong = [
        (at, reported[at], gaming_day.day_of(at))
        for at in moments
        if reported[at] != gaming_day.day_of(at)
    ]
    assert not wrong, wrong[:5]
    # and day_of itself: the local date of the moment, one day earlier before the cut-off
    for at in moments:
        local = at.astimezone(gaming_day.room_zone())
        expected = local.date() - timedelta(days=1 if local.time() < gaming_day.cutoff() else 0)
        assert gaming_day.day_of(at) == expected, at
