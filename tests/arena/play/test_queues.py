"""Each kind of work goes to its own queue, and the workers consume every one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import current_app
from django.conf import settings
from django.utils import timezone

from arena.core.processes import arena_children
from arena.matches.models import Match
from arena.matches.services import match_create
from arena.play.leases import match_claim, matches_requeue_expired, matches_resend_queued
from arena.tournaments.models import Tournament
from tests.arena.factories import ActiveBotVersionFactory, UserFactory
from tests.support.worker import worker_argv, worker_queues

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """(task name, args, queue) of every task sent to the broker, routed as Celery
    routes it."""
    calls = []

    def send_task(name, args=(), **options):
        routed = current_app.amqp.router.route(dict(options), name, args, {})
        calls.append((name, tuple(args), routed["queue"].name))

    monkeypatch.setattr("arena.core.queueing.current_app.send_task", send_task)
    return calls


def _tournament() -> Tournament:
    return Tournament.objects.create(
        name="Cup", created_by=UserFactory(), format="round_robin", ruleset={}, seats=2, seed=1
    )


def _match(kind: str, **fields) -> Match:
    versions = [ActiveBotVersionFactory(), ActiveBotVersionFactory()]
    return match_create(kind=kind, versions=versions, ruleset=None, games=2, rated=False, **fields)


def test_a_matchs_run_goes_to_the_queue_of_its_kind(sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        ladder = _match(Match.Kind.LADDER)
        challenge = _match(Match.Kind.CHALLENGE)
        tournament = _match(Match.Kind.TOURNAMENT, tournament=_tournament())
    runs = {args[0]: queue for name, args, queue in sent if name == "arena.matches.run_match"}
    assert runs == {
        ladder.pk: "arena-test",
        challenge.pk: "arena-test",
        tournament.pk: "arena-test-tournaments",
    }


def test_tasks_sent_by_name_follow_their_routes():
    def queue_of(name: str) -> str:
        return current_app.amqp.router.route({}, name, (1,), {})["queue"].name

    assert queue_of("arena.bots.qualify_version") == "arena-test-qualification"
    assert queue_of("arena.tournaments.start_tournament") == "arena-test-tournaments"
    assert queue_of("arena.notifications.deliver") == "arena-test-notifications"
    # The periodic jobs and a match sent without its kind's queue: the default one.
    assert queue_of("arena.matches.sweep_expired_leases") == "arena-test"
    assert queue_of("arena.matches.run_match") == "arena-test"


def test_a_match_sent_again_goes_back_to_the_queue_of_its_kind(
    sent, django_capture_on_commit_callbacks
):
    """The sweeper's re-queue of an expired lease and its resend of a lost message keep
    a tournament's match on the tournaments' queue."""
    with django_capture_on_commit_callbacks(execute=True):
        lost = _match(Match.Kind.TOURNAMENT, tournament=_tournament())
        expired = _match(Match.Kind.TOURNAMENT, tournament=_tournament())
    assert match_claim(match_id=expired.pk, token="gone:1:x") is not None
    sent.clear()
    later = timezone.now() + timedelta(seconds=settings.ARENA_MATCH_LEASE_SECONDS + 1)
    with django_capture_on_commit_callbacks(execute=True):
        assert matches_requeue_expired(now=later) == [expired.pk]
    with django_capture_on_commit_callbacks(execute=True):
        resent = matches_resend_queued(
            now=later + timedelta(seconds=settings.ARENA_MATCH_RESEND_SECONDS + 1)
        )
    assert set(resent) == {lost.pk, expired.pk}
    assert {queue for _name, _args, queue in sent} == {"arena-test-tournaments"}


def test_every_worker_consumes_every_queue():
    declared = {queue.name for queue in settings.CELERY_TASK_QUEUES}
    assert declared == {
        "arena-test",
        "arena-test-notifications",
        "arena-test-tournaments",
        "arena-test-qualification",
        "arena-test-analysis",
        "arena-test-tables",
    }
    # The tests' real worker names them all.
    argv = worker_argv(concurrency=1, hostname="w")
    assert set(argv[argv.index("-Q") + 1].split(",")) == declared == set(worker_queues())
    # `make run`'s worker consumes every declared queue but the analyses', which
    # its analysis worker alone consumes: a match never waits behind an analysis.
    children = {
        child.name: child.argv
        for child in arena_children(
            host="h",
            port=1,
            concurrency=1,
            var_dir=settings.VAR_DIR,
            analysis_queue=settings.ARENA_ANALYSIS_QUEUE,
            tables_queue=settings.ARENA_TABLES_QUEUE,
        )
    }
    worker, analysis = children["worker"], children["analysis-worker"]
    assert "-Q" not in worker
    assert [arg for arg in worker if arg.startswith(("--queues", "-X", "--exclude-queues"))] == [
        f"--exclude-queues={settings.ARENA_ANALYSIS_QUEUE},{settings.ARENA_TABLES_QUEUE}"
    ]
    assert f"--queues={settings.ARENA_ANALYSIS_QUEUE}" in analysis
    # A table waits on a person: its own worker, never in front of a ladder match.
    assert f"--queues={settings.ARENA_TABLES_QUEUE}" in children["tables-worker"]
