"""Celery tasks of playing: thin interfaces over the play package, ids only.

Their names are older than this module and stay as they are: they are what the
domain apps queue (arena.core.queueing), what beat schedules, and what messages
already in a broker carry.
"""

from __future__ import annotations

import logging
from typing import NoReturn

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from arena.bots.services import QUALIFY_VERSION_TASK, bot_versions_stale_for_qualification
from arena.matches.services import RUN_MATCH_TASK
from sandbox.cleanup import cleanup_orphans
from sandbox.errors import InfrastructureError

from .leases import matches_requeue_expired, matches_resend_queued
from .matchmaking import ladders_matchmake
from .qualification import bot_version_qualify
from .recorder import results_recorder
from .runner import Outcome, match_run
from .workers import worker_host_name, worker_host_quarantined, worker_hosts_review

logger = logging.getLogger(__name__)

# Backoff between attempts of a match whose sandbox was unavailable.
RETRY_COUNTDOWN_SECONDS = 30


@shared_task(
    name=RUN_MATCH_TASK,
    bind=True,
    acks_late=True,  # a worker that dies mid-match leaves the message to be redelivered
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError, InterfaceError),  # the database went away
    retry_backoff=5,
    retry_backoff_max=120,
    max_retries=5,
    soft_time_limit=2400,
    time_limit=2460,  # above the sandbox's own 30-minute cap on a match
)
def run_match(self, match_id: int) -> None:
    if worker_host_quarantined():
        _hand_back(self)
    # In a worker, the result is written while the process takes its next match
    # (arena.play.recorder); called eagerly (tests, a site without workers),
    # before the call returns.
    recorder = None if self.request.is_eager else results_recorder()
    if match_run(match_id=match_id, recorder=recorder) is Outcome.RETRY:
        # The match is queued again in the database; this message brings it back.
        raise self.retry(countdown=RETRY_COUNTDOWN_SECONDS, max_retries=None)


def _hand_back(task: Task) -> NoReturn:
    """On a quarantined host: send the task back to its queue for another worker,
    and stop this worker's consumers so that it is given no more."""
    logger.error(
        "worker host %s is quarantined: task %s handed back, %s stops consuming",
        worker_host_name(),
        task.name,
        task.request.hostname,
    )
    if task.request.hostname:
        for queue in task.app.amqp.queues:
            task.app.control.cancel_consumer(queue, destination=[task.request.hostname])
    raise task.retry(countdown=0, max_retries=None)


@shared_task(name="arena.matches.sweep_expired_leases", time_limit=60)
def sweep_expired_leases() -> None:
    matches_requeue_expired()
    matches_resend_queued()  # messages a broker restart lost


@shared_task(name="arena.matches.matchmake_ladders", time_limit=60)
def matchmake_ladders() -> None:
    ladders_matchmake()


@shared_task(name="arena.matches.cleanup_sandbox_orphans", time_limit=300)
def cleanup_sandbox_orphans() -> None:
    """Remove bot containers and processes left behind by a killed worker."""
    cleanup_orphans()


@shared_task(name="arena.play.review_worker_hosts", time_limit=60)
def review_worker_hosts() -> None:
    worker_hosts_review()


@shared_task(
    name=QUALIFY_VERSION_TASK,
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(InfrastructureError, OperationalError, InterfaceError),
    retry_backoff=10,
    retry_backoff_max=300,
    max_retries=5,
    soft_time_limit=600,
    time_limit=660,
)
def qualify_version(self, version_id: int) -> None:
    # A broken host would fail good uploads: a quarantined one qualifies nothing.
    if worker_host_quarantined():
        _hand_back(self)
    bot_version_qualify(version_id=version_id)


@shared_task(name="arena.bots.requeue_stale_qualifications", time_limit=60)
def requeue_stale_qualifications() -> None:
    """Re-send versions stuck in pending or qualifying (a lost message, a dead worker).
    A duplicate message is harmless: qualification re-checks the status under a lock."""
    for version_id in bot_versions_stale_for_qualification():
        qualify_version.delay(version_id)
