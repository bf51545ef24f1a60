"""Running hostile bots in a real sandbox and checking that the host is unchanged."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

import sandbox
from sandbox.backends.bwrap import bwrap_path
from sandbox.backends.cgroups import CGROUP_ROOT, LEAF_PREFIX, parent_dirs
from sandbox.backends.docker import docker_available, docker_client
from sandbox.labels import BOT_LABEL, OWNER_PID_LABEL

HERE = Path(__file__).parent
HOSTILE = HERE / "hostile"
BOTS = HERE / "bots"
FIRST_LEGAL = BOTS / "first_legal.py"
# The hostile bots must never run unisolated: some of them kill every process they can.
ISOLATING_BACKENDS = ("bwrap", "docker")

# Short limits keep the suite fast; the first start still allows a container to boot.
FAST = sandbox.Limits(message_ms=300, bank_ms=300, first_start_ms=4000, exit_grace_ms=200)


def require_backend(name: str) -> None:
    if name == "docker" and not docker_available():
        pytest.skip("no Docker engine answers (CI starts one in .ci/steps/20-docker.sh)")
    if name == "bwrap" and bwrap_path() is None:
        pytest.skip("bubblewrap is not installed (CI installs it in .ci/steps/10-bwrap.sh)")
    if name == "docker":
        try:
            docker_client().inspect_image("onecard-bot-runtime:latest")
        except Exception:
            pytest.skip("the bot image is missing: run sandbox/runtime/build_offline.sh")


def render(name: str, directory: Path, *, source: Path = HOSTILE, **values: Any) -> Path:
    """The bot template `source/name`, each `__KEY__` replaced (JSON for non-strings)."""
    text = (source / name).read_text()
    for key, value in values.items():
        placeholder = f"__{key.upper()}__"
        assert placeholder in text, placeholder
        text = text.replace(placeholder, value if isinstance(value, str) else json.dumps(value))
    path = directory / name
    path.write_text(text)
    return path


def play(
    path: Path,
    backend: str,
    *,
    limits: sandbox.Limits = FAST,
    games: int = 1,
    opponent: Path = FIRST_LEGAL,
) -> sandbox.MatchResult:
    """A match of the hostile bot (index 0, seat 0 in game 0) against a sound bot."""
    return sandbox.run_match(
        [sandbox.BotProgram("hostile", path), sandbox.BotProgram("sound", opponent)],
        games=games,
        seed=2024,
        backend=backend,
        limits=limits,
    )


def fault_of(log: dict[str, Any], bot_index: int = 0) -> str | None:
    seat = log["seating"].index(bot_index)
    reasons = [f["reason"] for f in log["result"]["faults"] if f["seat"] == seat]
    return reasons[0] if reasons else None


def report_of(log: dict[str, Any], bot_index: int = 0) -> Any:
    """What a probing bot said about its attack (the `debug` of its `start` reply)."""
    seat = log["seating"].index(bot_index)
    texts = [d["text"] for d in log["debug"] if d["seat"] == seat]
    assert texts, "the bot sent no report"
    return json.loads(texts[0])


def assert_opponent_played_on(log: dict[str, Any], opponent_index: int = 1) -> None:
    """The sound bot finished the game unharmed; if the hostile one faulted, it won."""
    seat = log["seating"].index(opponent_index)
    assert fault_of(log, opponent_index) is None
    assert log["result"]["winner"] is not None
    if fault_of(log, 1 - opponent_index) is not None:
        assert log["result"]["winner"] == seat


def processes_with(marker: str) -> list[int]:
    """Live processes whose command line (`/proc/<pid>/cmdline`, what `ps` shows) holds
    `marker`: any process of the host, sandboxed or not, this one aside.

    A hostile bot that means to be found puts its marker there (an argument of an
    exec); a marker in a bot's source is not on any command line (code reaches the
    sandbox as a file), so it would never be found. A zombie's command line is empty.
    """
    needle = marker.encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if needle in cmdline:
            found.append(int(entry.name))
    return found


def leftover_containers() -> list[str]:
    """Bot containers of this test process (others may be running matches meanwhile)."""
    if not docker_available():
        return []
    labels = [f"{BOT_LABEL}=1", f"{OWNER_PID_LABEL}={os.getpid()}"]
    return [c["Id"] for c in docker_client().containers(all=True, filters={"label": labels})]


def leftover_cgroups() -> list[Path]:
    mine = f"{LEAF_PREFIX}{os.getpid()}-*"
    return [leaf for parent in parent_dirs() if parent.is_dir() for leaf in parent.glob(mine)]


def host_leftovers(marker: str | None = None, *, grace_s: float = 0.0) -> dict[str, list[Any]]:
    """What bots of this test process left on the host, by kind, kinds with none left out:
    bot containers (running or not), cgroups, and processes with `marker` on their
    command line (these may take `grace_s` to go: a PID namespace whose last holder
    was killed is torn down by the kernel, after the kill returned)."""
    processes: list[int] = []
    if marker is not None:
        deadline = time.monotonic() + grace_s
        processes = processes_with(marker)
        while processes and time.monotonic() < deadline:
            time.sleep(0.02)
            processes = processes_with(marker)
    found = {
        "containers": leftover_containers(),
        "cgroups": [str(path) for path in leftover_cgroups()],
        "processes": [describe_process(pid) for pid in processes],
    }
    return {kind: items for kind, items in found.items() if items}


def describe_process(pid: int) -> str:
    """`pid: command line` (shortened), for a failure message."""
    try:
        cmdline = (Path("/proc") / str(pid) / "cmdline").read_bytes()
    except OSError:
        return f"{pid}: (gone)"
    text = " ".join(cmdline.decode(errors="replace").replace("\0", " ").split())
    return f"{pid}: {text if len(text) <= 200 else text[:60] + ' ... ' + text[-100:]}"


def bot_pid(bot: Any) -> int:
    """The host pid of a running bot: its container's first process, or the local
    process tree's root."""
    container = getattr(bot, "container_id", None)
    if container is not None:
        return int(docker_client().inspect_container(container)["State"]["Pid"])
    return int(bot.pid)


def _quota_in(group: Path) -> float | None:
    """The CPU quota (in cores) set on one cgroup directory, None if unlimited."""
    v2 = group / "cpu.max"
    if v2.exists():
        quota, period = v2.read_text().split()
        return None if quota == "max" else int(quota) / int(period)
    quota_us = group / "cpu.cfs_quota_us"
    if quota_us.exists() and int(quota_us.read_text()) > 0:
        return int(quota_us.read_text()) / int((group / "cpu.cfs_period_us").read_text())
    return None


def cpu_quota_of(pid: int) -> float | None:
    """The tightest CPU quota (in cores) on the cgroup of `pid` and its ancestors, as
    the host sees them; None when nothing limits its CPU time."""
    quotas: list[float] = []
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers == "" and (CGROUP_ROOT / "cgroup.controllers").exists():
            group = CGROUP_ROOT / path.lstrip("/")
            top = CGROUP_ROOT
        elif "cpu" in controllers.split(","):
            top = CGROUP_ROOT / "cpu"
            group = top / path.lstrip("/")
        else:
            continue
        for directory in [group, *group.parents]:
            quota = _quota_in(directory)
            if quota is not None:
                quotas.append(quota)
            if directory == top:
                break
    return min(quotas) if quotas else None


def assert_host_clean(marker: str | None = None) -> None:
    """Nothing of any bot is left: no container, no cgroup, no process with `marker`."""
    leftovers = host_leftovers(marker, grace_s=2.0)
    assert leftovers == {}, f"left on the host after the match: {leftovers}"
