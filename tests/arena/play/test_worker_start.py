"""A worker that starts removes what workers killed on this host left behind: their
bot containers go at once, not at the next periodic clean-up (arena.celery's
worker_ready handler, through sandbox.cleanup_orphans).

The worker runs under a host name of its own (a UTS namespace), and the dead
workers' containers carry that name: so only it can judge them, not a clean-up that
another test on this machine runs meanwhile.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
import uuid

import docker.errors
import pytest

from sandbox.backends.docker import docker_client
from sandbox.labels import (
    BOT_LABEL,
    EXPIRES_LABEL,
    OWNER_HOST_LABEL,
    OWNER_PID_LABEL,
    OWNER_START_LABEL,
    owner_start,
)
from sandbox.owner import boot_id
from tests.sandbox.harness import require_backend
from tests.support.worker import (
    REPO_ROOT,
    stop_worker,
    wait_for,
    worker_argv,
    worker_environment,
)

IMAGE = "onecard-bot-runtime:latest"


@pytest.mark.slow
def test_a_starting_worker_removes_the_containers_of_dead_workers(transactional_db) -> None:
    require_backend("docker")
    api = docker_client()
    far = f"{time.time() + 3600:.0f}"
    host = f"start-cleanup-{uuid.uuid4().hex[:8]}"

    def container(pid: int, start: str) -> str:
        labels = {
            BOT_LABEL: "1",
            OWNER_HOST_LABEL: host,
            OWNER_PID_LABEL: str(pid),
            OWNER_START_LABEL: start,
            EXPIRES_LABEL: far,
        }
        created = api.create_container(IMAGE, command=["python3", "-c", "pass"], labels=labels)
        return str(created["Id"])

    def existing() -> set[str]:
        return {c["Id"] for c in api.containers(all=True, filters={"label": f"{BOT_LABEL}=1"})}

    killed = subprocess.Popen(["sleep", "600"])
    killed_start = owner_start(killed.pid)
    killed.kill()
    killed.wait()
    orphan = container(killed.pid, killed_start)  # created, never started: as a kill leaves it
    # A worker killed in a container that restarted: its pid is a live process's now.
    reused = container(os.getpid(), f"{boot_id()}:1")
    live = container(os.getpid(), owner_start(os.getpid()))
    argv = worker_argv(concurrency=1, hostname="start-cleanup")
    worker = subprocess.Popen(
        ["unshare", "--uts", "sh", "-c", 'hostname "$0" && exec "$@"', host, *argv],
        cwd=REPO_ROOT,
        env=worker_environment(),
        start_new_session=True,
    )
    try:
        wait_for(
            lambda: not {orphan, reused} & existing(),
            timeout=60,
            what="the starting worker to remove the dead workers' containers",
        )
        assert live in existing()
    finally:
        stop_worker(worker)
        for made in (orphan, reused, live):
            with contextlib.suppress(docker.errors.NotFound):
                api.remove_container(made, force=True, v=True)
