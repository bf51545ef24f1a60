"""A real Celery worker process for end-to-end tests.

It runs `celery -A arena worker` as a separate process against the same test
database and broker as the test process, so tasks travel through the real broker
(Redis in CI, the embedded filesystem broker elsewhere).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def database_url(settings_dict: dict) -> str:
    """The DATABASE_URL of the database the tests are really using (the test one)."""
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        return f"sqlite:///{settings_dict['NAME']}"
    if engine.endswith("postgresql"):
        user = quote(settings_dict.get("USER") or "")
        password = settings_dict.get("PASSWORD") or ""
        auth = f"{user}:{quote(password)}@" if password else (f"{user}@" if user else "")
        host = settings_dict.get("HOST") or ""
        port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
        return f"postgres://{auth}{host}{port}/{settings_dict['NAME']}"
    raise RuntimeError(f"no DATABASE_URL for engine {engine}")


def worker_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    from django.db import connection

    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "arena.settings.test"
    env["DATABASE_URL"] = database_url(connection.settings_dict)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), str(REPO_ROOT / "platform")])
    env.update(extra or {})
    return env


def worker_queues() -> list[str]:
    """Every queue of the test settings: the ladder's, tournaments', qualification's,
    analysis's and notifications'."""
    from django.conf import settings

    return [queue.name for queue in settings.CELERY_TASK_QUEUES]


def worker_argv(*, concurrency: int, hostname: str) -> list[str]:
    """The command line of a real worker consuming every one of the tests' queues."""
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "arena",
        "worker",
        "--loglevel=INFO",
        f"--concurrency={concurrency}",
        "--pool=prefork",
        f"--hostname={hostname}@%h",
        "-Q",
        ",".join(worker_queues()),
        "--without-mingle",
        "--without-gossip",
    ]


def start_worker(
    *, concurrency: int = 2, hostname: str = "test-worker", extra_env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    argv = worker_argv(concurrency=concurrency, hostname=hostname)
    return subprocess.Popen(
        argv, cwd=REPO_ROOT, env=worker_environment(extra_env), start_new_session=True
    )


def stop_worker(process: subprocess.Popen[bytes], *, grace: float = 15.0) -> None:
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def wait_for(predicate, *, timeout: float, interval: float = 0.2, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


@pytest.fixture
def celery_worker_process(transactional_db) -> Iterator[subprocess.Popen[bytes]]:
    """A live worker for one test; the test's data must be committed (transactional_db)."""
    process = start_worker()
    try:
        yield process
    finally:
        stop_worker(process)
