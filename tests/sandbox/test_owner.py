"""Who owns a bot's container or cgroup: a dead owner is dead even before it is reaped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from sandbox.owner import pid_alive, start_ticks, still_running


def test_a_running_process_has_a_start_and_keeps_it():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        ticks = start_ticks(child.pid)
        assert ticks is not None
        assert still_running(child.pid, ticks)
        assert not still_running(child.pid, ticks + 1)  # another process under that pid
        assert pid_alive(child.pid)
    finally:
        child.kill()
        child.wait()


def test_a_killed_owner_not_yet_reaped_is_gone():
    # A worker killed with its pool (SIGKILL to the group) leaves the pool process a
    # zombie until some init reaps it; its bots must not wait for that.
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    ticks = start_ticks(child.pid)
    os.kill(child.pid, signal.SIGKILL)
    try:
        deadline = time.monotonic() + 10
        while _state(child.pid) != "Z" and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _state(child.pid) == "Z"  # dead, and not reaped: this test is its parent
        assert start_ticks(child.pid) is None
        assert not still_running(child.pid, ticks)
        assert not pid_alive(child.pid)
    finally:
        child.wait()
    assert start_ticks(child.pid) is None


def _state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()[0]
