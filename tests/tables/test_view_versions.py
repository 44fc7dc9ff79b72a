"""Issue 12 D: every event of a stream advances its read model's ``version``.

A client reads a table (or tournament, or waiting list) and sends its ``version`` back as
``If-Match``. A version left behind by an event without a projection handler (a sit-out)
answered 409 to every later write.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from casino.eventstore import store
from casino.eventstore.projections import registry
from casino.models import Player
from tables.models import TableView
from tests.conftest import TabletClient
from tests.play import play_random_hand
from tournaments.models import TournamentView
from waitlist.models import WaitingList


def assert_every_view_is_at_its_stream_version() -> None:
    for table in TableView.objects.all():
        assert table.version == store.stream_version(f"table-{table.table_id}"), table.table_id
    for t in TournamentView.objects.all():
        assert t.version == store.stream_version(f"tournament-{t.tournament_id}")
    for wl in WaitingList.objects.all():
        assert wl.version == store.stream_version(f"waitlist-{wl.list_id}"), wl.list_id


def test_every_view_with_a_version_is_tracked() -> None:
    tracked = {p.name: [prefix for prefix, _ in p.version_trackers] for p in registry()}
    assert tracked["tables"] == ["table-"]
    assert tracked["tournaments"] == ["tournament-"]
    assert tracked["waitlist"] == ["waitlist-"]


def test_sit_out_and_sit_in_advance_the_table_version(
    tablet: TabletClient, nlh_table: int, players: list
) -> None:
    base = f"/api/v1/tables/{nlh_table}"
    tablet.post(f"{base}/seats/", {"player_id": players[0].id, "seat": 1, "buy_in": 2000})
    for op in ("sit-out", "sit-in"):
        version = tablet.get(f"{base}/").json()["version"]
        r = tablet.post(f"{base}/seats/1/{op}/", **{"If-Match": str(version)})
        assert r.status_code == 200, r.json()
        assert r.json()["version"] == version + 1
        assert tablet.get(f"{base}/").json()["version"] == store.stream_version(
            f"table-{nlh_table}"
        )


seats = st.integers(1, 4)
operation = st.one_of(
    st.tuples(st.just("seat"), seats, st.integers(0, 5), st.integers(900, 5100)),
    st.tuples(st.just("sit-out"), seats),
    st.tuples(st.just("sit-in"), seats),
    st.tuples(st.just("top-up"), seats, st.integers(1, 3000)),
    st.tuples(st.just("refreshment"), seats, st.integers(1, 150)),
    st.tuples(st.just("cash-out"), seats),
    st.tuples(st.just("limits"), st.integers(500, 2000)),
    st.tuples(st.just("hand"), st.lists(st.integers(0, 99), max_size=20)),
    st.tuples(st.just("join"), st.integers(0, 5)),
    st.tuples(st.just("leave"), st.integers(0, 5)),
    st.tuples(st.just("away"), st.integers(0, 5), st.booleans()),
    st.tuples(st.just("call"), seats),
    st.tuples(st.just("from-list"), st.integers(0, 5), seats),
)
LISTS = "/api/v1/waitlists/"


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(operation, min_size=1, max_size=20))
def test_after_any_commands_every_view_is_at_its_stream_version(
    tablet: TabletClient, steps: list[tuple[Any, ...]]
) -> None:
    table_id = tablet.post(
        "/api/v1/tables/",
        {"name": "v", "game": "NLH", "small_blind": 10, "big_blind": 20, "max_seats": 4},
    ).json()["table_id"]
    people = [Player.objects.create(name=f"v{n}") for n in range(6)]
    base = f"/api/v1/tables/{table_id}"
    opened = tablet.post(LISTS, {"game": "NLH", "small_blind": 10, "big_blind": 20,
                                 "list_kind": "waiting"})  # fmt: skip
    listed = opened.json()["list_id"] if opened.status_code == 201 else None
    listed = listed or WaitingList.objects.get(game="NLH", small_blind=10).list_id
    wl = f"{LISTS}{listed}"
    for step in steps:
        kind = step[0]
        if kind == "join":
            r = tablet.post(f"{wl}/entries/", {"player_id": people[step[1]].id,
                                            "channel": "in_person"})  # fmt: skip
        elif kind == "leave":
            r = tablet.post(f"{wl}/entries/{people[step[1]].id}/leave/", {"reason": "player"})
        elif kind == "away":
            r = tablet.post(f"{wl}/entries/{people[step[1]].id}/away/", {"away": step[2]})
        elif kind == "call":
            r = tablet.post(f"{wl}/calls/", {"table_id": table_id, "seat": step[1]})
        elif kind == "from-list":
            r = tablet.post(f"{wl}/seatings/", {"player_id": people[step[1]].id,
                                             "table_id": table_id, "seat": step[2],
                                             "buy_in": 1000})  # fmt: skip
        elif kind == "seat":
            body = {"player_id": people[step[2]].id, "seat": step[1], "buy_in": step[3]}
            r = tablet.post(f"{base}/seats/", body)
        elif kind in ("sit-out", "sit-in", "cash-out"):
            r = tablet.post(f"{base}/seats/{step[1]}/{kind}/")
        elif kind in ("top-up", "refreshment"):
            r = tablet.post(f"{base}/seats/{step[1]}/{kind}/", {"amount": step[2]})
        elif kind == "limits":
            body = {"buy_in_min": step[1], "buy_in_max": 5000, "reason": "floor decision"}
            r = tablet.post(f"{base}/limits/", body)
        else:
            # a hand only when the table would deal one (enough players not sitting out)
            if tablet.get(f"{base}/next-hand/").status_code == 200:
                play_random_hand(tablet, table_id, step[1])
        if kind != "hand":
            assert r.status_code in (200, 201, 404, 409, 422), (step, r.json())
            event(f"{kind}: {r.status_code}")
        assert_every_view_is_at_its_stream_version()
    for seat in range(1, 5):  # leave the players free for the next example (BI-10)
        tablet.post(f"{base}/seats/{seat}/cash-out/")
    for person in people:
        tablet.post(f"{wl}/entries/{person.id}/leave/", {"reason": "player"})
