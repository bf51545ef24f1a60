"""A worker recording a match must not block matchmaking from seating its bots.

Recording locks the versions whose fault streak changes; creating a match inserts
seats whose foreign keys take a KEY SHARE lock on the same versions, in seat
order. A plain FOR UPDATE conflicts with KEY SHARE, and the two orders made a
deadlock under load (`test_concurrent_workers.py` hit it); the streak UPDATE
changes no key, so PostgreSQL takes FOR NO KEY UPDATE, which does not conflict.
"""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection, connections, transaction

from arena.bots.models import BotVersion
from arena.bots.services import bot_versions_faults_record
from arena.matches.models import Match
from arena.matches.services import match_create
from tests.arena.factories import ActiveBotVersionFactory, CompetitionFactory
from tests.reliability.blocked_write import transaction_held
from tests.reliability.infra import require_ci_services


def _row_locked_elsewhere(version: BotVersion) -> bool:
    """Whether another transaction holds a row lock on the version (asked from a
    connection of our own, without waiting)."""
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("BEGIN")
            try:
                cursor.execute(
                    f'SELECT 1 FROM "{BotVersion._meta.db_table}" WHERE id = %s FOR UPDATE NOWAIT',
                    [version.pk],
                )
            except OperationalError:
                return True
            finally:
                cursor.execute("ROLLBACK")
        return False
    finally:
        other.close()


@pytest.mark.django_db(transaction=True)
def test_a_match_can_seat_versions_that_a_result_write_holds():
    require_ci_services()
    competition = CompetitionFactory(seats=2)
    # Both streaks change (one is reset, one grows), so the write locks both rows.
    versions = [ActiveBotVersionFactory(consecutive_faulted_matches=2) for _ in range(2)]
    faults_recorded = transaction_held(
        lambda: bot_versions_faults_record(
            faults_by_version={versions[0].pk: [], versions[1].pk: ["timeout"]}
        ),
        seconds=30,
    )
    with faults_recorded:
        assert all(_row_locked_elsewhere(version) for version in versions)
        with transaction.atomic():
            # Fail fast instead of hanging if the seats' foreign keys have to wait.
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '3s'")
            match = match_create(
                kind=Match.Kind.LADDER,
                versions=list(reversed(versions)),
                ruleset=competition.ruleset,
                games=1,
                competition=competition,
                rated=True,
            )
    assert match.seats.count() == 2
    assert sorted(
        BotVersion.objects.filter(pk__in=[v.pk for v in versions]).values_list(
            "consecutive_faulted_matches", flat=True
        )
    ) == [0, 3]
