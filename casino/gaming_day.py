"""The room's gaming day: from the cut-off (``CASINO_GAMING_DAY_STARTS``, e.g. ``06:00``)
in ``CASINO_TIME_ZONE`` to the same time next day. The cage balances and the reports count
by it, so a session that runs past midnight stays in the evening's day. Stored times stay UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import (
    Case,
    DateField,
    DateTimeField,
    ExpressionWrapper,
    F,
    Value,
    When,
)
from django.db.models.functions import TruncDate, TruncTime
from django.db.models.lookups import GreaterThanOrEqual


def room_zone() -> ZoneInfo:
    """The room's time zone (``CASINO_TIME_ZONE``)."""
    return ZoneInfo(settings.CASINO_TIME_ZONE)


def cutoff() -> time:
    """When a gaming day starts, local time (``CASINO_GAMING_DAY_STARTS``, ``HH:MM``)."""
    hours, minutes = (int(part) for part in str(settings.CASINO_GAMING_DAY_STARTS).split(":"))
    return time(hours, minutes)


def _offset() -> timedelta:
    start = cutoff()
    return timedelta(hours=start.hour, minutes=start.minute)


def start_of(day: date) -> datetime:
    """The (aware) moment gaming day ``day`` starts. The first date Python knows
    (0001-01-01, a date a query string may carry) starts at the first moment UTC can
    hold: in a zone east of UTC its start is before year 1 in UTC, which a database
    driver converting to UTC (SQLite) cannot store (``OverflowError``)."""
    start = datetime.combine(day, cutoff(), tzinfo=room_zone())
    try:
        start.astimezone(UTC)
    except OverflowError:
        return datetime.min.replace(tzinfo=UTC)
    return start


def end_of(day: date) -> datetime:
    """The (aware) moment gaming day ``day`` ends: the next day's start. The last date
    Python knows (9999-12-31, a date a query string may carry) ends at its last moment,
    never with an ``OverflowError``."""
    if day == date.max:
        return datetime.combine(day, time.max, tzinfo=room_zone())
    return start_of(day + timedelta(days=1))


def bounds(day: date) -> tuple[datetime, datetime]:
    """``[start, end)`` of gaming day ``day`` (aware datetimes)."""
    return start_of(day), end_of(day)


def day_of(at: datetime) -> date:
    """The gaming day ``at`` (an aware datetime) belongs to."""
    return (at.astimezone(room_zone()) - _offset()).date()


def truncate(field: str) -> Any:
    """An ORM expression: the gaming day (a date) of the datetime column ``field``, the same
    day :func:`day_of` gives, on the clock-change days too.

    A time at or after the cut-off (local) is in its own local date's day; one before it is
    in the previous date's, taken as the local date of a moment ``12 h + cut-off / 2``
    earlier: that lands between 1 h and 23 h into the previous local date whatever the
    cut-off (up to 22:00) and whatever an hour gained or lost overnight. Shifting by the
    cut-off itself in UTC, as this did before, put a row near the cut-off on the clock-change
    days into the wrong day (found by QA: 06:30 on 29 March 2026 under a 06:00 cut-off was
    reported under 28 March).
    """
    zone = room_zone()
    local_date = TruncDate(field, tzinfo=zone)
    start = cutoff()
    if start == time(0):
        return local_date
    earlier = ExpressionWrapper(
        F(field) - Value(timedelta(hours=12) + _offset() / 2), output_field=DateTimeField()
    )
    return Case(
        When(GreaterThanOrEqual(TruncTime(field, tzinfo=zone), Value(start)), then=local_date),
        default=TruncDate(earlier, tzinfo=zone),
        output_field=DateField(),
    )
