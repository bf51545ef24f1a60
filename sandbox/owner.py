"""Who owns a bot's container or cgroup, and whether that owner still runs.

A pid alone does not name a process for long: a worker restarted in the same
container gets the same small pids as the one that was killed, and would take the
dead worker's bots for its own. So an owner is its host, its pid and the moment it
started (clock ticks since boot, `/proc/<pid>/stat`), with the boot's id where the
resource outlives a reboot (a container does; a cgroup does not).
"""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path

# /proc/<pid>/stat: the fields after the command's closing parenthesis start with
# the third (state); the 22nd is the start time.
_START_FIELD = 22 - 3


def host_name() -> str:
    return socket.gethostname()


def boot_id() -> str:
    with contextlib.suppress(OSError):
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    return ""


def start_ticks(pid: int) -> int | None:
    """When `pid` started, in clock ticks since boot; None if there is no such process.
    A zombie counts as none: it is dead, and whether its parent (or, for a killed
    worker's pool process, the host's init) has reaped it yet is no business of ours.

    >>> start_ticks(os.getpid()) == start_ticks(os.getpid()) is not None
    True
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, *fields = stat.rpartition(")")[2].split()
    if state in ("Z", "X"):
        return None
    return int(fields[_START_FIELD - 1])


def pid_alive(pid: int) -> bool:
    """Is there a live process `pid` (a zombie is not one)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return start_ticks(pid) is not None


def still_running(pid: int, ticks: int | None) -> bool:
    """Is the process `pid` that started at `ticks` still there? With `ticks` None
    (an owner recorded without it) only the pid is judged."""
    if ticks is None:
        return pid_alive(pid)
    return start_ticks(pid) == ticks
