"""Helpers for the few hand-written statements on the per-match hot path.

Every match a worker plays is claimed, recorded and rated, and the matchmaker
creates one for every match played. Through the ORM each of those statements cost
0.3 to 1 ms of Python to build, and PostgreSQL another 0.3 ms to parse and plan:
on this project's benchmark machine that was a fifth of a 4-game match. So the
statements that run once per match are written out here, in SQL that PostgreSQL
(production, CI) and SQLite (a fresh `make run`) both accept: double-quoted
names, `%s` placeholders, `RETURNING` (SQLite 3.35+), row locks only where the
database has them. Values go through the model fields' own preparation and
conversion, so JSON, bytes and datetimes are stored and read exactly as the ORM
stores and reads them.

On PostgreSQL they run as prepared statements (server-side binding, parsed and
planned once per connection; measured: half the server's CPU per statement), on
the same connection and in the same transaction as the ORM, wrapped by Django's
cursor (errors become django.db errors, queries are logged under DEBUG). Behind a
connection pooler in transaction mode that cannot keep prepared statements (PgBouncer
before 1.21), set ARENA_DB_PREPARED_STATEMENTS=false.

In a `pipelined()` block, PostgreSQL gets the statements without waiting for each
answer: a transaction's BEGIN, and the statements whose rows nobody reads, travel
with the next statement that is read (`send(...).rows()`, `fetch_all`) or with the
block's end. Each round trip saved is ~0.2 ms of the worker's CPU and more of its
wall time on a busy machine.

Everything else (pages, the API, admin, tournaments) stays on the ORM.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)


def database() -> BaseDatabaseWrapper:
    """This thread's connection itself. `django.db.connection` is a proxy that looks
    the connection up (asgiref) on every attribute access: passed down to the
    fields' value preparation, that was ~50 lookups per recorded match."""
    return connections[DEFAULT_DB_ALIAS]


def columns(model: type[Model]) -> str:
    """The model's columns, quoted, in field order: for SELECT and RETURNING lists
    that `models_from_rows` reads back."""
    return ", ".join(f'"{field.column}"' for field in model._meta.concrete_fields)


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
    `keys=False` nothing is read back (the instances keep no key), so that in a
    `pipelined()` block the INSERT does not wait for its answer."""
    if not instances:
        return
    if not keys:
        sql, params = _insert_statement(instances)
        execute(sql, params)
        return
    insert_send(instances).rows()


def insert_send(instances: Sequence[Model]) -> Sent:
    """`insert`, sent: the instances get their keys when `.rows()` is read (in a
    `pipelined()` block, more statements can go before that)."""
    db = database()
    pk = instances[0]._meta.pk
    assert pk is not None
    sql, params = _insert_statement(instances)

    def give_keys(rows: list[tuple[Any, ...]]) -> None:
        for instance, (key,) in zip(instances, rows, strict=True):
            instance.pk = key
            instance._state.adding = False
            instance._state.db = db.alias

    return Sent(f'{sql} RETURNING "{pk.column}"', params, then=give_keys)


def _insert_statement(instances: Sequence[Model]) -> tuple[str, list[Any]]:
    db = database()
    model = type(instances[0])
    fields = [field for field in model._meta.concrete_fields if not field.primary_key]
    params: list[Any] = []
    for instance in instances:
        params += [field.get_db_prep_save(field.pre_save(instance, True), db) for field in fields]
    sql = (
        f'INSERT INTO "{model._meta.db_table}" ('  # noqa: S608  (names from the model; values are parameters)
        + ", ".join(f'"{field.column}"' for field in fields)
        + f") VALUES {values_rows(len(instances), len(fields))}"
    )
    return sql, params


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
        f'UPDATE "{model._meta.db_table}" SET '  # noqa: S608  (names from the model; values are parameters)
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


def _connected(db: BaseDatabaseWrapper) -> Any:
    """The driver's connection, readied as connection.cursor() readies it: a
    connection that failed its health check dropped, connected, and refused when
    it belongs to another thread."""
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    return db.connection


@contextmanager
def _cursor() -> Iterator[Any]:
    """A Django cursor; on PostgreSQL one that prepares its statements."""
    db = database()
    if db.vendor != "postgresql" or not settings.ARENA_DB_PREPARED_STATEMENTS:
        with db.cursor() as cursor:
            yield cursor
        return
    import psycopg

    raw = _connected(db)
    # Django turns preparing off (prepare_threshold None) for poolers' sake; its own
    # cursors bind on the client and never prepare, so this reaches only ours.
    raw.prepare_threshold = 0
    cursor = psycopg.Cursor(raw)
    wrapped = db.make_debug_cursor(cursor) if db.queries_logged else db.make_cursor(cursor)
    with wrapped:
        yield wrapped


@contextmanager
def pipelined() -> Iterator[None]:
    """Send this module's statements without waiting for each answer (PostgreSQL:
    psycopg's pipeline mode); the block's end waits for all of them, and a statement
    that failed raises there, as a django.db error like any other. Nothing changes
    on other databases.

    Only this module's statements belong in the block: the ORM reads a statement's
    row count as soon as it is sent, and in a pipeline it is not known yet (an
    ORM `save()` in one fails, an `update()` counts -1).
    """
    db = database()
    if db.vendor != "postgresql":
        yield
        return
    # Readied before the pipeline starts: a health check run inside it would not
    # wait for its answer.
    raw = _connected(db)
    with db.wrap_database_errors, raw.pipeline():
        yield


class Sent:
    """A statement on its way; `rows()` reads its answer (in a `pipelined()` block,
    that waits for it and for everything sent before it), and hands it to `then`
    first when there is one.

    Outside a pipeline the answer is read at once and the cursor closed: nothing
    waits for it there, and SQLite cannot roll back to a savepoint while a cursor
    still has rows to read."""

    def __init__(
        self,
        sql: str,
        params: Sequence[Any],
        *,
        then: Callable[[list[tuple[Any, ...]]], None] | None = None,
    ) -> None:
        self._then = then
        self._rows: list[tuple[Any, ...]] | None = None
        with ExitStack() as opened:
            cursor = opened.enter_context(_cursor())
            cursor.execute(sql, params)
            if _pipelining():
                self._cursor, self._open = cursor, opened.pop_all()
            else:
                self._rows = cursor.fetchall()

    def rows(self) -> list[tuple[Any, ...]]:
        rows = self._rows
        if rows is None:
            with self._open:
                rows = self._rows = self._cursor.fetchall()
        if self._then is not None:
            self._then(rows)
        return rows


def _pipelining() -> bool:
    db = database()
    if db.vendor != "postgresql" or db.connection is None:
        return False
    from psycopg import pq

    return bool(db.connection.pgconn.pipeline_status != pq.PipelineStatus.OFF)


def send(sql: str, params: Sequence[Any]) -> Sent:
    return Sent(sql, params)


def fetch_all(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    return send(sql, params).rows()


def execute(sql: str, params: Sequence[Any]) -> None:
    """A statement whose answer is not read: in a `pipelined()` block, sent only."""
    with _cursor() as cursor:
        cursor.execute(sql, params)


def commit_asynchronously() -> None:
    """Let the current transaction's COMMIT return before its WAL reaches the disk
    (PostgreSQL's `synchronous_commit = off`, for this transaction only; nothing
    on other databases). Send it first in the transaction.

    Only for a transaction whose loss the database's own state repairs: a crash
    of the database server can lose the last few hundred milliseconds of such
    commits (three times `wal_writer_delay` at most), each whole or not at all and
    in commit order, and never corrupts anything. A server that stays up loses
    nothing. Measured on this project's benchmark machine under load: a match
    result's COMMIT took 1.0 ms (median; 1.5 mean), and 0.5 ms (0.6) this way.

    Outside a transaction, in a `pipelined()` block, it applies to the statements
    sent with it: PostgreSQL runs what a pipeline sends before its next sync
    point (the block's end) as one implicit transaction.
    """
    db = database()
    if db.vendor == "postgresql" and db.connection not in _asynchronous_sessions:
        execute("SELECT set_config('synchronous_commit', 'off', true)", [])


def commit_asynchronously_in_this_session() -> None:
    """`commit_asynchronously` for every transaction of this thread's connection,
    from now until the connection closes: one statement when the connection is
    new, none per transaction after that (the result recorder's connection, whose
    every transaction is of that kind, saves one statement per match).

    Only where the session is ours alone: behind a pooler in transaction mode
    (ARENA_DB_PREPARED_STATEMENTS=false) the setting would outlive the transaction
    on a server connection that other clients share, so each transaction says it
    for itself there, as before."""
    db = database()
    if db.vendor != "postgresql" or not settings.ARENA_DB_PREPARED_STATEMENTS:
        return
    raw = _connected(db)
    if raw in _asynchronous_sessions:
        return
    with _cursor() as cursor:
        cursor.execute("SELECT set_config('synchronous_commit', 'off', false)", [])
    _asynchronous_sessions.add(raw)


# The driver connections whose session commits asynchronously; a connection that
# closes (and is replaced) drops out.
_asynchronous_sessions: weakref.WeakSet[Any] = weakref.WeakSet()


def execute_many(sql: str, param_rows: Sequence[Sequence[Any]]) -> None:
    """One statement for many parameter rows. psycopg sends them all before reading
    any answer (pipeline mode): one round trip for the lot, or none of its own in a
    `pipelined()` block."""
    if param_rows:
        with _cursor() as cursor:
            cursor.executemany(sql, param_rows)
