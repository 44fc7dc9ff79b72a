"""Management commands that need the schema: migrate first, or refuse in one line.

A command run on a fresh (or older) database must not end in a traceback such as
``no such table: tables_tableview``. :func:`require_schema` either applies the pending
migrations (commands that set up a local room, like ``replay_phh --in-process``) or raises a
one-line :class:`~django.core.management.base.CommandError` naming what to run (commands that
run in production as the restricted role, which may not migrate: ``relay``,
``rebuild_projections``).
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor


def pending_migrations() -> list[str]:
    """Names (``app.migration``) of the migrations not yet applied to the default database."""
    executor = MigrationExecutor(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _ in plan]


def require_schema(*, migrate: bool, stdout: Any = None) -> None:
    """Make sure every migration is applied to the default database.

    ``migrate=True`` applies the pending ones (one line on ``stdout``); ``migrate=False``
    refuses.

    Raises:
        CommandError: migrations are pending and ``migrate`` is false, or the database
            cannot be reached.
    """
    try:
        pending = pending_migrations()
    except DatabaseError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CommandError(f"cannot reach the database: {first}") from None
    if not pending:
        return
    if not migrate:
        raise CommandError(
            f"the database schema is not up to date ({len(pending)} migrations pending, "
            f"e.g. {pending[0]}): run `manage.py migrate` first"
        )
    if stdout is not None:
        stdout.write(f"applying {len(pending)} pending migrations first\n")
    call_command("migrate", interactive=False, verbosity=0)
