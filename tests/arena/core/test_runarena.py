"""`make run`'s supervisor: the site answers, a task sent to its worker completes, and
Ctrl-C stops web, the workers and beat together. Runs on the embedded SQLite database and
filesystem broker, as a newcomer's machine would."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.support.worker import wait_for
from tests.test_layout import _is_stdlib

REPO_ROOT = Path(__file__).resolve().parents[3]

SEND_PROBE = """
import json
from arena.celery import app
import django
django.setup()
from arena.core.tasks import probe
print(json.dumps(probe.delay().get(timeout=90)))
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _embedded_env(var_dir: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DATABASE_URL", "CELERY_", "DJANGO_SETTINGS_MODULE"))
    }
    env.update(
        ARENA_VAR_DIR=str(var_dir),
        DATABASE_URL=f"sqlite:///{var_dir}/arena.sqlite3",
        DJANGO_SETTINGS_MODULE="arena.settings.base",
        PYTHONPATH=os.pathsep.join([str(REPO_ROOT), str(REPO_ROOT / "platform")]),
    )
    return env


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read()
    except OSError:
        return 0, b""


def _children(pid: int) -> list[int]:
    """The direct children of `pid`: for runarena, web, the two workers and beat."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(child) for child in found.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.slow
def test_runarena_serves_runs_tasks_and_stops_on_ctrl_c(tmp_path):
    port = _free_port()
    env = _embedded_env(tmp_path)
    log = (tmp_path / "runarena.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runarena", "--port", str(port)],
        cwd=REPO_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_for(
            lambda: _get(f"http://127.0.0.1:{port}/healthz/")[0] == 200,
            timeout=120,
            what="the site to answer",
        )
        status, _ = _get(f"http://127.0.0.1:{port}/")
        assert status == 200
        probe = subprocess.run(
            [sys.executable, "-c", SEND_PROBE],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        info = json.loads(probe.stdout.strip().splitlines()[-1])
        assert _is_stdlib(info["platform_module"])
        assert f"http://127.0.0.1:{port}/" in (tmp_path / "runarena.log").read_text()
        wait_for(
            lambda: "analysis@" in (tmp_path / "runarena.log").read_text(),
            timeout=60,
            what="the analysis worker to start",
        )
        children = _children(process.pid)
        assert len(children) == 5  # web, worker, analysis worker, tables worker, beat

        process.send_signal(signal.SIGINT)  # what Ctrl-C delivers
        assert process.wait(timeout=60) == 0
        assert "Stopped cleanly." in (tmp_path / "runarena.log").read_text()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
    # Nothing of web, worker or beat survives the supervisor.
    assert not [child for child in children if _alive(child)]


@pytest.mark.slow
def test_children_die_when_the_supervisor_is_killed(tmp_path):
    """Even a SIGKILLed `make run` leaves no orphaned web, worker or beat behind."""
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runarena", "--port", str(port)],
        cwd=REPO_ROOT,
        env=_embedded_env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_for(
            lambda: _get(f"http://127.0.0.1:{port}/healthz/")[0] == 200,
            timeout=120,
            what="the site to answer",
        )
        children = _children(process.pid)
        assert len(children) == 5  # web, worker, analysis worker, tables worker, beat
    finally:
        process.kill()
        process.wait()
    wait_for(
        lambda: not [child for child in children if _alive(child)],
        timeout=30,
        what="web, worker and beat to exit",
    )
