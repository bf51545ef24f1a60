"""A match's games written as each one ends, so that its page fills in game by game.

The sandbox reports each finished game (its `progress`); the game's row is built
and written on the result recorder's thread, behind the play, in a transaction of
its own that first checks the lease (as the result does): a worker that lost the
match writes nothing. These writes are a preview, best effort: one that fails is
not tried again, because the match's result (arena.play.results) writes, in its one
transaction, every game not written yet, the seat totals and the ratings. So the
ratings are applied once per match, as before, and a game never counts twice:
- a game row is unique by (match, number);
- when a match is played again (a lost lease, a retry), the rows an earlier attempt
  left are replaced game by game and, in the result's transaction, the ones this
  attempt did not play are deleted.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Iterable
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError, connection, transaction

from arena.core import statements
from arena.matches.logs import game_summary, log_compress
from arena.matches.models import Game

from .leases import Claim
from .sql import games_delete_unkept, match_lock_if_held

logger = logging.getLogger(__name__)


def game_row(*, claim: Claim, number: int, log: dict[str, Any]) -> Game:
    """The unsaved Game of a played log; ValueError for a log that does not fit."""
    summary = game_summary(log)
    if len(summary.ranks) != len(claim.seats):
        raise ValueError(f"match {claim.match.pk}: game {number} has the wrong player count")
    return Game(
        match_id=claim.match.pk,
        number=number,
        seating=summary.seating,
        ranks=summary.ranks,
        winner_index=summary.winner_index,
        turns=summary.turns,
        adjudicated=summary.adjudicated,
        faults=summary.faults,
        log_compressed=log_compress(log),
    )


class GameRecording:
    """The games of one claimed match: those built, and those written, so far.

    `add` runs on the play thread and only queues the log; `flush` runs on the
    recorder's thread (or inline without one) and writes every game queued since."""

    def __init__(self, *, claim: Claim) -> None:
        self.claim = claim
        self.built: dict[int, Game] = {}
        self.written: set[int] = set()
        self._queued: deque[tuple[int, dict[str, Any]]] = deque()
        self._lock = threading.Lock()
        # Rows may exist that this attempt did not write: an earlier attempt's, or
        # this one's before its sandbox fell back and played the games again.
        self.stale_rows = claim.match.attempts > 1

    def add(self, number: int, log: dict[str, Any]) -> None:
        self._queued.append((number, log))

    def flush(self) -> None:
        """Write the games queued so far; a failure is logged and left to the result."""
        with self._lock:
            rows = self._build(self._drain())
            if not rows:
                return
            try:
                if games_write_if_held(claim=self.claim, games=rows, replace=self.stale_rows):
                    self.written.update(game.number for game in rows)
            except (OperationalError, InterfaceError) as error:
                connection.close()  # a fresh one for the result's write
                logger.info("match %s: games left to the result: %s", self.claim.match.pk, error)
            except DatabaseError as error:
                logger.info("match %s: games left to the result: %s", self.claim.match.pk, error)

    def games_for_result(self, logs: list[dict[str, Any]]) -> list[Game]:
        """Every game of the match as the result writes it, built once."""
        with self._lock:
            self._drain()  # queued but never flushed: built below from the logs
            return [
                self.built.get(number)
                or self._remember(game_row(claim=self.claim, number=number, log=log))
                for number, log in enumerate(logs)
            ]

    def _drain(self) -> list[tuple[int, dict[str, Any]]]:
        items = []
        while self._queued:
            items.append(self._queued.popleft())
        return items

    def _build(self, items: Iterable[tuple[int, dict[str, Any]]]) -> list[Game]:
        rows = []
        for number, log in items:
            try:
                rows.append(self._remember(game_row(claim=self.claim, number=number, log=log)))
            except ValueError:
                logger.exception(
                    "match %s: game %s cannot be recorded", self.claim.match.pk, number
                )
        return rows

    def _remember(self, game: Game) -> Game:
        if game.number in self.built:  # played again: the row written is not this one
            self.stale_rows = True
            self.written.discard(game.number)
        self.built[game.number] = game
        return game


def games_write_if_held(*, claim: Claim, games: list[Game], replace: bool) -> bool:
    """Write played games of a match this worker holds, `replace`-ing rows left
    under the same numbers; False (nothing written) when the lease is no longer
    this worker's."""
    with transaction.atomic():
        if not match_lock_if_held(match_id=claim.match.pk, token=claim.token):
            return False
        if replace:
            games_delete_unkept(
                match_id=claim.match.pk, keep=(), only=[game.number for game in games]
            )
        statements.insert(games)
    return True
