"""Queueing a task by its name once the current transaction commits.

A task is an interface with a stable name (`arena.matches.run_match`). The
domain apps create the rows that work starts from (a match, a bot version, a
tournament) and queue that work by name, so that they never import the package
that carries it out (`arena.play`, above them): the name is the whole contract.
"""

from __future__ import annotations

from celery import current_app
from django.db import transaction


def task_queue_on_commit(name: str, *args: int, queue: str | None = None) -> None:
    """Send the task `name` with `args` (ids) when the current transaction commits;
    at once outside a transaction. Nothing is sent for a transaction that rolls back.

    `queue` overrides the task's route (CELERY_TASK_ROUTES): one task, a match's
    run, serves several kinds of work, and its sender knows which."""
    # ignore_result: the database holds every outcome. Without it, send_task (unlike
    # a task's own delay) subscribes to the task's result on a Redis result backend,
    # one subscription per match queued.
    options = {"ignore_result": True} if queue is None else {"ignore_result": True, "queue": queue}
    transaction.on_commit(lambda: current_app.send_task(name, args=args, **options))
