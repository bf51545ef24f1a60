"""Worker hosts: what each one played, and taking a broken one out of rotation.

Every recorded match, and every attempt lost to the infrastructure, is counted
against the host that held it: ARENA_WORKER_NAME, the first part of a lease token.
Recorded matches are added to the host's row every few seconds per process, off the
result's transaction; a lost attempt in the transaction that gives the match back.
The review (beat, every 30 s) tests each host in rotation against the others
(`arena.play.fault_rates`) and quarantines one whose matches go bad far more often:
its workers stop claiming (each sends the match it was given back to its queue and
stops consuming), the admin lists it with the reason, and the log says so.

So that a broken machine never blames bots, the matches a quarantined host played
no longer count in the bots' fault streaks: the streaks are counted again without
them, and a version those matches took off the ladder goes back on it. The matches
themselves stand as recorded (games, ratings, standings): see docs/scaling.md.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.utils import timezone

from arena.bots.models import Bot, BotVersion
from arena.bots.services import OFF_LADDER_REASON
from arena.core import statements
from arena.matches.models import Match, MatchSeat

from . import sql
from .fault_rates import Counts, quarantine_reason
from .models import WorkerHost

logger = logging.getLogger(__name__)

# Once a host's matches and failures pass this, the review halves its recent counts:
# they weigh its last few hundred attempts, so a machine that breaks after months of
# good work is noticed as fast as a new one.
HALVE_AT = 400
# Hosts that recorded nothing for this long are out of the pool the others are
# compared with (a machine that was switched off).
SEEN_WITHIN = timedelta(hours=1)
REASON_MAX = WorkerHost._meta.get_field("quarantine_reason").max_length


def worker_host_name() -> str:
    return settings.ARENA_WORKER_NAME


def worker_host_of(token: str) -> str:
    """The host part of a lease token (`host:pid:nonce`, arena.play.leases)."""
    return token.split(":", 1)[0]


@dataclass
class _Pending:
    """Recorded matches of this process not yet added to their host's row."""

    matches: int = 0
    faulted: int = 0
    versions: set[int] = field(default_factory=set)


_pending: dict[str, _Pending] = {}
_pending_lock = threading.Lock()
_flushed_at = 0.0


def worker_host_match_recorded(*, host: str, versions: list[int], faulted: bool) -> None:
    """Count a match once its result has committed (`versions` played in it).

    The counts reach the host's row at most every ARENA_WORKER_STATE_SECONDS (with
    every match when 0), in a transaction of their own whose COMMIT does not wait
    for the disk: one host's processes do not queue on its row behind each other's
    result commits, and a crash loses a few seconds of statistics at most."""
    with _pending_lock:
        pending = _pending.setdefault(host, _Pending())
        pending.matches += 1
        pending.faulted += faulted
        pending.versions.update(versions)
        due = time.monotonic() - _flushed_at >= settings.ARENA_WORKER_STATE_SECONDS
    if due:
        worker_host_counts_flush()


def worker_host_counts_flush() -> None:
    """Add this process's pending counts to their hosts' rows. A host found
    quarantined meanwhile has the faults of those matches taken off the bots'
    streaks, as the review does for the matches before."""
    global _flushed_at
    with _pending_lock:
        pending = dict(_pending)
        _pending.clear()
        _flushed_at = time.monotonic()
    for host, counts in sorted(pending.items()):
        try:
            with transaction.atomic():
                statements.commit_asynchronously()
                quarantined = sql.worker_host_count(
                    name=host,
                    now=timezone.now(),
                    matches=counts.matches,
                    faulted=counts.faulted,
                    failures=0,
                )
        except DatabaseError:
            # The results are in; their counts wait for the next flush.
            logger.warning("could not count %d matches for worker host %s", counts.matches, host)
            with _pending_lock:
                kept = _pending.setdefault(host, _Pending())
                kept.matches += counts.matches
                kept.faulted += counts.faulted
                kept.versions |= counts.versions
            continue
        if quarantined:
            try:
                bot_versions_blame_clear(version_ids=sorted(counts.versions))
            except DatabaseError:
                logger.exception("could not clear the bots of quarantined host %s", host)


def worker_host_attempt_failed(*, host: str) -> None:
    """Count an attempt that the infrastructure lost (released, or its lease expired)."""
    sql.worker_host_count(name=host, now=timezone.now(), matches=0, faulted=0, failures=1)


_known: dict[str, tuple[float, bool]] = {}  # host -> (when looked up, quarantined)


def worker_host_quarantined(*, name: str | None = None) -> bool:
    """Whether this process's host (or `name`) is out of rotation, looked up at most
    every ARENA_WORKER_STATE_SECONDS: a worker asks before every match."""
    name = name or worker_host_name()
    now = time.monotonic()
    known = _known.get(name)
    if known is not None and now - known[0] < settings.ARENA_WORKER_STATE_SECONDS:
        return known[1]
    quarantined = WorkerHost.objects.filter(name=name, quarantined_at__isnull=False).exists()
    _known[name] = (now, quarantined)
    return quarantined


def _counts(host: WorkerHost) -> Counts:
    return Counts(matches=host.matches + host.failures, bad=host.faulted + host.failures)


def worker_hosts_review(*, now: datetime | None = None) -> list[WorkerHost]:
    """Quarantine the hosts whose matches go bad far more often than the others';
    returns them. Never more than half of the hosts at once: when most hosts look
    broken, the bots (or something every host shares) are, and the log says so."""
    now = now or timezone.now()
    with transaction.atomic():
        hosts = list(
            WorkerHost.objects.select_for_update()
            .filter(last_seen_at__gte=now - SEEN_WITHIN)
            .order_by("pk")
        )
        rotation = [host for host in hosts if host.in_rotation]
        total = sum((_counts(host) for host in rotation), Counts(0, 0))
        flagged = []
        for host in rotation:
            own = _counts(host)
            pool = Counts(total.matches - own.matches, total.bad - own.bad)
            reason = quarantine_reason(
                host=own, pool=pool, min_matches=settings.ARENA_WORKER_MIN_MATCHES
            )
            if reason is not None:
                flagged.append((host, reason))
        if 2 * len(flagged) > len(rotation):
            logger.warning(
                "%d of %d worker hosts look broken (%s); quarantining none",
                len(flagged),
                len(rotation),
                ", ".join(host.name for host, _reason in flagged),
            )
            flagged = []
        for host, reason in flagged:
            host.quarantined_at = now
            host.quarantine_reason = reason[
                : WorkerHost._meta.get_field("quarantine_reason").max_length
            ]
            host.save(update_fields=["quarantined_at", "quarantine_reason"])
            logger.error("worker host %s quarantined: %s", host.name, reason)
        for host in hosts:
            if host.matches + host.failures > HALVE_AT:
                host.matches, host.faulted, host.failures = (
                    host.matches // 2,
                    host.faulted // 2,
                    host.failures // 2,
                )
                host.save(update_fields=["matches", "faulted", "failures"])
    if flagged:
        bot_versions_blame_clear()
    return [host for host, _reason in flagged]


def worker_host_reinstate(*, host: WorkerHost) -> None:
    """Put a host back in rotation with fresh counts (its workers need a restart:
    they stopped consuming). The bots' streaks stay as they were counted."""
    with transaction.atomic():
        WorkerHost.objects.filter(pk=host.pk).update(
            quarantined_at=None, quarantine_reason="", matches=0, faulted=0, failures=0
        )
    logger.warning("worker host %s put back in rotation", host.name)


def _streak(version_id: int, *, excluded: set[str], limit: int) -> int:
    """The version's run of faulted matches, newest first, leaving out the matches
    played on the `excluded` hosts; counted up to `limit`."""
    streak = 0
    seats = (
        MatchSeat.objects.filter(bot_version_id=version_id, match__state=Match.State.DONE)
        .order_by("-match__finished_at", "-match_id")
        .values_list("faults", "match__worker")
    )
    for faults, worker in seats.iterator(chunk_size=50):
        if worker_host_of(worker) in excluded:
            continue
        if not faults or streak >= limit:
            break
        streak += 1
    return streak


def bot_versions_blame_clear(*, version_ids: list[int] | None = None) -> list[int]:
    """Take the matches of quarantined hosts out of the bots' fault streaks: count
    the streaks again without them, and put back on the ladder each version whose
    streak took it off only with their help (unless its bot has another active
    version by now). All versions, or those of `version_ids`. Returns the ids put
    back. Takes the versions' row locks in id order, then for each one put back its
    bot's and its own (the lock order of arena.bots.services): outside a result's
    transaction."""
    excluded = set(
        WorkerHost.objects.filter(quarantined_at__isnull=False).values_list("name", flat=True)
    )
    if not excluded or version_ids == []:
        return []
    limit = settings.ARENA_FAULT_STREAK_LIMIT
    chosen = (
        BotVersion.objects.all()
        if version_ids is None
        else BotVersion.objects.filter(pk__in=version_ids)
    )
    with transaction.atomic():
        streaking = chosen.select_for_update(no_key=True).filter(consecutive_faulted_matches__gt=0)
        for pk, old in streaking.order_by("pk").values_list("pk", "consecutive_faulted_matches"):
            streak = _streak(pk, excluded=excluded, limit=max(limit, old))
            if streak != old:
                BotVersion.objects.filter(pk=pk).update(consecutive_faulted_matches=streak)
    removed = chosen.filter(
        status=BotVersion.Status.FAILED, status_reason__startswith=OFF_LADDER_REASON
    ).values_list("pk", flat=True)
    return [
        pk
        for pk in removed.order_by("pk")
        if _removed_with_their_help(pk, excluded=excluded, limit=limit) and _back_on_the_ladder(pk)
    ]


# How far back a version's matches are read to find the streak that took it off.
REMOVAL_LOOKBACK = 100


def _removed_with_their_help(version_id: int, *, excluded: set[str], limit: int) -> bool:
    """Whether the last time the version's streak reached the limit, it would not
    have without the matches of the `excluded` hosts. The matches are replayed in
    the order they were recorded; clean matches played after it left the ladder
    (already queued then) have reset its streak since, so the streak as it is now
    cannot tell."""
    seats = (
        MatchSeat.objects.filter(bot_version_id=version_id, match__state=Match.State.DONE)
        .order_by("-match__finished_at", "-match_id")
        .values_list("faults", "match__worker")[:REMOVAL_LOOKBACK]
    )
    streak = without = 0
    helped = False
    for faults, worker in reversed(list(seats)):
        on_excluded = worker_host_of(worker) in excluded
        streak = streak + 1 if faults else 0
        if not on_excluded:
            without = without + 1 if faults else 0
        if streak == limit:
            helped = without < limit
    return helped


def _back_on_the_ladder(version_id: int) -> bool:
    with transaction.atomic():
        bot_id = BotVersion.objects.filter(pk=version_id).values_list("bot_id", flat=True).first()
        if bot_id is None:
            return False
        Bot.objects.select_for_update(no_key=True).filter(pk=bot_id).first()
        version = BotVersion.objects.select_for_update(no_key=True).get(pk=version_id)
        if (
            version.status != BotVersion.Status.FAILED
            or not version.status_reason.startswith(OFF_LADDER_REASON)
            or BotVersion.objects.filter(bot_id=bot_id, status=BotVersion.Status.ACTIVE).exists()
        ):
            return False
        version.status = BotVersion.Status.ACTIVE
        version.status_reason = ""
        version.save(update_fields=["status", "status_reason"])
    logger.warning(
        "version %s back on the ladder: its faults were on a quarantined worker host", version_id
    )
    return True
