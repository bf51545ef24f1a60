"""Celery tasks of the bots app: thin interfaces over services, ids only."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from sandbox.errors import InfrastructureError

from .qualification import bot_version_qualify
from .services import bot_versions_stale_for_qualification


@shared_task(
    name="arena.bots.qualify_version",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(InfrastructureError, OperationalError, InterfaceError),
    retry_backoff=10,
    retry_backoff_max=300,
    max_retries=5,
    soft_time_limit=600,
    time_limit=660,
)
def qualify_version(version_id: int) -> None:
    bot_version_qualify(version_id=version_id)


@shared_task(name="arena.bots.requeue_stale_qualifications", time_limit=60)
def requeue_stale_qualifications() -> None:
    """Re-send versions stuck in pending or qualifying (a lost message, a dead worker).
    A duplicate message is harmless: qualification re-checks the status under a lock."""
    for version_id in bot_versions_stale_for_qualification():
        qualify_version.delay(version_id)
