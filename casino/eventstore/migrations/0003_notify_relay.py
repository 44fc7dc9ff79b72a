"""PostgreSQL: every statement that appends to the log sends ``NOTIFY casino_log`` (delivered
at commit), which wakes the push relay (``casino.realtime.relay``) instead of polling.

A statement-level trigger costs one notification per append, whatever the number of rows;
notifications with the same payload in one transaction are folded into one by PostgreSQL.
"""

from django.db import migrations

from casino.eventstore.pgsql import postgresql_only

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


forward, backward = postgresql_only(FORWARD, BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0002_subscription_cursor")]

    operations = [migrations.RunPython(forward, backward)]
