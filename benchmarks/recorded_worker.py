"""A Celery worker whose sandbox hands back one recorded match instead of playing.

`benchmarks/platform.py --platform-cpu` starts it, so that what the machine spends
per match is the platform's own work: claim, record, ratings, Celery, PostgreSQL,
Redis. Usage: python benchmarks/recorded_worker.py RECORDED.pickle [celery worker args]
"""

# ruff: noqa: E402  (sys.path must be fixed before anything imports `platform`)
from __future__ import annotations

import pickle
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "platform")]

import django

django.setup()

from arena.celery import app
from arena.matches import runner

with open(sys.argv[1], "rb") as recorded_file:
    RECORDED = pickle.load(recorded_file)  # written by benchmarks/platform.py itself


def recorded_match(**_kwargs: object) -> object:
    return RECORDED


runner.run_sandboxed_match = recorded_match
app.worker_main(sys.argv[2:])
