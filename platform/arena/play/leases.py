"""Who plays a match: the claim, the lease that keeps it, and what happens when a
worker gives a match back or dies with it.

The database is the source of truth. A queued message carries only a match id; a
worker *claims* the row (state and a lease token), renews the lease while it
plays, and writes the outcome only if it still holds the lease (`results`). The
sweeper gives a match whose lease ran out (its worker died) back to the queue,
and fails it, blaming no bot, after ARENA_MATCH_MAX_ATTEMPTS.

Lock order, everywhere: the Match row, then BotVersion rows by primary key, then
Rating rows by bot id (arena.ratings.locks), then the tournament, then the worker
hosts' rows by name (arena.play.workers).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from arena.core import statements
from arena.matches.models import Game, Match, person_seat_name
from arena.matches.promotions import promotion_match_failed
from arena.matches.services import match_queue_on_commit
from arena.tournaments.services import tournament_match_finished, tournament_match_rerun

from . import sql
from .heartbeat import LeaseKeeper
from .workers import worker_host_attempt_failed, worker_host_name, worker_host_of


@dataclass(frozen=True, slots=True)
class SeatToPlay:
    """A seat of a claimed match: who sits there and where their code is. A
    person's seat (at a table) has `person_id` and no bot: its bot fields are None
    and its `bot_name` is the person's name at the table."""

    id: int
    index: int
    bot_id: int | None
    bot_name: str
    is_example: bool
    bot_version_id: int | None
    kind: str
    code: str  # the stored file's name in the bot code storage
    person_id: int | None = None

    @property
    def is_person(self) -> bool:
        return self.bot_id is None


def _seat_to_play(
    seat_id: int,
    index: int,
    bot_id: int | None,
    bot_name: str | None,
    is_example: bool | None,
    version_id: int | None,
    kind: str | None,
    code: str | None,
    person_id: int | None,
    username: str | None,
) -> SeatToPlay:
    """A row of sql.match_seats_to_play as a seat: a bot's, or a person's."""
    if bot_id is None:
        return SeatToPlay(
            seat_id, index, None, person_seat_name(username), False, None, "", "", person_id
        )
    return SeatToPlay(
        seat_id, index, bot_id, bot_name or "", bool(is_example), version_id, kind or "", code or ""
    )


@dataclass(frozen=True, slots=True)
class Claim:
    """A match this worker holds: the row as claimed, the lease token, the seats."""

    match: Match
    token: str
    seats: list[SeatToPlay]  # in index order


def worker_token() -> str:
    """Who holds a lease: host (ARENA_WORKER_NAME, the name its faults are counted
    under) and process, plus a nonce per claim, so that a worker that claims the
    same match again is told apart from its earlier self."""
    return f"{worker_host_name()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _lease_until(now: datetime) -> datetime:
    return now + timedelta(seconds=settings.ARENA_MATCH_LEASE_SECONDS)


def _resend_after(now: datetime) -> datetime:
    """On a QUEUED match, `lease_expires_at` is when its broker message is presumed
    lost and `matches_resend_queued` sends another."""
    return now + timedelta(seconds=settings.ARENA_MATCH_RESEND_SECONDS)


def _locked(match_id: int) -> Match | None:
    return Match.objects.select_for_update().filter(pk=match_id).first()


def match_claim(*, match_id: int, token: str) -> Claim | None:
    """Take a queued match (or a running one whose lease expired) for this worker.

    Returns None when there is nothing to do: the match is gone, done, failed, or
    held by a live lease. A match out of attempts is failed here instead.
    """
    now = timezone.now()
    with transaction.atomic():
        # The claim is the platform's own bookkeeping, not a result anyone has seen,
        # so it does not wait for the disk, which sits on the worker's path before
        # every match (0.3 ms on an idle disk, 4 ms on a busy one here;
        # docs/platform-core.md, "The claim"). A claim lost in a
        # crash of the database leaves the match queued, and it is sent and played
        # again; the result's durable COMMIT flushes the claim's WAL before its own.
        statements.commit_asynchronously()
        match = sql.match_claim_update(
            match_id=match_id,
            token=token,
            now=now,
            lease_until=_lease_until(now),
            max_attempts=settings.ARENA_MATCH_MAX_ATTEMPTS,
        )
    if match is not None:
        seats = [_seat_to_play(*row) for row in sql.match_seats_to_play(match_id=match_id)]
        return Claim(match=match, token=token, seats=seats)
    # Not claimable: see why under the row lock, and fail a match out of attempts.
    with transaction.atomic():
        locked = _locked(match_id)
        if locked is None:
            return None
        claimable = locked.state == Match.State.QUEUED or (
            locked.state == Match.State.RUNNING
            and locked.lease_expires_at is not None
            and locked.lease_expires_at <= now
        )
        if claimable and locked.attempts >= settings.ARENA_MATCH_MAX_ATTEMPTS:
            match_fail(match=locked, reason=f"Gave up after {locked.attempts} attempts.")
    return None


def match_lease_renew(*, match_id: int, token: str) -> bool:
    """Extend the lease; False if this worker no longer holds it."""
    renewed = Match.objects.filter(pk=match_id, state=Match.State.RUNNING, worker=token).update(
        lease_expires_at=_lease_until(timezone.now())
    )
    return renewed == 1


_lease_keeper = LeaseKeeper(match_lease_renew)


@contextmanager
def lease_heartbeat(*, claim: Claim, every_seconds: float) -> Iterator[None]:
    """Renew the claim's lease every `every_seconds` while the block runs.

    A legal but slow game (1000 turns just under the per-move limit) can outlast a
    lease; the heartbeat keeps a live worker's claim whatever the games do. A
    worker that dies stops beating, and the sweeper takes the match back when the
    lease runs out. The renewals come from the process's one LeaseKeeper thread.
    """
    match_id = claim.match.pk
    _lease_keeper.hold(match_id=match_id, token=claim.token, every_seconds=every_seconds)
    try:
        yield
    finally:
        _lease_keeper.release(match_id=match_id, token=claim.token)


def match_append_error(*, match: Match, message: str) -> None:
    """Add a line to the match's error text (not saved), keeping the last 4000 characters."""
    match.error = f"{match.error}\n{message}".strip()[-4000:]


def _previews_discard(match: Match) -> None:
    """Expects the match row locked: the games written as they ended by an attempt
    that did not record a result go (arena.play.games); they never counted."""
    Game.objects.filter(match_id=match.pk).delete()


def match_fail(*, match: Match, reason: str, infrastructure: bool = True) -> None:
    """Expects the match row locked. No bot is blamed: ratings and fault streaks are
    left alone; a tournament hears of it, and plays a match that the infrastructure
    lost again later (not one that cannot be played, `infrastructure=False`)."""
    _previews_discard(match)
    match.state = Match.State.FAILED
    match_append_error(match=match, message=reason)
    match.lease_expires_at = None
    match.finished_at = timezone.now()
    if match.tournament_id is not None and infrastructure:
        rerun = tournament_match_rerun(match=match)
        if rerun is not None:
            match_append_error(match=match, message=f"Played again as match {rerun.pk}.")
    match.save(update_fields=["state", "error", "lease_expires_at", "finished_at"])
    if match.tournament_id is not None:
        tournament_match_finished(match=match)
    if match.kind == Match.Kind.PROMOTION:
        promotion_match_failed(match=match)


def _locked_if_held(claim: Claim) -> Match | None:
    """The claimed match, locked, if this worker still holds it. Needs a transaction."""
    match = _locked(claim.match.pk)
    if match is None or match.state != Match.State.RUNNING or match.worker != claim.token:
        return None
    return match


def match_fail_claimed(*, claim: Claim, reason: str) -> bool:
    """Fail a match this worker holds and that cannot be played (a bot deleted), blaming
    no bot; False if it no longer holds it."""
    with transaction.atomic():
        match = _locked_if_held(claim)
        if match is None:
            return False
        match_fail(match=match, reason=reason, infrastructure=False)
    return True


def _requeue(match: Match, *, message: str, now: datetime) -> None:
    """Expects the match row locked: back to the queue, its message sent on commit."""
    _previews_discard(match)
    match.state = Match.State.QUEUED
    match.worker = ""
    match.lease_expires_at = _resend_after(now)
    match_append_error(match=match, message=message)
    match.save(update_fields=["state", "worker", "lease_expires_at", "error"])


def match_release(*, claim: Claim, error: str) -> str:
    """Give a claimed match back after an infrastructure failure (never the bots'
    fault).

    Returns "retry" (queued again: the caller retries the task), "failed" (out of
    attempts) or "lost" (this worker no longer held it).
    """
    with transaction.atomic():
        match = _locked_if_held(claim)
        if match is None:
            return "lost"
        message = f"Attempt {match.attempts} could not run: {error}"
        verdict = "failed" if match.attempts >= settings.ARENA_MATCH_MAX_ATTEMPTS else "retry"
        if verdict == "failed":
            match_fail(match=match, reason=message)
        else:
            _requeue(match, message=message, now=timezone.now())
        # Last in the lock order: the worker host's row.
        worker_host_attempt_failed(host=worker_host_of(claim.token))
    return verdict


def matches_requeue_expired(*, now: datetime | None = None, limit: int = 100) -> list[int]:
    """Re-queue running matches whose lease expired; fail those out of attempts.

    Rows locked by a live transaction are skipped (SKIP LOCKED): a worker busy
    writing its result is not dead. Returns the re-queued ids, sent on commit.
    """
    now = now or timezone.now()
    requeued: list[int] = []
    lost_by: list[str] = []  # the host of each expired lease
    with transaction.atomic():
        expired = (
            Match.objects.select_for_update(skip_locked=True)
            .filter(state=Match.State.RUNNING, lease_expires_at__lt=now)
            .order_by("pk")[:limit]
        )
        for match in expired:
            message = f"Lease of {match.worker or 'a worker'} expired (attempt {match.attempts})."
            if match.worker:
                lost_by.append(worker_host_of(match.worker))
            if match.attempts >= settings.ARENA_MATCH_MAX_ATTEMPTS:
                match_fail(match=match, reason=message + " Gave up.")
                continue
            _requeue(match, message=message, now=now)
            requeued.append(match.pk)
            match_queue_on_commit(match_id=match.pk, kind=match.kind)
        # Last in the lock order, in name order: the worker hosts' rows.
        for host in sorted(lost_by):
            worker_host_attempt_failed(host=host)
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
            .values_list("pk", "kind")[:limit]
        )
        Match.objects.filter(pk__in=[pk for pk, _kind in stale]).update(
            lease_expires_at=_resend_after(now)
        )
        for match_id, kind in stale:
            match_queue_on_commit(match_id=match_id, kind=kind)
    return [pk for pk, _kind in stale]
