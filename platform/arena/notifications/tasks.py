"""Celery tasks of notifications: thin, ids only, on ARENA_NOTIFICATIONS_QUEUE.

The database bounds the attempts of a delivery (`ARENA_DELIVERY_MAX_ATTEMPTS`),
not Celery: `deliver` is queued again with the back-off the service asks for.
"""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .services import DELIVER_TASK, DISPATCH_TASK, delivery_attempt, notification_dispatch


@shared_task(
    name=DISPATCH_TASK,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=5,
    max_retries=5,
    soft_time_limit=30,
    time_limit=60,
)
def dispatch(notification_id: int) -> None:
    notification_dispatch(notification_id=notification_id)


@shared_task(
    name=DELIVER_TASK,
    bind=True,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=5,
    max_retries=5,
    # Above the webhook timeout and a slow SMTP server: one attempt, never a queue's worth.
    soft_time_limit=60,
    time_limit=90,
)
def deliver(self, delivery_id: int) -> None:
    retry_in = delivery_attempt(delivery_id=delivery_id)
    if retry_in is not None:
        raise self.retry(countdown=retry_in, max_retries=None)
