"""The `bwrap` backend: bubblewrap namespaces on a machine without Docker.

Every namespace is unshared (so no network at all), the bot sees read-only binds
of the interpreter and its libraries, read-only copies of the engine and of its
own code (at /bot), and a private /tmp. When the worker is root, bwrap itself runs
as "nobody", so the bot is uid 65534 outside its namespace too. bwrap is started
from an empty environment: `--clearenv` alone would still leave the launcher's
variables readable at /proc/1/environ inside the sandbox. Killing bwrap kills the
sandbox's PID 1 (`--die-with-parent`), and with it every process of the
namespace, daemonized or not.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import engine
from sandbox.backends.cgroups import BotCgroup
from sandbox.backends.local import interpreter
from sandbox.backends.pipes import PipeProcess, drop_privileges
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


def bot_interpreter() -> str:
    """The Python that runs bots: the system's, if there is one, else this one.

    The system interpreter lives in world-readable /usr, so bwrap can run as an
    unprivileged user and still bind it (a pyenv build under /root could not be).
    """
    system = Path("/usr/bin/python3")
    return os.path.realpath(system) if system.exists() else interpreter()


def _reachable_by_others(path: Path) -> bool:
    """Can a uid with no business here ("other") read `path`?"""
    path = path.resolve()
    if not path.stat().st_mode & stat.S_IROTH:
        return False
    return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.parents)


def _system_binds(python: str) -> list[str]:
    """Read-only binds of what the interpreter needs: itself, its stdlib, shared libraries."""
    args: list[str] = []
    for top in ("/lib", "/lib64", "/lib32"):
        path = Path(top)
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), top]
        elif path.is_dir():
            args += ["--ro-bind", top, top]
    for library in ("/usr/lib", "/usr/lib64", "/usr/lib32"):
        if Path(library).is_dir():
            args += ["--ro-bind", library, library]
    if python == interpreter() and not sys.base_prefix.startswith("/usr"):
        # A Python outside /usr (pyenv, /opt) keeps stdlib and libpython in its prefix.
        prefix_lib = str(Path(sys.base_prefix) / sys.platlibdir)
        args += ["--ro-bind", prefix_lib, prefix_lib]
    args += ["--ro-bind", python, python]
    return args


def _engine_files() -> list[tuple[str, Path]]:
    root = Path(engine.__file__).resolve().parent
    return sorted(
        (path.relative_to(root).as_posix(), path)
        for path in root.rglob("*.py")
        if "__pycache__" not in path.parts
    )


@dataclass
class BwrapCommand:
    """A bwrap command line, the descriptors it reads code from, and who runs it.

    Code (the engine's and the bot's) goes in as copies read from descriptors the
    launcher opens (`--ro-bind-data`), never as binds of host folders: bwrap may
    run as "nobody", who could not open them, and the bot sees no host inode.
    """

    argv: list[str]
    fds: list[int] = field(default_factory=list)
    run_as: int | None = None  # the uid and gid bwrap drops to, when started as root

    def close(self) -> None:
        for fd in self.fds:
            os.close(fd)
        self.fds.clear()


@functools.cache
def _unprivileged_bwrap_works(bwrap: str) -> bool:
    """Do unprivileged user namespaces work here (bwrap run as "nobody")?"""
    check = subprocess.run(
        [bwrap, "--unshare-all", "--ro-bind", "/", "/", "true"],
        env={},
        capture_output=True,
        preexec_fn=partial(drop_privileges, BOT_UID),
        check=False,
    )
    return check.returncode == 0


def bwrap_run_as(bwrap: str, python: str) -> int | None:
    """The uid to run bwrap as: "nobody" when started as root and the kernel allows."""
    if os.geteuid() != 0 or not _reachable_by_others(Path(python)):
        return None
    # As root, bwrap would leave the bot uid 0 outside its namespace; as "nobody"
    # it makes its namespaces like any unprivileged user.
    return BOT_UID if _unprivileged_bwrap_works(bwrap) else None


def bwrap_sandbox_args(limits: Limits, bwrap: str, python: str) -> list[str]:
    """bwrap and its options up to the code: namespaces, system binds, scratch space."""
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
        *_system_binds(python),
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
    ]


def bwrap_command(program: BotProgram, limits: Limits, bwrap: str) -> BwrapCommand:
    """The command that runs `program`; the caller passes `fds` to it, then closes them."""
    python = bot_interpreter()
    command = BwrapCommand([], run_as=bwrap_run_as(bwrap, python))
    code: list[str] = []
    try:
        for inside, files in (
            (f"{ENGINE_DIR}/engine", _engine_files()),
            (BOT_DIR, program.files()),
        ):
            for name, path in files:
                # O_NOFOLLOW: a file swapped for a link since it was listed is refused.
                command.fds.append(os.open(path, os.O_RDONLY | os.O_NOFOLLOW))
                code += ["--perms", "0444", "--ro-bind-data", str(command.fds[-1])]
                code.append(f"{inside}/{name}")
    except BaseException:
        command.close()
        raise
    command.argv = [
        *bwrap_sandbox_args(limits, bwrap, python),
        *code,
        "--remount-ro",
        "/",
        "--chdir",
        SANDBOX_TMP,
        *python_argv(python, f"{BOT_DIR}/{program.entry_name}", ENGINE_DIR),
    ]
    return command


def launch_bwrap(program: BotProgram, limits: Limits) -> PipeProcess:
    bwrap = bwrap_path()
    if bwrap is None:
        raise InfrastructureError("bubblewrap (bwrap) is not installed")
    command = bwrap_command(program, limits, bwrap)
    try:
        cgroup = BotCgroup.create(memory_bytes=limits.memory_bytes, pids=limits.pids)
        return PipeProcess(
            command.argv,
            limits,
            backend="bwrap",
            cgroup=cgroup,
            pass_fds=command.fds,
            run_as=command.run_as,
        )
    finally:
        command.close()  # bwrap holds its own copies now
