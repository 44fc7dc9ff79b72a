"""What the ground floor needs to know about tables, filled by the ``tables`` app at start-up
(``AppConfig.ready``): ``casino`` imports no app.

A dealer tablet is bound to one table: the permission check asks which table a hand is
played at, and registering a tablet asks whether its table is open. Both read the tables
app's read models, through this port.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Protocol


class TableLookup(Protocol):
    """Read-only facts about tables."""

    def table_of_hand(self, hand_id: str) -> int | None:
        """The table hand ``hand_id`` is played at, or ``None`` (no such hand)."""
        ...

    def table_status(self, table_id: int) -> str | None:
        """``"open"`` or ``"closed"``, or ``None`` (no such table)."""
        ...

    def table_of_player(self, player_id: int) -> int | None:
        """The table the player holds a seat at (one at most, BI-10), or ``None``."""
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


class HandTables:
    """Which table each recently seen hand is played at, remembered per process.

    A hand never changes tables, so an entry never goes stale; beyond ``size`` entries the
    least recently used is forgotten (and read again if asked for). Bounded so that a
    process's memory levels off however many hands a room deals (issue #11: the unbounded
    map grew each server worker by megabytes an hour at 50 busy tables). Keys are what the
    caller names a hand by (a hand id, or a stream such as ``hand-<uuid>``); values are
    table ids. Thread-safe.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._tables: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> int | None:
        """The remembered table of ``key``, or ``None``."""
        with self._lock:
            table_id = self._tables.get(key)
            if table_id is not None:
                self._tables.move_to_end(key)
            return table_id

    def remember(self, key: str, table_id: int) -> None:
        """Remember that ``key`` is played at ``table_id``."""
        with self._lock:
            self._tables[key] = table_id
            self._tables.move_to_end(key)
            while len(self._tables) > self.size:
                self._tables.popitem(last=False)

    def __len__(self) -> int:
        return len(self._tables)

    def clear(self) -> None:
        """Forget every hand (tests)."""
        with self._lock:
            self._tables.clear()


HAND_TABLES_REMEMBERED = 20_000
"""Hands per process whose table is remembered: far more than a room has in play."""

hand_tables = HandTables(HAND_TABLES_REMEMBERED)
"""This process's memo, shared by the permission check and the relay's routing."""
