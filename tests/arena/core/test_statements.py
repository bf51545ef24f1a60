"""arena.core.statements: the hand-written statements of the per-match path, and
the pipeline that sends several of them in one round trip (PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from arena.core import statements
from arena.matches.models import Competition

pytestmark = pytest.mark.django_db(transaction=True)


def _competition(slug: str) -> Competition:
    return Competition(slug=slug, name=slug, ruleset={}, seats=2)


def test_a_pipeline_sends_writes_and_reads_their_rows_in_order() -> None:
    table = Competition._meta.db_table
    with transaction.atomic(), statements.pipelined():
        statements.insert([_competition("first")], keys=False)  # sent, answer not read
        second = _competition("second")
        statements.insert([second])  # its key is read: waits for both
        sent = statements.send(
            f'SELECT "slug" FROM "{table}" WHERE "slug" IN (%s, %s) ORDER BY "slug"',
            ["first", "second"],
        )
        statements.execute(f'UPDATE "{table}" SET "name" = %s WHERE "slug" = %s', ["1st", "first"])
        assert sent.rows() == [("first",), ("second",)]
    assert second.pk is not None
    assert Competition.objects.get(slug="first").name == "1st"


def test_a_statement_that_fails_in_a_pipeline_raises_a_django_error_and_rolls_back() -> None:
    Competition.objects.create(slug="taken", name="taken", ruleset={}, seats=2)

    def write_both() -> None:
        with transaction.atomic(), statements.pipelined():
            statements.insert([_competition("kept-out")], keys=False)
            statements.insert([_competition("taken")], keys=False)  # unique slug

    with pytest.raises(IntegrityError):
        write_both()
    assert not Competition.objects.filter(slug="kept-out").exists()
    # The connection is usable afterwards.
    assert Competition.objects.filter(slug="taken").count() == 1


def test_the_orm_works_again_after_the_block() -> None:
    with transaction.atomic():
        with statements.pipelined():
            statements.insert([_competition("orm")], keys=False)
        # Row counts are known again once the block has ended.
        assert Competition.objects.filter(slug="orm").update(name="changed") == 1


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's own feature (CI runs it)"
)


@postgresql_only
def test_on_postgresql_the_block_is_a_psycopg_pipeline() -> None:
    with statements.pipelined():
        assert connection.connection._pipeline is not None
    assert connection.connection._pipeline is None


def _synchronous_commit() -> str:
    return statements.fetch_all("SELECT current_setting('synchronous_commit')", [])[0][0]


@postgresql_only
def test_an_asynchronous_commit_is_its_transactions_alone() -> None:
    with transaction.atomic():
        statements.commit_asynchronously()
        assert _synchronous_commit() == "off"
    assert _synchronous_commit() == "on"  # the session's other transactions wait


@postgresql_only
def test_outside_a_transaction_a_pipeline_commits_what_is_sent_with_it_asynchronously() -> None:
    with statements.pipelined():
        statements.commit_asynchronously()
        statements.insert([_competition("async")], keys=False)
        setting = statements.send("SELECT current_setting('synchronous_commit')", [])
        assert setting.rows() == [("off",)]
    assert _synchronous_commit() == "on"
    assert Competition.objects.filter(slug="async").exists()  # committed all the same


@postgresql_only
def test_a_session_that_commits_asynchronously_says_so_once_per_connection() -> None:
    sent: list[str] = []

    def noted(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    try:
        with connection.execute_wrapper(noted):
            statements.commit_asynchronously_in_this_session()
            statements.commit_asynchronously_in_this_session()
            assert len(sent) == 1
            with transaction.atomic():
                statements.commit_asynchronously()  # nothing to say: the session has it
                statements.insert([_competition("session-async")], keys=False)
            assert len(sent) == 2  # the INSERT alone
            assert _synchronous_commit() == "off"
        connection.close()  # a new connection is a new session
        assert _synchronous_commit() == "on"
        with transaction.atomic():
            statements.commit_asynchronously()
            assert _synchronous_commit() == "off"
        assert _synchronous_commit() == "on"
    finally:
        connection.close()
    assert Competition.objects.filter(slug="session-async").exists()
