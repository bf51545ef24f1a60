"""A Celery worker that notes when each part of every match it plays begins and ends.

`benchmarks/arena_platform.py --phases` starts it. For each task, each pool process appends
`time.monotonic()` stamps to its own file in EVENTS_DIR: the task's start and end
(Celery's prerun and postrun signals), the sandbox's start and end, and the start
and end of the result write (on the process's recorder thread). Nothing else changes. Usage:

    python benchmarks/phases_worker.py EVENTS_DIR [celery worker args]
"""

# ruff: noqa: E402  (Django is set up before the platform's modules are imported)
from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import django

django.setup()

from celery.signals import task_postrun, task_prerun

from arena.celery import app
from arena.play import runner

EVENTS = Path(sys.argv[1])


_noting = threading.Lock()  # two threads note: the task's and the recorder's


def note(event: str) -> None:
    with _noting, (EVENTS / str(os.getpid())).open("a") as events:
        events.write(f"{time.monotonic():.6f} {event}\n")


@task_prerun.connect
def _task_started(**_kwargs: Any) -> None:
    note("task_start")


@task_postrun.connect
def _task_ended(**_kwargs: Any) -> None:
    note("task_end")


def _noted(function: Any, before: str | None, after: str) -> Any:
    def wrapper(**kwargs: Any) -> Any:
        if before:
            note(before)
        result = function(**kwargs)
        note(after)
        return result

    return wrapper


runner.run_sandboxed_match = _noted(runner.run_sandboxed_match, "sandbox_start", "sandbox_end")
runner.match_record_result = _noted(runner.match_record_result, "write_start", "recorded")
app.worker_main(sys.argv[2:])
