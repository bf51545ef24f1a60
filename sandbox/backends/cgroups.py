"""A cgroup per bot: memory, pids and CPU limits the kernel enforces on the whole
tree, and a teardown that reaches every process the bot ever forked.

Works with the unified hierarchy (cgroup v2) or the v1 ``pids``, ``memory`` and
``cpu`` hierarchies. In v1 the bot's groups are created below the worker's own, so
a limit placed on the worker (by systemd, a container) still covers its bots. The
CPU limit is a quota per period (v1 ``cpu.cfs_quota_us``, v2 ``cpu.max``), like
Docker's ``nano_cpus``: however many processes a bot runs, together they get
``Limits.cpus`` cores. When a group cannot be made, ``create`` raises
``InfrastructureError``: the bwrap backend then refuses the bot.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.owner import host_name, start_ticks

CGROUP_ROOT = Path("/sys/fs/cgroup")
PARENT_NAME = "onecard-sandbox"
LEAF_PREFIX = "bot-"
V1_CONTROLLERS = ("pids", "memory", "cpu")
# The scheduler's period for a CPU quota (the kernel's and Docker's default).
CPU_PERIOD_US = 100_000
_MIN_QUOTA_US = 1000  # the smallest quota the kernel accepts


def _write(path: Path, text: str) -> None:
    path.write_text(text)


def _own_v1_path(controller: str) -> str | None:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path
    return None


def host_tag() -> str:
    """This host's name as it can appear in a cgroup's name."""
    return "".join(c if c.isalnum() or c in ".-" else "_" for c in host_name())[:64]


def leaf_name(owner_pid: int) -> str:
    """`bot-<pid>-<start ticks>-<random>-<host>`: the owner's pid, when it started and
    its host tell the clean-up whose group it is (a pid means nothing on another
    host or in another container, and may be another process's later)."""
    ticks = start_ticks(owner_pid)
    return f"{LEAF_PREFIX}{owner_pid}-{ticks}-{uuid.uuid4().hex[:12]}-{host_tag()}"


def leaf_owner(name: str) -> tuple[int, int, str] | None:
    """(pid, start ticks, host) of a group named by `leaf_name`, or None.

    >>> leaf_owner(leaf_name(os.getpid()))[0] == os.getpid(), leaf_owner("bot-x") is None
    (True, True)
    """
    parts = name.removeprefix(LEAF_PREFIX).split("-", 3)
    if len(parts) < 4 or not (parts[0].isdigit() and parts[1].isdigit() and parts[3]):
        return None
    return int(parts[0]), int(parts[1]), parts[3]


def parent_dirs() -> list[Path]:
    """Where this process puts its bots' groups (existing or not)."""
    if (CGROUP_ROOT / "cgroup.controllers").exists():
        return [CGROUP_ROOT / PARENT_NAME]
    parents = []
    for controller in V1_CONTROLLERS:
        own = _own_v1_path(controller)
        if own is not None:
            parents.append(CGROUP_ROOT / controller / own.lstrip("/") / PARENT_NAME)
    return parents


def _counter(path: Path, key: str) -> int:
    """A `key value` counter from a cgroup events file, 0 when absent."""
    with contextlib.suppress(OSError):
        for line in path.read_text().splitlines():
            name, _, value = line.partition(" ")
            if name == key:
                return int(value)
    return 0


def _cpu_quota_us(cpus: float) -> int:
    return max(_MIN_QUOTA_US, int(cpus * CPU_PERIOD_US))


@dataclass
class BotCgroup:
    """The group(s) one bot's processes live in; `memory` is the one that holds its
    memory (v2's only group, v1's memory group), None when unknown."""

    paths: list[Path]
    unified: bool
    memory: Path | None = None

    @classmethod
    def create(cls, *, memory_bytes: int, pids: int, cpus: float = Limits.cpus) -> BotCgroup:
        """A new group with these limits; InfrastructureError when none can be made."""
        name = leaf_name(os.getpid())
        create = cls._create_v2 if (CGROUP_ROOT / "cgroup.controllers").exists() else cls._create_v1
        try:
            return create(name, memory_bytes=memory_bytes, pids=pids, cpus=cpus)
        except OSError as error:
            raise InfrastructureError(f"cannot create a cgroup for a bot: {error}") from error

    @classmethod
    def _create_v2(cls, name: str, *, memory_bytes: int, pids: int, cpus: float) -> BotCgroup:
        parent = CGROUP_ROOT / PARENT_NAME
        parent.mkdir(exist_ok=True)
        # The root cgroup may hold processes and still delegate controllers.
        _write(CGROUP_ROOT / "cgroup.subtree_control", "+pids +memory +cpu")
        _write(parent / "cgroup.subtree_control", "+pids +memory +cpu")
        leaf = parent / name
        leaf.mkdir()
        group = cls([leaf], unified=True, memory=leaf)
        try:
            _write(leaf / "pids.max", str(pids))
            _write(leaf / "memory.max", str(memory_bytes))
            with contextlib.suppress(OSError):  # no swap accounting: no swap to limit
                _write(leaf / "memory.swap.max", "0")
            _write(leaf / "cpu.max", f"{_cpu_quota_us(cpus)} {CPU_PERIOD_US}")
        except OSError:
            group.remove()
            raise
        return group

    @classmethod
    def _create_v1(cls, name: str, *, memory_bytes: int, pids: int, cpus: float) -> BotCgroup:
        leaves: dict[str, Path] = {}
        group = cls([], unified=False)
        try:
            for controller in V1_CONTROLLERS:
                own = _own_v1_path(controller)
                mount = CGROUP_ROOT / controller
                if own is None or not mount.is_dir():
                    raise OSError(f"no v1 {controller} hierarchy")
                parent = mount / own.lstrip("/") / PARENT_NAME
                parent.mkdir(exist_ok=True)
                leaf = parent / name
                leaf.mkdir()
                group.paths.append(leaf)
                leaves[controller] = leaf
            group.memory = leaves["memory"]
            _write(leaves["pids"] / "pids.max", str(pids))
            _write(leaves["memory"] / "memory.limit_in_bytes", str(memory_bytes))
            with contextlib.suppress(OSError):  # needs swapaccount=1
                _write(leaves["memory"] / "memory.memsw.limit_in_bytes", str(memory_bytes))
            _write(leaves["cpu"] / "cpu.cfs_period_us", str(CPU_PERIOD_US))
            _write(leaves["cpu"] / "cpu.cfs_quota_us", str(_cpu_quota_us(cpus)))
        except OSError:
            group.remove()
            raise
        return group

    def procs_files(self) -> list[str]:
        """The `cgroup.procs` files a process writes its pid to, to move in."""
        return [str(path / "cgroup.procs") for path in self.paths]

    def pids(self) -> set[int]:
        found: set[int] = set()
        for path in self.paths:
            with contextlib.suppress(OSError):
                found.update(int(p) for p in (path / "cgroup.procs").read_text().split())
        return found

    def kill_all(self, timeout_s: float = 5.0) -> bool:
        """SIGKILL every process in the group until it is empty; True if it emptied."""
        if self.unified and (self.paths[0] / "cgroup.kill").exists():
            with contextlib.suppress(OSError):
                _write(self.paths[0] / "cgroup.kill", "1")
        deadline = time.monotonic() + timeout_s
        pause = 0.0005
        while True:
            remaining = self.pids()
            if not remaining:
                return True
            if time.monotonic() > deadline:
                return False
            # A fork bomb can fork between reading and killing: loop until empty.
            for pid in remaining:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            # Killed processes usually leave within a millisecond: look again soon,
            # then less and less often.
            time.sleep(pause)
            pause = min(pause * 2, 0.01)

    def pids_exhausted(self) -> bool:
        """Did a fork or thread fail at the group's pids limit? (v1 and v2 both
        keep the count in `pids.events`.) Asked only after the bot died."""
        return any(_counter(path / "pids.events", "max") > 0 for path in self.paths)

    def memory_exhausted(self) -> bool:
        """Did the group run into its memory limit (an OOM kill, or reclaim at the limit)?

        Asked only after the bot died, so hitting the limit is taken as the cause.
        """
        memory = self.memory
        if memory is None:
            return False
        if self.unified:
            events = memory / "memory.events"
            return _counter(events, "oom_kill") > 0 or _counter(events, "max") > 0
        if _counter(memory / "memory.oom_control", "oom_kill") > 0:
            return True
        with contextlib.suppress(OSError, ValueError):
            return int((memory / "memory.failcnt").read_text()) > 0
        return False

    def remove(self) -> None:
        for path in self.paths:
            for _ in range(100):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # still busy for a moment after the last exit
                    time.sleep(0.01)
