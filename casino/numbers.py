"""Whole numbers read from text a client sent (query strings, resume tokens).

``str.isdigit()`` is true for superscripts and other scripts' digits (``"²"``, ``"٣"``),
which ``int()`` then refuses or reads as a number the client never meant; and a long run of
digits names an id no database column holds. Both crashed a request or a socket before
(found by fuzzing the API, issue #11). Everything that reads a number from text uses
:func:`whole_number`.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]{1,18}")


def whole_number(text: str) -> int | None:
    """``text`` as a non-negative int when it is 1 to 18 ASCII digits (so it fits a
    PostgreSQL ``bigint``), else ``None``."""
    return int(text) if _DIGITS.fullmatch(text) else None
