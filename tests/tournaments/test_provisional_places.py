"""Places given during late registration are provisional (ELIM-2, TREG-7): an entry that
arrives after some players are out (a late registration or a re-entry) finishes ahead of
them, so the places the API shows move down with it and never overlap, and they end as the
results of ``TournamentFinished`` say."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from casino.models import Player
from tests.conftest import TabletClient
from tests.tournaments.play import create, ok, play_hand, register

pytestmark = pytest.mark.django_db(transaction=True)


def assert_places_partition(entries: list[dict[str, Any]], tournament: dict[str, Any]) -> None:
    """The places of everyone out are exactly players_left + 1 .. entries: each band
    ``place``..``place_to`` is held by as many entries as it is wide (a tie), and no two
    bands overlap."""
    out = [e for e in entries if e["status"] == "eliminated"]
    assert_bands(out, tournament["clock"]["players_left"] + 1, tournament["entries"])


def assert_bands(entries: list[dict[str, Any]], first: int, last: int) -> None:
    bands = Counter((e["place"], e["place_to"]) for e in entries)
    for (place, place_to), holders in bands.items():
        assert holders == place_to - place + 1, bands
    taken = sorted(p for place, place_to in bands for p in range(place, place_to + 1))
    assert taken == list(range(first, last + 1)), bands


def bust_someone(tablet: TabletClient, t: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    tid = t["tournament_id"]
    before = t["clock"]["players_left"]
    for _ in range(200):
        for table_id in t["tables"]:
            play_hand(tablet, table_id, rng, all_in=0.9)
        t = ok(tablet.get(f"/api/v1/tournaments/{tid}/"))
        if t["clock"]["players_left"] < before:
            return dict(t)
    raise AssertionError("nobody busted")


@pytest.mark.rule("ELIM-2")
def test_a_late_entry_and_a_re_entry_move_the_provisional_places_down(
    tablet: TabletClient,
) -> None:
    rng = random.Random(7)
    tid = create(
        tablet, table_size=6, late_reg_until_level=5,
        reentry={"allowed": True, "max_per_player": 3, "price": 500, "fee": 100},
    )  # fmt: skip
    register(tablet, tid, 12)
    t = ok(tablet.post(f"/api/v1/tournaments/{tid}/start/", {"reserve_tables": 1}))

    t = bust_someone(tablet, t, rng)
    entries = ok(tablet.get(f"/api/v1/tournaments/{tid}/entries/"))
    assert_places_partition(entries, t)
    out_before = {e["entry_number"]: e["place"] for e in entries if e["status"] == "eliminated"}

    late = Player.objects.create(name="Late Comer")
    ok(tablet.post(f"/api/v1/tournaments/{tid}/registrations/", {"player_id": late.pk}))
    t = ok(tablet.get(f"/api/v1/tournaments/{tid}/"))
    entries = ok(tablet.get(f"/api/v1/tournaments/{tid}/entries/"))
    assert_places_partition(entries, t)
    out_after = {e["entry_number"]: e["place"] for e in entries if e["status"] == "eliminated"}
    assert out_after == {n: place + 1 for n, place in out_before.items()}

    busted = next(e for e in entries if e["status"] == "eliminated")
    ok(tablet.post(f"/api/v1/tournaments/{tid}/re-entries/", {"player_id": busted["player_id"]}))
    t = bust_someone(tablet, ok(tablet.get(f"/api/v1/tournaments/{tid}/")), rng)
    assert_places_partition(ok(tablet.get(f"/api/v1/tournaments/{tid}/entries/")), t)

    if t["clock"]["late_registration_open"]:  # drawing the final table closes it (TSEAT-8)
        ok(tablet.post(f"/api/v1/tournaments/{tid}/late-registration/close/", {}))
    while t["status"] != "finished":
        t = bust_someone(tablet, t, rng)
        if t["status"] != "finished":
            assert_places_partition(ok(tablet.get(f"/api/v1/tournaments/{tid}/entries/")), t)
    final = ok(tablet.get(f"/api/v1/tournaments/{tid}/entries/"))
    assert_bands(final, 1, t["entries"])
    # the chip board tells the re-entered player's two entries apart (QA: the same name twice)
    board = ok(tablet.get(f"/api/v1/tournaments/{tid}/chip-counts/"))["finished"]
    by_place = {e["place"]: e for e in final}
    first, second = sorted(
        (e["entry_number"], e["place"]) for e in final if e["player_id"] == busted["player_id"]
    )
    bullets = {f["place"]: f["player_entry"] for f in board}
    assert (bullets[first[1]], bullets[second[1]]) == (1, 2)
    assert all(
        bullets[p] == 1 for p, e in by_place.items() if e["player_id"] != busted["player_id"]
    )
