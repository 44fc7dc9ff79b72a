"""Cash waiting lists never see tournament tables (issue #5 with #6): a tournament running
at the same blinds is not that cash game."""

from __future__ import annotations

import pytest

from casino.errors import DomainError
from casino.eventstore.commands import run_command
from casino.models import Player
from tables.models import SeatView, TableView
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, register
from waitlist import services

pytestmark = pytest.mark.django_db


@pytest.mark.rule("WL-2")
def test_a_cash_list_is_not_offered_or_called_to_a_tournament_table(
    tablet: TabletClient,
) -> None:
    tournament_id = create(tablet)  # level 1: NLH 25/50
    register(tablet, tournament_id, 10)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    table_id = TableView.objects.filter(tournament_id=tournament_id).values_list(
        "table_id", flat=True
    )[0]
    waiting = run_command(
        lambda: services.open_list(game="NLH", small_blind=25, big_blind=50, list_kind="waiting")
    ).result
    cash_player = Player.objects.create(name="Cash player")
    run_command(
        lambda: services.join_list(list_id=waiting, player_id=cash_player.pk, channel="in_person")
    )
    state = services.load_list(waiting).state
    assert services.game_tables(state) == []
    used = set(SeatView.objects.filter(table_id=table_id).values_list("seat", flat=True))
    free = next(s for s in range(1, 10) if s not in used)
    with pytest.raises(DomainError) as refused:
        run_command(lambda: services.call_player(list_id=waiting, table_id=table_id, seat=free))
    assert refused.value.code == "table_game_mismatch"


def test_an_interest_list_opens_while_only_a_tournament_plays_those_blinds(
    tablet: TabletClient,
) -> None:
    tournament_id = create(tablet)  # level 1: NLH 25/50
    register(tablet, tournament_id, 9)
    ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {"reserve_tables": 0}))
    list_id = run_command(
        lambda: services.open_list(game="NLH", small_blind=25, big_blind=50, list_kind="interest")
    ).result
    assert services.load_list(list_id).state.list_kind == "interest"
