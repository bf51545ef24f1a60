"""A worker killed mid-match leaves nothing behind for long.

bwrap sandboxes die with their worker (`--die-with-parent`); a container outlives
it, and `cleanup_orphans` removes it because its owner pid is gone.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import sandbox
from sandbox.backends import cgroups
from sandbox.backends.cgroups import LEAF_PREFIX, BotCgroup, parent_dirs
from sandbox.backends.docker import docker_client
from sandbox.limits import MIB
from tests.sandbox.harness import ISOLATING_BACKENDS, processes_with, render, require_backend

REPO_ROOT = Path(__file__).resolve().parents[2]

WORKER = """
import json, sys, time
from pathlib import Path
from sandbox.backends.select import launcher_for
from sandbox.limits import Limits
from sandbox.program import BotProgram

launch = launcher_for(sys.argv[1], image=None, runtime=None)
bot = launch(BotProgram("orphan", Path(sys.argv[2])), Limits())
bot.exchange(b'{"type": "start"}\\n', time.monotonic() + 30)
print(json.dumps({"container": getattr(bot, "container_id", None)}), flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize(
    "backend", [pytest.param(name, marks=getattr(pytest.mark, name)) for name in ISOLATING_BACKENDS]
)
def test_nothing_of_a_killed_workers_bots_survives_cleanup(backend: str, tmp_path: Path) -> None:
    require_backend(backend)
    marker = f"onecard-orphan-{uuid.uuid4().hex}"
    bot = render("daemon_child.py", tmp_path, marker=marker)
    worker = subprocess.Popen(
        [sys.executable, "-c", WORKER, backend, str(bot)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    assert worker.stdout is not None
    started = json.loads(worker.stdout.readline())
    appeared = time.monotonic() + 5
    while not processes_with(marker) and time.monotonic() < appeared:
        time.sleep(0.02)  # the daemon is exec'd after the bot has replied
    assert processes_with(marker), "the bot's daemon should be running"
    worker.send_signal(signal.SIGKILL)
    worker.wait()  # reaped, so its pid is dead for the clean-up too

    deadline = time.monotonic() + 10
    while processes_with(marker) and backend == "bwrap" and time.monotonic() < deadline:
        time.sleep(0.05)  # the kernel tears the namespace down on its own
    removed = sandbox.cleanup_orphans()

    assert processes_with(marker) == []
    workers_groups = f"{LEAF_PREFIX}{worker.pid}-*"
    assert [leaf for parent in parent_dirs() for leaf in parent.glob(workers_groups)] == []
    if backend == "docker":
        assert removed >= 1
        assert started["container"] not in {c["Id"] for c in docker_client().containers(all=True)}


def test_cleanup_takes_a_reused_pid_for_a_dead_owner(monkeypatch: pytest.MonkeyPatch) -> None:
    """A group named after this process's pid but another start time was made by a
    dead worker whose pid this process got (a worker restarted in its container):
    the clean-up kills what runs in it and removes it; this process's own stays."""
    if os.geteuid() != 0:
        pytest.fail("cgroups are tested as root (CI runs as root)")
    with monkeypatch.context() as earlier:
        earlier.setattr(cgroups, "start_ticks", lambda pid: 1)
        stale = BotCgroup.create(memory_bytes=64 * MIB, pids=8, cpus=1.0)
    own = BotCgroup.create(memory_bytes=64 * MIB, pids=8, cpus=1.0)
    join = 'for f in "$@"; do echo $$ > "$f"; done; exec sleep 600'
    left = subprocess.Popen(["sh", "-c", join, "sh", *stale.procs_files()])
    try:
        deadline = time.monotonic() + 5
        while left.pid not in stale.pids() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert left.pid in stale.pids()
        sandbox.cleanup_orphans()
        assert left.wait(timeout=5) == -signal.SIGKILL
        assert not any(path.exists() for path in stale.paths)
        assert all(path.exists() for path in own.paths)
    finally:
        left.kill()
        left.wait()
        for group in (stale, own):
            group.kill_all()
            group.remove()
