"""A real Celery worker process runs tasks sent through the configured broker."""

from types import SimpleNamespace

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

import arena.celery
from arena.core.tasks import probe
from tests.sandbox.harness import require_backend
from tests.support.worker import start_worker, stop_worker
from tests.test_layout import _is_stdlib


@pytest.mark.slow
def test_task_completes_on_a_real_worker(celery_worker_process):
    result = probe.delay()
    info = result.get(timeout=60)
    assert _is_stdlib(info["platform_module"])
    assert info["python_version"]


@pytest.mark.slow
def test_a_worker_keeps_its_database_session_between_tasks(transactional_db):
    # Celery's Django fixup would close the connection after every task: a new
    # PostgreSQL session (a forked backend) per match. CELERY_DB_REUSE_MAX and
    # arena.celery's own handler keep it, as Django keeps one across requests.
    if connection.vendor != "postgresql":
        pytest.skip("sessions are PostgreSQL's (CI runs it)")
    process = start_worker(concurrency=1, hostname="session-worker")
    try:
        sessions = {probe.delay().get(timeout=60)["database_session"] for _ in range(3)}
    finally:
        stop_worker(process)
    assert len(sessions) == 1, sessions


def test_healthz_reports_database(client, db):
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


def test_healthz_says_when_uploaded_bots_cannot_run(client, db, settings):
    # The tests' subprocess backend isolates nothing: uploaded bots would be refused.
    settings.ARENA_SANDBOX_BACKEND = "subprocess"
    response = client.get("/healthz/")
    assert response.status_code == 200  # the site itself is up
    assert response.json()["sandbox"] == "the subprocess backend does not isolate bots"
    assert client.get("/healthz/?sandbox=required").status_code == 503


@pytest.mark.docker
def test_healthz_says_when_the_oci_runtime_asked_for_is_missing(client, db, settings):
    require_backend("docker")
    settings.ARENA_SANDBOX_BACKEND = "docker"
    settings.ARENA_SANDBOX_RUNTIME = "onecard-no-such-runtime"
    response = client.get("/healthz/?sandbox=required")
    assert response.status_code == 503
    assert response.json()["sandbox"].startswith(
        "OCI runtime 'onecard-no-such-runtime' is not registered with the Docker engine"
    )


def test_worker_health_fails_with_the_sandbox_reason(db, settings):
    settings.ARENA_SANDBOX_BACKEND = "subprocess"
    with pytest.raises(CommandError, match="the subprocess backend does not isolate bots"):
        call_command("arena_worker_health")


@pytest.mark.docker
@pytest.mark.redis
def test_worker_health_fails_when_no_worker_answers(db, settings):
    require_backend("docker")
    settings.ARENA_SANDBOX_BACKEND = "docker"
    with pytest.raises(CommandError, match=r"worker@nobody-here did not answer within 0\.5 s"):
        call_command("arena_worker_health", "--node", "worker@nobody-here", "--timeout", "0.5")


@pytest.mark.redis
def test_worker_health_without_sandbox_checks_only_that_the_worker_answers(db, settings):
    # The analysis worker has no sandbox: the tests' subprocess backend is no reason.
    settings.ARENA_SANDBOX_BACKEND = "subprocess"
    with pytest.raises(CommandError, match=r"analysis@nobody-here did not answer within 0\.5 s"):
        call_command(
            "arena_worker_health",
            "--without-sandbox",
            "--node",
            "analysis@nobody-here",
            "--timeout",
            "0.5",
        )


def consumer_of(*queues: str) -> SimpleNamespace:
    """What worker_ready sends: the consumer, whose app says what it consumes."""
    selected = SimpleNamespace(consume_from={name: object() for name in queues})
    return SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(queues=selected)))


def test_a_worker_that_runs_no_bots_neither_cleans_up_nor_checks_a_sandbox(monkeypatch):
    cleaned: list[str] = []
    monkeypatch.setattr(arena.celery.sandbox, "cleanup_orphans", lambda: cleaned.append("x") or 0)
    analysis = django_settings.ARENA_ANALYSIS_QUEUE
    notifications = django_settings.ARENA_NOTIFICATIONS_QUEUE
    assert not arena.celery.runs_bots(consumer_of(analysis))
    assert not arena.celery.runs_bots(consumer_of(analysis, notifications))
    arena.celery.clean_up_after_dead_workers(sender=consumer_of(analysis))
    assert cleaned == []
    for bots in (django_settings.ARENA_TABLES_QUEUE, django_settings.CELERY_TASK_DEFAULT_QUEUE):
        assert arena.celery.runs_bots(consumer_of(analysis, bots))
        arena.celery.clean_up_after_dead_workers(sender=consumer_of(bots))
    assert cleaned == ["x", "x"]
