"""Doing damage for real: worker processes, PostgreSQL and Redis restarts, process trees.

The reliability tests need the CI services (PostgreSQL for the row locks, Redis as
the broker): `require_ci_services` skips without them, which CI=true turns into a
failure. Restarting a service disturbs every other client of it, so each helper
waits until the service answers again before it returns.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.worker import REPO_ROOT, wait_for, worker_argv, worker_environment

REDIS_START = [
    "redis-server",
    "--daemonize",
    "yes",
    "--bind",
    "127.0.0.1",
    "-::1",
    "--port",
    "6379",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    "/var/lib/redis",
    "--logfile",
    "/var/log/redis/ci.log",
]


def require_ci_services() -> None:
    """Skip unless the suite runs on PostgreSQL with a Redis broker, as CI does."""
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://... (CI does)")
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.skip("needs Redis as the broker: set CELERY_BROKER_URL=redis://... (CI does)")


# --- PostgreSQL and Redis -------------------------------------------------------------


def postgres_ready() -> bool:
    return subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"]).returncode == 0


def redis_ready() -> bool:
    done = subprocess.run(
        ["redis-cli", "-h", "127.0.0.1", "-p", "6379", "ping"], capture_output=True, text=True
    )
    return done.stdout.strip() == "PONG"


def _cluster_version() -> str:
    versions = sorted(os.listdir("/etc/postgresql"))
    if not versions:
        pytest.skip("no PostgreSQL cluster under /etc/postgresql to restart")
    return versions[-1]


def restart_postgres() -> None:
    """Restart the cluster (every connection drops) and wait until it accepts again."""
    from django.db import connections

    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", _cluster_version(), "main", "restart"],
        check=True,
        capture_output=True,
    )
    wait_for(postgres_ready, timeout=60, interval=0.5, what="PostgreSQL to accept connections")
    # This process's connections died with the server: open fresh ones on next use.
    connections.close_all()


def stop_redis() -> None:
    subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", "6379", "shutdown", "nosave"])
    wait_for(lambda: not redis_ready(), timeout=30, what="Redis to stop")


def start_redis() -> None:
    if not redis_ready():
        subprocess.run(REDIS_START, check=True, capture_output=True)
    wait_for(redis_ready, timeout=30, interval=0.2, what="Redis to answer")


@contextmanager
def redis_restored() -> Iterator[None]:
    """Whatever happens in the block, Redis is running again when it ends."""
    try:
        yield
    finally:
        start_redis()


# --- worker processes -----------------------------------------------------------------


class Worker:
    """A `celery worker` process with its own environment and log file."""

    def __init__(self, *, name: str, log_path: Path, concurrency: int, env: dict[str, str]):
        self.name = name
        self.log_path = log_path
        argv = worker_argv(concurrency=concurrency, hostname=name)
        self._log = log_path.open("wb")
        self.process = subprocess.Popen(
            argv,
            cwd=REPO_ROOT,
            env=worker_environment(env),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed as one
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_ready(self, timeout: float = 60) -> None:
        wait_for(lambda: " ready." in self.log(), timeout=timeout, what=f"{self.name} ready")

    def sigkill(self) -> None:
        """SIGKILL the main process and its pool at once, as the OOM killer or a lost
        machine would: nothing gets to clean up."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self, grace: float = 20.0) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()


@pytest.fixture
def workers(transactional_db, tmp_path) -> Iterator[Callable[..., Worker]]:
    """Start workers with `workers(name=..., concurrency=..., **env)`; all stop at the end."""
    started: list[Worker] = []

    def start(*, name: str = "worker", concurrency: int = 1, **env: Any) -> Worker:
        worker = Worker(
            name=f"{name}-{len(started)}",
            log_path=tmp_path / f"{name}-{len(started)}.log",
            concurrency=concurrency,
            env={key: str(value) for key, value in env.items()},
        )
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


# --- processes --------------------------------------------------------------------------


def children_of(pid: int) -> list[int]:
    """Every live descendant of `pid`, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: split after it.
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        current = frontier.pop()
        kids = [child for child, parent in parents.items() if parent == current]
        found.extend(kids)
        frontier.extend(kids)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"  # a zombie is dead, only not yet reaped
