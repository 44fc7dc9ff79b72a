"""Raw SQL for PostgreSQL-only migration steps (triggers, functions) of the event store."""

from collections.abc import Callable, Sequence
from typing import Any

Step = Callable[[Any, Any], None]


def postgresql_only(forward: Sequence[str], backward: Sequence[str]) -> tuple[Step, Step]:
    """``RunPython`` functions that execute ``forward`` / ``backward`` statements on
    PostgreSQL and do nothing on other databases (SQLite keeps the rule in Python)."""

    def run(statements: Sequence[str]) -> Step:
        def step(apps: Any, schema_editor: Any) -> None:
            if schema_editor.connection.vendor == "postgresql":
                for sql in statements:
                    schema_editor.execute(sql, params=None)

        return step

    return run(forward), run(backward)
