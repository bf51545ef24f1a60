"""PostgreSQL and Redis restarted under a working worker; the Docker engine out of reach.

The database is the source of truth for every match: whatever the broker or the
connection lost, the periodic jobs (sent here through the broker, as beat sends
them) bring queued and running matches to an end, each stored once, and an
infrastructure failure never counts against a bot.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command

from arena.bots.models import BotVersion
from arena.matches.models import Game, Match
from arena.matches.services import match_create
from arena.matches.tasks import sweep_expired_leases
from arena.ratings.models import RatingChange
from tests.arena.factories import ActiveBotVersionFactory, CompetitionFactory
from tests.reliability.bots import paced_bot_source
from tests.reliability.infra import (
    redis_restored,
    require_ci_services,
    restart_postgres,
    start_redis,
    stop_redis,
)
from tests.support.worker import wait_for

GAMES = 2
MATCHES = 5
# Short lease and resend delays so that the sweeper acts within the test.
FAST_RECOVERY = {
    "ARENA_MATCH_LEASE_SECONDS": 10,
    "ARENA_MATCH_RESEND_SECONDS": 10,
}


def queue_paced_matches(*, count: int, delay_s: float) -> tuple[list[Match], list[BotVersion]]:
    competition = CompetitionFactory(seats=2, games_per_match=GAMES)
    versions = [ActiveBotVersionFactory(source=paced_bot_source(delay_s)) for _ in range(3)]
    tables = [[versions[i % 3], versions[(i + 1) % 3]] for i in range(count)]
    matches = [
        match_create(
            kind=Match.Kind.LADDER,
            versions=table,
            ruleset=competition.ruleset,
            games=GAMES,
            competition=competition,
            rated=True,
        )
        for table in tables
    ]
    return matches, versions


def states(matches: list[Match]) -> list[str]:
    found = dict(Match.objects.filter(pk__in=[m.pk for m in matches]).values_list("pk", "state"))
    return [found[m.pk] for m in matches]


def wait_until_settled(matches: list[Match], *, timeout: float) -> None:
    def settled() -> bool:
        sweep_expired_leases.delay()  # beat's job, sent more often than its 30 s
        return all(s in (Match.State.DONE, Match.State.FAILED) for s in states(matches))

    wait_for(settled, timeout=timeout, interval=2, what="every match to finish")


def assert_stored_once_and_nobody_blamed(matches: list[Match], versions: list[BotVersion]):
    for match in Match.objects.filter(pk__in=[m.pk for m in matches]):
        assert match.state == Match.State.DONE, (match.pk, match.error)
        numbers = list(Game.objects.filter(match=match).values_list("number", flat=True))
        assert sorted(numbers) == list(range(GAMES))
        assert RatingChange.objects.filter(game__match=match).count() == 2 * GAMES
    for version in BotVersion.objects.filter(pk__in=[v.pk for v in versions]):
        assert version.status == BotVersion.Status.ACTIVE
        assert version.consecutive_faulted_matches == 0
    call_command("recompute_ratings", "--check")


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_restart_with_matches_queued_and_running(workers):
    require_ci_services()
    matches, versions = queue_paced_matches(count=MATCHES, delay_s=0.02)
    worker = workers(name="pg", concurrency=2, **FAST_RECOVERY)
    wait_for(
        lambda: Match.State.RUNNING in states(matches) and Match.State.QUEUED in states(matches),
        timeout=60,
        what="some matches running while others wait",
    )
    restart_postgres()
    wait_until_settled(matches, timeout=180)
    assert_stored_once_and_nobody_blamed(matches, versions)
    assert "OperationalError" in worker.log() or "terminating connection" in worker.log()


@pytest.mark.slow
@pytest.mark.redis
def test_redis_restart_loses_no_queued_match(workers):
    require_ci_services()
    matches, versions = queue_paced_matches(count=MATCHES, delay_s=0.02)
    with redis_restored():
        workers(name="redis", concurrency=1, **FAST_RECOVERY)
        wait_for(
            lambda: Match.State.RUNNING in states(matches),
            timeout=60,
            what="a match to start",
        )
        # Redis keeps nothing on disk in CI: the queued messages die with it.
        stop_redis()
        start_redis()
    assert Match.State.QUEUED in states(matches)
    wait_until_settled(matches, timeout=180)
    assert_stored_once_and_nobody_blamed(matches, versions)
