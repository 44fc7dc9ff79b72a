"""Guarantee 1 on PostgreSQL, completed: ``TRUNCATE`` of the log is refused by the database.

The row triggers of ``0001`` cannot see a ``TRUNCATE`` (it deletes no rows one by one), so a
statement trigger refuses it. Only a superuser can get round it (``session_replication_role``
or dropping the trigger as the owner); the application role is neither (deploy/README.md).

The migration also takes ``UPDATE``, ``DELETE``, ``TRUNCATE`` and ``TRIGGER`` on the log away
from every role but its owner: ``deploy/postgres/app-grants.sql`` gives the application role
default privileges on the tables migrations create, and this keeps the log out of them
whichever order the two run in.
"""

from django.db import migrations

PG_FORWARD = [
    "CREATE TRIGGER eventstore_event_no_truncate BEFORE TRUNCATE ON eventstore_event "
    "FOR EACH STATEMENT EXECUTE FUNCTION eventstore_refuse_change()",
    """
    DO $$
    DECLARE grantee_name text;
    BEGIN
        FOR grantee_name IN
            SELECT DISTINCT CASE WHEN acl.grantee = 0 THEN 'PUBLIC'
                                 ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
              FROM pg_class c, aclexplode(c.relacl) acl
             WHERE c.oid = 'eventstore_event'::regclass AND acl.grantee <> c.relowner
        LOOP
            EXECUTE 'REVOKE UPDATE, DELETE, TRUNCATE, TRIGGER ON eventstore_event FROM '
                || grantee_name;
        END LOOP;
    END $$
    """,
]
PG_BACKWARD = [
    "DROP TRIGGER IF EXISTS eventstore_event_no_truncate ON eventstore_event",
]


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in PG_FORWARD:
            schema_editor.execute(sql, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for sql in PG_BACKWARD:
            schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0002_subscription_cursor")]

    operations = [migrations.RunPython(forward, backward)]
