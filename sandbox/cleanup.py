"""Removing what crashed workers left behind: bot containers and bot cgroups.

A worker tears its bots down itself; this is for when it could not (killed, host
rebooted). bwrap sandboxes end with their worker (`--die-with-parent`) and never
write to the host's disk, but their cgroups stay, as may a subprocess bot's
daemonized children: both are reaped through the dead worker's cgroups.

The platform runs it when a worker starts (what workers killed on this host left)
and periodically (the rest, and containers past their expiry from anywhere). An
owner is judged by host, pid and start time (`sandbox.owner`): a worker restarted
in the same container reuses the dead one's pids.
"""

from __future__ import annotations

import contextlib
import time
from datetime import datetime
from typing import Any

import docker.errors

from sandbox.backends.cgroups import (
    CGROUP_ROOT,
    LEAF_PREFIX,
    BotCgroup,
    host_tag,
    leaf_owner,
    parent_dirs,
)
from sandbox.backends.docker import docker_client
from sandbox.errors import InfrastructureError
from sandbox.labels import (
    BOT_LABEL,
    EXPIRES_LABEL,
    OWNER_HOST_LABEL,
    OWNER_PID_LABEL,
    OWNER_START_LABEL,
    owner_host,
    owner_start,
)
from sandbox.owner import pid_alive, still_running


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
            pid = int(labels.get(OWNER_PID_LABEL, ""))
            start = labels.get(OWNER_START_LABEL)
            if start is None:  # labelled before owners carried their start
                return not pid_alive(pid)
            return owner_start(pid) != start  # gone, or its pid is another process's
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


def _remove_orphan_cgroups() -> int:
    """Groups whose worker is dead: kill whatever still runs in them, then remove them."""
    removed = 0
    for parent in parent_dirs():
        for leaf in parent.glob(f"{LEAF_PREFIX}*"):
            owner = leaf_owner(leaf.name)
            if owner is None or owner[2] != host_tag() or still_running(owner[0], owner[1]):
                continue  # not ours to judge, or its worker still runs
            group = BotCgroup([leaf], unified=parent.parent == CGROUP_ROOT)
            group.kill_all()
            group.remove()
            removed += not leaf.exists()
    return removed


def cleanup_orphans(*, older_than_s: float = 0) -> int:
    """Remove bot containers whose worker is gone or whose match cap has passed, and
    bot cgroups (with anything still running in them) whose worker is gone.

    Only containers at least `older_than_s` old are considered. Returns how many
    containers and cgroups were removed.
    """
    return _remove_orphan_containers(older_than_s) + _remove_orphan_cgroups()
