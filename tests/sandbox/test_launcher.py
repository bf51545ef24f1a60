"""The launcher that starts local bots without forking the worker: what the started
program is (limits, user, groups, cgroup, environment), and a failed start."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.backends.cgroups import BotCgroup
from sandbox.backends.launcher import STARTED, launcher_argv
from sandbox.backends.pipes import PipeProcess
from sandbox.errors import InfrastructureError
from sandbox.limits import MIB, Limits

NOBODY = 65534
REPORT = (
    "cat /proc/self/limits; echo uid $(id -u) gid $(id -g) groups $(id -G);"
    " cat /proc/self/cgroup; echo environ $(wc -c < /proc/$$/environ)"
)


def limit_line(report: str, name: str) -> list[str]:
    line = next(line for line in report.splitlines() if line.startswith(name))
    return line[len(name) :].split()[:2]  # soft, hard


@pytest.fixture
def cgroup() -> Iterator[BotCgroup]:
    if os.geteuid() != 0:
        pytest.fail("the launcher's cgroup and user switch are tested as root (CI runs as root)")
    group = BotCgroup.create(memory_bytes=64 * MIB, pids=16, cpus=0.5)
    yield group
    group.kill_all()
    group.remove()


def test_the_program_starts_inside_its_limits_as_nobody_with_nothing_else(
    cgroup: BotCgroup,
) -> None:
    argv = launcher_argv(
        ["/bin/sh", "-c", REPORT],
        Limits(memory_bytes=64 * MIB, open_files=32, file_bytes=2 * MIB, match_s=6),
        cgroup_procs=cgroup.procs_files(),
        run_as=NOBODY,
    )
    done = subprocess.run(argv, env={}, capture_output=True, check=True)
    assert done.stdout.startswith(STARTED)
    report = done.stdout.decode()
    # Its memory is the cgroup's to limit: an address-space limit would count stacks.
    assert limit_line(report, "Max address space") == ["unlimited"] * 2
    assert limit_line(report, "Max open files") == ["32"] * 2
    assert limit_line(report, "Max file size") == [str(2 * MIB)] * 2
    assert limit_line(report, "Max cpu time") == ["7"] * 2
    assert limit_line(report, "Max core file size") == ["0"] * 2
    assert f"uid {NOBODY} gid {NOBODY} groups {NOBODY}\n" in report
    for path in cgroup.paths:
        assert path.name in report  # in the bot's own group of every hierarchy
    assert "environ 0\n" in report  # what the program received at its exec


def test_without_a_cgroup_the_address_space_is_limited() -> None:
    argv = launcher_argv(
        ["/bin/sh", "-c", REPORT], Limits(memory_bytes=64 * MIB), cgroup_procs=[], run_as=None
    )
    done = subprocess.run(argv, env={}, capture_output=True, check=True)
    assert limit_line(done.stdout.decode(), "Max address space") == [str(64 * MIB)] * 2


def test_values_are_arguments_never_script() -> None:
    # A cgroup path that would be code if it were pasted into the script.
    argv = launcher_argv(
        ["/bin/true"],
        Limits(),
        cgroup_procs=["/nonexistent/$(touch /tmp/launcher-injected)"],
        run_as=None,
    )
    done = subprocess.run(argv, env={}, capture_output=True, check=False)
    assert done.returncode == 125
    assert b"cannot join the cgroup" in done.stderr
    assert done.stdout == b""
    assert not Path("/tmp/launcher-injected").exists()


def test_a_failed_start_is_the_platforms_problem_not_the_bots(cgroup: BotCgroup) -> None:
    cgroup.remove()  # its cgroup.procs is gone: the launcher cannot join it
    with pytest.raises(InfrastructureError, match="cannot join the cgroup"):
        PipeProcess(["/bin/true"], Limits(), backend="subprocess", cgroup=cgroup)
