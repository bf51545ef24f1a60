"""A worker told to stop (SIGTERM to its main process, as `docker stop` and a
service manager send it) while a result is being written behind the play: the
pool process finishes the write before it exits (arena.play.recorder), so the
match is done at its first attempt and nothing waits for a lease to run out."""

from __future__ import annotations

import os
import signal
import time

import pytest

from arena.matches.models import Game, Match
from arena.matches.services import match_create
from arena.ratings.models import RatingChange
from tests.arena.factories import ActiveBotVersionFactory, CompetitionFactory
from tests.reliability.blocked_write import result_write_held, wait_until_the_write_waits
from tests.reliability.bots import paced_bot_source
from tests.reliability.infra import require_ci_services

GAMES = 2


@pytest.mark.slow
@pytest.mark.postgres
def test_a_stopped_worker_finishes_the_result_it_is_writing(workers):
    require_ci_services()
    competition = CompetitionFactory(seats=2, games_per_match=GAMES)
    match = match_create(
        kind=Match.Kind.LADDER,
        versions=[ActiveBotVersionFactory(source=paced_bot_source(0)) for _ in range(2)],
        ruleset=competition.ruleset,
        games=GAMES,
        competition=competition,
        rated=True,
    )
    with result_write_held(match):
        worker = workers(name="stopping")
        wait_until_the_write_waits()  # the task has returned; its write waits
        os.kill(worker.pid, signal.SIGTERM)  # a warm shutdown
        time.sleep(2)
        assert worker.process.poll() is None, "the worker left with a result unwritten"
        assert Match.objects.get(pk=match.pk).state == Match.State.RUNNING
    # The row is free: the write commits, then the pool process and the worker exit.
    assert worker.process.wait(timeout=60) == 0, worker.log()

    match.refresh_from_db()
    assert match.state == Match.State.DONE, match.error
    assert match.attempts == 1
    assert Game.objects.filter(match=match).count() == GAMES
    assert RatingChange.objects.filter(game__match=match).count() == GAMES * 2
