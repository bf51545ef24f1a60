"""The person's seat of a table (arena.matches.tables), played on the worker.

The seat is a `sandbox.human.HumanSeat`, the contract `onecard play` uses too; its
desk here is the live store (arena.matches.live): a question is left there for the
person's page, which the page's event stream brings to the browser, and the page's
answer (POST /api/v1/tables/<id>/move/) is read back from there. The person is taken
as gone when they press "Leave", or when their page has not been open for
ARENA_TABLE_AWAY_SECONDS; the seat then faults with `timeout` and the bots play
the game out, so that no worker waits on an absent person. The table's whole
length is bounded by ARENA_TABLE_MAX_SECONDS.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings

from arena.matches.live import (
    table_answer_take,
    table_left,
    table_question_set,
    table_seen_at,
)
from sandbox.human import LEFT, HumanSeat
from sandbox.limits import Limits

logger = logging.getLogger(__name__)

# How often the desk looks for the person's answer: a cache read each time, for
# one table; a person does not notice a tenth of a second.
POLL_SECONDS = 0.1


class BrowserDesk:
    """A `sandbox.human.Desk` whose person answers from their browser."""

    def __init__(
        self,
        *,
        match_id: int,
        away_seconds: float,
        now: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.match_id = match_id
        self.away_seconds = away_seconds
        self.now = now
        self.sleep = sleep
        self.opened = now()  # a page that never opened counts as seen at the start
        self.asked = 0

    def tell(self, message: dict[str, Any]) -> None:
        # The page follows the table through the match's event stream.
        return None

    def ask(self, message: dict[str, Any], timeout: float | None) -> dict[str, Any] | str | None:
        self.asked += 1
        number = self.asked
        ends = None if timeout is None else self.now() + timeout
        self._store(
            lambda: table_question_set(
                match_id=self.match_id,
                question={"number": number, "message": message, "deadline": ends},
            )
        )
        try:
            while True:
                answer = self._store(
                    lambda: table_answer_take(match_id=self.match_id, number=number)
                )
                if answer is not None:
                    return answer
                if self._gone():
                    return LEFT
                if ends is not None and self.now() >= ends:
                    return None
                self.sleep(POLL_SECONDS)
        finally:
            self._store(lambda: table_question_set(match_id=self.match_id, question=None))

    def _gone(self) -> bool:
        if self._store(lambda: table_left(match_id=self.match_id)):
            return True
        seen = self._store(lambda: table_seen_at(match_id=self.match_id)) or 0.0
        return self.now() - max(seen, self.opened) > self.away_seconds

    def _store(self, call: Callable[[], Any]) -> Any:
        """A live store call; one that fails counts as nothing there (the clock and
        the table's bound still end the wait)."""
        try:
            return call()
        except Exception:
            logger.warning("table %s: live store unavailable", self.match_id, exc_info=True)
            return None


def person_seat(*, match_id: int) -> HumanSeat:
    """The seat a table's person plays through, with the table's clocks."""
    return HumanSeat(
        BrowserDesk(match_id=match_id, away_seconds=settings.ARENA_TABLE_AWAY_SECONDS),
        move_seconds=settings.ARENA_TABLE_MOVE_SECONDS,
        patience=settings.ARENA_TABLE_PATIENCE,
        deadline=time.monotonic() + settings.ARENA_TABLE_MAX_SECONDS,
    )


def table_limits() -> Limits:
    """The sandbox's limits for a table: its whole length may reach the table's bound."""
    default = Limits()
    return Limits(match_s=max(default.match_s, settings.ARENA_TABLE_MAX_SECONDS + 60.0))
