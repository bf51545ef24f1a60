"""A Celery worker whose sandbox hands back one recorded match instead of playing.

`benchmarks/arena_platform.py --platform-cpu` starts it, so that what the machine spends
per match is the platform's own work: claim, record, ratings, Celery, PostgreSQL,
Redis. Usage: python benchmarks/recorded_worker.py RECORDED.pickle [celery worker args]
"""

# ruff: noqa: E402  (Django is set up before the platform's modules are imported)
from __future__ import annotations

import pickle
import sys

import django

django.setup()

from arena.celery import app
from arena.play import runner

with open(sys.argv[1], "rb") as recorded_file:
    RECORDED = pickle.load(recorded_file)  # written by benchmarks/arena_platform.py itself


def recorded_match(*, progress=None, watch=None, **_kwargs: object) -> object:
    """The recorded match, told game by game as the sandbox tells it (each game's
    start to `watch`, its end to `progress`), so that what the platform does per
    game counts too."""
    for number, log in enumerate(RECORDED.games):
        if watch is not None:
            watch(number, log["seating"], log)
        if progress is not None:
            progress(number, log)
    return RECORDED


runner.run_sandboxed_match = recorded_match
app.worker_main(sys.argv[2:])
