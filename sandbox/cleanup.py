"""Removing what crashed workers left behind: bot containers, empty bot cgroups.

A worker tears its bots down itself; this is for when it could not (killed, host
rebooted). bwrap trees need nothing here: `--die-with-parent` ends them with
their worker, and they never write to the host's disk.
"""

from __future__ import annotations

import contextlib
import os
import time
from datetime import datetime
from typing import Any

import docker.errors

from sandbox.backends.cgroups import LEAF_PREFIX, parent_dirs
from sandbox.backends.docker import docker_client
from sandbox.errors import InfrastructureError
from sandbox.labels import BOT_LABEL, EXPIRES_LABEL, OWNER_HOST_LABEL, OWNER_PID_LABEL, owner_host

# An empty cgroup younger than this may be one a launch is about to fill.
_CGROUP_GRACE_S = 10.0


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _created_at(container: dict[str, Any]) -> float:
    created = container.get("Created", 0)
    if isinstance(created, int | float):
        return float(created)
    return datetime.fromisoformat(str(created).replace("Z", "+00:00")).timestamp()


def _is_orphan(labels: dict[str, str], now: float) -> bool:
    with contextlib.suppress(ValueError):
        if float(labels.get(EXPIRES_LABEL, "0")) < now:
            return True
    if labels.get(OWNER_HOST_LABEL) == owner_host():
        with contextlib.suppress(ValueError):
            return not _pid_alive(int(labels.get(OWNER_PID_LABEL, "")))
    return False


def _remove_orphan_containers(older_than_s: float) -> int:
    try:
        api = docker_client()
    except InfrastructureError:
        return 0
    now = time.time()
    removed = 0
    for container in api.containers(all=True, filters={"label": f"{BOT_LABEL}=1"}):
        if now - _created_at(container) < older_than_s:
            continue
        if not _is_orphan(container.get("Labels") or {}, now):
            continue
        with contextlib.suppress(docker.errors.NotFound):
            api.remove_container(container["Id"], force=True, v=True)
            removed += 1
    return removed


def _remove_empty_cgroups() -> int:
    removed = 0
    now = time.time()
    for parent in parent_dirs():
        for leaf in parent.glob(f"{LEAF_PREFIX}*"):
            with contextlib.suppress(OSError):
                if now - leaf.stat().st_mtime < _CGROUP_GRACE_S:
                    continue
                if (leaf / "cgroup.procs").read_text().strip():
                    continue
                leaf.rmdir()
                removed += 1
    return removed


def cleanup_orphans(*, older_than_s: float = 0) -> int:
    """Remove our bot containers whose worker is gone or whose match cap has passed.

    Only containers at least `older_than_s` old are considered. Returns how many
    containers and cgroups were removed.
    """
    return _remove_orphan_containers(older_than_s) + _remove_empty_cgroups()
