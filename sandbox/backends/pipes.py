"""A bot as a local process tree talking over pipes (the `subprocess` and `bwrap` backends)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
from collections.abc import Sequence
from functools import partial

from sandbox.backends.cgroups import BotCgroup
from sandbox.backends.launcher import launcher_argv, wait_started
from sandbox.bootstrap import EXIT_MEMORY
from sandbox.errors import InfrastructureError
from sandbox.limits import Limits
from sandbox.process import BotProcess
from sandbox.stderr import StderrDrain

_CHUNK = 65536
# Signals the kernel sends for rlimits: CPU time and file size.
_LIMIT_SIGNALS = {int(signal.SIGXCPU): "cpu time", int(signal.SIGXFSZ): "file size"}


def drop_privileges(uid: int) -> None:
    """Become `uid` (and the group of the same number) for good, with no other groups."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def _read_available(fd: int) -> bytes | None:
    try:
        return os.read(fd, _CHUNK)
    except BlockingIOError:
        return None


class PipeProcess(BotProcess):
    """A local process tree; `kill` reaches all of it (process group, cgroup, PID namespace)."""

    def __init__(
        self,
        argv: Sequence[str],
        limits: Limits,
        *,
        backend: str,
        cgroup: BotCgroup | None = None,
        cwd: str | None = None,
        pass_fds: Sequence[int] = (),
        run_as: int | None = None,
    ) -> None:
        super().__init__(limits)
        self.backend = backend
        self.cgroup = cgroup
        self._torn_down = False
        try:
            self.popen = subprocess.Popen(
                launcher_argv(
                    argv,
                    limits,
                    cgroup_procs=[] if cgroup is None else cgroup.procs_files(),
                    run_as=run_as,
                ),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={},  # nothing of the host's environment, ever
                cwd=cwd,
                close_fds=True,
                pass_fds=pass_fds,
                # Its own process group, for `killpg` and away from a terminal's
                # Ctrl-C; not its own session: setsid also gives it its own scheduler
                # autogroup, which costs every round trip ~0.5 µs (benchmarks/
                # sandbox.py) and isolates nothing that matters here. bwrap puts the
                # bot itself in a new session (--new-session: no TIOCSTI on a tty).
                # No preexec_fn: with one, CPython forks the worker (launcher.py).
                process_group=0,
            )
        except BaseException:
            self._cleanup_resources()
            raise
        assert self.popen.stdin is not None
        assert self.popen.stdout is not None
        assert self.popen.stderr is not None
        self._stdin_fd = self.popen.stdin.fileno()
        self._stdout_fd = self.popen.stdout.fileno()
        if not wait_started(self._stdout_fd):
            self._launch_failed()
        os.set_blocking(self._stdin_fd, False)
        os.set_blocking(self._stdout_fd, False)
        self._poll_out = select.poll()
        self._poll_out.register(self._stdout_fd, select.POLLIN)
        self._poll_in = select.poll()
        self._poll_in.register(self._stdin_fd, select.POLLOUT)
        stderr_fd = self.popen.stderr.fileno()
        os.set_blocking(stderr_fd, False)
        self.drain = StderrDrain(
            stderr_fd, partial(_read_available, stderr_fd), self.stderr, f"stderr-{self.pid}"
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def _recv(self, timeout_s: float) -> bytes | None:
        if not self._poll_out.poll(max(0, int(timeout_s * 1000 + 0.999))):
            return None
        try:
            return os.read(self._stdout_fd, _CHUNK)
        except BlockingIOError:
            return None

    def _output_waiting(self) -> bool:
        return bool(self._poll_out.poll(0))

    def _write_some(self, data: bytes | memoryview) -> int | None:
        try:
            return os.write(self._stdin_fd, data)
        except BlockingIOError:
            return 0
        except OSError:  # BrokenPipeError above all: the bot is gone
            return None

    def _wait_writable(self, timeout_s: float) -> None:
        self._poll_in.poll(int(timeout_s * 1000) + 1)

    def _close_stdin(self) -> None:
        assert self.popen.stdin
        with contextlib.suppress(OSError):
            self.popen.stdin.close()

    def _wait_exit(self, timeout_s: float) -> bool:
        try:
            self.popen.wait(timeout_s)
        except subprocess.TimeoutExpired:
            return False
        return True

    def _exit_code(self) -> int | None:
        code: int | None = self.popen.returncode
        return code

    def _died_of_limit(self) -> str | None:
        code = self.popen.returncode
        if self.cgroup is not None and self.cgroup.memory_exhausted():
            return "memory"
        if code == EXIT_MEMORY:
            return "memory"
        if self.cgroup is not None and self.cgroup.pids_exhausted():
            return "processes"
        # bwrap reports a child killed by signal N as exit status 128 + N.
        signal_number = -code if code is not None and code < 0 else (code or 0) - 128
        return _LIMIT_SIGNALS.get(signal_number)

    def _teardown(self) -> None:
        if self._torn_down:
            return
        self._torn_down = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.popen.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.popen.kill()
        self.popen.wait()
        self._cleanup_resources()
        for stream in (self.popen.stdin, self.popen.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        # Every writer is dead: the drain sees the end of the stream, and stops.
        if self.drain is not None:
            self.drain.stop()
        if self.popen.stderr is not None:
            with contextlib.suppress(OSError):
                self.popen.stderr.close()

    def _launch_failed(self) -> None:
        """The launcher could not put the bot in its limits: the platform's problem,
        never the bot's (it has not run)."""
        assert self.popen.stderr is not None
        # Its stderr ends when it exits (nothing else holds it); read before the
        # teardown reaps it, so that its process group cannot be another's yet.
        reason = self.popen.stderr.read().decode("utf-8", "replace").strip()
        self._teardown()
        raise InfrastructureError(
            f"could not start a bot (exit status {self.popen.returncode}): {reason or 'no reason'}"
        )

    def _cleanup_resources(self) -> None:
        if self.cgroup is not None:
            self.cgroup.kill_all()
            self.cgroup.remove()
