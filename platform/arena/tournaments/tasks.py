"""Celery tasks of the tournaments app: thin interfaces over services, ids only."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from .services import START_TOURNAMENT_TASK, tournament_start


@shared_task(
    name=START_TOURNAMENT_TASK,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),  # the database went away
    retry_backoff=5,
    max_retries=5,
    time_limit=300,
)
def start_tournament(tournament_id: int) -> None:
    tournament_start(tournament_id=tournament_id)
