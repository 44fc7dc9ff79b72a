"""rebuild_projections: the in-memory replay + COPY path, its --since/--stream repairs and its
one-line refusal of a bad option (the rebuild-equality tests live with each app)."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from casino.eventstore.models import StoredEvent
from tables.models import SeatView, TableView
from tests.conftest import NLH_10_20


def _tables() -> list[tuple[Any, ...]]:
    return sorted(TableView.objects.values_list())


@pytest.mark.django_db
def test_since_replays_only_the_later_events_onto_the_current_read_models(
    tablet: Any, nlh_table: int, players: list
) -> None:
    seat = {"seat": 1, "player_id": players[0].pk, "buy_in": 2000}
    assert tablet.post(f"/api/v1/tables/{nlh_table}/seats/", seat).status_code == 201
    head = StoredEvent.objects.order_by("-position").values_list("position", flat=True)[0]
    second = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "NLH 2"}).json()["table_id"]
    live, seats = _tables(), sorted(SeatView.objects.values_list("table_id", "seat", "stack"))
    TableView.objects.filter(table_id=second).delete()  # a read model that missed its events

    out = StringIO()
    call_command("rebuild_projections", "--since", str(head + 1), "--quiet", stdout=out)
    assert "applied to the projections from 1 events" in out.getvalue()
    assert _tables() == live
    assert sorted(SeatView.objects.values_list("table_id", "seat", "stack")) == seats

    TableView.objects.filter(table_id=second).delete()
    call_command("rebuild_projections", "--stream", f"table-{second}", "--quiet", stdout=out)
    assert _tables() == live

    call_command("rebuild_projections", "--quiet", stdout=out)  # a full rebuild: the same
    assert _tables() == live


@pytest.mark.django_db
def test_a_bad_since_is_refused_in_one_line() -> None:
    with pytest.raises(CommandError, match="give a log position or an ISO time"):
        call_command("rebuild_projections", "--since", "yesterday", "--quiet")
