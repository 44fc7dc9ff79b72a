"""The projections' plain-SQL writes (``casino.eventstore.rows``) do what the ORM did, on
PostgreSQL (the live path) and on the rebuild's in-memory SQLite copy."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from cashgame.models import CashSession
from casino.eventstore import rows
from casino.eventstore.rebuild import _memory_database
from tables.models import SeatView, TableView

AT = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)


def _session(**changes: object) -> None:
    values: dict[str, object] = dict(player_id=7, table_id=3, game="NLH", small_blind=10,
                                     big_blind=20, seat=4, seated_at=AT)  # fmt: skip
    rows.insert(CashSession, **{**values, **changes})


def _exercise() -> None:
    _session()
    _session(seat=5, left_at=AT)  # a session already over
    created = CashSession.objects.get(seat=4)
    assert (created.chips_in, created.refreshments, created.arrived_by_transfer) == (0, 0, False)
    assert created.seated_at == AT  # a datetime, adapted as the ORM does
    open_one = {"table_id": 3, "player_id": 7, "left_at": None}  # IS NULL
    assert rows.update(CashSession, open_one, chips_in=rows.Add(500)) == 1
    assert rows.update(CashSession, open_one, chips_in=rows.Add(-100), left_by_transfer=True) == 1
    assert CashSession.objects.get(seat=4).chips_in == 400
    assert CashSession.objects.get(seat=5).chips_in == 0  # left alone: not open
    assert rows.select_one(CashSession, open_one, ("chips_in", "left_by_transfer")) == (400, True)
    assert rows.select_one(CashSession, {"table_id": 99}, ("seat",)) is None
    assert rows.update(CashSession, {"seat": 5, "chips_in__lt": 1}, chips_out=0) == 1
    assert rows.update(CashSession, {"seat": 5, "chips_in__lt": 0}, chips_out=9) == 0
    assert rows.delete(CashSession, {"seat": 5}) == 1
    assert list(CashSession.objects.values_list("seat", flat=True)) == [4]
    # Replace: only the value named is replaced
    assert rows.update(CashSession, {"seat": 4}, game=rows.Replace("PLO", "NLH")) == 1
    assert CashSession.objects.get(seat=4).game == "NLH"
    assert rows.update(CashSession, {"seat": 4}, game=rows.Replace("NLH", "PLO")) == 1
    assert CashSession.objects.get(seat=4).game == "PLO"


def _exercise_each() -> None:
    """update_each: one statement sets each row its own values; rows of another table and
    rows not named keep theirs; a named row that is missing changes nothing."""
    for table, seat in ((3, 1), (3, 2), (3, 3), (4, 1)):
        rows.insert(SeatView, table_id=table, seat=seat, player_id=table * 10 + seat, stack=100,
                    seated_at=AT)  # fmt: skip
    changed = rows.update_each(SeatView, {"table_id": 3}, "seat", [
        {"seat": 1, "stack": 250}, {"seat": 3, "stack": 0}, {"seat": 9, "stack": 5}])  # fmt: skip
    assert changed == 2
    stacks = dict(SeatView.objects.filter(table_id=3).values_list("seat", "stack"))
    assert stacks == {1: 250, 2: 100, 3: 0}
    assert SeatView.objects.get(table_id=4).stack == 100
    assert rows.update_each(SeatView, {"table_id": 3}, "seat", []) == 0


@pytest.mark.django_db
def test_plain_sql_writes_on_postgresql() -> None:
    _exercise()


@pytest.mark.django_db
def test_update_each_on_postgresql() -> None:
    _seat_tables()
    _exercise_each()


@pytest.mark.django_db
def test_update_each_on_the_rebuild_copy() -> None:
    with _memory_database([SeatView, TableView]):
        _exercise_each()


def _seat_tables() -> None:
    """The tables SeatView's foreign key needs on PostgreSQL."""
    for table_id in (3, 4):
        TableView.objects.create(
            table_id=table_id, name=f"T{table_id}", game="NLH", small_blind=10, big_blind=20,
            ante=0, ante_type="none", buy_in_min=400, buy_in_max=2000, rake_percent_bp=500,
            rake_cap=300, no_flop_no_drop=True, min_raise_rule="standard", max_seats=9,
            version=1, opened_at=AT,
        )  # fmt: skip


@pytest.mark.django_db
def test_plain_sql_writes_on_the_rebuild_copy() -> None:
    with _memory_database([CashSession, SeatView, TableView]):
        _exercise()
        rows.insert(SeatView, table_id=3, seat=1, player_id=7, stack=100, seated_at=AT)
        assert SeatView.objects.get().table_id == 3  # a foreign key given by its column
    assert not CashSession.objects.exists()  # all of it went to the copy
