"""What a bwrap bot is, seen from the host: its user, its seccomp filter, what of the
host's files it sees, and that it is refused when it cannot have its cgroup."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest

from sandbox.backends import bwrap as bwrap_backend
from sandbox.backends import cgroups
from sandbox.backends.bwrap import (
    BOT_UID,
    bot_interpreter,
    bwrap_command,
    bwrap_path,
    bwrap_problem,
    interpreter_needs,
    launch_bwrap,
)
from sandbox.backends.local import launch_subprocess
from sandbox.backends.seccomp import DENIED, NAMESPACE_FLAGS, SOCKET_FAMILIES, syscall_number
from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.program import BotProgram
from tests.sandbox.harness import (
    BOTS,
    FAST,
    FIRST_LEGAL,
    assert_host_clean,
    assert_opponent_played_on,
    play,
    render,
    report_of,
    require_backend,
)

pytestmark = pytest.mark.bwrap


def descendants(pid: int) -> list[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    found = [int(child) for child in children]
    for child in list(found):
        found += descendants(child)
    return found


def host_uid(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("Uid:")).split()[1])


def test_the_bot_is_nobody_on_the_host_too() -> None:
    require_backend("bwrap")
    with launch_bwrap(BotProgram("sound", FIRST_LEGAL), Limits()) as bot:
        bot.exchange(b'{"type": "start"}\n', time.monotonic() + 5)
        tree = descendants(bot.pid)
        assert tree
        assert {host_uid(pid) for pid in [bot.pid, *tree]} == {BOT_UID}


def test_the_seccomp_filter_refuses_what_dockers_profile_refuses(tmp_path: Path) -> None:
    """Every denied call fails with EPERM (clone3 with ENOSYS, so that the C library
    falls back to clone), clone with any namespace flag and sockets of other
    families too; a plain fork and Unix, IPv4 and IPv6 sockets still work."""
    require_backend("bwrap")
    checks: list[list[object]] = []
    for name in (*DENIED, "clone3"):
        number = syscall_number(name)
        if number is not None and number >= 0:  # this architecture has it
            checks.append([name, "call", number, "ENOSYS" if name == "clone3" else "EPERM"])
    checks += [[f"clone {flag:#x}", "clone", flag, "EPERM"] for flag in NAMESPACE_FLAGS]
    checks.append(["fork", "clone", 0, "ok"])
    checks += [[f"socket {family}", "socket", family, "ok"] for family in SOCKET_FAMILIES]
    for family in (0, 16, 17, 38, 40):  # netlink, packet, alg, vsock
        checks.append([f"socket {family}", "socket", family, "EPERM"])
    clone = syscall_number("clone")
    log = play(render("denied_calls.py", tmp_path, checks=checks, clone=clone), "bwrap").games[0]
    assert report_of(log) == {"checked": len(checks), "unexpected": []}
    assert_opponent_played_on(log)


def test_the_bot_sees_only_what_its_interpreter_needs() -> None:
    """Of /usr: the interpreter, its standard library, and the libraries they link;
    not the rest of /usr/lib, not Debian's dist-packages. The standard library's
    extension modules all load."""
    require_backend("bwrap")
    python = bot_interpreter()
    _directories, libraries = interpreter_needs(python)
    log = play(BOTS / "library_reporter.py", "bwrap").games[0]
    report = report_of(log)
    assert report["failed"] == []
    assert set(report["others"]) <= {Path(library).name for library in libraries} | {
        Path(python).name
    }
    assert report["count"] < 5000  # the standard library's files, and no more


def test_the_command_forbids_new_user_namespaces_and_loads_the_filter() -> None:
    bwrap = bwrap_path()
    assert bwrap is not None
    command = bwrap_command(BotProgram("sound", FIRST_LEGAL), Limits(), bwrap)
    try:
        argv = command.argv
        assert "--unshare-user" in argv
        assert "--disable-userns" in argv  # bwrap 0.8 and later (.ci/steps/10-bwrap.sh)
        assert int(argv[argv.index("--seccomp") + 1]) in command.fds
    finally:
        command.close()


def test_without_the_system_python_bwrap_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's own interpreter is never bound instead: its prefix holds the
    worker's site-packages."""
    monkeypatch.setattr(bwrap_backend, "SYSTEM_PYTHON", Path("/nonexistent/python3"))
    with pytest.raises(InfrastructureError, match="system's /nonexistent/python3"):
        bwrap_command(BotProgram("sound", FIRST_LEGAL), Limits(), "bwrap")


@pytest.fixture
def no_cgroups(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A machine whose cgroup hierarchies cannot be written."""
    monkeypatch.setattr(cgroups, "CGROUP_ROOT", tmp_path / "no-cgroups")


def test_without_cgroups_uploaded_bots_are_refused(
    no_cgroups: None, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Nothing would limit the bot's memory, processes or CPU: the match is refused
    before it starts, with a log line that says why, and the health check says so."""
    require_backend("bwrap")
    bot = render("cpu_hog.py", tmp_path, children=3 * FAST.pids, spin_s=0.5)
    with caplog.at_level(logging.ERROR, logger="sandbox"):
        try:
            log = play(bot, "bwrap", limits=FAST).games[0]
        except InfrastructureError as error:
            refused = error
        else:
            pytest.fail(f"the bot ran without a cgroup: {report_of(log)}")
    assert "without its cgroup" in str(refused)
    assert "cannot create a cgroup" in str(refused)
    assert any("bwrap refuses to run a bot" in r.getMessage() for r in caplog.records)
    assert "without its cgroup" in (bwrap_problem() or "")
    assert_host_clean()


def test_without_cgroups_the_subprocess_backend_still_runs_trusted_bots(no_cgroups: None) -> None:
    with launch_subprocess(BotProgram("sound", FIRST_LEGAL), FAST) as bot:
        reply = bot.exchange(b'{"type": "start"}\n', time.monotonic() + 10)
    assert json.loads(reply) == {}


def test_the_health_check_passes_where_bots_can_run() -> None:
    require_backend("bwrap")
    assert bwrap_problem() is None
