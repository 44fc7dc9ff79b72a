"""QA: settings that can never work are refused when the tournament is published (422
``invalid_tournament_config``, TREG-6, nothing appended), a time without its UTC offset is
refused (400), and a player who has withdrawn already gets ``player_not_registered`` on a
second withdrawal, like a player who never registered (TREG-10)."""

from __future__ import annotations

from typing import Any

import pytest

from casino.eventstore.models import StoredEvent
from casino.models import Player
from tests.conftest import TabletClient
from tests.tournaments.play import STRUCTURE, create, ok, register
from tournaments.models import TournamentView

pytestmark = pytest.mark.django_db
LEVELS = len(STRUCTURE["levels"])  # 5


def publish(tablet: TabletClient, **changes: Any) -> Any:
    return tablet.post("/api/v1/tournaments/", {**STRUCTURE, **changes})


def refused_config(tablet: TabletClient, **changes: Any) -> dict[str, Any]:
    before = (StoredEvent.objects.count(), TournamentView.objects.count())
    r = publish(tablet, **changes)
    assert r.status_code == 422, (r.status_code, r.json())
    body = r.json()
    assert body["code"] == "invalid_tournament_config", body
    assert (StoredEvent.objects.count(), TournamentView.objects.count()) == before
    return dict(body)


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        pytest.param({"add_on": {"allowed": True, "at_level": 0}}, "add_on.at_level",
                     marks=pytest.mark.rule("CLK-5"), id="add-on-level-0"),
        pytest.param({"add_on": {"allowed": True, "at_level": LEVELS + 1}}, "add_on.at_level",
                     marks=pytest.mark.rule("CLK-5"), id="add-on-past-the-levels"),
        pytest.param({"rebuy": {"allowed": True, "until_level": 0}}, "rebuy.until_level",
                     marks=pytest.mark.rule("TREG-14"), id="rebuy-until-level-0"),
        pytest.param({"bounty": {"kind": "fixed", "amount": 500}}, "names its players",
                     marks=pytest.mark.rule("BNTY-1"), id="fixed-bounty-without-players"),
        pytest.param({"bounty": {"kind": "knockout", "amount": 0}}, "amount > 0",
                     marks=pytest.mark.rule("BNTY-1"), id="knockout-of-0"),
        pytest.param({"bounty": {"kind": "progressive", "amount": 0}}, "amount > 0",
                     marks=pytest.mark.rule("BNTY-1"), id="progressive-of-0"),
    ],
)  # fmt: skip
@pytest.mark.rule("TREG-6")
def test_settings_that_can_never_work_are_refused(
    tablet: TabletClient, changes: dict[str, Any], words: str
) -> None:
    body = refused_config(tablet, **changes)
    assert any(words in problem for problem in body["problems"]), body


@pytest.mark.rule("BNTY-1")
def test_a_fixed_bounty_names_players_of_the_room(tablet: TabletClient) -> None:
    named = Player.objects.create(name="Bounty Man")
    missing = named.pk + 1000
    body = refused_config(tablet, bounty={"kind": "fixed", "amount": 500, "players": [missing]})
    assert any(str(missing) in problem for problem in body["problems"]), body
    body = refused_config(tablet, bounty={"kind": "fixed", "amount": 0, "players": [named.pk]})
    assert any("amount > 0" in problem for problem in body["problems"]), body
    ok(publish(tablet, bounty={"kind": "fixed", "amount": 500, "players": [named.pk]}))


@pytest.mark.rule("TREG-14")
@pytest.mark.rule("CLK-5")
def test_rebuys_and_add_ons_within_the_structure_are_accepted(tablet: TabletClient) -> None:
    ok(publish(
        tablet, rebuy={"allowed": True, "until_level": LEVELS, "price": 500},
        add_on={"allowed": True, "at_level": LEVELS, "price": 500},
    ))  # fmt: skip
    # the clock goes on past the last level at its stakes: rebuys may run that long
    ok(publish(tablet, rebuy={"allowed": True, "until_level": LEVELS + 2, "price": 500}))
    # not offered: the level numbers are not looked at
    ok(publish(tablet, rebuy={"allowed": False, "until_level": 0},
               add_on={"allowed": False, "at_level": 0}))  # fmt: skip


@pytest.mark.parametrize(
    "field",
    [
        pytest.param("late_reg_until", marks=pytest.mark.rule("TREG-7")),
        pytest.param("unregister_deadline", marks=pytest.mark.rule("TREG-10")),
    ],
)
def test_a_time_without_its_utc_offset_is_refused(tablet: TabletClient, field: str) -> None:
    before = (StoredEvent.objects.count(), TournamentView.objects.count())
    r = publish(tablet, **{field: "2030-01-01T10:00:00"})
    assert r.status_code == 400, (r.status_code, r.json())
    assert "UTC offset" in str(r.json()), r.json()
    assert (StoredEvent.objects.count(), TournamentView.objects.count()) == before
    for aware in ("2030-01-01T10:00:00+01:00", "2030-01-01T09:00:00Z"):
        t = ok(publish(tablet, **{field: aware}))
        assert t["config"][field] == "2030-01-01T09:00:00+00:00"


@pytest.mark.rule("TREG-5")
def test_a_lobby_start_time_without_its_utc_offset_is_refused(tablet: TabletClient) -> None:
    tournament_id = create(tablet)
    r = tablet.post(f"/api/v1/tournaments/{tournament_id}/schedule/",
                    {"start_at": "2030-01-01T10:00:00"})  # fmt: skip
    assert r.status_code == 400 and "UTC offset" in str(r.json()), r.json()


@pytest.mark.rule("TREG-10")
def test_a_second_withdrawal_gets_player_not_registered(tablet: TabletClient) -> None:
    tournament_id = create(tablet)
    [player] = register(tablet, tournament_id, 1)
    url = f"/api/v1/tournaments/{tournament_id}/unregistrations/"
    ok(tablet.post(url, {"player_id": player}))
    before = StoredEvent.objects.count()
    again = tablet.post(url, {"player_id": player})
    assert again.status_code == 422, again.json()
    assert again.json()["code"] == "player_not_registered", again.json()
    stranger = Player.objects.create(name="Never Registered").pk
    never = tablet.post(url, {"player_id": stranger})
    assert never.status_code == 422 and never.json()["code"] == "player_not_registered"
    assert StoredEvent.objects.count() == before
    register_again = tablet.post(f"/api/v1/tournaments/{tournament_id}/registrations/",
                                 {"player_id": player})  # fmt: skip
    assert register_again.status_code in (200, 201), register_again.json()
