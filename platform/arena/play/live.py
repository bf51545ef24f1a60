"""Publishing the game being played, behind the play: one thread per worker process.

The sandbox hands each game's log to `LiveTable.watch` as the game starts (the
engine appends its events to it as they happen) and to `game_over` as it ends.
Both only keep a reference: the play thread never waits on the live store. This
process's publishing thread wakes every ARENA_LIVE_PUBLISH_MS, and writes the
games whose log grew since it last looked (arena.matches.live), if anyone is
watching the match: most matches are never watched, and cost one read of the
store per round. Whatever the store
does, slow, gone or refusing, costs this thread its time and is logged, never a
match's: a write that fails is dropped, and the next one carries the whole game
again.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

from django.conf import settings

from arena.matches.live import (
    live_game_publish,
    live_match_played,
    live_pulse_touch,
    live_watched,
)

logger = logging.getLogger(__name__)


class _Game:
    """One game of the table as the publisher last saw it."""

    __slots__ = ("log", "marks", "over", "published", "seating")

    def __init__(self, seating: list[int], log: dict[str, Any]) -> None:
        self.seating = list(seating)
        self.log = log
        self.over = False
        self.marks: list[list[float]] = []
        self.published = -1  # events written so far; -1 before the first write


class LiveTable:
    """A match being played in this process, as its spectators follow it."""

    def __init__(self, *, match_id: int) -> None:
        self.match_id = match_id
        self._games: dict[int, _Game] = {}
        self._lock = threading.Lock()
        self._last_game = -1
        self._rounds = 0  # publishing rounds that saw the table open
        self.closed = False

    # -- the play thread: references only ----------------------------------------------

    def watch(self, game: int, seating: list[int], log: dict[str, Any]) -> None:
        with self._lock:
            self._games[game] = _Game(seating, log)
            self._last_game = game

    def game_over(self, game: int, log: dict[str, Any]) -> None:
        with self._lock:
            entry = self._games.get(game)
            if entry is None:  # a sandbox that does not watch: the end is all there is
                entry = self._games[game] = _Game(log.get("seating") or [], log)
            entry.log = log  # the finished log: result, stderr, debug, timing
            entry.over = True

    def close(self) -> None:
        """The match is played (or given up): the next round publishes what is left,
        then says so."""
        with self._lock:
            self.closed = True

    # -- the publishing thread ---------------------------------------------------------

    def publish(self) -> bool:
        """Write the games that changed, if anyone watches; True once the table is
        closed and written."""
        if self.closed and not self._rounds:
            # Played within one round: it is read from its rows, like a match that
            # appears whole with its result; not a read of the store per match.
            return True
        self._rounds += 1
        if not live_watched(match_id=self.match_id):
            return self.closed
        with self._lock:
            pending = [
                (number, entry)
                for number, entry in sorted(self._games.items())
                if entry.published != _size(entry)
            ]
            closed = self.closed
        now = time.time()
        for number, entry in pending:
            size = _size(entry)
            entry.marks.append([now, len(entry.log["events"])])
            log = entry.log if entry.over else _snapshot(entry.log)
            live_game_publish(
                match_id=self.match_id,
                game=number,
                seating=entry.seating,
                log=log,
                marks=entry.marks,
                over=entry.over,
            )
            entry.published = size
            if entry.over:  # written whole: the live store keeps it from now on
                with self._lock:
                    self._games.pop(number, None)
        if closed:
            live_match_played(match_id=self.match_id, games=self._last_game + 1)
        return closed


def _size(entry: _Game) -> int:
    # A finished game counts one more than its events, so its end is written too.
    return len(entry.log["events"]) + (1 if entry.over else 0)


def _snapshot(log: dict[str, Any]) -> dict[str, Any]:
    """The log as it stands: its lists copied (the play thread appends to them)."""
    return {**log, "events": list(log["events"]), "debug": list(log.get("debug") or ())}


class _Publisher:
    """This process's publishing thread and the tables it follows."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._tables: list[LiveTable] = []
        self._lock = threading.Lock()
        self._pulse = False
        self._thread = threading.Thread(target=self._run, name="live-publisher", daemon=True)
        self._thread.start()

    def follow(self, table: LiveTable) -> None:
        with self._lock:
            self._tables.append(table)
        self.pulse()

    def pulse(self) -> None:
        """Tell the pages that list matches, on the next round (once, however many
        matches started or ended meanwhile)."""
        self._pulse = True

    def _run(self) -> None:
        while True:
            time.sleep(settings.ARENA_LIVE_PUBLISH_MS / 1000)
            with self._lock:
                tables = list(self._tables)
            if self._pulse:
                self._pulse = False
                try:
                    live_pulse_touch()
                except Exception as error:
                    logger.warning("live store unavailable: %s", error)
            for table in tables:
                try:
                    done = table.publish()
                except Exception as error:  # the store is away: drop this write
                    logger.warning("match %s: live moves not published: %s", table.match_id, error)
                    done = table.closed
                if done:
                    with self._lock:
                        self._tables.remove(table)


_current: _Publisher | None = None
_current_lock = threading.Lock()


def _publisher() -> _Publisher:
    """This process's publisher, made again in a forked child (threads do not fork)."""
    global _current
    with _current_lock:
        if _current is None or _current.pid != os.getpid():
            _current = _Publisher()
        return _current


def live_table_open(*, match_id: int) -> LiveTable:
    """Start following a match this process is about to play."""
    table = LiveTable(match_id=match_id)
    _publisher().follow(table)
    return table


def live_pulse() -> None:
    """A result was written: the pages listing matches hear of it, from the
    publishing thread."""
    _publisher().pulse()
