"""The `bwrap` backend: bubblewrap namespaces on a machine without Docker.

Every namespace is unshared (so no network at all), and the bot can make none of
its own: `--disable-userns` and a seccomp filter close to Docker's default profile
(`backends/seccomp.py`). It sees read-only binds of what the system interpreter
needs (the interpreter, its standard library, the shared libraries they link),
read-only copies of the engine and of its own code (at /bot), and a private /tmp.
Its processes share one cgroup with memory, pids and CPU limits; without one the
bot is refused. When the worker is root, bwrap itself runs as "nobody", so the
bot is uid 65534 outside its namespace too. bwrap is started from an empty
environment: `--clearenv` alone would still leave the launcher's variables
readable at /proc/1/environ inside the sandbox. Killing bwrap kills the sandbox's
PID 1 (`--die-with-parent`), and with it every process of the namespace,
daemonized or not.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import shutil
import stat
import subprocess
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import engine
from sandbox.backends.cgroups import BotCgroup
from sandbox.backends.pipes import PipeProcess, drop_privileges
from sandbox.backends.seccomp import bot_filter, bot_filter_fd
from sandbox.bootstrap import python_argv
from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.program import BotProgram, open_regular

logger = logging.getLogger(__name__)

BOT_DIR = "/bot"
ENGINE_DIR = "/opt/onecard"
# The uid a bot has inside its namespace: "nobody".
BOT_UID = 65534
# Paths inside the sandbox, on its own private tmpfs mounts (not the host's /tmp).
SANDBOX_TMP = "/tmp"  # noqa: S108
SANDBOX_SHM = "/dev/shm"  # noqa: S108
# The interpreter of bwrap bots, like the Debian python3 of the docker image.
SYSTEM_PYTHON = Path("/usr/bin/python3")
# What the system's tools find where a worker runs with an empty environment.
_TOOLS_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"


def bwrap_path() -> str | None:
    return shutil.which("bwrap", path=os.defpath + ":/usr/local/bin")


def bot_interpreter() -> str:
    """The Python that runs bots: the system's, in world-readable /usr (so bwrap can
    run as an unprivileged user and still bind it).

    Never the worker's own: its prefix holds the worker's site-packages.
    """
    if not SYSTEM_PYTHON.exists():
        raise InfrastructureError(
            f"bwrap bots run on the system's {SYSTEM_PYTHON}, which is missing "
            "(Debian: apt-get install python3)"
        )
    return os.path.realpath(SYSTEM_PYTHON)


def _reachable_by_others(path: Path) -> bool:
    """Can a uid with no business here ("other") read `path`?"""
    path = path.resolve()
    if not path.stat().st_mode & stat.S_IROTH:
        return False
    return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.parents)


@functools.cache
def interpreter_needs(python: str) -> tuple[list[str], list[str]]:
    """(directories, shared libraries) the interpreter `python` needs: the folders of
    its `-I -S` module path (its standard library and extension modules; no
    site-packages) and every library it and those modules link to, as `ldd` lists them.
    """
    env = {"PATH": _TOOLS_PATH, "LC_ALL": "C"}
    listed = subprocess.run(
        [python, "-I", "-S", "-c", "import json, sys; print(json.dumps(sys.path))"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    directories: list[str] = []
    for entry in json.loads(listed.stdout):
        if Path(entry).is_dir() and not any(Path(entry).is_relative_to(d) for d in directories):
            directories.append(entry)
    ldd = shutil.which("ldd", path=_TOOLS_PATH)
    if ldd is None:
        raise InfrastructureError("ldd (libc-bin) is not installed: bwrap cannot bind libraries")
    objects = [python, *(str(so) for folder in directories for so in Path(folder).rglob("*.so"))]
    # ldd fails when one of them is not dynamic; what it lists for the others holds.
    found = subprocess.run([ldd, *objects], env=env, capture_output=True, text=True, check=False)
    libraries: set[str] = set()
    for line in found.stdout.splitlines():
        if not line.startswith("\t"):
            continue  # the name of the object whose libraries follow
        words = line.split()
        path = words[2] if len(words) > 2 and words[1] == "=>" else words[0]
        if path.startswith("/"):
            libraries.add(path)
    return directories, sorted(libraries)


def _system_binds(python: str) -> list[str]:
    """Read-only binds of what the interpreter needs, and nothing else of /usr."""
    args: list[str] = []
    for top in ("/lib", "/lib64", "/lib32", "/libx32"):
        if Path(top).is_symlink():  # merged /usr: the loader's paths lead there
            args += ["--symlink", os.readlink(top), top]
    directories, libraries = interpreter_needs(python)
    for directory in directories:
        args += ["--ro-bind", directory, directory]
    for library in libraries:
        # Under the name the loader looks for, in its real folder (/lib is /usr/lib).
        inside = os.path.join(os.path.realpath(os.path.dirname(library)), Path(library).name)
        args += ["--ro-bind", library, inside]
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


@functools.cache
def _can_disable_userns(bwrap: str) -> bool:
    """bwrap 0.8 and later can forbid new user namespaces in the sandbox."""
    usage = subprocess.run([bwrap, "--help"], env={}, capture_output=True, text=True, check=False)
    return "--disable-userns" in usage.stdout


def bwrap_sandbox_args(limits: Limits, bwrap: str, python: str) -> list[str]:
    """bwrap and its options up to the code: namespaces, system binds, scratch space.
    (The seccomp filter comes with the code: it is read from a descriptor.)"""
    return [
        bwrap,
        "--unshare-all",
        "--unshare-user",
        # Where bwrap cannot, the seccomp filter alone refuses new namespaces.
        *(["--disable-userns"] if _can_disable_userns(bwrap) else []),
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
        command.fds.append(bot_filter_fd())
        code += ["--seccomp", str(command.fds[-1])]
        for inside, files in (
            (f"{ENGINE_DIR}/engine", _engine_files()),
            (BOT_DIR, program.files()),
        ):
            for name, path in files:
                # A file swapped for a link, a FIFO or a device since it was listed
                # is refused.
                command.fds.append(open_regular(path))
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


def _bot_cgroup(limits: Limits) -> BotCgroup:
    """The bot's cgroup, or a refusal: without one nothing limits its memory, its
    processes or its share of the CPU."""
    try:
        return BotCgroup.create(
            memory_bytes=limits.memory_bytes, pids=limits.pids, cpus=limits.cpus
        )
    except InfrastructureError as error:
        logger.error("bwrap refuses to run a bot: %s", error)
        raise InfrastructureError(
            f"bwrap refuses to run a bot without its cgroup (memory, pids and CPU limits): {error}"
        ) from error


def launch_bwrap(program: BotProgram, limits: Limits) -> PipeProcess:
    bwrap = bwrap_path()
    if bwrap is None:
        raise InfrastructureError("bubblewrap (bwrap) is not installed")
    cgroup = _bot_cgroup(limits)
    try:
        command = bwrap_command(program, limits, bwrap)
    except BaseException:
        cgroup.remove()
        raise
    try:
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


def bwrap_problem(limits: Limits | None = None) -> str | None:
    """Why this machine cannot run bots under bwrap, or None when it can: it needs
    bubblewrap, the system interpreter, libseccomp, and a cgroup for every bot
    (one is made and removed to find out)."""
    limits = limits or Limits()
    try:
        if bwrap_path() is None:
            raise InfrastructureError("bubblewrap (bwrap) is not installed")
        interpreter_needs(bot_interpreter())
        bot_filter()
        _bot_cgroup(limits).remove()
    except (InfrastructureError, OSError, subprocess.CalledProcessError) as error:
        return str(error)
    return None
