"""A tiny supervisor for `make run`: the site, a Celery worker, a worker for replay
analyses and Celery beat as separate processes, stopped together on Ctrl-C."""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

_PR_SET_PDEATHSIG = 1


def _die_with_supervisor() -> None:
    """Runs in the child before exec: if the supervisor dies, even by SIGKILL, the
    kernel sends the child SIGTERM, so no web, worker or beat process is orphaned."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Child:
    name: str
    argv: list[str]
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def start(self, cwd: Path, env: dict[str, str]) -> None:
        # A new session keeps the terminal's Ctrl-C away from the children, so that the
        # supervisor decides the order and the grace of the shutdown.
        self.process = subprocess.Popen(
            self.argv,
            cwd=cwd,
            env=env,
            start_new_session=True,
            # preexec_fn is unsafe with threads; the supervisor has none.
            preexec_fn=_die_with_supervisor,
        )

    def exited(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def terminate(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)

    def wait_or_kill(self, deadline: float) -> None:
        if self.process is None:
            return
        try:
            self.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def arena_children(
    *,
    host: str,
    port: int,
    concurrency: int,
    var_dir: Path,
    analysis_queue: str,
    tables_queue: str,
) -> list[Child]:
    python = sys.executable
    manage = str(Path(__file__).resolve().parents[3] / "manage.py")
    celery = [python, "-m", "celery", "-A", "arena"]
    return [
        Child("web", [python, manage, "runserver", "--noreload", f"{host}:{port}"]),
        Child(
            "worker",
            [
                *celery,
                "worker",
                "--loglevel=INFO",
                f"--concurrency={concurrency}",
                "--hostname=worker@%h",
                # Every declared queue but the analyses' and the tables', which
                # have their own processes.
                f"--exclude-queues={analysis_queue},{tables_queue}",
            ],
        ),
        # A table waits on a person for minutes: its own processes, so that the
        # ladder never waits behind one (two tables at once).
        Child(
            "tables-worker",
            [
                *celery,
                "worker",
                "--loglevel=INFO",
                "--concurrency=2",
                "--hostname=tables@%h",
                f"--queues={tables_queue}",
            ],
        ),
        # Replay analyses search for minutes: one process of their own, so a match
        # never waits behind one.
        Child(
            "analysis-worker",
            [
                *celery,
                "worker",
                "--loglevel=INFO",
                "--concurrency=1",
                "--hostname=analysis@%h",
                f"--queues={analysis_queue}",
            ],
        ),
        Child(
            "beat",
            [
                *celery,
                "beat",
                "--loglevel=INFO",
                f"--schedule={var_dir / 'celery' / 'beat-schedule'}",
            ],
        ),
    ]


def supervise(
    children: list[Child],
    *,
    cwd: Path,
    announce: Callable[[str], None],
    grace_seconds: float = 20.0,
) -> int:
    """Start every child, wait until Ctrl-C or until one dies, then stop them all."""
    env = dict(os.environ)
    stop_requested = False

    def request_stop(signum: int, frame: object) -> None:
        nonlocal stop_requested
        stop_requested = True

    previous = {sig: signal.signal(sig, request_stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    exit_code = 0
    try:
        for child in children:
            child.start(cwd, env)
        while not stop_requested:
            for child in children:
                code = child.exited()
                if code is not None:
                    announce(f"{child.name} exited with status {code}; stopping everything.")
                    exit_code = code or 1
                    stop_requested = True
                    break
            time.sleep(0.3)
    finally:
        announce("Stopping: web, workers and beat…")
        deadline = time.monotonic() + grace_seconds
        for child in children:
            child.terminate()
        for child in children:
            child.wait_or_kill(deadline)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    announce("Stopped cleanly.")
    return exit_code
