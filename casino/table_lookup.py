"""What the ground floor needs to know about tables, filled by the ``tables`` app at start-up
(``AppConfig.ready``): ``casino`` imports no app.

A dealer tablet is bound to one table: the permission check asks which table a hand is
played at, and registering a tablet asks whether its table is open. Both read the tables
app's read models, through this port.
"""

from __future__ import annotations

from typing import Protocol


class TableLookup(Protocol):
    """Read-only facts about tables."""

    def table_of_hand(self, hand_id: str) -> int | None:
        """The table hand ``hand_id`` is played at, or ``None`` (no such hand)."""
        ...

    def table_status(self, table_id: int) -> str | None:
        """``"open"`` or ``"closed"``, or ``None`` (no such table)."""
        ...


_installed: TableLookup | None = None


def install(lookup: TableLookup) -> None:
    """Called once by the tables app at start-up."""
    global _installed
    _installed = lookup


def lookup() -> TableLookup:
    """The installed lookup.

    Raises:
        RuntimeError: the tables app is not installed (``INSTALLED_APPS``).
    """
    if _installed is None:
        raise RuntimeError("no table lookup installed: is the tables app in INSTALLED_APPS?")
    return _installed
