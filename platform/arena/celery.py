"""The Celery application shared by the web process, the workers and beat."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_shutdown, worker_ready
from django.conf import settings
from django.db import close_old_connections

import sandbox
from arena.play.recorder import results_recorder

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings.base")

app = Celery("arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def recycle_database_connections(sender: Any = None, **_kwargs: Any) -> None:
    """Treat a task like a request: keep the connection (CONN_MAX_AGE) unless it
    is too old or broken, and health-check it before first use (CONN_HEALTH_CHECKS).

    Celery's own fixup would close it after every task (see CELERY_DB_REUSE_MAX).
    An eager task (`apply`, `delay` in tests) runs inside its caller's transaction,
    which is not ours to end.
    """
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    close_old_connections()


@worker_process_shutdown.connect
def finish_result_writes(**_kwargs: Any) -> None:
    """A pool process that exits (warm shutdown, max tasks per child) first writes
    the result it still holds (arena.play.recorder)."""
    if not results_recorder().wait(timeout=60):
        logging.getLogger(__name__).error("a match result was still being written at exit")


def runs_bots(consumer: Any) -> bool:
    """Whether this worker takes a queue whose tasks run uploaded bots. One that takes
    only the analyses' (a search in-process) and the notifications' runs none: it has
    no sandbox (compose's analysis-worker gets no Docker socket) and needs none."""
    botless = {settings.ARENA_ANALYSIS_QUEUE, settings.ARENA_NOTIFICATIONS_QUEUE}
    return bool(set(consumer.app.amqp.queues.consume_from) - botless)


@worker_ready.connect
def clean_up_after_dead_workers(sender: Any = None, **_kwargs: Any) -> None:
    """Bot containers and cgroups of workers killed on this host go as soon as a worker
    starts, not at the next periodic clean-up; and a worker whose sandbox cannot
    isolate uploaded bots (no Docker image, no cgroups for bwrap) says so at the start.
    `sender` is the worker's consumer; a worker that runs no bots skips both."""
    logger = logging.getLogger(__name__)
    if sender is not None and not runs_bots(sender):
        logger.info("this worker runs no uploaded bots: no sandbox to clean up or check")
        return
    try:
        removed = sandbox.cleanup_orphans()
    except Exception:
        logger.exception("could not remove what dead workers left")
    else:
        logger.info("removed %d bot containers and cgroups of dead workers", removed)
    problem = sandbox.backend_problem(
        settings.ARENA_SANDBOX_BACKEND,
        image=settings.ARENA_SANDBOX_IMAGE,
        runtime=settings.ARENA_SANDBOX_RUNTIME or None,
    )
    if problem is not None:
        logger.error("the sandbox cannot isolate uploaded bots here: %s", problem)
