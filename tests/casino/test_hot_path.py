"""The dealer's hot path (issue #11): an ordinary action costs at most three round trips to
PostgreSQL in the steady state (the events' INSERT, the command record's INSERT, COMMIT),
and writers on one stream queue rather than fail."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from casino.eventstore.models import SubscriptionCursor
from casino.models import Device, Player
from tests.conftest import NLH_10_20, TabletClient


def _table_with_hand(tablet: TabletClient, seats: int = 6) -> tuple[int, str]:
    table_id = tablet.post("/api/v1/tables/", {**NLH_10_20, "buy_in_max": 100_000}).json()[
        "table_id"
    ]
    for n in range(1, seats + 1):
        player = Player.objects.create(name=f"hot {uuid.uuid4().hex[:6]}")
        response = tablet.post(
            f"/api/v1/tables/{table_id}/seats/",
            {"player_id": player.id, "seat": n, "buy_in": 5000},
        )
        assert response.status_code == 201, response.json()
    hand = tablet.post(f"/api/v1/tables/{table_id}/hands/", {"button_seat": 1}).json()
    return int(table_id), str(hand["hand_id"])


def _act(tablet: TabletClient, hand_id: str) -> Any:
    hand = tablet.get(f"/api/v1/hands/{hand_id}/").json()
    legal = hand["legal"]
    body = {"seat": legal["seat"], "action": "call" if legal["to_call"] else "check"}
    return tablet.post(f"/api/v1/hands/{hand_id}/actions/", body)


def _round_trips(trace: str) -> int:
    """Waits for the server in a libpq protocol trace: each ``Sync`` (extended protocol)
    and each simple ``Query`` the client sent."""
    sent = [line.split("\t") for line in trace.splitlines() if line.startswith("F\t")]
    return sum(1 for parts in sent if len(parts) > 2 and parts[2] in ("Sync", "Query"))


@pytest.mark.django_db(transaction=True)
def test_an_ordinary_action_costs_three_round_trips(tmp_path: Any) -> None:
    """BEGIN goes with the events' INSERT, then the command record, then COMMIT; no read."""
    from psycopg import pq

    tablet = TabletClient(Device.objects.create(name="hot-1", role=Device.Role.ADMIN))
    _, hand_id = _table_with_hand(tablet)
    first = _act(tablet, hand_id)  # warms the process's cache of the hand and the table
    assert first.status_code == 200, first.json()
    legal = first.json()["legal"]
    body = {"seat": legal["seat"], "action": "call"}
    connection.ensure_connection()
    raw = connection.connection
    trace_file = tmp_path / "libpq.trace"
    with open(trace_file, "w") as out, CaptureQueriesContext(connection) as queries:
        raw.pgconn.trace(out.fileno())
        raw.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            response = tablet.post(f"/api/v1/hands/{hand_id}/actions/", body)
        finally:
            raw.pgconn.untrace()
    assert response.status_code == 200, response.json()
    statements = [q["sql"].split(" (")[0].replace('"', "") for q in queries.captured_queries]
    # no read at all: the hand and the table came from the cache; COMMIT rides with the
    # command record (in one simple query with client-side binding, in the same pipeline
    # with server-side binding), and Django's own COMMIT then has nothing to send
    expected = ["BEGIN", "INSERT INTO eventstore_event", "INSERT INTO eventstore_command"]
    if connection.settings_dict["OPTIONS"].get("server_side_binding"):
        expected.append("COMMIT")
    assert statements == [*expected, "COMMIT"], statements
    trace = "\n".join(line[:50] for line in trace_file.read_text().splitlines())
    assert _round_trips(trace_file.read_text()) == 3, trace
    if connection.settings_dict["OPTIONS"].get("prepare_threshold") is not None:
        # the INSERTs have run often enough on this connection to be prepared: PostgreSQL
        # neither parses nor plans them again
        parsed = [line for line in trace.splitlines() if "\tParse\t" in line]
        assert not [line for line in parsed if "INSERT" in line], trace


@pytest.mark.django_db(transaction=True)
def test_a_retried_action_appends_nothing_and_answers_the_first_result() -> None:
    tablet = TabletClient(Device.objects.create(name="hot-2", role=Device.Role.ADMIN))
    _, hand_id = _table_with_hand(tablet)
    hand = tablet.get(f"/api/v1/hands/{hand_id}/").json()
    body = {"seat": hand["legal"]["seat"], "action": "call"}
    first = tablet.post(f"/api/v1/hands/{hand_id}/actions/", body, key="same-key")
    again = tablet.post(f"/api/v1/hands/{hand_id}/actions/", body, key="same-key")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert tablet.get(f"/api/v1/hands/{hand_id}/").json()["version"] == first.json()["version"]


@pytest.mark.django_db(transaction=True)
def test_sixteen_writers_on_one_stream_queue_instead_of_failing() -> None:
    """16 tablets post to one table's stream at once (top-ups of different seats): fewer
    than 1% answer 409, and every acknowledged write is in the log."""
    admin = Device.objects.create(name="hot-3", role=Device.Role.ADMIN)
    setup = TabletClient(admin)
    body = {**NLH_10_20, "buy_in_max": 10**9, "limits_reason": "a test of contention"}  # BI-5
    table_id = setup.post("/api/v1/tables/", body).json()["table_id"]
    for seat in range(1, 9):
        player = Player.objects.create(name=f"q {uuid.uuid4().hex[:6]}")
        setup.post(
            f"/api/v1/tables/{table_id}/seats/",
            {"player_id": player.id, "seat": seat, "buy_in": 1000},
        )
    writers, per_writer = 16, 12
    statuses: list[int] = []
    acknowledged = 0
    lock = threading.Lock()
    barrier = threading.Barrier(writers)

    def writer(n: int) -> None:
        nonlocal acknowledged
        client = TabletClient(admin)
        try:
            barrier.wait()
            for _ in range(per_writer):
                r = client.post(
                    f"/api/v1/tables/{table_id}/seats/{n % 8 + 1}/top-up/", {"amount": 10}
                )
                with lock:
                    statuses.append(r.status_code)
                    acknowledged += r.status_code == 200
        finally:
            connections.close_all()

    pool = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    conflicts = statuses.count(409)
    assert len(statuses) == writers * per_writer
    assert conflicts / len(statuses) < 0.01, f"{conflicts} of {len(statuses)} answered 409"
    assert set(statuses) <= {200, 409}, statuses
    table = setup.get(f"/api/v1/tables/{table_id}/").json()
    total = sum(s["stack"] for s in table["seats"])
    assert total == 8 * 1000 + 10 * acknowledged  # every acknowledged top-up is in the log


@pytest.mark.django_db(transaction=True)
def test_a_hand_in_play_stays_cached_and_a_finished_one_leaves_the_cache() -> None:
    """The worker's state cache holds the aggregates in play: a hand is cached while it is
    dealt (its actions need no read) and dropped when it ends, also when a screen reads the
    finished hand later, so an evening of hands does not pile up in every worker."""
    from casino.eventstore import aggregates
    from tables.services import hand_stream

    tablet = TabletClient(Device.objects.create(name="hot-cache", role=Device.Role.ADMIN))
    _, hand_id = _table_with_hand(tablet, seats=2)
    stream = hand_stream(hand_id)
    assert aggregates.cache.get(stream) is not None  # dealt: cached
    hand = tablet.get(f"/api/v1/hands/{hand_id}/").json()
    fold = {"seat": hand["legal"]["seat"], "action": "fold"}
    response = tablet.post(f"/api/v1/hands/{hand_id}/actions/", fold)
    assert response.status_code == 200, response.json()
    assert response.json()["phase"] == "complete"
    assert aggregates.cache.get(stream) is None  # ended: dropped
    again = tablet.get(f"/api/v1/hands/{hand_id}/")
    assert again.status_code == 200 and again.json()["phase"] == "complete"
    assert aggregates.cache.get(stream) is None  # read from the log, not cached again


@pytest.mark.django_db(transaction=True)
def test_stored_results_are_purged_after_the_retention_and_a_late_retry_is_refused() -> None:
    """The hourly purge deletes results older than IDEMPOTENCY_RETENTION_HOURS and keeps the
    younger ones; a retry of a purged command whose events are in the log answers 409
    ``idempotency_key_expired`` and appends nothing (it is not run twice)."""
    from datetime import timedelta

    from casino import clock
    from casino.eventstore.models import CommandRecord, StoredEvent
    from casino.eventstore.tasks import purge_command_records
    from tests.conftest import NLH_10_20

    tablet = TabletClient(Device.objects.create(name="hot-purge", role=Device.Role.ADMIN))
    old = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "old"}, key="purge-old")
    young = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "young"}, key="purge-young")
    assert old.status_code == young.status_code == 201
    CommandRecord.objects.filter(command_id="purge-old").update(
        recorded_at=clock.now() - timedelta(hours=49)
    )
    assert purge_command_records() == 1
    assert list(CommandRecord.objects.values_list("command_id", flat=True)) == ["purge-young"]
    events = StoredEvent.objects.count()
    late = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "old"}, key="purge-old")
    assert late.status_code == 409 and late.json()["code"] == "idempotency_key_expired"
    again = tablet.post("/api/v1/tables/", {**NLH_10_20, "name": "young"}, key="purge-young")
    assert again.status_code == 201 and again.json() == young.json()  # still replayed
    assert StoredEvent.objects.count() == events


@pytest.mark.django_db(transaction=True)
def test_a_hands_end_writes_every_finishing_stack_in_one_statement() -> None:
    """HandEnded updates the seats' stacks in one UPDATE (``rows.update_each``), not one
    per seat, and the read model then holds each seat's finishing stack."""
    from tables.models import SeatView

    tablet = TabletClient(Device.objects.create(name="hot-end", role=Device.Role.ADMIN))
    table_id, hand_id = _table_with_hand(tablet, seats=4)
    hand = tablet.get(f"/api/v1/hands/{hand_id}/").json()
    while True:
        fold = {"seat": hand["legal"]["seat"], "action": "fold"}
        with CaptureQueriesContext(connection) as queries:
            response = tablet.post(f"/api/v1/hands/{hand_id}/actions/", fold)
        assert response.status_code == 200, response.json()
        hand = response.json()
        if hand["phase"] == "complete":
            break
    seat_updates = [q["sql"] for q in queries.captured_queries
                    if q["sql"].startswith('UPDATE "tables_seatview"')]  # fmt: skip
    assert len(seat_updates) == 1, seat_updates
    stacks = dict(SeatView.objects.filter(table_id=table_id).values_list("seat", "stack"))
    assert stacks == {s["seat"]: s["stack"] for s in hand["seats"]}
    assert sum(stacks.values()) == 4 * 5000


def test_the_hand_to_table_memo_is_bounded_and_keeps_the_hands_in_use() -> None:
    """Memory levels off however many hands a room deals (issue #11): the memo of which
    table a hand is at forgets the least recently used hand beyond its size, never one a
    tablet is still acting on."""
    from casino.table_lookup import HandTables

    memo = HandTables(size=3)
    for n in range(3):
        memo.remember(f"hand-{n}", 10 + n)
    assert memo.get("hand-0") == 10  # in use: now the most recent
    for n in range(3, 1000):
        memo.remember(f"hand-{n}", 10 + n)
        assert memo.get("hand-0") == 10
    assert len(memo) == 3
    assert memo.get("hand-1") is None and memo.get("hand-998") == 1008


@pytest.mark.django_db(transaction=True)
def test_permission_checks_remember_a_hands_table_in_the_bounded_memo(
    tablet: TabletClient,
) -> None:
    """A dealer action's permission check reads a hand's table once, then from the shared
    bounded memo (``casino.table_lookup.hand_tables``)."""
    from casino import permissions, table_lookup
    from casino.models import Role

    table_id, hand_id = _table_with_hand(tablet, seats=2)
    dealer = TabletClient(Device.objects.create(name="dealer", role=Role.DEALER, table_id=table_id))
    table_lookup.hand_tables.clear()
    assert _act(dealer, hand_id).status_code == 200
    assert table_lookup.hand_tables.get(hand_id) == table_id
    assert permissions.table_of_hand(hand_id) == table_id


def test_the_state_cache_forgets_what_went_unused_for_its_idle_time() -> None:
    """A hand this worker only read (a screen's snapshot) and another worker finished is never
    loaded here again: the cache drops it once it has gone unused for ``IDLE_SECONDS``, so a
    worker's memory levels off within minutes. Before, such hands stayed until 2,048 of them
    (up to about 19 kB each) filled the cache, over an hour at 50 busy tables (issue #11)."""
    from casino.eventstore import aggregates
    from casino.eventstore.aggregates import _StateCache

    assert aggregates.cache.idle == aggregates.IDLE_SECONDS == 300.0
    now = [1000.0]
    cache = _StateCache(100, idle=300.0, clock=lambda: now[0])
    cache.put("hand-read-for-a-screen", 3, "read once")
    cache.put("hand-in-play", 5, "dealt")
    for _ in range(5):
        now[0] += 100.0
        assert cache.get("hand-in-play") == (5, "dealt")  # used every 100 s: stays
    assert cache.get("hand-read-for-a-screen") is None  # 500 s unused: gone
    assert len(cache) == 1
    cache.put("hand-in-play", 4, "older")  # an older version never replaces a newer one
    assert cache.get("hand-in-play") == (5, "dealt")
    now[0] += 301.0
    cache.put("table-1", 9, "a table")  # a put also drops what went idle
    assert len(cache) == 1 and cache.get("hand-in-play") is None


def test_the_state_cache_keeps_at_most_its_size_least_recently_used_first() -> None:
    """However busy the room, at most ``size`` states: the least recently used goes first."""
    from casino.eventstore.aggregates import _StateCache

    cache = _StateCache(2, idle=300.0, clock=lambda: 0.0)
    cache.put("a", 1, "a")
    cache.put("b", 1, "b")
    assert cache.get("a") == (1, "a")  # a used more recently than b
    cache.put("c", 1, "c")
    assert cache.get("b") is None and cache.get("a") == (1, "a") and cache.get("c") == (1, "c")


@pytest.mark.django_db(transaction=True)
def test_a_hand_left_unused_leaves_the_process_cache_and_is_read_again_from_the_log() -> None:
    """The scenario of issue #11's rising RSS, in the process's own cache: a hand in play
    that this process stops using (another worker deals it on) is gone once
    ``IDLE_SECONDS`` pass without a use, and the next command on it folds the log and
    succeeds, so dropping it costs one read, never a wrong decision."""
    from casino.eventstore import aggregates
    from tables.services import hand_stream

    tablet = TabletClient(Device.objects.create(name="hot-idle", role=Device.Role.ADMIN))
    table_id, hand_id = _table_with_hand(tablet, seats=3)
    stream = hand_stream(hand_id)
    assert aggregates.cache.get(stream) is not None  # dealt here: cached
    real_clock = aggregates.cache.clock
    now = [real_clock()]
    aggregates.cache.clock = lambda: now[0]
    try:
        now[0] += aggregates.IDLE_SECONDS - 1
        assert aggregates.cache.get(stream) is not None  # used within the limit: stays
        now[0] += aggregates.IDLE_SECONDS + 1
        assert aggregates.cache.get(f"table-{table_id}") is None  # any use expires idle ones
        assert aggregates.cache.get(stream) is None
        response = _act(tablet, hand_id)  # folded from the log again
        assert response.status_code == 200, response.json()
        cached = aggregates.cache.get(stream)
        assert cached is not None and cached[0] == response.json()["version"]  # cached again
    finally:
        aggregates.cache.clock = real_clock


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("server_side", [True, False])
def test_statements_go_with_their_commit_in_one_round_trip_or_not_at_all(
    server_side: bool, tmp_path: Any
) -> None:
    """``execute_then_commit`` with either binding: the statements and the COMMIT in one
    round trip; a failing statement commits none of them and leaves the connection usable."""
    import copy

    from django.db import IntegrityError
    from psycopg import pq

    from casino.eventstore import rows

    settings = copy.deepcopy(connection.settings_dict)
    settings["OPTIONS"]["server_side_binding"] = server_side
    settings["OPTIONS"].pop("pool", None)
    own = connections["default"].__class__(settings, alias="execute_then_commit")
    connections["execute_then_commit"] = own  # Django's cursor looks its alias up
    insert = "INSERT INTO eventstore_subscription (name, transaction_id, position, updated_at) "
    insert += "VALUES (%s, %s, %s, now())"
    try:
        own.ensure_connection()
        trace_file = tmp_path / "libpq.trace"
        with open(trace_file, "w") as out:
            own.connection.pgconn.trace(out.fileno())
            own.connection.pgconn.set_trace_flags(
                pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE
            )
            try:
                rows.execute_then_commit(own, [(insert, ["a", 1, 2]), (insert, ["b", 3, 4])])
            finally:
                own.connection.pgconn.untrace()
        assert _round_trips(trace_file.read_text()) == 1
        stored = SubscriptionCursor.objects.order_by("name").values_list("name", "position")
        assert list(stored) == [("a", 2), ("b", 4)]  # committed: seen from another connection
        with pytest.raises(IntegrityError):
            rows.execute_then_commit(own, [(insert, ["c", 5, 6]), (insert, ["a", 7, 8])])
        assert list(stored) == [("a", 2), ("b", 4)]  # "c" went with the failed "a"
        rows.execute_then_commit(own, [(insert, ["d", 9, 10])])  # the connection goes on
        assert list(stored.filter(name="d")) == [("d", 10)]
    finally:
        own.close()
        del connections["execute_then_commit"]
