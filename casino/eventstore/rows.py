"""Projection writes as plain SQL, built once per shape: the hot handlers' rows.

A projection handler runs once per event, live (inside the append's transaction, on the
dealer's path) and in a rebuild (tens of thousands of events a second, into the in-memory
copy of :mod:`casino.eventstore.rebuild`). Through the ORM each ``filter().update()`` or
``create()`` builds its SQL again: for these one-row statements that costs several times
the statement itself. The functions here build the SQL of a *shape* (model, database,
columns written, columns matched, operators) once, cache it, and then only adapt the
values (``Field.get_db_prep_save`` / ``get_db_prep_value``, as the ORM does).

They go to the database the router picks for the model (the rebuild's in-memory copy while
a rebuild runs), on the current connection and transaction. Only what projections need:

* :func:`update` ``(model, where, **changes)``: ``where`` maps a field to a value (``None``
  matches ``IS NULL``), or ``field__lt`` to a bound; a change is a value,
  :class:`Add` (``col = col + n``) or :class:`Replace` (``old`` becomes ``new``, any other
  value stays). Returns the rows changed.
* :func:`update_each` ``(model, where, key, rows)``: several rows, each found by its
  ``key`` field (and ``where``), each given its own values, in one statement (a hand's
  finishing stacks).
* :func:`insert` ``(model, **values)``: one row; fields not given take their default.
* :func:`insert_returning` ``(model, rows, returning)``: several rows of the same fields
  in one statement; each row's ``returning`` value (an automatic key), in order.
* :func:`select_one` ``(model, where, fields)``: the first matching row's values (ints,
  strings, booleans: the types projections read back), or ``None``.
* :func:`delete` ``(model, where)``: returns the rows deleted.
* :func:`execute_then_commit` ``(conn, statements)``: PostgreSQL, the last statements of
  the outermost transaction sent together with its ``COMMIT`` (one round trip).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db import connections, models, router


@dataclass(frozen=True, slots=True)
class Add:
    """``col = col + amount`` (an integer; negative subtracts)."""

    amount: int


@dataclass(frozen=True, slots=True)
class Replace:
    """``col = new`` where ``col`` is ``old``; any other value stays (a hand ends as
    ``complete`` unless it was already ``voided``)."""

    old: Any
    new: Any


_SQL: dict[tuple[Any, ...], tuple[str, tuple[Any, ...]]] = {}


# Fields whose database value is the Python value itself for an int/str/bool (no adapter):
# the ORM's get_db_prep_* calls are skipped for them (they cost more than the statement).
_PLAIN = (models.IntegerField, models.CharField, models.BooleanField, models.TextField)


_PLAIN_FIELDS: dict[int, bool] = {}  # id(field) -> isinstance(field, _PLAIN)


def _prep(field: models.Field[Any, Any], value: Any, conn: Any, save: bool) -> Any:
    if value is None:
        return value
    kind = type(value)
    if kind is int or kind is str or kind is bool:
        plain = _PLAIN_FIELDS.get(id(field))
        if plain is None:
            plain = _PLAIN_FIELDS[id(field)] = isinstance(field, _PLAIN)
        if plain:
            return value
    return field.get_db_prep_save(value, conn) if save else field.get_db_prep_value(value, conn)


# While a rebuild runs: the models whose rows go to its in-memory database, and that
# database's connection (read by the rebuild's router too; see casino.eventstore.rebuild)
rerouted: ContextVar[tuple[frozenset[type[models.Model]], Any] | None] = ContextVar(
    "casino_rows_rerouted", default=None
)


def _connection(model: type[models.Model]) -> Any:
    routed = rerouted.get()
    if routed is not None and model in routed[0]:
        return routed[1]  # the rebuild's: no router walk, no connection-handler lookup
    return connections[router.db_for_write(model) or "default"]


def _run(conn: Any, sql: str, params: Sequence[Any], *, fetch: bool = False) -> Any:
    """Execute on ``conn``; the first row when ``fetch``, else the rows changed.

    On SQLite (the rebuild's in-memory copy, or the embedded database of ``up``) the
    statement goes straight to the driver, in the same connection and transaction, with
    its placeholders converted once: Django's cursor wrapper (a regular expression per
    statement) costs as much as the statement. Elsewhere Django's cursor runs it
    (instrumentation, query counting)."""
    if conn.vendor == "sqlite":
        native = _SQLITE.get(sql)
        if native is None:
            native = _SQLITE[sql] = sql.replace("%s", "?")
        if conn.connection is None:
            conn.ensure_connection()
        cur = conn.connection.execute(native, params)
        try:
            return cur.fetchone() if fetch else cur.rowcount
        finally:
            cur.close()
    with conn.cursor() as cur:
        cur.execute(sql, params)
        return cur.fetchone() if fetch else cur.rowcount


_SQLITE: dict[str, str] = {}


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


def _where_shape(where: Mapping[str, Any]) -> tuple[Any, ...]:
    """The names in ``where`` and which of them match ``NULL`` (part of a statement's key)."""
    if None in where.values():
        return tuple((name, value is None) for name, value in where.items())
    return tuple(where)


def _where_sql(
    model: type[models.Model], where: Mapping[str, Any], quote: Any
) -> tuple[str, tuple[tuple[models.Field[Any, Any], str], ...]]:
    """The WHERE clause of a shape and the fields whose values it binds, in order."""
    parts, bound = [], []
    for name, value in where.items():
        column, _, op = name.partition("__")
        field = _field(model, column)
        if value is None and not op:
            parts.append(f"{quote(field.column)} IS NULL")
            continue
        parts.append(f"{quote(field.column)} {({'': '=', 'lt': '<'})[op]} %s")
        bound.append((field, name))
    return " AND ".join(parts) or "1 = 1", tuple(bound)


def _where_params(
    bound: Sequence[tuple[models.Field[Any, Any], str]], where: Mapping[str, Any], conn: Any
) -> list[Any]:
    return [_prep(field, where[name], conn, False) for field, name in bound]


def _set_sql(field: models.Field[Any, Any], change: Any, quote: Any) -> str:
    column = quote(field.column)
    if isinstance(change, Add):
        return f"{column} = {column} + %s"
    if isinstance(change, Replace):
        return f"{column} = CASE WHEN {column} = %s THEN %s ELSE {column} END"
    return f"{column} = %s"


def _set_params(fields: Sequence[models.Field[Any, Any]], changes: Any, conn: Any) -> list[Any]:
    params: list[Any] = []
    for f, v in zip(fields, changes, strict=True):
        if isinstance(v, Add):
            params.append(v.amount)
        elif isinstance(v, Replace):
            params += [_prep(f, v.old, conn, True), _prep(f, v.new, conn, True)]
        else:
            params.append(_prep(f, v, conn, True))
    return params


def update(model: type[models.Model], where: Mapping[str, Any], **changes: Any) -> int:
    """``UPDATE model SET changes WHERE where``; the number of rows changed."""
    conn = _connection(model)
    key = ("u", model, conn.alias, _where_shape(where), tuple(changes),
           tuple(map(type, changes.values())))  # fmt: skip
    entry = _SQL.get(key)
    if entry is None:
        quote = conn.ops.quote_name
        clause, bound = _where_sql(model, where, quote)
        fields = tuple(_field(model, name) for name in changes)
        given = zip(fields, changes.values(), strict=True)
        sets = ", ".join(_set_sql(f, v, quote) for f, v in given)
        entry = (f"UPDATE {quote(model._meta.db_table)} SET {sets} WHERE {clause}",
                 (fields, bound))  # fmt: skip
        _SQL[key] = entry
    sql, (fields, bound) = entry
    params = _set_params(fields, changes.values(), conn)
    return int(_run(conn, sql, params + _where_params(bound, where, conn)))


def update_each(
    model: type[models.Model],
    where: Mapping[str, Any],
    key: str,
    rows: Sequence[Mapping[str, Any]],
) -> int:
    """Set each row of ``rows`` (``{key: value, field: new value, ...}``, every row naming
    the same fields) on the row of ``model`` whose ``key`` field equals its ``key`` and that
    matches ``where``, in one ``UPDATE ... FROM (SELECT ... UNION ALL ...)``; the number of
    rows changed. A row with no match changes nothing, as :func:`update` would."""
    if not rows:
        return 0
    conn = _connection(model)
    names = tuple(rows[0])
    shape = ("ue", model, conn.alias, _where_shape(where), key, names, len(rows))
    entry = _SQL.get(shape)
    if entry is None:
        quote = conn.ops.quote_name
        clause, bound = _where_sql(model, where, quote)
        fields = tuple(_field(model, name) for name in names)
        table = quote(model._meta.db_table)
        # one SELECT per row, UNION ALL: SQLite names no VALUES columns and counts no
        # changes of a WITH statement; PostgreSQL types the rows by the first one's casts
        cast = conn.vendor == "postgresql"
        first = "SELECT " + ", ".join(
            (f"CAST(%s AS {f.db_type(conn)})" if cast else "%s") + f" AS v{i}"
            for i, f in enumerate(fields)
        )  # fmt: skip
        other = "SELECT " + ", ".join(["%s"] * len(fields))
        each = " UNION ALL ".join([first] + [other] * (len(rows) - 1))
        sets = ", ".join(f"{quote(f.column)} = _each.v{i}" for i, f in enumerate(fields)
                         if f.name != key)  # fmt: skip
        match = f"{table}.{quote(_field(model, key).column)} = _each.v{names.index(key)}"
        entry = (
            f"UPDATE {table} SET {sets} FROM ({each}) AS _each WHERE {match} AND {clause}",
            (fields, bound),
        )
        _SQL[shape] = entry
    sql, (fields, bound) = entry
    params = [_prep(f, row[f.name], conn, True) for row in rows for f in fields]
    return int(_run(conn, sql, params + _where_params(bound, where, conn)))


def _given(field: Any, values: Mapping[str, Any]) -> str | None:
    """The key ``values`` gives ``field`` by (its name, or a foreign key's ``<name>_id``)."""
    if field.attname in values:
        return str(field.attname)
    return str(field.name) if field.name in values else None


def _insert_fields(
    model: type[models.Model], values: Mapping[str, Any]
) -> tuple[models.Field[Any, Any], ...]:
    """The columns an INSERT of ``values`` writes: every concrete field but an automatic
    primary key not given."""
    return tuple(f for f in model._meta.concrete_fields
                 if not (f.primary_key and isinstance(f, models.AutoField)
                         and _given(f, values) is None))  # fmt: skip


def _insert_params(fields: Sequence[Any], values: Mapping[str, Any], conn: Any) -> list[Any]:
    """One row's values for ``fields``, the defaults for those not given."""
    params = []
    for f in fields:
        name = _given(f, values)
        params.append(_prep(f, values[name] if name else f.get_default(), conn, True))
    return params


def insert(model: type[models.Model], **values: Any) -> None:
    """``INSERT`` one row: the fields given, the others their default (an automatic
    primary key from the database)."""
    conn = _connection(model)
    key = ("i", model, conn.alias, tuple(values))
    entry = _SQL.get(key)
    if entry is None:
        quote = conn.ops.quote_name
        fields = _insert_fields(model, values)
        columns = ", ".join(quote(f.column) for f in fields)
        marks = ", ".join(["%s"] * len(fields))
        entry = (f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})", fields)
        _SQL[key] = entry
    sql, fields = entry
    _run(conn, sql, _insert_params(fields, values, conn))


def insert_returning(
    model: type[models.Model], rows: Sequence[Mapping[str, Any]], returning: str
) -> list[Any]:
    """``INSERT`` ``rows`` (each giving the same fields, the others their default) in one
    statement, ``RETURNING`` the field ``returning`` of each, in the order given (the event
    log's append: the positions the database assigned). Raises what the database raises
    (``IntegrityError`` on a unique key)."""
    if not rows:
        return []
    conn = _connection(model)
    names = tuple(rows[0])
    key = ("ir", model, conn.alias, names, len(rows), returning)
    entry = _SQL.get(key)
    if entry is None:
        quote = conn.ops.quote_name
        fields = _insert_fields(model, rows[0])
        columns = ", ".join(quote(f.column) for f in fields)
        marks = ", ".join([f"({', '.join(['%s'] * len(fields))})"] * len(rows))
        table = quote(model._meta.db_table)
        back = quote(_field(model, returning).column)
        entry = (f"INSERT INTO {table} ({columns}) VALUES {marks} RETURNING {back}", fields)
        _SQL[key] = entry
    sql, fields = entry
    params = [p for values in rows for p in _insert_params(fields, values, conn)]
    with conn.cursor() as cur:  # Django's: errors come wrapped (IntegrityError) on any vendor
        cur.execute(sql, params)
        return [row[0] for row in cur.fetchall()]


def select_one(
    model: type[models.Model], where: Mapping[str, Any], fields: Sequence[str]
) -> tuple[Any, ...] | None:
    """The first row matching ``where``: the values of ``fields`` as the database driver
    returns them (use for ints, strings and booleans), or ``None``."""
    conn = _connection(model)
    key = ("s", model, conn.alias, _where_shape(where), tuple(fields))
    entry = _SQL.get(key)
    if entry is None:
        quote = conn.ops.quote_name
        clause, bound = _where_sql(model, where, quote)
        columns = ", ".join(quote(_field(model, f).column) for f in fields)
        booleans = tuple(isinstance(_field(model, f), models.BooleanField) for f in fields)
        table = quote(model._meta.db_table)
        entry = (f"SELECT {columns} FROM {table} WHERE {clause} LIMIT 1", (bound, booleans))
        _SQL[key] = entry
    sql, (bound, booleans) = entry
    row = _run(conn, sql, _where_params(bound, where, conn), fetch=True)
    if row is None:
        return None
    return tuple(bool(v) if b else v for b, v in zip(booleans, row, strict=True))


def delete(model: type[models.Model], where: Mapping[str, Any]) -> int:
    """``DELETE FROM model WHERE where``; the number of rows deleted."""
    conn = _connection(model)
    key = ("d", model, conn.alias, _where_shape(where))
    entry = _SQL.get(key)
    if entry is None:
        quote = conn.ops.quote_name
        clause, bound = _where_sql(model, where, quote)
        entry = (f"DELETE FROM {quote(model._meta.db_table)} WHERE {clause}", bound)
        _SQL[key] = entry
    sql, bound = entry
    return int(_run(conn, sql, _where_params(bound, where, conn)))


def execute_then_commit(conn: Any, statements: Sequence[tuple[str, Sequence[Any]]]) -> None:
    """PostgreSQL: run ``statements`` (``(sql, params)`` pairs, ``%s`` placeholders) and
    ``COMMIT`` the current transaction, all in one round trip to the server.

    With client-side binding (Django's default) they go as one simple query,
    ``stmt; stmt; COMMIT``; with server-side binding (``DB_SERVER_SIDE_BINDING``, the
    default here, so that repeated statements are prepared) as one pipeline of the
    extended protocol (psycopg's pipeline mode) ending in the ``COMMIT`` and a single
    ``Sync``. Either way a failing statement stops the ``COMMIT``: the error is raised
    (wrapped as Django's, e.g. ``IntegrityError``) and the transaction is left for the
    caller's ``atomic`` to roll back. Django's own commit that follows finds nothing left
    to send. Opens its own transaction (``BEGIN``) when the connection is in autocommit,
    and rolls it back when a statement fails.

    Raises:
        django.db.DatabaseError: a statement failed (nothing of them is committed).
    """
    begin = conn.get_autocommit()
    try:
        if not conn.settings_dict["OPTIONS"].get("server_side_binding"):
            sql = "; ".join(["BEGIN"] * begin + [statement for statement, _ in statements])
            with conn.cursor() as cur:
                cur.execute(f"{sql}; COMMIT", [p for _, params in statements for p in params])
            return
        with conn.wrap_database_errors, conn.connection.pipeline(), conn.cursor() as cur:
            if begin:
                cur.execute("BEGIN")
            for statement, params in statements:
                cur.execute(statement, params)
            cur.execute("COMMIT")  # leaving the pipeline sends the one Sync
    except Exception:
        if begin:  # our own transaction failed: end it, so the connection can go on
            conn.connection.rollback()
        raise
