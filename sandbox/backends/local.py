"""The `subprocess` backend: rlimits only, for a person's own trusted bots.

No isolation at all: the bot sees the machine as the user who runs it. The
platform uses it for uploaded bots only when a setting explicitly allows it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

import engine
from sandbox.backends.cgroups import BotCgroup
from sandbox.backends.pipes import PipeProcess
from sandbox.bootstrap import python_argv
from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.program import BotProgram


def interpreter() -> str:
    """The real interpreter behind this one (a venv's python is a symlink to it)."""
    return os.path.realpath(getattr(sys, "_base_executable", sys.executable))


def engine_parent() -> str:
    """The directory that holds the `engine` package."""
    return str(Path(engine.__file__).resolve().parent.parent)


def launch_subprocess(program: BotProgram, limits: Limits) -> PipeProcess:
    entry = program.source_file().resolve()
    # As root the kernel ignores RLIMIT_NPROC, so a cgroup is the only pids limit.
    # These bots are trusted: without a cgroup they run on rlimits alone.
    cgroup = None
    with contextlib.suppress(InfrastructureError):
        cgroup = BotCgroup.create(
            memory_bytes=limits.memory_bytes, pids=limits.pids, cpus=limits.cpus
        )
    return PipeProcess(
        python_argv(interpreter(), str(entry), engine_parent()),
        limits,
        backend="subprocess",
        cgroup=cgroup,
        cwd=str(entry.parent),
    )
