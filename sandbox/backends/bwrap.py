"""The `bwrap` backend: bubblewrap namespaces on a machine without Docker.

Every namespace is unshared (so no network at all), the bot sees read-only binds
of the interpreter, its libraries and the engine, its own code read-only at /bot,
and a private /tmp. bwrap is started from an empty environment: `--clearenv`
alone would still leave the launcher's variables readable at /proc/1/environ
inside the sandbox. Killing bwrap kills the sandbox's PID 1 (`--die-with-parent`),
and with it every process of the namespace, daemonized or not.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from sandbox.backends.cgroups import BotCgroup
from sandbox.backends.local import engine_parent, interpreter
from sandbox.backends.pipes import PipeProcess
from sandbox.bootstrap import python_argv
from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.program import BotProgram

BOT_DIR = "/bot"
ENGINE_DIR = "/opt/onecard"
# The uid a bot has inside its namespace: "nobody".
BOT_UID = 65534
# Paths inside the sandbox, on its own private tmpfs mounts (not the host's /tmp).
SANDBOX_TMP = "/tmp"  # noqa: S108
SANDBOX_SHM = "/dev/shm"  # noqa: S108


def bwrap_path() -> str | None:
    return shutil.which("bwrap", path=os.defpath + ":/usr/local/bin")


def _system_binds() -> list[str]:
    """Read-only binds of what the interpreter needs: itself, its stdlib, shared libraries."""
    args: list[str] = []
    for top in ("/lib", "/lib64", "/lib32", "/bin"):
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), top]
        elif path.is_dir() and top != "/bin":
            args += ["--ro-bind", top, top]
    for library in ("/usr/lib", "/usr/lib64", "/usr/lib32"):
        if Path(library).is_dir():
            args += ["--ro-bind", library, library]
    python = interpreter()
    prefix = Path(sys.base_prefix)
    # A Python outside /usr (pyenv, a build in /opt) keeps stdlib and libpython in its prefix.
    prefix_lib = prefix / sys.platlibdir
    if not str(prefix_lib).startswith("/usr/lib"):
        args += ["--ro-bind", str(prefix_lib), str(prefix_lib)]
    args += ["--ro-bind", python, python]
    return args


def bwrap_argv(program: BotProgram, limits: Limits, bwrap: str) -> list[str]:
    """The bwrap command line that runs `program` (exposed for tests and benchmarks)."""
    engine_src = Path(engine_parent()) / "engine"
    if program.is_directory:
        code = ["--ro-bind", str(program.path.resolve()), BOT_DIR]
    else:
        code = ["--ro-bind", str(program.path.resolve()), f"{BOT_DIR}/{program.entry_name}"]
    return [
        bwrap,
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
        "--cap-drop",
        "ALL",
        "--uid",
        str(BOT_UID),
        "--gid",
        str(BOT_UID),
        "--hostname",
        "bot",
        *_system_binds(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(limits.shm_bytes),
        "--tmpfs",
        SANDBOX_SHM,
        "--size",
        str(limits.tmpfs_bytes),
        "--tmpfs",
        SANDBOX_TMP,
        "--ro-bind",
        str(engine_src),
        f"{ENGINE_DIR}/engine",
        *code,
        "--remount-ro",
        "/",
        "--chdir",
        SANDBOX_TMP,
        *python_argv(interpreter(), f"{BOT_DIR}/{program.entry_name}", ENGINE_DIR),
    ]


def launch_bwrap(program: BotProgram, limits: Limits) -> PipeProcess:
    bwrap = bwrap_path()
    if bwrap is None:
        raise InfrastructureError("bubblewrap (bwrap) is not installed")
    cgroup = BotCgroup.create(memory_bytes=limits.memory_bytes, pids=limits.pids)
    return PipeProcess(bwrap_argv(program, limits, bwrap), limits, backend="bwrap", cgroup=cgroup)
