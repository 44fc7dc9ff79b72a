"""The next-hand preview of a tournament table is the hand the table will deal: before the
first hand the button is the tournament's high-card draw (SEAT-1), not seat 1."""

from __future__ import annotations

import pytest

from casino.eventstore.models import StoredEvent
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, register


@pytest.mark.rule("SEAT-1")
def test_the_preview_of_a_tournament_tables_first_hand_uses_the_drawn_button(
    tablet: TabletClient,
) -> None:
    mismatched = 0
    for _ in range(3):  # the draw is random: seat 1 may win it by chance
        tournament = create(tablet, min_entrants=2)
        register(tablet, tournament, 6)
        tables = ok(tablet.post(f"/api/v1/tournaments/{tournament}/start/",
                                {"reserve_tables": 0}))["tables"]  # fmt: skip
        table = tables[0]
        preview = ok(tablet.get(f"/api/v1/tables/{table}/next-hand/"))
        hand = ok(tablet.post(f"/api/v1/tables/{table}/hands/", {}))
        dealt = (hand["button_seat"], hand["big_blind_seat"])
        mismatched += (preview["button_seat"], preview["big_blind_seat"]) != dealt
    assert mismatched == 0


@pytest.mark.rule("SEAT-1")
@pytest.mark.rule("TSEAT-1")
def test_a_tablet_cannot_deal_a_tournament_tables_first_hand_on_its_own_button(
    tablet: TabletClient,
) -> None:
    """The tablet's own draw dropdown sent seat 1, and the blinds went to the wrong players
    (found by QA): a button other than the tournament's draw is refused and appends
    nothing; the drawn one is accepted."""
    tournament = create(tablet, min_entrants=2)
    register(tablet, tournament, 6)
    (table,) = ok(tablet.post(f"/api/v1/tournaments/{tournament}/start/",
                              {"reserve_tables": 0}))["tables"]  # fmt: skip
    drawn = ok(tablet.get(f"/api/v1/tables/{table}/next-hand/"))["button_seat"]
    seats = [s["seat"] for s in ok(tablet.get(f"/api/v1/tables/{table}/"))["seats"]]
    other = next(s for s in seats if s != drawn)
    previewed = tablet.get(f"/api/v1/tables/{table}/next-hand/?button_seat={other}")
    assert (previewed.status_code, previewed.json()["code"]) == (422, "button_drawn")
    events = StoredEvent.objects.count()
    refused = tablet.post(f"/api/v1/tables/{table}/hands/", {"button_seat": other})
    assert (refused.status_code, refused.json()["code"], refused.json()["rule"]) == (
        422, "button_drawn", "SEAT-1")  # fmt: skip
    assert refused.json()["button_seat"] == drawn
    assert StoredEvent.objects.count() == events
    hand = ok(tablet.post(f"/api/v1/tables/{table}/hands/", {"button_seat": drawn}))
    assert hand["button_seat"] == drawn


@pytest.mark.rule("TSEAT-4")
def test_a_table_out_of_play_is_refused_in_the_tournaments_words(tablet: TabletClient) -> None:
    """A broken (or reserve) table answered ``not_enough_players``, a cash game's words,
    to a dealer who tried to deal there (found by QA)."""
    tournament = create(tablet, min_entrants=2)
    register(tablet, tournament, 6)
    started = ok(tablet.post(f"/api/v1/tournaments/{tournament}/start/", {"reserve_tables": 1}))
    listed = {t["table_id"] for t in ok(tablet.get("/api/v1/tables/"))}
    reserve = sorted(listed - set(started["tables"]))
    assert reserve, (listed, started["tables"])
    events = StoredEvent.objects.count()
    refused = tablet.post(f"/api/v1/tables/{reserve[-1]}/hands/", {})
    assert (refused.status_code, refused.json()["code"]) == (422, "table_not_in_play")
    assert StoredEvent.objects.count() == events
