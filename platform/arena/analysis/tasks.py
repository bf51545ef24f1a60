"""The analysis task: thin, an id in, nothing out, on ARENA_ANALYSIS_QUEUE (routed
there by name in the settings)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from .services import ANALYSE_TASK, analysis_run


@shared_task(
    name=ANALYSE_TASK,
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=5,
    max_retries=3,
    # The service stops itself at the game's budget; this kills a search stuck
    # inside one decision (the worker then counts as lost and the analysis is
    # started over, at most services.MAX_ATTEMPTS times).
    time_limit=settings.ARENA_ANALYSIS_GAME_SECONDS + 60,
)
def analyse_game(analysis_id: int) -> None:
    analysis_run(analysis_id=analysis_id)
