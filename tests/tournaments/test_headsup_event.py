"""Heads-up events through the API (HU-1..4): the bracket is drawn at the start, each match
is a heads-up table, winners advance on their own, and a match left inactive goes to the
chip leader. Played as the director and the dealer tablets would."""

from __future__ import annotations

import random
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest
import time_machine

from tables.models import TableView
from tests.conftest import TabletClient
from tests.tables.test_view_versions import assert_every_view_is_at_its_stream_version
from tests.tournaments.play import create, ok, play_hand, register
from tournaments.models import TournamentView
from tournaments.services import load_tournament

pytestmark = pytest.mark.django_db
T0 = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)
HEADS_UP = {"format": "headsup", "table_size": 2, "name": "Heads-up 500"}


def _bracket(tablet: TabletClient, tournament_id: int) -> dict[str, Any]:
    return dict(ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/bracket/")))


def _open_matches(bracket: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in bracket["matches"] if m["winner"] is None and m["a"] and m["b"]]


@pytest.mark.rule("HU-1")
@pytest.mark.rule("HU-2")
def test_a_thirteen_player_bracket_plays_to_the_end(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False):
        tournament_id = create(tablet, **HEADS_UP)
        players = register(tablet, tournament_id, 13)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {}))
        bracket = _bracket(tablet, tournament_id)
        assert bracket["headsup"] and bracket["rounds"] == 4 and bracket["entrants"] == 13
        byes = set(bracket["byes"])
        assert len(byes) == 3  # 2P - N with P = 8 (HU-2)
        round_1 = [m for m in bracket["matches"] if m["round"] == 1]
        assert len(round_1) == 5  # N - P play-in matches
        assert not byes & {p for m in round_1 for p in (m["a"], m["b"])}  # byes skip round 1
        assert {m["loser_places"][0] for m in round_1} == {9}
        started = _open_matches(bracket)
        tables = [m["table_id"] for m in started]
        assert len(set(tables)) == len(started) == 6  # 5 play-ins, 2 byes paired at once
        entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
        assert all(e["status"] == "playing" for e in entries)  # the byes are in play

        rng = random.Random(13)
        seen_start: set[str] = set()
        for _ in range(2000):
            bracket = _bracket(tablet, tournament_id)
            if bracket["champion"] is not None:
                break
            matches = _open_matches(bracket)
            assert matches, "the bracket is stuck"
            for m in matches:
                if m["match_id"] not in seen_start:  # every match starts even (HU-1)
                    seen_start.add(m["match_id"])
                    table = ok(tablet.get(f"/api/v1/tables/{m['table_id']}/"))
                    stacks = {s["player_id"]: s["stack"] for s in table["seats"]}
                    assert stacks == {m["a"]: 5000, m["b"]: 5000}, (m, stacks)
                play_hand(tablet, m["table_id"], rng, all_in=1.0)
        else:
            pytest.fail("the bracket did not finish")

        assert len(seen_start) == 5 + 4 + 2 + 1  # every match was played at a table
        t = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/"))
        assert t["status"] == "finished" and t["winner_player_id"] == bracket["champion"]
        entries = ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
        assert sorted(e["player_id"] for e in entries) == sorted(players)
        places = Counter((e["place"], e["place_to"]) for e in entries)
        # the losers of a round share its places (HU-1): 1, 2, 3-4, 5-8, 9-13
        assert places == {(1, 1): 1, (2, 2): 1, (3, 4): 2, (5, 8): 4, (9, 13): 5}
        by_band: dict[tuple[int, int], set[int]] = {}
        for e in entries:
            by_band.setdefault((e["place"], e["place_to"]), set()).add(e["prize"])
        assert all(len(prizes) == 1 for prizes in by_band.values()), by_band  # ties split
        state = load_tournament(tournament_id).state
        assert state.total_chips == state.chips_issued  # the resets are counted
        view = TournamentView.objects.get(tournament_id=tournament_id)
        assert view.chips_issued == state.chips_issued
        assert not TableView.objects.filter(tournament_id=tournament_id, status="open").exists()
        winners = [m for m in bracket["matches"] if m["round"] == 2]
        assert byes <= {p for m in winners for p in (m["a"], m["b"])}  # byes play round 2
    assert_every_view_is_at_its_stream_version()


@pytest.mark.rule("HU-4")
def test_an_inactive_match_goes_to_the_chip_leader(tablet: TabletClient) -> None:
    with time_machine.travel(T0, tick=False):
        tournament_id = create(tablet, **HEADS_UP, headsup_inactive_hands=3)
        register(tablet, tournament_id, 4)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {}))
        match = _open_matches(_bracket(tablet, tournament_id))[0]
        table_id = match["table_id"]
        for n in range(3):
            assert _open_matches(_bracket(tablet, tournament_id))[0] == match, n
            hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
            away = next(s for s in hand["seats"] if int(s["player_id"]) == match["b"])
            ok(tablet.post(f"/api/v1/hands/{hand['hand_id']}/absences/", {"seat": away["seat"]}))
        bracket = _bracket(tablet, tournament_id)
        ended = next(m for m in bracket["matches"] if m["match_id"] == match["match_id"])
        assert ended["ended_by"] == "inactivity" and ended["winner"] == match["a"]
        loser = next(
            e
            for e in ok(tablet.get(f"/api/v1/tournaments/{tournament_id}/entries/"))
            if e["player_id"] == match["b"]
        )
        assert loser["status"] == "eliminated" and (loser["place"], loser["place_to"]) == (3, 4)
        state = load_tournament(tournament_id).state
        assert state.total_chips == state.chips_issued  # his chips left play with him
        assert TournamentView.objects.get(tournament_id=tournament_id).chips_issued == (
            state.chips_issued
        )


def test_a_hand_with_both_players_there_resets_the_inactivity_count(
    tablet: TabletClient,
) -> None:
    with time_machine.travel(T0, tick=False):
        tournament_id = create(tablet, **HEADS_UP, headsup_inactive_hands=2)
        register(tablet, tournament_id, 2)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {}))
        [match] = _open_matches(_bracket(tablet, tournament_id))
        table_id = match["table_id"]

        def absent_hand() -> None:
            hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
            seat = hand["seats"][0]["seat"]
            ok(tablet.post(f"/api/v1/hands/{hand['hand_id']}/absences/", {"seat": seat}))

        absent_hand()
        hand = ok(tablet.post(f"/api/v1/tables/{table_id}/hands/", {}))
        ok(tablet.post(f"/api/v1/hands/{hand['hand_id']}/actions/",
                       {"seat": hand["legal"]["seat"], "action": "fold"}))  # fmt: skip
        absent_hand()
        assert _bracket(tablet, tournament_id)["champion"] is None  # 1 idle hand, not 2
        absent_hand()
        assert _bracket(tablet, tournament_id)["champion"] is not None


@pytest.mark.rule("HU-1")
@pytest.mark.parametrize(
    "changes",
    [
        {"table_size": 9},
        {"rebuy": {"allowed": True, "until_level": 2}},
        {"late_reg_until_level": 2},
        {"headsup_inactive_hands": 0},
        {"format": "shootout"},
    ],
)
def test_a_heads_up_event_refuses_what_a_bracket_cannot_take(
    tablet: TabletClient, changes: dict[str, Any]
) -> None:
    r = tablet.post("/api/v1/tournaments/", {**_structure(), **HEADS_UP, **changes})
    assert r.status_code in (400, 422), r.json()
    assert r.json()["code"] in ("invalid_tournament_config", "invalid_request")
    assert not TournamentView.objects.exists()  # nothing half written


def test_a_standard_event_has_no_bracket(tablet: TabletClient) -> None:
    tournament_id = create(tablet)
    bracket = _bracket(tablet, tournament_id)
    assert bracket["headsup"] is False and bracket["matches"] == []


def _structure() -> dict[str, Any]:
    from tests.tournaments.play import STRUCTURE

    return dict(STRUCTURE)


@pytest.mark.rule("HU-1")
def test_a_disqualification_is_refused_in_a_bracket_and_nothing_is_written(
    tablet: TabletClient,
) -> None:
    """Until a bracket can forfeit a match, a disqualification would leave the opponent
    waiting forever: it is refused, and a sit-out still works."""
    with time_machine.travel(T0, tick=False):
        tournament_id = create(tablet, **HEADS_UP)
        players = register(tablet, tournament_id, 4)
        ok(tablet.post(f"/api/v1/tournaments/{tournament_id}/start/", {}))
        base = f"/api/v1/tournaments/{tournament_id}"
        version = ok(tablet.get(f"{base}/"))["version"]
        r = tablet.post(f"{base}/penalties/issue/", {
            "player_id": players[0], "offence": "abuse", "reason": "abusive language",
            "kind": "disqualification", "override": True,
        })  # fmt: skip
        assert r.status_code == 422 and r.json()["code"] == "disqualification_in_bracket"
        assert ok(tablet.get(f"{base}/"))["version"] == version
        ok(tablet.post(f"{base}/penalties/issue/", {
            "player_id": players[0], "offence": "abuse", "reason": "abusive language",
            "kind": "sit_out", "hands": 2, "override": True,
        }))  # fmt: skip
