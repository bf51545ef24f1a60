"""What a bwrap bot is, seen from the host."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sandbox.backends.bwrap import BOT_UID, launch_bwrap
from sandbox.limits import Limits
from sandbox.program import BotProgram
from tests.sandbox.harness import FIRST_LEGAL, require_backend

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
