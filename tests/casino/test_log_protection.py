"""Issue 12 B: the log and its snapshots cannot be rewritten from the application.

* ``TRUNCATE`` of the log is refused by PostgreSQL (a statement trigger), like ``UPDATE`` and
  ``DELETE`` (tests/casino/test_eventstore.py);
* the application role of ``deploy/postgres/app-grants.sql`` may append but not rewrite,
  truncate or disable the triggers;
* a snapshot is used only when its HMAC matches, so tampering with ``eventstore_snapshot``
  cannot change what a cash-out pays.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from django.db import DatabaseError, connection, transaction

from casino.domain_events import DomainEvent
from casino.eventstore import aggregates, snapshots, store
from casino.eventstore.models import StreamSnapshot
from tables.domain.table import TableState
from tables.domain.table import evolve as table_evolve
from tests.casino.test_eventstore import Deposited
from tests.conftest import TabletClient

ROOT = Path(__file__).resolve().parents[2]
GRANTS = ROOT / "deploy" / "postgres" / "app-grants.sql"


def _append(stream: str, *events: DomainEvent) -> None:
    with transaction.atomic():
        store.append(stream, list(events), expected_version=store.stream_version(stream))


@pytest.mark.django_db
def test_database_refuses_truncate_of_the_log() -> None:
    _append("acct-1", Deposited(10), Deposited(20))
    with (
        pytest.raises(DatabaseError, match="append-only: TRUNCATE refused"),
        transaction.atomic(),
        connection.cursor() as cur,
    ):
        cur.execute("TRUNCATE eventstore_event")
    assert [e.event for e in store.read_stream("acct-1")] == [Deposited(10), Deposited(20)]


@pytest.mark.django_db
def test_migration_leaves_no_role_but_the_owner_able_to_rewrite_the_log() -> None:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT DISTINCT acl.privilege_type FROM pg_class c, aclexplode(c.relacl) acl "
            "WHERE c.oid = 'eventstore_event'::regclass AND acl.grantee <> c.relowner"
        )
        granted = {row[0] for row in cur.fetchall()}
    assert not granted & {"UPDATE", "DELETE", "TRUNCATE", "TRIGGER"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE eventstore_event SET data = '{}'", "permission denied"),
        ("DELETE FROM eventstore_event", "permission denied"),
        ("TRUNCATE eventstore_event", "permission denied"),
        ("ALTER TABLE eventstore_event DISABLE TRIGGER ALL", "must be owner"),
        ("DROP TRIGGER eventstore_event_no_update ON eventstore_event", "must be owner"),
        ("SET session_replication_role = replica", "permission denied"),
    ],
)
def test_application_role_can_append_but_not_rewrite_the_log(sql: str, message: str) -> None:
    """The grants of deploy/postgres/app-grants.sql, run on the migrated test database as its
    owner; then, as ``casino_app`` (``SET ROLE``: same privileges as its own login), an
    append with its projections works and every way of changing history is refused."""
    _append("acct-1", Deposited(10))
    with connection.cursor() as cur:
        cur.execute(GRANTS.read_text(), None)
    with transaction.atomic():
        with connection.cursor() as cur:
            cur.execute("SET LOCAL ROLE casino_app")
        _append("acct-1", Deposited(20))  # a plain append as the application role
        with (
            pytest.raises(DatabaseError, match=message),
            transaction.atomic(),
            connection.cursor() as cur,
        ):
            cur.execute(sql)
    assert [e.event for e in store.read_stream("acct-1")] == [Deposited(10), Deposited(20)]


@pytest.mark.django_db
def test_application_role_can_play_a_cash_game(tablet: TabletClient, players: list) -> None:
    """Seating writes read models, the idempotency record and the table's stream: all
    allowed to ``casino_app`` by default (tables created by migrations)."""
    with connection.cursor() as cur:
        cur.execute(GRANTS.read_text(), None)
    table = tablet.post(
        "/api/v1/tables/", {"name": "t", "game": "NLH", "small_blind": 10, "big_blind": 20}
    ).json()["table_id"]
    with transaction.atomic():
        with connection.cursor() as cur:
            cur.execute("SET LOCAL ROLE casino_app")
        r = tablet.post(
            f"/api/v1/tables/{table}/seats/",
            {"player_id": players[0].id, "seat": 1, "buy_in": 2000},
        )
        assert r.status_code == 201, r.json()
        with connection.cursor() as cur:
            cur.execute("SELECT current_user")
            assert cur.fetchone()[0] == "casino_app"


# --- signed snapshots -----------------------------------------------------------------


def _table_with_a_snapshot(tablet: TabletClient, player_id: int) -> int:
    """A table where ``player_id`` bought in for 2,000 CZK at seat 1, with a stored snapshot
    (sit-out / sit-in until the stream crosses ``SNAPSHOT_EVERY``)."""
    table = tablet.post(
        "/api/v1/tables/", {"name": "t", "game": "NLH", "small_blind": 10, "big_blind": 20}
    ).json()["table_id"]
    r = tablet.post(
        f"/api/v1/tables/{table}/seats/", {"player_id": player_id, "seat": 1, "buy_in": 2000}
    )
    assert r.status_code == 201, r.json()
    while not StreamSnapshot.objects.filter(stream=f"table-{table}").exists():
        for op in ("sit-out", "sit-in"):
            assert tablet.post(f"/api/v1/tables/{table}/seats/1/{op}/").status_code == 200
    return int(table)


@pytest.mark.django_db
def test_a_signed_snapshot_is_used(tablet: TabletClient, players: list) -> None:
    table = _table_with_a_snapshot(tablet, players[0].id)
    snap = snapshots.read(f"table-{table}", TableState)
    assert snap is not None and snap.version >= aggregates.SNAPSHOT_EVERY
    assert snap.signature == snapshots.signature(snap.stream, snap.version, snap.state, snap.shape)


@pytest.mark.django_db
def test_tampered_snapshot_is_ignored_and_the_cash_out_pays_the_true_stack(
    tablet: TabletClient, players: list, caplog: pytest.LogCaptureFixture
) -> None:
    table = _table_with_a_snapshot(tablet, players[0].id)
    with connection.cursor() as cur:
        cur.execute(
            "UPDATE eventstore_snapshot "
            "SET state = jsonb_set(state, '{seats,0,stack}', '2000000') WHERE stream = %s",
            [f"table-{table}"],
        )
    aggregates.cache.clear()  # a cold process: the next load starts from the snapshot
    with caplog.at_level(logging.WARNING, logger="casino.eventstore.snapshots"):
        r = tablet.post(f"/api/v1/tables/{table}/seats/1/cash-out/")
    assert r.status_code == 200, r.json()
    assert r.json()["amount"] == 2000
    assert f"snapshot of table-{table}" in caplog.text


@pytest.mark.django_db
@pytest.mark.parametrize("signature", ["", "0" * 64])
def test_unsigned_or_foreign_snapshot_is_folded_from_the_log(
    tablet: TabletClient, players: list, signature: str
) -> None:
    """A snapshot written before signing (empty signature) or under another key is not
    trusted even when its state is right: the stream is folded from the log."""
    table = _table_with_a_snapshot(tablet, players[0].id)
    stream = f"table-{table}"
    StreamSnapshot.objects.filter(stream=stream).update(signature=signature)
    assert snapshots.read(stream, TableState) is None
    aggregates.cache.clear()
    loaded = aggregates.load(stream, table_evolve, None, snapshot_type=TableState)
    assert loaded.version == store.stream_version(stream)
    assert loaded.state is not None and loaded.state.seats[0].stack == 2000
