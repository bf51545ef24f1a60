"""Writes on analyses: a request (permission, quota, one per game and settings)
and the run itself, which stores each decision as soon as it is computed.

The run is the Celery task ANALYSE_TASK (`arena.analysis.tasks`) on its own queue,
ARENA_ANALYSIS_QUEUE. A worker claims the analysis under a row lock and holds it
for `analysis_lease_seconds()`. An analysis whose worker is gone, or whose message
was lost, is sent again by the periodic sweep (`analyses_resend_stalled`) or by
the next request for it, whichever comes first; the claim then starts it over.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, transaction
from django.utils import timezone

from arena.core.queueing import task_queue_on_commit
from arena.matches.models import Game
from arena.matches.selectors import game_log
from sandbox.analysis import (
    SEARCH_VERSION,
    Decision,
    SearchSettings,
    decisions_count,
    game_decisions,
)

from .models import Analysis, AnalysisDecision
from .selectors import (
    analyses_left_today,
    analyses_stalled,
    analysis_is_stalled,
    analysis_lease_seconds,
    analysis_request_refusal,
    analysis_settings,
)

logger = logging.getLogger(__name__)

ANALYSE_TASK = "arena.analysis.analyse_game"
SWEEP_TASK = "arena.analysis.sweep_stalled_analyses"
# Runs started over after their worker died, before the analysis is failed.
MAX_ATTEMPTS = 3


def analysis_request(*, user: Any, game: Game) -> Analysis:
    """The game's analysis under the current settings, created and queued if there
    is none (one of the user's ARENA_ANALYSES_PER_DAY), else the one there is, sent
    again if its worker is gone. Raises PermissionDenied for who may not ask."""
    refusal = analysis_request_refusal(user=user, game=game)
    if refusal is not None:
        raise PermissionDenied(refusal)
    search = analysis_settings()
    with transaction.atomic():
        # The user's row serializes their requests, so the quota cannot be overrun.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        existing = (
            Analysis.objects.select_for_update().filter(game=game, settings_key=search.key).first()
        )
        if existing is not None:
            if analysis_is_stalled(analysis=existing):
                _analysis_resend(existing, now=timezone.now())
            return existing
        if not user.is_staff and analyses_left_today(user=user) <= 0:
            raise ValidationError(
                {
                    "game": [
                        f"Daily limit of {settings.ARENA_ANALYSES_PER_DAY} analyses reached: "
                        "ask again tomorrow (UTC)."
                    ]
                }
            )
        analysis = Analysis.objects.create(
            game=game, settings_key=search.key, settings=search.to_dict(), requested_by=user
        )
        task_queue_on_commit(ANALYSE_TASK, analysis.pk)
    return analysis


def analyses_resend_stalled(*, now: datetime | None = None, limit: int = 100) -> list[int]:
    """Send the task again for every stalled analysis (`analyses_stalled`): a
    worker that died in a run, a message the broker lost. The claim decides what
    happens next (a start over, or the failure at MAX_ATTEMPTS). Returns the ids,
    sent on commit; rows a request holds are left to it."""
    now = now or timezone.now()
    with transaction.atomic():
        stalled = list(
            analyses_stalled(now=now).select_for_update(skip_locked=True).order_by("pk")[:limit]
        )
        for analysis in stalled:
            _analysis_resend(analysis, now=now)
    return [analysis.pk for analysis in stalled]


def _analysis_resend(analysis: Analysis, *, now: datetime) -> None:
    """Queue the stalled analysis again and send its task on commit. Until a worker
    claims it, its lease is the time to send it once more: a long queue gets one
    extra message per analysis per lease, not one per sweep (a duplicate is
    harmless: the claim takes an analysis once). Expects the row lock."""
    analysis.state = Analysis.State.QUEUED
    analysis.lease_expires_at = now + timedelta(seconds=analysis_lease_seconds())
    analysis.save(update_fields=["state", "lease_expires_at"])
    task_queue_on_commit(ANALYSE_TASK, analysis.pk)


def _analysis_claim(*, analysis_id: int) -> Analysis | None:
    """Take the analysis for this worker (None: done, failed, gone, or another
    worker holds it). A run after a dead worker's starts over."""
    with transaction.atomic():
        analysis = (
            # The analysis row only: the game's is the matches' to write.
            Analysis.objects.select_for_update(of=("self",))
            .select_related("game")
            .filter(pk=analysis_id)
            .first()
        )
        if analysis is None or analysis.state in (Analysis.State.DONE, Analysis.State.FAILED):
            return None
        if analysis.state == Analysis.State.RUNNING and not analysis_is_stalled(analysis=analysis):
            return None
        if analysis.attempts >= MAX_ATTEMPTS:
            _analysis_finish(
                analysis,
                error=f"The analysis stopped {MAX_ATTEMPTS} times without finishing.",
            )
            return None
        now = timezone.now()
        analysis.decisions.all().delete()
        analysis.state = Analysis.State.RUNNING
        analysis.attempts += 1
        analysis.started_at = now
        analysis.lease_expires_at = now + timedelta(seconds=analysis_lease_seconds())
        analysis.error = ""
        analysis.save(
            update_fields=["state", "attempts", "started_at", "lease_expires_at", "error"]
        )
        return analysis


def _analysis_finish(analysis: Analysis, *, error: str = "") -> None:
    """Done, or failed with `error` (a sentence for the user). Expects the row lock."""
    analysis.state = Analysis.State.FAILED if error else Analysis.State.DONE
    analysis.error = error
    analysis.finished_at = timezone.now()
    analysis.lease_expires_at = None
    analysis.save(update_fields=["state", "error", "finished_at", "lease_expires_at"])


def _held(analysis: Analysis) -> Analysis | None:
    """The analysis locked, if this worker still holds it (same attempt, running)."""
    return (
        Analysis.objects.select_for_update()
        .filter(pk=analysis.pk, attempts=analysis.attempts, state=Analysis.State.RUNNING)
        .first()
    )


def _decision_store(analysis: Analysis, decision: Decision) -> bool:
    """Store one decision, committed at once so the viewer shows it; False when
    this worker no longer holds the analysis."""
    with transaction.atomic():
        if _held(analysis) is None:
            return False
        AnalysisDecision.objects.create(
            analysis=analysis,
            number=decision.number,
            seat=decision.seat,
            event=decision.event,
            turn=decision.turn,
            kind=decision.kind,
            under_attack=decision.under_attack,
            taken=decision.taken,
            taken_win=decision.taken_win,
            preferred=decision.preferred,
            preferred_win=decision.preferred_win,
            loss=decision.loss,
            agrees=decision.agrees,
            candidates=decision.candidates,
        )
    return True


def _analysis_stop(analysis: Analysis, *, error: str = "") -> None:
    with transaction.atomic():
        held = _held(analysis)
        if held is not None:
            _analysis_finish(held, error=error)


def analysis_run(*, analysis_id: int) -> None:
    """Analyse every decision of the game, storing each as it comes, within
    ARENA_ANALYSIS_GAME_SECONDS; a failure is stored as a sentence that says why."""
    analysis = _analysis_claim(analysis_id=analysis_id)
    if analysis is None:
        return
    search = SearchSettings(**analysis.settings)
    if search.version != SEARCH_VERSION:
        # Its results would be another version's under this version's key.
        _analysis_stop(
            analysis, error="The search bot changed since this analysis was asked for; ask again."
        )
        return
    log = game_log(game=analysis.game)
    budget = settings.ARENA_ANALYSIS_GAME_SECONDS
    deadline = time.monotonic() + budget
    done = 0
    try:
        total = decisions_count(log)
        Analysis.objects.filter(pk=analysis.pk).update(decisions_total=total)
        for decision in game_decisions(log, settings=search):
            if not _decision_store(analysis, decision):
                return
            done += 1
            if done < total and time.monotonic() > deadline:
                _analysis_stop(
                    analysis,
                    error=f"Stopped at its time budget of {budget} s, "
                    f"after {done} of {total} decisions.",
                )
                return
    except DatabaseError:
        raise  # the task retries
    except Exception as error:
        # The search or the log failed: say so on the page rather than leave it running.
        logger.exception("analysis %s failed at decision %d", analysis.pk, done)
        _analysis_stop(analysis, error=f"Could not analyse decision {done + 1}: {error}")
        return
    _analysis_stop(analysis)
