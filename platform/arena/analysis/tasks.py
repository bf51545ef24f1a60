"""The analysis tasks: thin, ids in, nothing out, on ARENA_ANALYSIS_QUEUE (routed
there by name in the settings, `arena.analysis.*`)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from .services import ANALYSE_TASK, SWEEP_TASK, analyses_resend_stalled, analysis_run


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


# Beat's, every ARENA_ANALYSIS_SWEEP_SECONDS. On the analyses' queue like the rest:
# it runs where analyses run, so a site with no analysis worker piles up no
# messages, and while the worker is busy the sweep waits (`expires` drops it).
@shared_task(name=SWEEP_TASK, time_limit=60)
def sweep_stalled_analyses() -> None:
    analyses_resend_stalled()
