"""TSEAT-4/TSEAT-8: the tables to break keep ``keep`` tables in play (two while a final table
smaller than a full table is not due yet)."""

from __future__ import annotations

import pytest

from tournaments.domain import seating


@pytest.mark.rule("TSEAT-4")
@pytest.mark.rule("TSEAT-8")
def test_tables_to_break_keeps_the_tables_asked_for() -> None:
    order = [3, 2, 1]
    assert seating.tables_to_break(9, order, 9) == [3, 2]
    assert seating.tables_to_break(9, order, 9, keep=2) == [3]
    assert seating.tables_to_break(10, order, 9, keep=2) == [3]
    assert seating.tables_to_break(19, order, 9, keep=2) == []
    assert seating.tables_to_break(9, [1], 9, keep=2) == []
