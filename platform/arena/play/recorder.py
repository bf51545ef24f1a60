"""Results written behind the play: one thread per worker process.

A Celery worker process that has played a match hands the result write to this
thread and returns to Celery at once, which gives it its next match while the
result is written. The write (a few milliseconds under load: its statements and
a durable commit) and Celery's hand-over between two tasks then overlap instead of
following one another, on every match. What it buys on bwrap, 2 cores, against the
write inline (`benchmarks/arena_platform.py --skip-queries --compare-with` a
checkout whose `run_match` passes no recorder): +12.7 % against +17.7 % end to end
with 1 worker process, +17.2 % against +19.1 % with 2, for about 2 ms more CPU a match.

Why nothing is lost (docs/platform-core.md, "Results written behind the play"):
- The match stays `running` under this worker's lease until the result commits,
  and the write checks the lease, as ever. Celery acks the message when the task
  returns, a few milliseconds before that commit: if the process dies between the
  two, the lease runs out and the sweeper queues the match again, as it does for
  any match whose worker died.
- At most one result waits per process: `submit` first waits for the one before,
  so a slow database slows the worker down instead of piling results up in memory.
- A database that is away is tried again here, with backoff; a result that still
  cannot be written is given up, and the lease's expiry replays the match.
- A pool process that exits (warm shutdown, max tasks per child) first finishes
  its pending write (`arena.celery`, worker_process_shutdown).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

from django.db import InterfaceError, OperationalError, close_old_connections, connection

from arena.core.threads import thread_of_process

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Seconds between the attempts at a result write while the database is away:
# about a quarter of a minute in all, well inside a match's lease (5 minutes).
RETRY_DELAYS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)


class ResultRecorder:
    """Runs result writes, one at a time, on a thread of this process."""

    def __init__(self, *, retry_delays: Sequence[float] = RETRY_DELAYS) -> None:
        self.retry_delays = tuple(retry_delays)
        # The write in progress and the process that sent it: a forked child does
        # not wait for its parent's, which no thread of the child would finish.
        self._pending: tuple[int, Future[Any]] | None = None

    def submit(self, *, match_id: int, write: Callable[[], T]) -> Future[T | None]:
        """Run `write()` on the recorder's thread, after the write before it has
        ended. Its future holds what `write` returned, or None if it was given up
        (the reason is logged)."""
        self.wait()
        future = thread_of_process("result-recorder").submit(self._write, match_id, write)
        self._pending = (os.getpid(), future)
        return future

    def behind(self, work: Callable[[], object]) -> None:
        """Run `work()` on the recorder's thread, after what was sent before it, and
        without waiting for anything: best-effort writes (a match's games as they
        end) whose failure a later write makes good. Errors are logged."""
        thread_of_process("result-recorder").submit(self._best_effort, work)

    @staticmethod
    def _best_effort(work: Callable[[], object]) -> None:
        close_old_connections()
        try:
            work()
        except Exception:
            logger.exception("a write behind the play failed")

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the pending write, if any; False if it was still running after
        `timeout` seconds."""
        pending = self._pending
        if pending is None or pending[0] != os.getpid():
            return True
        try:
            pending[1].result(timeout)
        except FutureTimeout:
            return False
        return True

    def _write(self, match_id: int, write: Callable[[], T]) -> T | None:
        delays = iter(self.retry_delays)
        while True:
            # This thread's own connection, kept between writes like a task's
            # (CONN_MAX_AGE), health-checked before use (CONN_HEALTH_CHECKS).
            close_old_connections()
            try:
                return write()
            except (OperationalError, InterfaceError) as error:
                connection.close()
                delay = next(delays, None)
                if delay is None:
                    logger.error(
                        "match %s: result not recorded, the database is away (%s); "
                        "the match is played again when its lease runs out",
                        match_id,
                        error,
                    )
                    return None
                logger.warning(
                    "match %s: the database is away (%s); writing the result again in %s s",
                    match_id,
                    error,
                    delay,
                )
                time.sleep(delay)
            except Exception:
                logger.exception(
                    "match %s: result not recorded; the match is played again "
                    "when its lease runs out",
                    match_id,
                )
                return None


_recorder = ResultRecorder()


def results_recorder() -> ResultRecorder:
    """This process's recorder."""
    return _recorder
