"""PostgreSQL and Redis restarted under a working worker; the Docker engine out of reach.

The database is the source of truth for every match: whatever the broker or the
connection lost, the periodic jobs (sent here through the broker, as beat sends
them) bring queued and running matches to an end, each stored once, and an
infrastructure failure never counts against a bot.
"""

from __future__ import annotations

import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_upload
from arena.matches.models import Competition, Game, Match
from arena.matches.services import match_create
from arena.play.tasks import sweep_expired_leases
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
from tests.sandbox.harness import require_backend
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
    # The matches that were playing kept their results: a connection the restart
    # cut is replaced at its next use (health checks), the result write included
    # (arena.play.recorder tries it again while the database is away). A claim
    # whose COMMIT the restart cut off is played once more, after its lease.
    attempts = Match.objects.filter(pk__in=[m.pk for m in matches]).values_list(
        "attempts", flat=True
    )
    assert max(attempts) <= 2
    assert worker.process.poll() is None, worker.log()  # and the worker carried on


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


# --- the Docker engine out of reach ----------------------------------------------------

DEAD_DOCKER = {
    "ARENA_SANDBOX_BACKEND": "docker",
    "ARENA_ALLOW_UNSANDBOXED": "false",
    # The worker's own engine address points nowhere; the shared dockerd runs on.
    "DOCKER_HOST": "unix:///nonexistent/docker.sock",
    **FAST_RECOVERY,
}


def ensure_default_competition() -> None:
    """Qualification plays under the default ladder's rules; a flush between
    transactional tests removes the row the migration made."""
    if not Competition.objects.filter(is_default=True).exists():
        CompetitionFactory(slug="default-ladder", is_default=True, seats=2)


@pytest.mark.slow
@pytest.mark.docker
def test_unreachable_docker_makes_matches_wait_then_play_when_it_is_back(workers):
    require_ci_services()
    require_backend("docker")
    ensure_default_competition()
    matches, versions = queue_paced_matches(count=2, delay_s=0)
    upload = bot_version_upload(
        user=versions[0].bot.owner,
        name="waits-for-docker",
        upload=SimpleUploadedFile("bot.py", paced_bot_source(0)),
    )
    cut_off = workers(name="no-docker", **{**DEAD_DOCKER, "ARENA_MATCH_MAX_ATTEMPTS": 3})

    def waiting() -> bool:
        rows = Match.objects.filter(pk__in=[m.pk for m in matches])
        version = BotVersion.objects.get(pk=upload.pk)
        return all(m.attempts >= 1 and m.state == Match.State.QUEUED for m in rows) and (
            "postponed" in version.status_reason
        )

    wait_for(waiting, timeout=60, what="both matches and the qualification to be put back")
    for match in Match.objects.filter(pk__in=[m.pk for m in matches]):
        assert "Docker engine unreachable" in match.error
    assert not Game.objects.filter(match_id__in=[m.pk for m in matches]).exists()
    upload.refresh_from_db()
    assert upload.status == BotVersion.Status.PENDING  # not failed: it never ran
    cut_off.stop()

    workers(name="docker-back", **{**DEAD_DOCKER, "DOCKER_HOST": docker_host()})
    wait_until_settled(matches, timeout=120)
    assert_stored_once_and_nobody_blamed(matches, versions)
    # The postponed qualification's retry runs too, and the sound bot qualifies.
    wait_for(
        lambda: BotVersion.objects.get(pk=upload.pk).status == BotVersion.Status.ACTIVE,
        timeout=90,
        what="the postponed qualification to pass",
    )


@pytest.mark.slow
def test_docker_unreachable_for_good_fails_the_match_with_the_reason_blaming_no_bot(workers):
    require_ci_services()
    matches, versions = queue_paced_matches(count=1, delay_s=0)
    workers(name="no-docker", **{**DEAD_DOCKER, "ARENA_MATCH_MAX_ATTEMPTS": 2})
    wait_until_settled(matches, timeout=90)
    match = Match.objects.get(pk=matches[0].pk)
    assert match.state == Match.State.FAILED
    assert match.attempts == 2
    assert "Docker engine unreachable" in match.error
    assert not Game.objects.filter(match=match).exists()
    assert not RatingChange.objects.exists()
    for version in BotVersion.objects.filter(pk__in=[v.pk for v in versions]):
        assert version.status == BotVersion.Status.ACTIVE
        assert version.consecutive_faulted_matches == 0
    assert all(seat.faults == 0 for seat in match.seats.all())


def docker_host() -> str:
    """Where this machine's engine answers (the default socket unless DOCKER_HOST says)."""
    return os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
