"""Analyses run on a queue of their own, which `make run` and the test worker
consume, so that a match never waits behind one."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from arena.analysis.services import ANALYSE_TASK, SWEEP_TASK
from arena.analysis.tasks import analyse_game, sweep_stalled_analyses
from arena.celery import app
from arena.core.processes import arena_children
from tests.support.worker import worker_argv


def test_the_task_is_routed_to_the_analysis_queue():
    assert settings.ARENA_ANALYSIS_QUEUE == "arena-test-analysis"
    assert settings.ARENA_ANALYSIS_QUEUE in {queue.name for queue in settings.CELERY_TASK_QUEUES}
    route = app.amqp.router.route({}, ANALYSE_TASK, args=(1,))
    assert route["queue"].name == settings.ARENA_ANALYSIS_QUEUE
    # Matches stay on the default queue.
    match_route = app.amqp.router.route({}, "arena.matches.run_match", args=(1,))
    assert match_route["queue"].name == settings.CELERY_TASK_DEFAULT_QUEUE
    assert analyse_game.name == ANALYSE_TASK
    assert analyse_game.time_limit == settings.ARENA_ANALYSIS_GAME_SECONDS + 60


def test_beat_sweeps_stalled_analyses_on_the_analysis_queue():
    [entry] = [e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == SWEEP_TASK]
    assert entry["schedule"] == settings.ARENA_ANALYSIS_SWEEP_SECONDS
    assert entry["options"]["expires"] == settings.ARENA_ANALYSIS_SWEEP_SECONDS
    assert sweep_stalled_analyses.name == SWEEP_TASK
    assert SWEEP_TASK in app.tasks
    route = app.amqp.router.route({}, SWEEP_TASK, args=())
    assert route["queue"].name == settings.ARENA_ANALYSIS_QUEUE


def test_make_run_gives_analyses_a_worker_of_their_own():
    children = {
        child.name: child.argv
        for child in arena_children(
            host="127.0.0.1",
            port=8000,
            concurrency=2,
            var_dir=Path("var"),
            analysis_queue="analysis",
            tables_queue="tables",
        )
    }
    assert "--concurrency=1" in children["analysis-worker"]
    assert "--hostname=analysis@%h" in children["analysis-worker"]


def test_the_test_worker_consumes_analyses():
    argv = worker_argv(concurrency=1, hostname="t")
    assert settings.ARENA_ANALYSIS_QUEUE in argv[argv.index("-Q") + 1].split(",")
