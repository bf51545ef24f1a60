"""The Celery application shared by the web process, the workers and beat."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_shutdown
from django.db import close_old_connections

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
