"""PostgreSQL: every statement that appends to the log sends ``NOTIFY casino_log`` (delivered
at commit), which wakes the push relay (``casino.realtime.relay``) instead of polling.

A statement-level trigger costs one notification per append, whatever the number of rows;
notifications with the same payload in one transaction are folded into one by PostgreSQL.
"""

from typing import Any

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION eventstore_notify_relay() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('casino_log', '');
        RETURN NULL;
    END $$
    """,
    """
    CREATE TRIGGER eventstore_event_notify_relay
    AFTER INSERT ON eventstore_event
    FOR EACH STATEMENT EXECUTE FUNCTION eventstore_notify_relay()
    """,
]
BACKWARD = [
    "DROP TRIGGER IF EXISTS eventstore_event_notify_relay ON eventstore_event",
    "DROP FUNCTION IF EXISTS eventstore_notify_relay()",
]


def forward(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for sql in FORWARD:
            schema_editor.execute(sql, params=None)


def backward(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        for sql in BACKWARD:
            schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0002_subscription_cursor")]

    operations = [migrations.RunPython(forward, backward)]
