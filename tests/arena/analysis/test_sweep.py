"""Beat's sweep sends again the analyses whose worker died or whose message was
lost, within the attempt limit (on the real database; the last test through a real
worker and broker)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.analysis import services
from arena.analysis.models import Analysis, AnalysisDecision
from arena.analysis.selectors import analysis_is_stalled, analysis_lease_seconds
from arena.analysis.services import ANALYSE_TASK, SWEEP_TASK, analyses_resend_stalled
from arena.analysis.tasks import sweep_stalled_analyses
from arena.celery import app
from arena.matches.models import Match
from tests.arena.factories import StaffFactory
from tests.support.worker import wait_for

from .games import example_log, stored_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, tuple[int, ...]]]:
    """The tasks sent to the broker, by name and arguments, instead of sending them."""
    messages: list[tuple[str, tuple[int, ...]]] = []

    def record(name, args=(), **options):
        messages.append((name, tuple(args)))

    monkeypatch.setattr(app, "send_task", record)
    return messages


def run_sent(messages: list[tuple[str, tuple[int, ...]]]) -> None:
    """Run each sent task as a worker would, by its name."""
    for name, args in messages:
        app.tasks[name].apply(args=args, throw=True)


def stalled_analysis(**fields) -> Analysis:
    """An analysis of a ladder game, left as a dead worker or a lost message left it."""
    game = stored_game(example_log(players=2, seed=3), kind=Match.Kind.LADDER)
    search = services.analysis_settings()
    analysis = Analysis.objects.create(
        game=game, settings_key=search.key, settings=search.to_dict(), requested_by=StaffFactory()
    )
    Analysis.objects.filter(pk=analysis.pk).update(**fields)
    analysis.refresh_from_db()
    return analysis


def sweep(django_capture_on_commit_callbacks) -> None:
    """Beat's task, run as the worker runs it; what it sends goes on commit."""
    with django_capture_on_commit_callbacks(execute=True):
        app.tasks[SWEEP_TASK].apply(throw=True)


def test_an_analysis_whose_lease_ran_out_is_sent_again_and_completes(
    sent, django_capture_on_commit_callbacks
):
    expired = timezone.now() - timedelta(seconds=1)
    analysis = stalled_analysis(state=Analysis.State.RUNNING, attempts=1, lease_expires_at=expired)
    assert analysis_is_stalled(analysis=analysis)
    sweep(django_capture_on_commit_callbacks)
    assert sent == [(ANALYSE_TASK, (analysis.pk,))]
    analysis.refresh_from_db()
    # Queued again until a worker claims it; no longer stalled, so not sent twice.
    assert analysis.state == Analysis.State.QUEUED
    assert not analysis_is_stalled(analysis=analysis)
    run_sent(sent)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.DONE, analysis.error
    assert analysis.attempts == 2
    assert analysis.decisions.count() == analysis.decisions_total > 0


def test_an_analysis_queued_longer_than_a_lease_is_sent_again_once_per_lease(
    sent, django_capture_on_commit_callbacks
):
    lease = timedelta(seconds=analysis_lease_seconds())
    lost = stalled_analysis(created_at=timezone.now() - lease - timedelta(seconds=1))
    fresh = stalled_analysis()
    assert analysis_is_stalled(analysis=lost)
    assert not analysis_is_stalled(analysis=fresh)
    sweep(django_capture_on_commit_callbacks)
    assert sent == [(ANALYSE_TASK, (lost.pk,))]
    # The next sweeps within a lease send nothing more: the message may just be
    # waiting behind other analyses.
    sweep(django_capture_on_commit_callbacks)
    assert len(sent) == 1
    later = timezone.now() + lease + timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert analyses_resend_stalled(now=later) == sorted([lost.pk, fresh.pk])
    assert sent[1:] == [(ANALYSE_TASK, (lost.pk,)), (ANALYSE_TASK, (fresh.pk,))]
    run_sent(sent)
    lost.refresh_from_db()
    assert lost.state == Analysis.State.DONE, lost.error
    assert lost.attempts == 1, "a lost message costs no attempt; its duplicates find it done"


def test_an_analysis_under_a_live_lease_or_finished_is_left_alone(
    sent, django_capture_on_commit_callbacks
):
    alive = timezone.now() + timedelta(minutes=5)
    running = stalled_analysis(state=Analysis.State.RUNNING, attempts=1, lease_expires_at=alive)
    old = timezone.now() - timedelta(days=1)
    done = stalled_analysis(state=Analysis.State.DONE, created_at=old)
    failed = stalled_analysis(state=Analysis.State.FAILED, created_at=old, attempts=3)
    for analysis in (running, done, failed):
        assert not analysis_is_stalled(analysis=analysis)
    sweep(django_capture_on_commit_callbacks)
    assert sent == []
    running.refresh_from_db()
    assert (running.state, running.attempts, running.lease_expires_at) == (
        Analysis.State.RUNNING,
        1,
        alive,
    )
    assert Analysis.objects.get(pk=done.pk).state == Analysis.State.DONE
    assert Analysis.objects.get(pk=failed.pk).state == Analysis.State.FAILED


def test_an_analysis_at_its_attempt_limit_ends_failed(sent, django_capture_on_commit_callbacks):
    expired = timezone.now() - timedelta(seconds=1)
    analysis = stalled_analysis(
        state=Analysis.State.RUNNING, attempts=services.MAX_ATTEMPTS, lease_expires_at=expired
    )
    AnalysisDecision.objects.create(
        analysis=analysis, number=0, seat=0, turn=0, kind="turn", preferred={}, candidates=1
    )
    sweep(django_capture_on_commit_callbacks)
    assert sent == [(ANALYSE_TASK, (analysis.pk,))]
    run_sent(sent)
    analysis.refresh_from_db()
    assert analysis.state == Analysis.State.FAILED
    assert analysis.error == "The analysis stopped 3 times without finishing."
    assert analysis.attempts == services.MAX_ATTEMPTS
    assert analysis.finished_at is not None
    # Failed, it is swept no more.
    sweep(django_capture_on_commit_callbacks)
    assert len(sent) == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_sweep_restarts_a_dead_workers_analysis_on_a_real_worker(celery_worker_process):
    expired = timezone.now() - timedelta(seconds=1)
    analysis = stalled_analysis(state=Analysis.State.RUNNING, attempts=1, lease_expires_at=expired)
    # Sent by name to the analyses' queue, as beat sends it.
    sweep_stalled_analyses.delay()

    def finished() -> Analysis | None:
        row = Analysis.objects.get(pk=analysis.pk)
        return row if row.state in (Analysis.State.DONE, Analysis.State.FAILED) else None

    row = wait_for(finished, timeout=120, interval=0.5, what="the analysis on the worker")
    assert row.state == Analysis.State.DONE, row.error
    assert row.attempts == 2
    assert row.decisions.count() == row.decisions_total > 0
