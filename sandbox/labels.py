"""Labels that mark a bot container as ours, and say who owns it and until when."""

from __future__ import annotations

import os
import time

from sandbox.limits import Limits
from sandbox.owner import boot_id, host_name, start_ticks

BOT_LABEL = "onecard.arena.bot"
OWNER_HOST_LABEL = "onecard.arena.owner-host"
OWNER_PID_LABEL = "onecard.arena.owner-pid"
# `<boot id>:<start ticks>` of the owner: its pid may belong to another process later.
OWNER_START_LABEL = "onecard.arena.owner-start"
EXPIRES_LABEL = "onecard.arena.expires"


def owner_host() -> str:
    return host_name()


def owner_start(pid: int) -> str:
    """The value of `OWNER_START_LABEL` for the running process `pid`."""
    return f"{boot_id()}:{start_ticks(pid)}"


def container_labels(limits: Limits) -> dict[str, str]:
    """A match never outlives its cap, so a container past it is an orphan for sure."""
    return {
        BOT_LABEL: "1",
        OWNER_HOST_LABEL: owner_host(),
        OWNER_PID_LABEL: str(os.getpid()),
        OWNER_START_LABEL: owner_start(os.getpid()),
        EXPIRES_LABEL: f"{time.time() + limits.match_s + 60:.0f}",
    }
