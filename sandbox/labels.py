"""Labels that mark a bot container as ours, and say who owns it and until when."""

from __future__ import annotations

import os
import socket
import time

from sandbox.limits import Limits

BOT_LABEL = "onecard.arena.bot"
OWNER_HOST_LABEL = "onecard.arena.owner-host"
OWNER_PID_LABEL = "onecard.arena.owner-pid"
EXPIRES_LABEL = "onecard.arena.expires"


def owner_host() -> str:
    return socket.gethostname()


def container_labels(limits: Limits) -> dict[str, str]:
    """A match never outlives its cap, so a container past it is an orphan for sure."""
    return {
        BOT_LABEL: "1",
        OWNER_HOST_LABEL: owner_host(),
        OWNER_PID_LABEL: str(os.getpid()),
        EXPIRES_LABEL: f"{time.time() + limits.match_s + 60:.0f}",
    }
