"""The gaming-day cut-off (casino/gaming_day.py): a night's play belongs to the evening."""

from __future__ import annotations

from datetime import UTC, date, datetime
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
