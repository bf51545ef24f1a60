"""A worker SIGKILLed in the middle of a match: the match finishes once, nothing is
counted twice, and the dead worker's bot containers are found and removed.

Real processes throughout: a `celery worker` plays the match in Docker containers
through Redis and PostgreSQL; the test kills it with SIGKILL (no clean-up can
run), then lets the periodic jobs (the lease sweeper, the orphan clean-up) do
their work through the broker, as beat would send them.
"""

from __future__ import annotations

import os
import signal

import pytest

from arena.matches.models import Game, Match
from arena.matches.services import match_create
from arena.matches.tasks import cleanup_sandbox_orphans, sweep_expired_leases
from arena.ratings.models import Rating, RatingChange
from sandbox.labels import BOT_LABEL, OWNER_PID_LABEL
from tests.arena.factories import ActiveBotVersionFactory, CompetitionFactory
from tests.reliability.bots import paced_bot_source
from tests.reliability.infra import alive, children_of, require_ci_services
from tests.sandbox.harness import require_backend
from tests.support.worker import wait_for

GAMES = 4
LEASE_SECONDS = 10  # the shortest lease the settings accept: the sweeper acts soon
DOCKER_WORKER = {
    "ARENA_SANDBOX_BACKEND": "docker",
    "ARENA_ALLOW_UNSANDBOXED": "false",
    "ARENA_MATCH_LEASE_SECONDS": LEASE_SECONDS,
}


def containers_of(pid: int) -> list[str]:
    from sandbox.backends.docker import docker_client

    labels = [f"{BOT_LABEL}=1", f"{OWNER_PID_LABEL}={pid}"]
    return [c["Id"] for c in docker_client().containers(all=True, filters={"label": labels})]


def holder_pid(match: Match) -> int:
    """The pid in the lease token host:pid:nonce: the process playing the match."""
    return int(match.worker.split(":")[1])


def running_match(match_id: int) -> Match | None:
    match = Match.objects.get(pk=match_id)
    return match if match.state == Match.State.RUNNING and match.worker else None


@pytest.mark.slow
@pytest.mark.docker
@pytest.mark.parametrize("victim", ["pool process", "whole worker"])
def test_sigkilled_worker_mid_match_finishes_once_and_leaves_nothing(workers, victim):
    require_ci_services()
    require_backend("docker")
    competition = CompetitionFactory(seats=2, games_per_match=GAMES)
    versions = [ActiveBotVersionFactory(source=paced_bot_source(0.03)) for _ in range(2)]
    first = workers(name="doomed", **DOCKER_WORKER)
    first.wait_ready()
    match = match_create(
        kind=Match.Kind.LADDER,
        versions=versions,
        ruleset=competition.ruleset,
        games=GAMES,
        competition=competition,
        rated=True,
    )

    claimed = wait_for(lambda: running_match(match.pk), timeout=60, what="the match to start")
    playing = holder_pid(claimed)
    assert playing in children_of(first.pid)  # the prefork pool process, not the parent
    wait_for(lambda: len(containers_of(playing)) == 2, timeout=60, what="both bot containers")

    if victim == "pool process":
        os.kill(playing, signal.SIGKILL)
        survivor = first  # the parent forks a new pool process and carries on
    else:
        first.sigkill()
        survivor = workers(name="successor", **DOCKER_WORKER)
        survivor.wait_ready()
    wait_for(lambda: not alive(playing), timeout=10, what="the killed process to be gone")

    # Killed in the middle: nothing recorded, and its containers outlive it.
    assert Match.objects.get(pk=match.pk).state == Match.State.RUNNING
    assert not Game.objects.filter(match=match).exists()
    assert len(containers_of(playing)) == 2

    def cleaned_up() -> bool:
        # Beat sends the clean-up every 10 minutes; the test sends it more often.
        cleanup_sandbox_orphans.delay()
        return not containers_of(playing)

    wait_for(cleaned_up, timeout=60, interval=2, what="the orphan clean-up")

    def finished() -> bool:
        # What beat does every 30 s, sent more often so that the test is short.
        sweep_expired_leases.delay()
        return Match.objects.get(pk=match.pk).state in (Match.State.DONE, Match.State.FAILED)

    wait_for(finished, timeout=LEASE_SECONDS + 120, interval=2, what="the match to finish")
    match.refresh_from_db()
    assert match.state == Match.State.DONE, match.error
    assert match.attempts == 2
    assert "expired" in match.error
    assert holder_pid(match) != playing

    # Stored once: every game once, every rating change once.
    assert sorted(Game.objects.filter(match=match).values_list("number", flat=True)) == list(
        range(GAMES)
    )
    assert RatingChange.objects.filter(game__match=match).count() == GAMES * 2
    assert sorted(
        Rating.objects.filter(competition=competition).values_list("games", flat=True)
    ) == [
        GAMES,
        GAMES,
    ]
    assert all(seat.games == GAMES for seat in match.seats.all())
    # The successor tore its own containers down; nothing of the dead one is left.
    assert not containers_of(playing)
    assert not containers_of(holder_pid(match))
    if victim == "pool process":
        assert "WorkerLostError" in survivor.log() or "exited prematurely" in survivor.log()
