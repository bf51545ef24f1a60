"""The PostgreSQL backend's health check: no round trip for a connection whose
socket is quiet, Django's `SELECT 1` otherwise, and a connection the server ended
is dropped and replaced before the next statement."""

import time

import psycopg
import pytest
from django.db import connection, transaction
from django.db.backends.postgresql.base import DatabaseWrapper as DjangoWrapper

from tests.support.worker import database_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("the health check of the PostgreSQL backend needs PostgreSQL")
    assert connection.settings_dict["ENGINE"] == "arena.core.postgresql"


@pytest.fixture
def select_one_checks(monkeypatch):
    """How many times Django's own check (`SELECT 1`) ran."""
    calls = []
    original = DjangoWrapper.is_usable

    def counted(self):
        calls.append(self.alias)
        return original(self)

    monkeypatch.setattr(DjangoWrapper, "is_usable", counted)
    return calls


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def terminate(pid: int) -> None:
    with psycopg.connect(database_url(connection.settings_dict), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        # The server ends the session at once; its message and the end of the
        # stream reach the socket a moment later.
        for _ in range(100):
            if not other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchall():
                break
            time.sleep(0.01)


def test_an_idle_connection_with_a_quiet_socket_is_usable_without_a_round_trip(
    select_one_checks,
):
    backend_pid()
    assert connection.is_usable()
    assert select_one_checks == []


def test_a_connection_the_server_ended_is_unusable_and_replaced(select_one_checks):
    old_pid = backend_pid()
    terminate(old_pid)
    time.sleep(0.05)
    assert not connection.is_usable()
    assert select_one_checks == ["default"]  # the socket had news: Django's check decided
    # As before each task or request: the next statement gets a new session.
    connection.health_check_done = False
    connection.close_if_health_check_failed()
    assert backend_pid() != old_pid


def test_a_connection_in_a_transaction_gets_the_full_check(select_one_checks):
    with transaction.atomic():
        backend_pid()
        assert connection.is_usable()
    assert select_one_checks == ["default"]


def test_a_closed_connection_is_unusable(select_one_checks):
    backend_pid()
    connection.connection.close()
    assert not connection.is_usable()
    connection.close()
    backend_pid()  # connects again
