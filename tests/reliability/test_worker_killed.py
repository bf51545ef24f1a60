"""A worker SIGKILLed in the middle of a match: the match finishes once, nothing is
counted twice, and the dead worker's bot containers are found and removed.

Real processes throughout: a `celery worker` plays the match in Docker containers
through Redis and PostgreSQL; the test kills it with SIGKILL (no clean-up can
run), then lets the periodic jobs (the lease sweeper, the orphan clean-up) do
their work through the broker, as beat would send them; a whole worker's
containers are gone sooner, removed by its successor as it starts.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from arena.matches.models import Game, Match
from arena.matches.services import match_create
from arena.play.tasks import cleanup_sandbox_orphans, sweep_expired_leases
from arena.ratings.models import Rating, RatingChange
from sandbox.labels import BOT_LABEL, OWNER_PID_LABEL
from tests.arena.factories import ActiveBotVersionFactory, CompetitionFactory
from tests.reliability.blocked_write import result_write_held, wait_until_the_write_waits
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


def finish_after_the_lease(match: Match) -> Match:
    def finished() -> bool:
        # What beat does every 30 s, sent more often so that the test is short.
        sweep_expired_leases.delay()
        return Match.objects.get(pk=match.pk).state in (Match.State.DONE, Match.State.FAILED)

    wait_for(finished, timeout=LEASE_SECONDS + 120, interval=2, what="the match to finish")
    return Match.objects.get(pk=match.pk)


def assert_played_once(match: Match, competition, *, dead_pid: int) -> None:
    assert match.state == Match.State.DONE, match.error
    assert match.attempts == 2
    assert "expired" in match.error
    assert holder_pid(match) != dead_pid
    # Stored once: every game once, every rating change once.
    numbers = Game.objects.filter(match=match).values_list("number", flat=True)
    assert sorted(numbers) == list(range(GAMES))
    assert RatingChange.objects.filter(game__match=match).count() == GAMES * 2
    games = Rating.objects.filter(competition=competition).values_list("games", flat=True)
    assert sorted(games) == [GAMES, GAMES]
    assert all(seat.games == GAMES for seat in match.seats.all())


def queue_paced_match(competition) -> Match:
    versions = [ActiveBotVersionFactory(source=paced_bot_source(0.03)) for _ in range(2)]
    return match_create(
        kind=Match.Kind.LADDER,
        versions=versions,
        ruleset=competition.ruleset,
        games=GAMES,
        competition=competition,
        rated=True,
    )


@pytest.mark.slow
@pytest.mark.docker
@pytest.mark.parametrize("victim", ["pool process", "whole worker"])
def test_sigkilled_worker_mid_match_finishes_once_and_leaves_nothing(workers, victim):
    require_ci_services()
    require_backend("docker")
    competition = CompetitionFactory(seats=2, games_per_match=GAMES)
    first = workers(name="doomed", **DOCKER_WORKER)
    first.wait_ready()
    match = queue_paced_match(competition)

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

    # Killed in the middle: nothing recorded. A killed pool process's containers
    # outlive it until the periodic clean-up; a killed worker's are removed by its
    # successor as it starts (arena.celery, worker_ready), before it says it is ready.
    assert Match.objects.get(pk=match.pk).state == Match.State.RUNNING
    assert not Game.objects.filter(match=match).exists()
    if victim == "pool process":
        assert len(containers_of(playing)) == 2

        def cleaned_up() -> bool:
            # Beat sends the clean-up every 10 minutes; the test sends it more often.
            cleanup_sandbox_orphans.delay()
            return not containers_of(playing)

        wait_for(cleaned_up, timeout=60, interval=2, what="the orphan clean-up")
    else:
        assert not containers_of(playing)

    match = finish_after_the_lease(match)
    assert_played_once(match, competition, dead_pid=playing)
    # The successor tore its own containers down; nothing of the dead one is left.
    assert not containers_of(playing)
    assert not containers_of(holder_pid(match))
    if victim == "pool process":
        assert "WorkerLostError" in survivor.log() or "exited prematurely" in survivor.log()


@pytest.mark.slow
@pytest.mark.bwrap
def test_bwrap_bots_die_with_a_sigkilled_worker_and_the_match_finishes_once(workers):
    """Under bubblewrap a bot is a process tree of the worker's: `--die-with-parent`
    must take it down with a worker killed in the middle of a match."""
    require_ci_services()
    require_backend("bwrap")
    competition = CompetitionFactory(seats=2, games_per_match=GAMES)
    worker = workers(
        name="doomed",
        ARENA_SANDBOX_BACKEND="bwrap",
        ARENA_ALLOW_UNSANDBOXED="false",
        ARENA_MATCH_LEASE_SECONDS=LEASE_SECONDS,
    )
    match = queue_paced_match(competition)
    claimed = wait_for(lambda: running_match(match.pk), timeout=60, what="the match to start")
    playing = holder_pid(claimed)
    assert playing in children_of(worker.pid)

    def bot_processes() -> list[int] | None:
        # Each bot is bwrap with the bot's python below it; the first decisions
        # are made once both bots run.
        tree = children_of(playing)
        return tree if len(tree) >= 2 else None

    wait_for(bot_processes, timeout=60, what="the bots to start")
    time.sleep(1)  # into the games
    bots = bot_processes()
    assert bots is not None

    os.kill(playing, signal.SIGKILL)
    wait_for(
        lambda: not any(alive(pid) for pid in bots),
        timeout=15,
        what="every bot process to die with its worker",
    )
    assert Match.objects.get(pk=match.pk).state == Match.State.RUNNING

    match = finish_after_the_lease(match)
    assert_played_once(match, competition, dead_pid=playing)


@pytest.mark.slow
@pytest.mark.postgres
def test_worker_killed_while_writing_the_result_stores_nothing_then_once(workers):
    """The result of a match is one transaction: a worker SIGKILLed in the middle of
    writing it (games inserted, waiting for a bot's row) leaves nothing of it, and the
    match is stored once when it is played again. The write runs behind the play
    (arena.play.recorder): the task had returned and its message was acked, so
    it is the lease's expiry that brings the match back."""
    require_ci_services()
    competition = CompetitionFactory(seats=2, games_per_match=GAMES)
    match = queue_paced_match(competition)
    with result_write_held(match):
        worker = workers(name="writer", ARENA_MATCH_LEASE_SECONDS=LEASE_SECONDS)
        wait_until_the_write_waits()
        playing = holder_pid(Match.objects.get(pk=match.pk))
        assert playing in children_of(worker.pid)
        os.kill(playing, signal.SIGKILL)
        wait_for(lambda: not alive(playing), timeout=10, what="the writer to be gone")

    # Nothing of the result: no rating change, no seat's totals. The games written
    # as each ended (arena.play.games) are the page's preview, not the result; the
    # attempt that finishes the match replaces them.
    assert not RatingChange.objects.filter(game__match=match).exists()
    assert all(seat.games == 0 for seat in match.seats.all())
    match = finish_after_the_lease(match)
    assert_played_once(match, competition, dead_pid=playing)
