"""Every attack of issue 4, run under both isolating backends.

Each test asserts the attack failed or the bot faulted with the protocol's
reason, that the sound opponent finished its game, and that nothing of the bot
is left on the host.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

import sandbox
from sandbox.backends.select import launcher_for
from tests.sandbox.harness import (
    FAST,
    FIRST_LEGAL,
    HOSTILE,
    ISOLATING_BACKENDS,
    assert_host_clean,
    assert_opponent_played_on,
    bot_pid,
    cpu_quota_of,
    fault_of,
    host_leftovers,
    play,
    processes_with,
    render,
    report_of,
    require_backend,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
# For attacks that take real work before they fail: seconds, not FAST's 300 ms.
ROOMY = dataclasses.replace(FAST, message_ms=5000, first_start_ms=15000)


@pytest.fixture(
    params=[pytest.param(name, marks=getattr(pytest.mark, name)) for name in ISOLATING_BACKENDS]
)
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    require_backend(request.param)
    yield request.param
    assert_host_clean()


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        ("infinite_loop.py", "timeout"),
        ("sleep_past_deadline.py", "timeout"),
        ("huge_line.py", "illegal"),
        ("many_lines.py", "illegal"),
        ("binary_garbage.py", "illegal"),
        ("non_json.py", "illegal"),
        ("illegal_card.py", "illegal"),
        ("exit_at_once.py", "crash"),
        ("raises.py", "crash"),
        ("segfault.py", "crash"),
        ("stdout_flood.py", "limit"),
    ],
)
def test_faulty_bot_faults_with_its_reason(backend: str, bot: str, reason: str) -> None:
    log = play(HOSTILE / bot, backend).games[0]
    assert fault_of(log) == reason
    assert_opponent_played_on(log)


def test_memory_bomb_hits_the_limit(backend: str) -> None:
    # Filling 256 MiB takes a while on a busy machine: time enough to reach the limit.
    log = play(HOSTILE / "memory_bomb.py", backend, limits=ROOMY).games[0]
    assert fault_of(log) == "limit"
    assert_opponent_played_on(log)


@pytest.mark.parametrize(
    "kind",
    ["deep", "deep_object", "huge_int", "nan", "infinity", "invalid_utf8", "nul", "surrogate"],
)
def test_hostile_json_is_illegal(backend: str, kind: str, tmp_path: Path) -> None:
    log = play(render("json_bomb.py", tmp_path, kind=kind), backend).games[0]
    assert fault_of(log) == "illegal"
    assert_opponent_played_on(log)


def test_a_faulted_bot_is_restarted_for_the_next_game(backend: str) -> None:
    result = play(HOSTILE / "raises.py", backend, games=2)
    assert [fault_of(log) for log in result.games] == ["crash", "crash"]
    assert result.seats[0].faults == {"crash": 2}
    assert all(log["timing"][log["seating"].index(0)]["startup_ms"] for log in result.games)


def test_slow_start_up_times_out(backend: str, tmp_path: Path) -> None:
    log = play(render("slow_startup.py", tmp_path, sleep_s="6"), backend).games[0]
    assert fault_of(log) == "timeout"
    assert_opponent_played_on(log)


def test_start_up_slower_than_a_move_but_within_the_first_start_is_fine(
    backend: str, tmp_path: Path
) -> None:
    slower_than_a_move = (FAST.message_ms + FAST.bank_ms) / 1000 + 0.4
    log = play(render("slow_startup.py", tmp_path, sleep_s=str(slower_than_a_move)), backend)
    assert fault_of(log.games[0]) is None


def test_fork_bomb_is_capped_and_torn_down(backend: str, tmp_path: Path) -> None:
    marker = f"onecard-fork-bomb-{uuid.uuid4().hex}"
    log = play(render("fork_bomb.py", tmp_path, marker=marker), backend, limits=ROOMY).games[0]
    assert 0 < report_of(log)["forked"] < FAST.pids
    assert_opponent_played_on(log)
    assert_host_clean(marker)


def test_thread_bomb_is_capped(backend: str) -> None:
    log = play(HOSTILE / "thread_bomb.py", backend, limits=ROOMY).games[0]
    assert report_of(log)["threads"] < FAST.pids
    assert fault_of(log) is None
    assert_opponent_played_on(log)


def test_daemonized_child_does_not_outlive_the_match(backend: str, tmp_path: Path) -> None:
    marker = f"onecard-daemon-{uuid.uuid4().hex}"
    log = play(render("daemon_child.py", tmp_path, marker=marker), backend).games[0]
    assert report_of(log) == {"daemon": "running"}  # the attack happened, marker and all
    assert_opponent_played_on(log)
    assert_host_clean(marker)


def test_the_host_check_sees_a_daemon_in_a_sandbox_not_yet_torn_down(
    backend: str, tmp_path: Path
) -> None:
    """The test above's positive control: the check finds, from the host, the same daemon
    in the same sandbox while its teardown has not run (its process by the marker on its
    command line, and its cgroup or container); after the teardown, nothing."""
    marker = f"onecard-daemon-{uuid.uuid4().hex}"
    program = sandbox.BotProgram("hostile", render("daemon_child.py", tmp_path, marker=marker))
    with launcher_for(backend, image=None, runtime=None)(program, FAST) as bot:
        reply = json.loads(bot.exchange(b'{"type": "start"}\n', time.monotonic() + 10))
        assert json.loads(reply["debug"]) == {"daemon": "running"}
        leftovers = host_leftovers(marker)
        assert len(leftovers.get("processes", [])) == 1, leftovers
        if backend == "docker":
            assert leftovers.get("containers") == [getattr(bot, "container_id", None)], leftovers
        elif getattr(bot, "cgroup", None) is not None:
            assert leftovers.get("cgroups"), leftovers
        with pytest.raises(AssertionError, match=marker):
            assert_host_clean(marker)
    assert_host_clean(marker)


def test_the_host_check_sees_a_daemon_an_unsandboxed_bot_left(tmp_path: Path) -> None:
    """The same daemon, left for real by the same bot run without a sandbox: it outlives
    the bot (its own session, SIGTERM ignored) and the check finds it."""
    marker = f"onecard-daemon-{uuid.uuid4().hex}"
    bot = render("daemon_child.py", tmp_path, marker=marker)
    try:
        run = subprocess.run(
            [sys.executable, "-I", str(bot)],
            input='{"type": "start"}\n',
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )  # the bot exits at the end of its input; its daemon does not
        assert json.loads(json.loads(run.stdout)["debug"]) == {"daemon": "running"}
        with pytest.raises(AssertionError, match=marker):
            assert_host_clean(marker)
    finally:
        for pid in processes_with(marker):
            os.kill(pid, signal.SIGKILL)
    assert_host_clean(marker)


def test_bot_ignoring_sigterm_and_end_of_input_is_killed(backend: str, tmp_path: Path) -> None:
    marker = f"onecard-stubborn-{uuid.uuid4().hex}"
    started = time.monotonic()
    log = play(render("ignore_sigterm.py", tmp_path, marker=marker), backend).games[0]
    assert time.monotonic() - started < 30
    assert report_of(log) == {"marked": True}  # the check below can see it
    assert fault_of(log) is None
    assert_host_clean(marker)


def test_killing_parent_and_every_process_harms_only_the_bot(backend: str, tmp_path: Path) -> None:
    victim = subprocess.Popen(["sleep", "600"])
    try:
        path = render("kill_everything.py", tmp_path, victim_pid=str(victim.pid))
        log = play(path, backend, limits=ROOMY).games[0]
        assert victim.poll() is None, "a host process was killed from inside the sandbox"
        assert report_of(log)["victim"] == "ProcessLookupError"
        assert_opponent_played_on(log)
    finally:
        victim.send_signal(signal.SIGKILL)
        victim.wait()


@pytest.fixture
def listeners() -> Iterator[list[tuple[str, int]]]:
    """Open TCP services on the host: loopback and every address."""
    sockets = []
    for address in ("127.0.0.1", "0.0.0.0"):
        server = socket.socket()
        server.bind((address, 0))
        server.listen()
        sockets.append(server)
    yield [(s.getsockname()[0], s.getsockname()[1]) for s in sockets]
    for server in sockets:
        server.close()


def test_network_is_unreachable(
    backend: str, tmp_path: Path, listeners: list[tuple[str, int]]
) -> None:
    any_port = listeners[1][1]
    targets = [
        *listeners,
        ("127.0.0.1", 5432),  # PostgreSQL
        ("127.0.0.1", 6379),  # Redis
        ("127.0.0.1", 8000),  # the web site
        ("172.17.0.1", any_port),  # the Docker bridge's host side
        ("1.1.1.1", 443),
        ("8.8.8.8", 53),
    ]
    with contextlib.suppress(OSError):  # the host's own address, if its name resolves
        targets.append((socket.gethostbyname(socket.gethostname()), any_port))
    log = play(render("network.py", tmp_path, targets=targets), backend, limits=ROOMY)
    log = log.games[0]
    assert report_of(log) == {"reached": []}
    assert_opponent_played_on(log)


@pytest.fixture
def canary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, list[str]]]:
    """A secret in the worker's environment and in host files a bot might look at."""
    secret = f"canary-{uuid.uuid4().hex}"
    monkeypatch.setenv("ONECARD_CANARY", secret)
    monkeypatch.setenv("DATABASE_URL", f"postgres://arena:{secret}@127.0.0.1/arena")
    files = [tmp_path / "secret.env", Path("/tmp") / f"onecard-canary-{uuid.uuid4().hex}.txt"]
    for path in files:
        path.write_text(f"DJANGO_SECRET_KEY={secret}\n")
    yield secret, [str(p) for p in files]
    for path in files:
        path.unlink(missing_ok=True)


def test_platform_secrets_stay_out_of_reach(
    backend: str, tmp_path: Path, canary: tuple[str, list[str]]
) -> None:
    secret, files = canary
    host_paths = [*files, str(REPO_ROOT / "pyproject.toml"), "/proc/1/environ", "/etc/shadow"]
    bot_dir = tmp_path / "bot"
    bot_dir.mkdir()
    bot = render("snoop.py", bot_dir, reversed_canary=secret[::-1], host_paths=host_paths)
    log = play(bot, backend, limits=ROOMY).games[0]
    assert report_of(log) == {"found": []}
    assert secret not in json.dumps(log)
    assert_opponent_played_on(log)


def test_other_bots_code_stays_out_of_reach(backend: str, tmp_path: Path) -> None:
    secret = f"opponent-code-{uuid.uuid4().hex}"
    opponent = tmp_path / "opponent" / "main.py"
    opponent.parent.mkdir()
    opponent.write_text(f"# {secret}\n" + FIRST_LEGAL.read_text())
    probe_dir = tmp_path / "probe"
    probe_dir.mkdir()
    bot = render("snoop.py", probe_dir, reversed_canary=secret[::-1], host_paths=[str(opponent)])
    log = play(bot, backend, opponent=opponent.parent, limits=ROOMY).games[0]
    assert report_of(log) == {"found": []}
    assert_opponent_played_on(log)


def test_filling_the_disk_stops_at_the_tmpfs(backend: str, tmp_path: Path) -> None:
    before = {p.name for p in Path("/tmp").iterdir()}
    log = play(HOSTILE / "fill_disk.py", backend, limits=ROOMY).games[0]
    report = report_of(log)
    assert report["/tmp"] <= FAST.tmpfs_bytes
    assert report["/dev/shm"] <= FAST.tmpfs_bytes
    assert fault_of(log) is None
    assert "fill.bin" not in {p.name for p in Path("/tmp").iterdir()} - before
    assert_opponent_played_on(log)


def test_writing_outside_its_scratch_space_fails(backend: str, tmp_path: Path) -> None:
    host_file = tmp_path / "host-owned.txt"
    host_file.write_text("untouched\n")
    host_paths = [str(host_file), str(REPO_ROOT / "owned.py"), str(REPO_ROOT / "engine" / "x.py")]
    bot_dir = tmp_path / "bot"
    bot_dir.mkdir()
    bot = render("write_outside.py", bot_dir, host_paths=host_paths)
    original_code = bot.read_text()
    log = play(bot, backend, limits=ROOMY).games[0]
    assert report_of(log) == {"written": []}
    assert host_file.read_text() == "untouched\n"
    assert not (REPO_ROOT / "owned.py").exists()
    assert not (REPO_ROOT / "engine" / "x.py").exists()
    assert bot.read_text() == original_code
    assert_opponent_played_on(log)


def test_stderr_flood_neither_blocks_nor_faults_and_is_bounded(backend: str) -> None:
    log = play(HOSTILE / "stderr_flood.py", backend).games[0]
    assert fault_of(log) is None
    seat = log["seating"].index(0)
    entries = log["stderr"][seat]
    kept = sum(len(line.encode()) + 1 for entry in entries for line in entry["lines"])
    assert kept <= FAST.stderr_bytes_per_game
    assert entries[-1]["lines"][-1] == "last words of this decision"


@pytest.mark.parametrize(
    ("stream", "reasons"),
    [
        # The flood may starve the bot's own replies on a busy machine: its problem.
        ("stderr", {None, "timeout"}),
        ("stdout", {"illegal", "limit"}),
    ],
)
def test_endless_output_never_stalls_the_engine(
    backend: str, tmp_path: Path, stream: str, reasons: set[str | None]
) -> None:
    started = time.monotonic()
    log = play(render("endless_output.py", tmp_path, stream=stream), backend).games[0]
    assert time.monotonic() - started < 30
    assert fault_of(log) in reasons
    seat = log["seating"].index(0)
    kept = sum(len(line) + 1 for entry in log["stderr"][seat] for line in entry["lines"])
    assert kept <= FAST.stderr_bytes_per_game
    assert_opponent_played_on(log)


def test_nested_namespaces_and_privileged_calls_are_refused(backend: str) -> None:
    """No user namespace inside the sandbox (so no capabilities, mounts or netfilter
    there), and none of the calls a seccomp profile like Docker's denies."""
    log = play(HOSTILE / "nested_namespaces.py", backend, limits=ROOMY).games[0]
    assert report_of(log) == {"reached": []}
    assert_opponent_played_on(log)


def test_a_bot_gets_one_core_however_many_processes_spin(backend: str, tmp_path: Path) -> None:
    """Eight children spin for two seconds. The bot's processes sit under a CPU quota
    of one core, and the kernel counts them at most about that much CPU time (the
    quota holds per 100 ms period; 1.25 leaves room for the periods at either end).
    The time alone could not show a missing quota on a busy machine: the quota is
    read from the host."""
    program = sandbox.BotProgram("hostile", render("cpu_hog.py", tmp_path, children=8, spin_s=2))
    with launcher_for(backend, image=None, runtime=None)(program, ROOMY) as bot:
        reply = json.loads(bot.exchange(b'{"type": "start"}\n', time.monotonic() + 30))
        quota = cpu_quota_of(bot_pid(bot))
    report = json.loads(reply["debug"])
    assert report["children"] == 8
    assert quota is not None, "the bot's processes are under no CPU quota"
    assert quota <= FAST.cpus
    share = report["cpu_s"] / report["wall_s"]
    assert share <= 1.25 * FAST.cpus, f"the bot's processes used {share:.2f} cores: {report}"


def test_memory_is_limited_as_used_not_as_thread_stacks(backend: str, tmp_path: Path) -> None:
    """20 threads and 128 MiB of data fit the 256 MiB a bot has: its threads' reserved
    stacks (160 MiB of address space) are not memory used."""
    bot = render("threads_and_memory.py", tmp_path, threads=20, mib=128)
    log = play(bot, backend, limits=ROOMY).games[0]
    assert report_of(log) == {"threads": 20, "allocated_mib": 128}
    assert fault_of(log) is None
    assert_opponent_played_on(log)


def test_orphaned_processes_are_reaped(backend: str, tmp_path: Path) -> None:
    """Three times the pids limit of orphans die one after another: each is reaped
    by the sandbox's PID 1, so none holds a slot of the limit as a zombie."""
    made = 3 * FAST.pids
    log = play(render("zombies.py", tmp_path, children=made), backend, limits=ROOMY).games[0]
    assert report_of(log) == {"made": made}
    assert_opponent_played_on(log)


def _output_targets(pid: int) -> set[str]:
    """Where the stdout and stderr of `pid` and of every process under it lead."""
    targets = set()
    pending = [pid]
    while pending:
        current = pending.pop()
        for fd in (1, 2):
            with contextlib.suppress(OSError):
                targets.add(os.readlink(f"/proc/{current}/fd/{fd}").split(":")[0])
        with contextlib.suppress(OSError):
            children = Path(f"/proc/{current}/task/{current}/children").read_text()
            pending += [int(child) for child in children.split()]
    return targets


def test_a_bots_output_lands_in_no_file_on_the_host(backend: str, tmp_path: Path) -> None:
    """16 MiB on stderr: the sandbox keeps its 64 KiB tail in memory, and nothing of it
    is written to the host's disk (no container log file, no file behind a pipe)."""
    from sandbox.backends.docker import docker_client

    program = sandbox.BotProgram("hostile", render("log_flood.py", tmp_path, mib=16))
    with launcher_for(backend, image=None, runtime=None)(program, ROOMY) as bot:
        reply = json.loads(bot.exchange(b'{"type": "start"}\n', time.monotonic() + 30))
        assert json.loads(reply["debug"])["written"] >= 16 << 20
        if backend == "docker":
            info = docker_client().inspect_container(getattr(bot, "container_id", ""))
            log_path = Path(info.get("LogPath") or "/nonexistent")
            logged = log_path.stat().st_size if log_path.is_file() else 0
            assert logged < 1 << 20, f"the container's log on the host holds {logged} bytes"
            assert info["HostConfig"]["LogConfig"]["Type"] == "none"
        else:
            assert _output_targets(getattr(bot, "pid", 0)) == {"pipe"}
