"""TSEAT-8 (QA): a final table smaller than a full table. "The floor or management decides
how many players the final table has": with ``final_table_size`` 8 at a 9-max event the
tables play on until 8 players are left (9 players stay on two tables of 4 and 5, neither
broken), then the final table is drawn. Without the setting the final table is drawn as
soon as the players left fit at one table."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import TabletClient
from tests.tournaments.bust import bust, seats
from tests.tournaments.play import create, ok, register

pytestmark = pytest.mark.django_db


def tournament(tablet: TabletClient, tournament_id: int) -> dict[str, Any]:
    return dict(ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/")))


def table_sizes(tablet: TabletClient, t: dict[str, Any]) -> list[int]:
    return sorted(len(seats(tablet, table_id)) for table_id in t["tables"])


@pytest.mark.rule("TSEAT-8")
@pytest.mark.rule("TSEAT-4")
def test_a_smaller_final_table_is_drawn_only_when_that_many_players_are_left(
    tablet: TabletClient,
) -> None:
    tournament_id = create(tablet, final_table_size=8)
    register(tablet, tournament_id, 11)
    t = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    assert table_sizes(tablet, t) == [5, 6]
    bigger = max(t["tables"], key=lambda table_id: len(seats(tablet, table_id)))

    assert len(bust(tablet, bigger, losers=2)) == 2
    t = tournament(tablet, tournament_id)
    assert t["clock"]["players_left"] == 9
    assert len(t["tables"]) == 2, t["tables"]  # no final table of 9, no table broken
    assert table_sizes(tablet, t) == [4, 5]

    for table_id in t["tables"]:  # both tables deal on (a shove, everyone folds)
        assert bust(tablet, table_id, losers=0) == []
    assert tournament(tablet, tournament_id)["tables"] == t["tables"]
    fuller = max(t["tables"], key=lambda table_id: len(seats(tablet, table_id)))
    bust(tablet, fuller)

    t = tournament(tablet, tournament_id)
    assert t["clock"]["players_left"] == 8
    assert len(t["tables"]) == 1  # 8 left: the final table is drawn
    assert table_sizes(tablet, t) == [8]


@pytest.mark.rule("TSEAT-8")
def test_without_a_final_table_size_the_final_table_is_drawn_when_one_table_is_enough(
    tablet: TabletClient,
) -> None:
    tournament_id = create(tablet)
    register(tablet, tournament_id, 11)
    t = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    bigger = max(t["tables"], key=lambda table_id: len(seats(tablet, table_id)))
    bust(tablet, bigger, losers=2)
    t = tournament(tablet, tournament_id)
    assert t["clock"]["players_left"] == 9
    assert table_sizes(tablet, t) == [9]
