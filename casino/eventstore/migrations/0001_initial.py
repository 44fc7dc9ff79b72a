from django.db import migrations, models

PG_FORWARD = [
    # Guarantee 6: the id of the writing transaction, for the tailing reader.
    "ALTER TABLE eventstore_event ADD COLUMN transaction_id xid8 NOT NULL "
    "DEFAULT pg_current_xact_id()",
    "CREATE INDEX eventstore_event_tail_idx ON eventstore_event (transaction_id, position)",
    # Guarantee 1: append-only, enforced by the database itself.
    """
    CREATE FUNCTION eventstore_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'eventstore_event is append-only: % refused', TG_OP
            USING ERRCODE = 'insufficient_privilege';
    END $$
    """,
    "CREATE TRIGGER eventstore_event_no_update BEFORE UPDATE ON eventstore_event "
    "FOR EACH ROW EXECUTE FUNCTION eventstore_refuse_change()",
    "CREATE TRIGGER eventstore_event_no_delete BEFORE DELETE ON eventstore_event "
    "FOR EACH ROW EXECUTE FUNCTION eventstore_refuse_change()",
    # The application role may only read and insert (the owner keeps TRUNCATE for test
    # teardown and disaster recovery; see deploy/README.md for the production role).
    "REVOKE UPDATE, DELETE ON eventstore_event FROM PUBLIC",
]
PG_BACKWARD = [
    "DROP TRIGGER IF EXISTS eventstore_event_no_update ON eventstore_event",
    "DROP TRIGGER IF EXISTS eventstore_event_no_delete ON eventstore_event",
    "DROP FUNCTION IF EXISTS eventstore_refuse_change()",
    "DROP INDEX IF EXISTS eventstore_event_tail_idx",
    "ALTER TABLE eventstore_event DROP COLUMN IF EXISTS transaction_id",
]
SQLITE_FORWARD = [
    "CREATE TRIGGER eventstore_event_no_update BEFORE UPDATE ON eventstore_event "
    "BEGIN SELECT RAISE(ABORT, 'eventstore_event is append-only: UPDATE refused'); END",
    "CREATE TRIGGER eventstore_event_no_delete BEFORE DELETE ON eventstore_event "
    "BEGIN SELECT RAISE(ABORT, 'eventstore_event is append-only: DELETE refused'); END",
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS eventstore_event_no_update",
    "DROP TRIGGER IF EXISTS eventstore_event_no_delete",
]


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in {"postgresql": PG_FORWARD, "sqlite": SQLITE_FORWARD}.get(vendor, []):
        schema_editor.execute(sql, params=None)


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for sql in {"postgresql": PG_BACKWARD, "sqlite": SQLITE_BACKWARD}.get(vendor, []):
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    initial = True
    dependencies: list = []

    operations = [
        migrations.CreateModel(
            name="StoredEvent",
            fields=[
                ("position", models.BigAutoField(primary_key=True, serialize=False)),
                ("stream", models.CharField(max_length=200)),
                ("version", models.PositiveIntegerField()),
                ("type", models.CharField(max_length=100)),
                ("schema_version", models.PositiveSmallIntegerField()),
                ("data", models.JSONField()),
                ("metadata", models.JSONField(default=dict)),
                (
                    "command_id",
                    models.CharField(blank=True, max_length=200, null=True, unique=True),
                ),
                ("recorded_at", models.DateTimeField()),
            ],
            options={"db_table": "eventstore_event"},
        ),
        migrations.AddConstraint(
            model_name="storedevent",
            constraint=models.UniqueConstraint(
                fields=("stream", "version"), name="event_stream_version_uq"
            ),
        ),
        migrations.CreateModel(
            name="StreamSnapshot",
            fields=[
                ("stream", models.CharField(max_length=200, primary_key=True, serialize=False)),
                ("version", models.PositiveIntegerField()),
                ("state", models.JSONField()),
            ],
            options={"db_table": "eventstore_snapshot"},
        ),
        migrations.CreateModel(
            name="CommandRecord",
            fields=[
                (
                    "command_id",
                    models.CharField(max_length=200, primary_key=True, serialize=False),
                ),
                ("fingerprint", models.CharField(max_length=64)),
                ("status_code", models.PositiveSmallIntegerField()),
                ("response", models.JSONField()),
                ("recorded_at", models.DateTimeField()),
            ],
            options={"db_table": "eventstore_command"},
        ),
        migrations.RunPython(forward, backward),
    ]
