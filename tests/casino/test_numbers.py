"""Numbers a client sends as text (``casino.numbers``), and the parsers that use it: the
feeds' resume tokens, found crashing a socket on ``"²"`` by fuzzing."""

from __future__ import annotations

import pytest

from casino.eventstore.store import parse_cursor
from casino.numbers import whole_number
from casino.realtime.consumers import parse_resume


@pytest.mark.parametrize(
    ("text", "number"),
    [("0", 0), ("42", 42), ("007", 7), ("9" * 18, 10**18 - 1), ("9" * 19, None), ("", None),
     ("²", None), ("٣", None), ("-1", None), ("+1", None), (" 1", None), ("1.0", None),
     ("1e3", None), ("1\n", None)],
)  # fmt: skip
def test_whole_number_takes_ascii_digits_that_fit_a_bigint_only(
    text: str, number: int | None
) -> None:
    assert whole_number(text) == number


def test_resume_tokens_with_odd_digits_are_not_tokens() -> None:
    assert parse_cursor("12.34") == (12, 34)
    assert parse_cursor("².1") is None and parse_cursor("1.٣") is None
    assert parse_cursor("1" * 19 + ".1") is None
    assert parse_resume("table-1:²,table-2:5,hand-x:٣") == {"table-2": 5}
