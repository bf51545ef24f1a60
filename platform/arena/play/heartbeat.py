"""One thread per worker process that keeps the leases of the matches it plays.

A worker renews its lease on a match while the match plays (see
`leases.lease_heartbeat`), because a legal but slow game can outlast a lease.
A thread of its own for every match cost 0.2 ms of CPU to start and join, on every
match; this one thread starts with the first match a process plays (again after a
fork: threads do not survive one) and sleeps until a renewal is due.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connection

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class _Lease:
    token: str
    every_seconds: float
    due: float  # time.monotonic() of the next renewal


class LeaseKeeper:
    """Calls `renew(match_id=..., token=...)` every `every_seconds` for each lease it
    holds, until the lease is released or `renew` says it is lost (returns False)."""

    def __init__(self, renew: Callable[..., bool]) -> None:
        self._renew = renew
        self._leases: dict[int, _Lease] = {}
        self._lock = threading.Lock()
        self._changed = threading.Event()
        self._thread: threading.Thread | None = None
        self._thread_pid = 0

    def hold(self, *, match_id: int, token: str, every_seconds: float) -> None:
        with self._lock:
            self._leases[match_id] = _Lease(token, every_seconds, time.monotonic() + every_seconds)
            if self._thread_pid != os.getpid() or not (self._thread and self._thread.is_alive()):
                self._thread_pid = os.getpid()
                self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
                self._thread.start()
        self._changed.set()  # the new lease may be due before the thread would wake

    def release(self, *, match_id: int, token: str) -> None:
        with self._lock:
            lease = self._leases.get(match_id)
            if lease is not None and lease.token == token:
                del self._leases[match_id]

    def _run(self) -> None:
        while True:
            # Cleared before the leases are read: a lease added after this point
            # sets the event again, and the wait below returns at once.
            self._changed.clear()
            with self._lock:
                now = time.monotonic()
                due = [
                    (match_id, lease)
                    for match_id, lease in self._leases.items()
                    if lease.due <= now
                ]
            for match_id, lease in due:
                self._renew_one(match_id, lease)
            if due:
                connection.close()  # this thread's own; renewals are minutes apart
            with self._lock:
                next_due = min((lease.due for lease in self._leases.values()), default=None)
            self._changed.wait(None if next_due is None else max(0.0, next_due - time.monotonic()))

    def _renew_one(self, match_id: int, lease: _Lease) -> None:
        try:
            held = self._renew(match_id=match_id, token=lease.token)
        except Exception:  # the database is away: try again at the next period
            logger.exception("match %s: lease renewal failed", match_id)
            held = True
        with self._lock:
            if self._leases.get(match_id) is not lease:
                return  # released meanwhile
            if held:
                lease.due = time.monotonic() + lease.every_seconds
            else:
                logger.warning("match %s: lease lost while playing", match_id)
                del self._leases[match_id]
