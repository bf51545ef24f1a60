"""An in-process bot callable (a built-in) dressed as a match player.

Built-ins are the platform's own code, so they need no sandbox; wrapping them
lets one match mix them with sandboxed programs (`onecard match random mybot.py`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sandbox.errors import InfrastructureError
from sandbox.seat import GameRecord


class InProcessBot:
    """Times each decision of a trusted callable; it has no process to start or stop."""

    infrastructure_error: InfrastructureError | None = None

    def __init__(self, bot: Callable[[dict[str, Any]], Any]) -> None:
        self._bot = bot
        self.record = GameRecord()

    def ensure_running(self) -> None:
        return None

    def begin_game(self) -> None:
        self.record = GameRecord()

    def end_game(self, *, faulted: str | None, last: bool = False) -> GameRecord:
        record, self.record = self.record, GameRecord()
        record.fault = faulted
        return record

    def stop(self) -> None:
        return None

    def __call__(self, message: dict[str, Any]) -> Any:
        started = time.monotonic()
        reply = self._bot(message)
        if message.get("type") != "end":
            self.record.latencies_ms.append((time.monotonic() - started) * 1000)
        return reply
