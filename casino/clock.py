"""The injectable clock. Every stored time comes from :func:`now` (UTC, timezone-aware).

Tests move time with ``time-machine``; nothing else in the code base reads the wall clock.
"""

from datetime import UTC, datetime


def now() -> datetime:
    """Current time as an aware UTC datetime."""
    return datetime.now(tz=UTC)
