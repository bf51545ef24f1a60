"""A worker recording a match must not block matchmaking from seating its bots.

Recording locks the versions that played (their fault streaks); creating a match
inserts seats whose foreign keys take a KEY SHARE lock on the same versions, in
seat order. A plain FOR UPDATE conflicts with KEY SHARE, and the two orders made a
deadlock under load (`test_concurrent_workers.py` hit it); FOR NO KEY UPDATE
does not conflict.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from arena.bots.services import bot_version_record_match_faults
from arena.matches.models import Match
from arena.matches.services import match_create
from tests.arena.factories import ActiveBotVersionFactory, CompetitionFactory
from tests.reliability.blocked_write import transaction_held
from tests.reliability.infra import require_ci_services


@pytest.mark.django_db(transaction=True)
def test_a_match_can_seat_versions_that_a_result_write_holds():
    require_ci_services()
    competition = CompetitionFactory(seats=2)
    versions = [ActiveBotVersionFactory() for _ in range(2)]
    faults_recorded = transaction_held(
        lambda: bot_version_record_match_faults(version_ids_faulted={v.pk: [] for v in versions}),
        seconds=30,
    )
    with faults_recorded, transaction.atomic():
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
