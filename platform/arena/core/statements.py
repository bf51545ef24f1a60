"""Helpers for the few hand-written statements on the per-match path.

Every match a worker plays is claimed, recorded and rated, and the matchmaker
creates one for every match played. Through the ORM each of those statements
costs 0.3 to 1 ms of Python to build, and PostgreSQL another 0.3 ms to parse and
plan (`benchmarks/arena_platform.py --breakdown`). So the few statements that run
once per match are written out, each app's in its own `sql.py`, with these
helpers: SQL that PostgreSQL (production, CI) and SQLite (a fresh `make run`)
both accept, names taken from the models, `%s` placeholders, `RETURNING` (SQLite
3.35+), row locks only where the database has them. Values go through the model
fields' own preparation and conversion, so JSON, bytes and datetimes are stored
and read exactly as the ORM stores and reads them.

On PostgreSQL they run as prepared statements (parsed and planned once per
connection), on the same connection and in the same transaction as the ORM,
wrapped by Django's cursor (errors become django.db errors, queries are logged
under DEBUG). Behind a pooler in transaction mode that cannot keep prepared
statements (PgBouncer before 1.21), set ARENA_DB_PREPARED_STATEMENTS=false.

Everything else (pages, the API, admin, tournaments) stays on the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)

Row = tuple[Any, ...]


def database() -> BaseDatabaseWrapper:
    """This thread's connection itself (`django.db.connection` is a proxy that looks
    it up again on every attribute access)."""
    return connections[DEFAULT_DB_ALIAS]


def table(model: type[Model]) -> str:
    """The model's table name, quoted."""
    return f'"{model._meta.db_table}"'


def columns(model: type[Model]) -> str:
    """The model's columns, quoted, in field order: for SELECT and RETURNING lists
    that `models_from_rows` reads back."""
    return ", ".join(f'"{field.column}"' for field in model._meta.concrete_fields)


def db_time(value: datetime) -> Any:
    """A datetime as the ORM would store it (naive UTC text on SQLite)."""
    return database().ops.adapt_datetimefield_value(value)


def models_from_rows(model: type[M], rows: Sequence[Sequence[Any]]) -> list[M]:
    """Model instances from rows of `columns(model)`, converted as the ORM would (JSON
    is text until its field parses it; SQLite datetimes are text)."""
    db = database()
    names, converters = _row_reader(model, db)
    instances = []
    for row in rows:
        values = list(row)
        for position, convert in converters:
            values[position] = convert(values[position], None, db)
        instances.append(model.from_db(db.alias, names, values))
    return instances


def _row_reader(
    model: type[Model], db: BaseDatabaseWrapper
) -> tuple[list[str], list[tuple[int, Callable[..., Any]]]]:
    key = (model, db.vendor)
    if key not in _readers:
        fields = model._meta.concrete_fields
        converters = []
        for position, field in enumerate(fields):
            column = field.get_col(model._meta.db_table)
            for convert in [
                *db.ops.get_db_converters(column),
                *field.get_db_converters(db),
            ]:
                converters.append((position, convert))
        _readers[key] = ([field.attname for field in fields], converters)
    return _readers[key]


_readers: dict[tuple[type[Model], str], tuple[list[str], list[tuple[int, Callable[..., Any]]]]] = {}


def insert(instances: Sequence[Model], *, keys: bool = True) -> None:
    """INSERT model instances of one model in one statement and give each its primary
    key: bulk_create without the ORM's query building. Field defaults and
    `auto_now_add` apply as in the ORM (`pre_save`). The keys come back in VALUES
    order on both databases, which Django's own bulk_create relies on too. With
    `keys=False` nothing is read back and the instances keep no key."""
    if not instances:
        return
    db = database()
    model = type(instances[0])
    pk = model._meta.pk
    assert pk is not None
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    params: list[Any] = []
    for instance in instances:
        params += [field.get_db_prep_save(field.pre_save(instance, True), db) for field in fields]
    sql = (
        f"INSERT INTO {table(model)} ("  # noqa: S608  (names from the model; values are parameters)
        + ", ".join(f'"{field.column}"' for field in fields)
        + f") VALUES {values_rows(len(instances), len(fields))}"
    )
    if not keys:
        execute(sql, params)
        return
    rows = fetch_all(f'{sql} RETURNING "{pk.column}"', params)
    for instance, (key,) in zip(instances, rows, strict=True):
        instance.pk = key
        instance._state.adding = False
        instance._state.db = db.alias


def update_each(
    model: type[Model], field_names: Sequence[str], rows: Sequence[tuple[Any, Sequence[Any]]]
) -> None:
    """`UPDATE ... SET field = value, ... WHERE pk = key` for each (key, values) row,
    values in `field_names` order, prepared as the ORM would; sent together."""
    db = database()
    fields = [model._meta.get_field(name) for name in field_names]
    pk = model._meta.pk
    assert pk is not None
    execute_many(
        f"UPDATE {table(model)} SET "  # noqa: S608  (names from the model; values are parameters)
        + ", ".join(f'"{field.column}" = %s' for field in fields)  # type: ignore[union-attr]
        + f' WHERE "{pk.column}" = %s',
        [
            [
                *(
                    field.get_db_prep_save(value, db)  # type: ignore[union-attr]
                    for field, value in zip(fields, values, strict=True)
                ),
                key,
            ]
            for key, values in rows
        ],
    )


def lock_clause() -> str:
    """The row-lock suffix of a SELECT, or nothing where the database locks whole
    files instead (SQLite: the transaction itself is the lock)."""
    return " FOR UPDATE" if database().features.has_select_for_update else ""


def placeholders(count: int) -> str:
    """`%s, %s, ...` for an IN list or one VALUES row."""
    return ", ".join(["%s"] * count)


def values_rows(rows: int, columns: int) -> str:
    """`(%s, %s), (%s, %s)` for a multi-row INSERT."""
    row = f"({placeholders(columns)})"
    return ", ".join([row] * rows)


@contextmanager
def _cursor() -> Iterator[Any]:
    """A Django cursor; on PostgreSQL one that prepares its statements."""
    db = database()
    if db.vendor != "postgresql" or not settings.ARENA_DB_PREPARED_STATEMENTS:
        with db.cursor() as cursor:
            yield cursor
        return
    # Readied as connection.cursor() readies it: a connection that failed its health
    # check dropped, connected, and refused when it belongs to another thread.
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    raw = db.connection
    # Django turns preparing off (prepare_threshold None) for poolers' sake; its own
    # cursors bind on the client and never prepare, so this reaches only ours.
    raw.prepare_threshold = 0
    cursor = psycopg.Cursor(raw)
    wrapped = db.make_debug_cursor(cursor) if db.queries_logged else db.make_cursor(cursor)
    with wrapped:
        yield wrapped


def fetch_all(sql: str, params: Sequence[Any]) -> list[Row]:
    """Run a statement and return its rows."""
    with _cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(row) for row in cursor.fetchall()]


def execute(sql: str, params: Sequence[Any]) -> None:
    """Run a statement whose answer is not read."""
    with _cursor() as cursor:
        cursor.execute(sql, params)


def execute_many(sql: str, param_rows: Sequence[Sequence[Any]]) -> None:
    """One statement for many parameter rows (psycopg sends them together)."""
    if param_rows:
        with _cursor() as cursor:
            cursor.executemany(sql, param_rows)


def commit_asynchronously() -> None:
    """Let the current transaction's COMMIT return before its WAL reaches the disk
    (PostgreSQL's `synchronous_commit = off`, for this transaction only; nothing on
    other databases). Needs an open transaction.

    A crash of the database server can lose the last few hundred milliseconds of
    such commits (three times `wal_writer_delay` at most), each whole or not at all,
    and never corrupts anything; a server that stays up loses nothing. Only for
    writes whose loss the platform repairs by itself: a match's claim, and a
    result where an operator chose it (ARENA_RESULTS_COMMIT_ASYNCHRONOUSLY).
    """
    if database().vendor == "postgresql":
        execute("SELECT set_config('synchronous_commit', 'off', true)", [])
