"""ELIM-1 (QA): when the players left would all win the same prize the event ends with them
tied for those places. Every one of them is placed 1st and reads ``winner`` once it is over
(off his seat, every table closed): no entry of a finished event reads ``playing``."""

from __future__ import annotations

import pytest

from tables.models import TableView
from tests.conftest import TabletClient
from tests.tables.test_view_versions import assert_every_view_is_at_its_stream_version
from tests.tournaments.bust import bust
from tests.tournaments.play import create, ok, register

pytestmark = pytest.mark.django_db
TWO_EQUAL_PRIZES = [{"max_entries": 100, "bands": [{"count": 2, "bp": 5000}]}]


@pytest.mark.rule("ELIM-1")
def test_players_tied_by_equal_prizes_are_all_winners_when_the_event_ends(
    tablet: TabletClient,
) -> None:
    tournament_id = create(tablet, min_entrants=3, payout_table=TWO_EQUAL_PRIZES)
    players = register(tablet, tournament_id, 3)
    t = ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    [table_id] = t["tables"]
    [out] = bust(tablet, table_id)

    t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
    assert t["status"] == "finished"
    entries = {
        e["player_id"]: e for e in ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
    }
    assert not [e for e in entries.values() if e["status"] == "playing"], entries
    tied = set(players) - {out}
    assert t["winner_player_id"] in tied
    for player in tied:
        e = entries[player]
        assert (e["status"], e["place"], e["place_to"]) == ("winner", 1, 2), e
        assert (e["table_id"], e["seat"], e["prize"]) == (None, None, 750), e
    assert (entries[out]["status"], entries[out]["place"], entries[out]["prize"]) == (
        "eliminated", 3, 0,
    )  # fmt: skip
    assert TableView.objects.get(table_id=table_id).status == "closed"
    assert ok(tablet.get(f"/api/v1/tables/{table_id}/"))["seats"] == []
    assert_every_view_is_at_its_stream_version()
