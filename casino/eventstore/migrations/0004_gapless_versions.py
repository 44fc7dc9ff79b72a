"""PostgreSQL: a stream's versions have no gaps, checked by the database as each row is
inserted, so an append needs no ``MAX(version)`` query first (one round trip less per
dealer action). ``UNIQUE(stream, version)`` already refuses a version taken by another
writer; this refuses one that skips ahead (a writer deciding on a state the log never had).

A row-level BEFORE trigger sees the rows inserted before it by the same statement, so a
multi-event append (versions v+1, v+2, ...) passes. SQLite keeps the check in Python.
"""

from django.db import migrations

from casino.eventstore.pgsql import postgresql_only

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION eventstore_gapless_version() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        IF NEW.version > 1 AND NOT EXISTS (
            SELECT 1 FROM eventstore_event
             WHERE stream = NEW.stream AND version = NEW.version - 1
        ) THEN
            RAISE EXCEPTION 'stream % has no version %', NEW.stream, NEW.version - 1
                USING ERRCODE = 'integrity_constraint_violation',
                      CONSTRAINT = 'event_stream_version_gapless';
        END IF;
        RETURN NEW;
    END $$
    """,
    """
    CREATE TRIGGER eventstore_event_gapless
    BEFORE INSERT ON eventstore_event
    FOR EACH ROW EXECUTE FUNCTION eventstore_gapless_version()
    """,
]
BACKWARD = [
    "DROP TRIGGER IF EXISTS eventstore_event_gapless ON eventstore_event",
    "DROP FUNCTION IF EXISTS eventstore_gapless_version()",
]


forward, backward = postgresql_only(FORWARD, BACKWARD)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0003_notify_relay")]

    operations = [migrations.RunPython(forward, backward)]
