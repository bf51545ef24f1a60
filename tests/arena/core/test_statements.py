"""arena.core.statements: the helpers behind the hand-written statements of the
per-match path (each app's sql.py)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction

from arena.core import statements
from arena.matches.models import Competition

pytestmark = pytest.mark.django_db(transaction=True)


def _competition(slug: str) -> Competition:
    return Competition(slug=slug, name=slug, ruleset={"name": slug}, seats=2)


def test_insert_gives_keys_in_order_and_stores_what_the_orm_reads() -> None:
    first, second = _competition("first"), _competition("second")
    statements.insert([first, second])
    assert first.pk is not None
    assert second.pk > first.pk
    assert Competition.objects.get(pk=second.pk).ruleset == {"name": "second"}
    assert Competition.objects.get(pk=first.pk).created_at is not None  # auto_now_add


def test_rows_read_back_become_the_models_the_orm_would_make() -> None:
    made = Competition.objects.create(slug="read", name="read", ruleset={"a": [1]}, seats=3)
    rows = statements.fetch_all(
        f"SELECT {statements.columns(Competition)} FROM {statements.table(Competition)}"
        ' WHERE "slug" = %s',
        ["read"],
    )
    (read,) = statements.models_from_rows(Competition, rows)
    assert (read.pk, read.ruleset, read.seats, read.created_at) == (
        made.pk,
        {"a": [1]},
        3,
        made.created_at,
    )


def test_update_each_writes_each_row_its_own_values_and_no_other_row() -> None:
    first, second, third = _competition("one"), _competition("two"), _competition("three")
    statements.insert([first, second, third])
    statements.update_each(
        Competition,
        ["name", "seats", "ruleset", "created_at"],
        [
            (first.pk, ["One", 4, {"name": "one", "deck": [1, 2]}, second.created_at]),
            (second.pk, ["Two", 5, {}, first.created_at]),
        ],
    )
    rows = Competition.objects.order_by("pk").values_list("name", "seats", "ruleset", "created_at")
    assert list(rows) == [
        ("One", 4, {"name": "one", "deck": [1, 2]}, second.created_at),
        ("Two", 5, {}, first.created_at),
        ("three", 2, {"name": "three"}, third.created_at),
    ]


def test_a_failed_statement_raises_a_django_error_and_its_transaction_rolls_back() -> None:
    Competition.objects.create(slug="taken", name="taken", ruleset={}, seats=2)

    def write_both() -> None:
        with transaction.atomic():
            statements.insert([_competition("kept-out")], keys=False)
            statements.insert([_competition("taken")], keys=False)  # unique slug

    with pytest.raises(IntegrityError):
        write_both()
    assert not Competition.objects.filter(slug="kept-out").exists()
    assert Competition.objects.filter(slug="taken").count() == 1  # the connection still works


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="PostgreSQL's own feature (CI runs it)"
)


def _synchronous_commit() -> str:
    return statements.fetch_all("SELECT current_setting('synchronous_commit')", [])[0][0]


@postgresql_only
def test_an_asynchronous_commit_is_its_transactions_alone() -> None:
    with transaction.atomic():
        statements.commit_asynchronously()
        assert _synchronous_commit() == "off"
    assert _synchronous_commit() == "on"  # the session's other transactions wait


@postgresql_only
def test_on_postgresql_the_statements_run_prepared(settings) -> None:
    settings.ARENA_DB_PREPARED_STATEMENTS = True
    for _ in range(2):
        statements.fetch_all(f"SELECT 1 FROM {statements.table(Competition)} LIMIT %s", [1])
    prepared = statements.fetch_all(
        "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
        ['SELECT 1 FROM "matches_competition"%'],
    )
    assert prepared[0][0] >= 1
