"""Drop the ``varchar_pattern_ops`` indexes Django adds beside a unique ``CharField`` on
PostgreSQL, for ``eventstore_event.command_id`` and ``eventstore_command.command_id``.

Nothing searches these keys by prefix (``LIKE 'abc%'``); they are looked up by equality,
which the unique index serves. Each of these indexes was a second random-key B-tree updated
by every dealer action (the keys are the devices' UUIDs), as large as the unique one: in a
10-minute soak the two grew to 29 MB and added their pages to what PostgreSQL's buffer
cache must hold (issue #11). SQLite has no such indexes: nothing to do there.
"""

from django.db import migrations

TABLES = ("eventstore_event", "eventstore_command")


def _like_indexes(schema_editor) -> list[str]:  # type: ignore[no-untyped-def]
    with schema_editor.connection.cursor() as cur:
        cur.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = ANY(%s) "
            "AND indexname LIKE %s AND indexdef LIKE %s",
            [list(TABLES), "%command_id%_like", "%varchar_pattern_ops%"],
        )
        return [row[0] for row in cur.fetchall()]


def drop(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor != "postgresql":
        return
    for name in _like_indexes(schema_editor):
        schema_editor.execute(f"DROP INDEX IF EXISTS {schema_editor.quote_name(name)}")


def restore(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]
    if schema_editor.connection.vendor != "postgresql":
        return
    for model_name in ("StoredEvent", "CommandRecord"):
        model = apps.get_model("eventstore", model_name)
        field = model._meta.get_field("command_id")
        for sql in [schema_editor._create_like_index_sql(model, field)]:
            if sql is not None:
                schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0006_snapshot_shape")]

    operations = [migrations.RunPython(drop, restore, elidable=False)]
