"""A match's life in the database: claim, lease, result or failure, sweep.

The database is the source of truth. A queued message carries only a match id; a
worker *claims* the row (state and a lease token, under a row lock), renews the
lease while it plays, and writes the outcome only if it still holds the lease.
The sweeper gives a match whose lease ran out (its worker died) back to the
queue, and fails it, blaming no bot, after ARENA_MATCH_MAX_ATTEMPTS.

Lock order, everywhere: the Match row, then BotVersion rows by primary key, then
Rating rows by bot id (arena.ratings.locks), then the tournament (its hook).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone

from arena.bots.services import bot_version_match_faults_apply, bot_version_match_faults_send
from arena.core import statements

from .heartbeat import LeaseKeeper
from .logs import GameSummary, game_summary, log_compress
from .models import Game, Match, MatchSeat

logger = logging.getLogger(__name__)


def worker_token() -> str:
    """Who holds a lease: host and process, plus a nonce per claim, so that a worker
    that claims the same match again is told apart from its earlier self."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _lease_until(now: datetime) -> datetime:
    return now + timedelta(seconds=settings.ARENA_MATCH_LEASE_SECONDS)


def _locked(match_id: int) -> Match | None:
    return Match.objects.select_for_update().filter(pk=match_id).first()


def _db_time(value: datetime) -> Any:
    """A datetime as the ORM would store it (naive UTC text on SQLite)."""
    return statements.database().ops.adapt_datetimefield_value(value)


def match_claim(*, match_id: int, token: str) -> Match | None:
    """Take a queued match (or a running one whose lease expired) for this worker.

    Returns None when there is nothing to do: the match is gone, done, failed, or
    held by a live lease. A match out of attempts is failed here instead.
    """
    return match_claim_outcome(
        match_id=match_id, rows=match_claim_send(match_id=match_id, token=token).rows()
    )


def match_claim_send(*, match_id: int, token: str) -> statements.Sent:
    """The claim's statement, sent: in a `statements.pipelined()` block more can go
    in the same round trip (the runner sends the match's seats). Its rows go to
    `match_claim_outcome`, outside the block."""
    # The usual case in one conditional UPDATE, atomic by itself: of two workers
    # claiming at once, the second finds the row no longer claimable.
    now = timezone.now()
    return statements.send(
        "UPDATE matches_match SET state = %s, attempts = attempts + 1, worker = %s,"  # noqa: S608  (names are ours, the values are parameters)
        " lease_expires_at = %s, started_at = %s"
        " WHERE id = %s AND attempts < %s"
        " AND (state = %s OR (state = %s AND lease_expires_at <= %s))"
        f" RETURNING {statements.columns(Match)}",
        [
            Match.State.RUNNING,
            token,
            _db_time(_lease_until(now)),
            _db_time(now),
            match_id,
            settings.ARENA_MATCH_MAX_ATTEMPTS,
            Match.State.QUEUED,
            Match.State.RUNNING,
            _db_time(now),
        ],
    )


def match_claim_outcome(*, match_id: int, rows: list[tuple[Any, ...]]) -> Match | None:
    """The claimed match from the claim's rows; when there are none, see why under
    the row lock (the ORM: not in a pipeline) and fail a match out of attempts."""
    if rows:
        return statements.models_from_rows(Match, rows)[0]
    now = timezone.now()
    with transaction.atomic():
        match = _locked(match_id)
        if match is None:
            return None
        claimable = match.state == Match.State.QUEUED or (
            match.state == Match.State.RUNNING
            and match.lease_expires_at is not None
            and match.lease_expires_at <= now
        )
        if claimable and match.attempts >= settings.ARENA_MATCH_MAX_ATTEMPTS:
            _fail(match, f"Gave up after {match.attempts} attempts.")
    return None


def match_lease_renew(*, match_id: int, token: str) -> bool:
    """Extend the lease; False if this worker no longer holds it."""
    renewed = Match.objects.filter(pk=match_id, state=Match.State.RUNNING, worker=token).update(
        lease_expires_at=_lease_until(timezone.now())
    )
    return renewed == 1


def _resend_after(now: datetime) -> datetime:
    """On a QUEUED match, `lease_expires_at` is when its broker message is presumed
    lost and `matches_resend_queued` sends another."""
    return now + timedelta(seconds=settings.ARENA_MATCH_RESEND_SECONDS)


@contextmanager
def lease_heartbeat(*, match_id: int, token: str, every_seconds: float) -> Iterator[None]:
    """Renew the lease every `every_seconds` while the block runs.

    Games report progress only when they end, and a legal but slow game (1000
    turns just under the per-move limit) can outlast a lease; the heartbeat keeps
    a live worker's claim whatever the games do. A worker that dies stops beating,
    and the sweeper takes the match back when the lease runs out. The renewals come
    from the process's one LeaseKeeper thread (the only renewals while a match plays).
    """
    _lease_keeper.hold(match_id=match_id, token=token, every_seconds=every_seconds)
    try:
        yield
    finally:
        _lease_keeper.release(match_id=match_id, token=token)


_lease_keeper = LeaseKeeper(match_lease_renew)


def _append_error(match: Match, message: str) -> None:
    match.error = f"{match.error}\n{message}".strip()[-4000:]


def _fail(match: Match, reason: str) -> None:
    """Expects the match row locked. No bot is blamed: ratings and fault streaks
    are left alone; a tournament hears of it."""
    match.state = Match.State.FAILED
    _append_error(match, reason)
    match.lease_expires_at = None
    match.finished_at = timezone.now()
    match.save(update_fields=["state", "error", "lease_expires_at", "finished_at"])
    if match.tournament_id is not None:
        from arena.tournaments.services import tournament_match_finished

        tournament_match_finished(match=match)


def match_release(*, match_id: int, token: str, error: str) -> str:
    """Give a match back after an infrastructure failure (never the bots' fault).

    Returns "retry" (queued again: the caller retries the task), "failed" (out of
    attempts) or "lost" (this worker no longer held it).
    """
    with transaction.atomic():
        match = _locked(match_id)
        if match is None or match.state != Match.State.RUNNING or match.worker != token:
            return "lost"
        message = f"Attempt {match.attempts} could not run: {error}"
        if match.attempts >= settings.ARENA_MATCH_MAX_ATTEMPTS:
            _fail(match, message)
            return "failed"
        match.state = Match.State.QUEUED
        match.worker = ""
        match.lease_expires_at = _resend_after(timezone.now())
        _append_error(match, message)
        match.save(update_fields=["state", "worker", "lease_expires_at", "error"])
    return "retry"


def matches_requeue_expired(*, now: datetime | None = None, limit: int = 100) -> list[int]:
    """Re-queue running matches whose lease expired; fail those out of attempts.

    Rows locked by a live transaction are skipped (SKIP LOCKED): a worker busy
    writing its result is not dead. Returns the re-queued ids, sent on commit.
    """
    from .tasks import run_match

    now = now or timezone.now()
    requeued: list[int] = []
    with transaction.atomic():
        expired = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(state=Match.State.RUNNING, lease_expires_at__lt=now)
            .order_by("pk")[:limit]
        )
        for match in expired:
            message = f"Lease of {match.worker or 'a worker'} expired (attempt {match.attempts})."
            if match.attempts >= settings.ARENA_MATCH_MAX_ATTEMPTS:
                _fail(match, message + " Gave up.")
                continue
            match.state = Match.State.QUEUED
            match.worker = ""
            match.lease_expires_at = _resend_after(now)
            _append_error(match, message)
            match.save(update_fields=["state", "worker", "lease_expires_at", "error"])
            requeued.append(match.pk)
        for match_id in requeued:
            transaction.on_commit(lambda match_id=match_id: run_match.delay(match_id))
    return requeued


def matches_resend_queued(*, now: datetime | None = None, limit: int = 500) -> list[int]:
    """Send again the matches queued for longer than ARENA_MATCH_RESEND_SECONDS.

    The database, not the broker, says what is queued: a broker that restarted
    without persistence loses every message, and a match whose message is lost
    would wait forever (and hold its bots out of matchmaking). Each resend pushes
    the match's resend time one period on, so a long queue gets at most one extra
    message per match per period; a duplicate is harmless, `match_claim` takes a
    match once. Returns the ids, sent on commit.
    """
    from .tasks import run_match

    now = now or timezone.now()
    period = timedelta(seconds=settings.ARENA_MATCH_RESEND_SECONDS)
    with transaction.atomic():
        stale = list(
            Match.objects.select_for_update(skip_locked=True)
            .filter(state=Match.State.QUEUED)
            .filter(
                Q(lease_expires_at__lt=now)
                | Q(lease_expires_at__isnull=True, created_at__lt=now - period)
            )
            .order_by("pk")
            .values_list("pk", flat=True)[:limit]
        )
        Match.objects.filter(pk__in=stale).update(lease_expires_at=_resend_after(now))
        for match_id in stale:
            transaction.on_commit(lambda match_id=match_id: run_match.delay(match_id))
    return stale


def game_from_log(
    *, match: Match, number: int, log: dict[str, Any], summary: GameSummary | None = None
) -> Game:
    """The (unsaved) Game row of a played log: its summary fields and the compressed log."""
    game = _game_row(match_id=match.pk, number=number, log=log, summary=summary)
    game.match = match
    return game


def _game_row(
    *,
    match_id: int,
    number: int,
    log: dict[str, Any],
    summary: GameSummary | None = None,
) -> Game:
    summary = summary or game_summary(log)
    return Game(
        match_id=match_id,
        number=number,
        seating=summary.seating,
        ranks=summary.ranks,
        winner_index=summary.winner_index,
        turns=summary.turns,
        adjudicated=summary.adjudicated,
        faults=summary.faults,
        log_compressed=log_compress(log),
    )


@dataclass(frozen=True, slots=True)
class SeatRef:
    """Who sits at a seat of a match: what the result write needs of a MatchSeat."""

    id: int
    index: int
    bot_id: int
    bot_version_id: int


@dataclass(slots=True)
class _SeatTotals:
    """A seat of the match being recorded, and its totals over the match's games."""

    seat: SeatRef
    games: int = 0
    wins: int = 0
    faults: int = 0
    rank_sum: int = 0
    fault_reasons: list[dict[str, Any]] = field(default_factory=list)


def _seat_refs(match_id: int) -> list[SeatRef]:
    rows = statements.fetch_all(
        f'SELECT "id", "index", "bot_id", "bot_version_id" FROM "{MatchSeat._meta.db_table}"'  # noqa: S608  (the table name is ours, the values are parameters)
        ' WHERE "match_id" = %s ORDER BY "index"',
        [match_id],
    )
    return [SeatRef(*row) for row in rows]


_SEAT_TOTAL_FIELDS = ["games", "wins", "faults", "rank_sum", "fault_reasons"]


def match_record_result(
    *,
    match_id: int,
    token: str,
    games: list[dict[str, Any]],
    backend: str,
    stopped: str | None = None,
    seats: list[SeatRef] | None = None,
    claimed: Match | None = None,
) -> Match | None:
    """Write a played match in ONE transaction: games with compressed logs, seat
    summaries, fault streaks, ratings (rated matches) and the tournament hook.

    Does nothing (returns None) unless this worker still holds the match: a worker
    whose lease was taken over must not write a second result. This runs for every
    match a worker plays, so its statements are written out (arena.core.statements)
    and pipelined: about ten, whatever the number of games, in three round trips
    (the lease check with the seats, streaks, games and rating locks; the rating
    writes; COMMIT). `seats`, in index order, saves reading them when the caller
    has them (a match's seats never change); `claimed`, the match as this worker
    claimed it, says whether to lock ratings in the first round trip.

    A worker runs this on its result recorder's thread (arena.matches.recorder),
    logs compression included, while it plays its next match.
    """
    # Everything the logs say is worked out before the transaction: the statements
    # then go together, and a malformed log fails before anything is written.
    played = _played_match(
        match_id=match_id,
        logs=games,
        seats=seats or _seat_refs(match_id),
        backend=backend,
        stopped=stopped,
    )
    rated_in = claimed.competition_id if claimed is not None and claimed.rated else None
    try:
        return _result_write(match_id=match_id, token=token, played=played, rated_in=rated_in)
    except _LeaseLost:
        pass
    except DatabaseError:
        # A statement sent with the lease check failed. If the match is no longer
        # this worker's, that is why (its new holder has written its games).
        if _holds(match_id=match_id, token=token):
            raise
    logger.warning("match %s: result discarded, lease no longer held", match_id)
    return None


def _holds(*, match_id: int, token: str) -> bool:
    return Match.objects.filter(pk=match_id, state=Match.State.RUNNING, worker=token).exists()


def _result_write(
    *, match_id: int, token: str, played: _PlayedMatch, rated_in: int | None
) -> Match:
    from arena.ratings.locks import ratings_lock_send
    from arena.ratings.services import ratings_apply_match_games

    seats = [total.seat for total in played.totals]
    faults_by_version = played.faults_by_version()
    with transaction.atomic():
        # One round trip, in the lock order. A conditional UPDATE checks that this
        # worker still holds the lease and locks the Match row until the transaction
        # ends; then the seats' totals (written once, here: the row says that no
        # result was written before), the fault streaks (BotVersion rows), the games
        # and the Rating rows. If the lease is not held, the transaction rolls back
        # whatever followed the check. The BEGIN goes with them.
        with statements.pipelined():
            # The COMMIT need not wait for the disk: if a crash of the database
            # loses this transaction, the match is running under a lease that
            # nobody renews, and the sweeper queues it to be played again.
            statements.commit_asynchronously()
            held = statements.send(
                "UPDATE matches_match SET state = %s, lease_expires_at = NULL, finished_at = %s,"  # noqa: S608  (names are ours, the values are parameters)
                " backend = %s WHERE id = %s AND state = %s AND worker = %s"
                f" RETURNING {statements.columns(Match)}",
                [
                    Match.State.DONE,
                    _db_time(timezone.now()),
                    played.backend[:16],
                    match_id,
                    Match.State.RUNNING,
                    token,
                ],
            )
            statements.update_each(
                MatchSeat,
                _SEAT_TOTAL_FIELDS,
                [
                    (total.seat.id, [getattr(total, name) for name in _SEAT_TOTAL_FIELDS])
                    for total in played.totals
                ],
            )
            streaks = bot_version_match_faults_send(version_ids_faulted=faults_by_version)
            inserted = statements.insert_send(played.games) if played.games else None
            rating_locks = (
                ratings_lock_send(competition_id=rated_in, bot_ids=[s.bot_id for s in seats])
                if rated_in is not None and played.games
                else None
            )
            held_rows = held.rows()
            changed_streaks = streaks.rows() if streaks else []
            if inserted is not None:
                inserted.rows()
            locked = rating_locks.rows() if rating_locks else None
        if not held_rows:
            raise _LeaseLost  # and the transaction rolls back what followed the check
        match = statements.models_from_rows(Match, held_rows)[0]
        for game in played.games:
            game.match = match
        if played.stopped:  # the sandbox ended the match early (its time cap): say so
            _append_error(match, f"Stopped after {len(played.games)} games: {played.stopped}.")
            match.save(update_fields=["error"])
        bot_version_match_faults_apply(
            version_ids_faulted=faults_by_version, changed=changed_streaks
        )
        if match.rated and match.competition_id is not None and played.games:
            # One write per bot for the whole match, games in order.
            ratings_apply_match_games(
                games=played.games,
                seats=[(seat.index, seat.bot_id, seat.bot_version_id) for seat in seats],
                new_games=True,
                # Locked above, unless the match changed competition since its claim.
                locked=locked if match.competition_id == rated_in else None,
            )
        if match.tournament_id is not None:
            from arena.tournaments.services import tournament_match_finished

            tournament_match_finished(match=match)
    return match


class _LeaseLost(Exception):
    """Rolls back a result write whose worker no longer holds the match."""


@dataclass(slots=True)
class _PlayedMatch:
    """What a played match's logs say, ready to be written."""

    games: list[Game]  # unsaved, one per log, in order
    totals: list[_SeatTotals]  # one per seat, in index order
    backend: str
    stopped: str | None  # why the sandbox ended the match early, if it did

    def faults_by_version(self) -> dict[int, list[str]]:
        return {
            total.seat.bot_version_id: [entry["reason"] for entry in total.fault_reasons]
            for total in self.totals
        }


def _played_match(
    *,
    match_id: int,
    logs: list[dict[str, Any]],
    seats: list[SeatRef],
    backend: str,
    stopped: str | None,
) -> _PlayedMatch:
    totals = [_SeatTotals(seat) for seat in seats]
    games = []
    for number, log in enumerate(logs):
        summary = game_summary(log)
        if len(summary.ranks) != len(seats):
            raise ValueError(f"match {match_id}: game {number} has the wrong player count")
        games.append(
            _game_row(
                match_id=match_id,
                number=number,
                log=log,
                summary=summary,
            )
        )
        for total in totals:
            index = total.seat.index
            total.games += 1
            total.rank_sum += summary.ranks[index]
            total.wins += summary.winner_index == index
            reasons = [f["reason"] for f in summary.faults if f["index"] == index]
            if reasons:
                total.faults += 1
                total.fault_reasons += [{"game": number, "reason": r} for r in reasons]
    return _PlayedMatch(games=games, totals=totals, backend=backend, stopped=stopped)
