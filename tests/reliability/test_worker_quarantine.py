"""A broken machine is taken out of rotation, and the bots it faulted are not blamed.

Two real workers share the queue. One runs on a "machine" whose copy of the bot
code storage is corrupt (every stored file replaced by a script that exits at
once, as a bad disk or a half-synced volume would leave it): every bot faults in
every match it plays there. The review, run here as beat would run it, quarantines
that host; its worker stops taking matches, the healthy one plays on, and the bots
the broken host took off the ladder are back on it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.services import match_create
from arena.play.models import WorkerHost
from arena.play.workers import worker_hosts_review
from arena.settings.env import REPO_ROOT
from tests.arena.factories import ActiveBotVersionFactory
from tests.reliability.infra import require_ci_services
from tests.support.worker import wait_for

CORRUPT = b"raise SystemExit(1)\n"
STREAK_LIMIT = 3
MIN_MATCHES = 6


def corrupt_storage_copy(var_dir: Path, versions: list[BotVersion]) -> None:
    """The test settings keep bot code under VAR_DIR/test-bot-code: give the broken
    host its own VAR_DIR holding a corrupt copy of every stored file."""
    for version in versions:
        target = var_dir / "test-bot-code" / version.code.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(CORRUPT)


def queue(tables: Iterator[tuple[BotVersion, ...]], count: int) -> list[int]:
    return [
        match_create(
            kind=Match.Kind.LADDER, versions=list(next(tables)), ruleset=None, games=1, rated=False
        ).pk
        for _ in range(count)
    ]


def all_played(ids: list[int]) -> bool:
    return not Match.objects.filter(pk__in=ids).exclude(state=Match.State.DONE).exists()


@pytest.mark.slow
def test_a_worker_that_faults_every_bot_is_quarantined_and_a_healthy_one_plays_on(
    workers, tmp_path, settings
):
    require_ci_services()
    # The review runs in this process, and so may clear streaks.
    settings.ARENA_WORKER_MIN_MATCHES = MIN_MATCHES
    settings.ARENA_FAULT_STREAK_LIMIT = STREAK_LIMIT
    random_bot = (REPO_ROOT / "bots_examples" / "random_bot.py").read_bytes()
    versions = [ActiveBotVersionFactory(source=random_bot) for _ in range(4)]
    broken_var = tmp_path / "broken-var"
    corrupt_storage_copy(broken_var, versions)
    common = {"ARENA_FAULT_STREAK_LIMIT": STREAK_LIMIT}
    healthy = workers(name="healthy", ARENA_WORKER_NAME="healthy-host", **common)
    broken = workers(
        name="broken", ARENA_WORKER_NAME="broken-host", ARENA_VAR_DIR=broken_var, **common
    )
    healthy.wait_ready()
    broken.wait_ready()

    # A steady trickle, as the ladder's matchmaker keeps it: never more than a
    # couple of matches waiting, so that the healthy host (slower: its bots play
    # whole games) gets its share, and both hosts reach the minimum sample.
    tables = itertools.cycle(itertools.combinations(versions, 2))
    first: list[int] = []

    def broken_quarantined() -> bool:
        if not Match.objects.filter(pk__in=first, state=Match.State.QUEUED).exists():
            first.extend(queue(tables, 2))
        worker_hosts_review()
        return WorkerHost.objects.filter(name="broken-host", quarantined_at__isnull=False).exists()

    wait_for(broken_quarantined, timeout=180, interval=0.5, what="the broken host's quarantine")
    wait_for(lambda: all_played(first), timeout=120, interval=0.5, what="the first matches")
    worker_hosts_review()  # as beat would, once more after the last results

    hosts = {host.name: host for host in WorkerHost.objects.all()}
    assert hosts["healthy-host"].in_rotation
    broken_host = hosts["broken-host"]
    assert "matches were bad" in broken_host.quarantine_reason
    assert broken_host.total_faulted == broken_host.total_matches >= MIN_MATCHES
    assert hosts["healthy-host"].total_faulted == 0
    played_there = Match.objects.filter(pk__in=first, worker__startswith="broken-host:")
    assert played_there.exists()
    # It stopped claiming: nothing started there after the quarantine but the match in
    # hand when it came (one process, which looks before each match).
    slack = timedelta(seconds=2)
    assert all(
        started <= broken_host.quarantined_at + slack
        for started in played_there.values_list("started_at", flat=True)
    )

    # The healthy host plays on, alone.
    second = queue(tables, 6)
    wait_for(lambda: all_played(second), timeout=120, interval=0.5, what="the later matches")
    assert all(
        worker.startswith("healthy-host:")
        for worker in Match.objects.filter(pk__in=second).values_list("worker", flat=True)
    )
    # The broken worker handed back what it was given, and said so.
    wait_for(lambda: "is quarantined" in broken.log(), timeout=30, what="the broken worker's log")
    # Each match recorded once, at its first attempt.
    attempts = Match.objects.filter(pk__in=first + second).values_list("attempts", flat=True)
    assert set(attempts) == {1}

    # No bot is blamed: whatever the broken host took off the ladder is back on it,
    # and no streak counts its matches.
    for version in BotVersion.objects.filter(pk__in=[v.pk for v in versions]):
        assert version.status == BotVersion.Status.ACTIVE, version.status_reason
        assert version.consecutive_faulted_matches == 0
