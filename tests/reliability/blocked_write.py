"""Transactions held open on another thread, with their row locks: to hold a
match's result write in the middle (a row it must lock after inserting the games
stays locked), so that a test can act on the worker (kill it, stop it) while its
write waits, or to show that some other statement does not wait for such locks."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import connection, connections, transaction

from arena.bots.models import BotVersion
from arena.matches.models import Match
from tests.support.worker import wait_for


@contextmanager
def transaction_held(lock: Callable[[], object], *, seconds: float = 120) -> Iterator[None]:
    """Run `lock()` in a transaction on another thread and keep that transaction
    open, with the row locks it took, until the block ends (at most `seconds`)."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                lock()
                locked.set()
                release.wait(seconds)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(30), "could not take the locks"
        yield
    finally:
        release.set()
        holder.join(30)


@contextmanager
def result_write_held(match: Match) -> Iterator[None]:
    """The block runs while `match`'s result write cannot finish; the write goes on
    when the block ends. Call `wait_until_the_write_waits()` inside the block to
    know the worker is in its write."""
    version_id = match.seats.order_by("index").first().bot_version_id
    # A clean match resets a fault streak, so the write must update (and lock) this
    # version's row; with no streak to reset it would leave the row alone.
    BotVersion.objects.filter(pk=version_id).update(consecutive_faulted_matches=1)
    with transaction_held(lambda: BotVersion.objects.select_for_update().get(pk=version_id)):
        yield


def wait_until_the_write_waits() -> None:
    def writing_blocked() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND query ILIKE '%%bots_botversion%%'"
            )
            return cursor.fetchone()[0] >= 1

    wait_for(writing_blocked, timeout=90, what="the worker to block inside its result write")
