"""Per-host fault accounting, the review that quarantines a broken host, and the bots
it blamed cleared."""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
from celery.exceptions import Retry
from django.db.models import F
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.play import fault_rates, leases
from arena.play.fault_rates import Counts, binomial_tail, quarantine_reason
from arena.play.models import WorkerHost
from arena.play.runner import Outcome, match_run
from arena.play.tasks import run_match
from arena.play.workers import HALVE_AT, worker_host_quarantined, worker_hosts_review
from sandbox.errors import InfrastructureError
from tests.arena.factories import ActiveBotVersionFactory, match_with_seats

pytestmark = pytest.mark.django_db

CRASHER = b"raise SystemExit(1)\n"


def test_the_statistics_examples_hold():
    failures, tried = doctest.testmod(fault_rates)
    assert tried > 0
    assert failures == 0


def test_the_binomial_tail_matches_a_direct_sum():
    from math import comb

    n, p = 30, 0.2
    for k in (0, 5, 12, 30):
        direct = sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))
        assert binomial_tail(successes=k, trials=n, rate=p) == pytest.approx(direct, rel=1e-9)


@pytest.mark.parametrize(
    ("host", "pool", "quarantined"),
    [
        (Counts(20, 20), Counts(100, 5), True),  # every match bad
        (Counts(60, 25), Counts(400, 40), True),  # 42 % against 10 % (p = 1.5e-10)
        (Counts(40, 14), Counts(400, 40), False),  # 35 % against 10 %: p = 1.8e-5, not yet
        (Counts(19, 19), Counts(100, 5), False),  # below the minimum sample
        (Counts(20, 20), Counts(19, 0), False),  # the pool below it: nothing to compare
        (Counts(2000, 300), Counts(20000, 2000), False),  # significant, but not twice the rate
        (Counts(20, 3), Counts(1000, 0), False),  # a few faults against a clean pool
        (Counts(30, 30), Counts(100, 60), False),  # bots fault everywhere: not the host
    ],
)
def test_a_host_is_quarantined_only_when_far_worse_than_the_pool(host, pool, quarantined):
    assert (quarantine_reason(host=host, pool=pool, min_matches=20) is not None) is quarantined


def _host(name: str, matches: int, faulted: int, failures: int = 0) -> WorkerHost:
    now = timezone.now()
    return WorkerHost.objects.create(
        name=name,
        matches=matches,
        faulted=faulted,
        failures=failures,
        first_seen_at=now,
        last_seen_at=now,
    )


def _played_more_bad_matches(name: str) -> None:
    """As if the host had faulted every bot in twenty more matches (with other bots)."""
    WorkerHost.objects.filter(name=name).update(
        matches=F("matches") + 20, faulted=F("faulted") + 20
    )


def test_recorded_matches_and_lost_attempts_are_counted_per_host(settings, monkeypatch):
    settings.ARENA_WORKER_NAME = "alpha"
    assert match_run(match_id=match_with_seats(games_planned=1).pk) is Outcome.DONE
    crasher = ActiveBotVersionFactory(source=CRASHER)
    faulted = match_with_seats([crasher, ActiveBotVersionFactory()], games_planned=1)
    assert match_run(match_id=faulted.pk) is Outcome.DONE
    assert Match.objects.get(pk=faulted.pk).worker.startswith("alpha:")

    def unavailable(**_kwargs):
        raise InfrastructureError("Docker engine unreachable")

    monkeypatch.setattr("arena.play.runner.run_sandboxed_match", unavailable)
    assert match_run(match_id=match_with_seats().pk) is Outcome.RETRY
    # A lease that ran out counts against the host that held it.
    expired = match_with_seats()
    assert leases.match_claim(match_id=expired.pk, token="beta:12:abcd") is not None
    later = timezone.now() + timedelta(seconds=settings.ARENA_MATCH_LEASE_SECONDS + 1)
    assert leases.matches_requeue_expired(now=later) == [expired.pk]

    counts = {
        host.name: (host.matches, host.faulted, host.failures, host.total_matches)
        for host in WorkerHost.objects.all()
    }
    assert counts == {"alpha": (2, 1, 1, 2), "beta": (0, 0, 1, 0)}


def test_the_review_quarantines_the_broken_host_and_leaves_the_others(settings, caplog):
    settings.ARENA_WORKER_MIN_MATCHES = 20
    _host("steady-1", matches=100, faulted=6)
    _host("steady-2", matches=80, faulted=9, failures=2)
    _host("broken", matches=15, faulted=15, failures=10)
    quarantined = worker_hosts_review()
    assert [host.name for host in quarantined] == ["broken"]
    states = dict(WorkerHost.objects.values_list("name", "quarantined_at"))
    assert states["broken"] is not None
    assert states["steady-1"] is None
    assert states["steady-2"] is None
    broken = WorkerHost.objects.get(name="broken")
    assert broken.quarantine_reason.startswith("25 of its last 25 matches were bad")
    assert "worker host broken quarantined" in caplog.text
    assert worker_host_quarantined(name="broken")
    assert not worker_host_quarantined(name="steady-1")
    # Once out, it is out of the pool too: the next review finds nothing new.
    assert worker_hosts_review() == []


def test_most_hosts_looking_broken_quarantines_none(settings, caplog):
    settings.ARENA_WORKER_MIN_MATCHES = 20
    _host("a", matches=100, faulted=2)
    _host("b", matches=50, faulted=50)
    _host("c", matches=50, faulted=50)
    assert worker_hosts_review() == []
    assert not WorkerHost.objects.filter(quarantined_at__isnull=False).exists()
    assert "2 of 3 worker hosts look broken" in caplog.text


def test_a_lone_host_is_never_quarantined(settings):
    settings.ARENA_WORKER_MIN_MATCHES = 20
    _host("alone", matches=200, faulted=200)
    assert worker_hosts_review() == []


def test_a_busy_hosts_counts_are_halved_so_they_weigh_its_recent_matches():
    _host("busy", matches=HALVE_AT, faulted=41, failures=3)
    worker_hosts_review()
    busy = WorkerHost.objects.get(name="busy")
    assert (busy.matches, busy.faulted, busy.failures) == (HALVE_AT // 2, 20, 1)


def test_a_quarantined_hosts_faults_leave_the_streaks_and_its_victims_return(settings):
    settings.ARENA_FAULT_STREAK_LIMIT = 3
    settings.ARENA_WORKER_MIN_MATCHES = 3
    victim = ActiveBotVersionFactory(source=CRASHER)  # faults wherever it plays here
    steady = ActiveBotVersionFactory()
    settings.ARENA_WORKER_NAME = "good"
    match_run(match_id=match_with_seats([victim, steady], games_planned=1).pk)
    settings.ARENA_WORKER_NAME = "bad"
    for _ in range(3):
        match_run(match_id=match_with_seats([victim, steady], games_planned=1).pk)
    victim.refresh_from_db()
    assert victim.status == BotVersion.Status.FAILED  # four faulted matches in a row
    assert victim.consecutive_faulted_matches == 4
    _host("good-2", matches=60, faulted=1)
    _played_more_bad_matches("bad")

    assert [host.name for host in worker_hosts_review()] == ["bad"]
    victim.refresh_from_db()
    # Only its match on the good host still counts: back on the ladder.
    assert victim.consecutive_faulted_matches == 1
    assert victim.status == BotVersion.Status.ACTIVE
    assert victim.status_reason == ""


def test_a_victim_whose_bot_has_another_active_version_stays_off(settings):
    settings.ARENA_FAULT_STREAK_LIMIT = 2
    settings.ARENA_WORKER_MIN_MATCHES = 2
    settings.ARENA_WORKER_NAME = "bad"
    victim = ActiveBotVersionFactory(source=CRASHER)
    steady = ActiveBotVersionFactory()
    for _ in range(2):
        match_run(match_id=match_with_seats([victim, steady], games_planned=1).pk)
    victim.refresh_from_db()
    assert victim.status == BotVersion.Status.FAILED
    ActiveBotVersionFactory(bot=victim.bot, number=victim.number + 1)  # its owner moved on
    _host("good", matches=60, faulted=0)
    _played_more_bad_matches("bad")
    assert [host.name for host in worker_hosts_review()] == ["bad"]
    victim.refresh_from_db()
    assert victim.consecutive_faulted_matches == 0
    assert victim.status == BotVersion.Status.FAILED


def test_a_quarantined_host_hands_its_match_back_untouched(settings):
    settings.ARENA_WORKER_NAME = "bad"
    host = _host("bad", matches=0, faulted=0)
    host.quarantined_at = timezone.now()
    host.save()
    match = match_with_seats()
    with pytest.raises(Retry):
        run_match.apply(args=[match.pk], throw=True)
    match.refresh_from_db()
    assert (match.state, match.attempts, match.worker) == (Match.State.QUEUED, 0, "")


def _crasher_seen_clean_later(victim: BotVersion, steady: BotVersion) -> None:
    """A clean match of the victim (its code replaced by a good bot's for one
    match), as when a match queued before it left the ladder is played elsewhere."""
    source = victim.code.name
    victim.code.name = steady.code.name
    victim.save(update_fields=["code"])
    match_run(match_id=match_with_seats([victim, steady], games_planned=1).pk)
    victim.code.name = source
    victim.save(update_fields=["code"])


def test_a_victim_comes_back_even_after_a_clean_match_reset_its_streak(settings):
    settings.ARENA_FAULT_STREAK_LIMIT = 2
    settings.ARENA_WORKER_MIN_MATCHES = 2
    victim = ActiveBotVersionFactory(source=CRASHER)
    steady = ActiveBotVersionFactory()
    settings.ARENA_WORKER_NAME = "bad"
    for _ in range(2):
        match_run(match_id=match_with_seats([victim, steady], games_planned=1).pk)
    settings.ARENA_WORKER_NAME = "good"
    _crasher_seen_clean_later(victim, steady)
    victim.refresh_from_db()
    assert (victim.status, victim.consecutive_faulted_matches) == (BotVersion.Status.FAILED, 0)
    _host("good-2", matches=60, faulted=0)
    _played_more_bad_matches("bad")
    assert [host.name for host in worker_hosts_review()] == ["bad"]
    victim.refresh_from_db()
    assert victim.status == BotVersion.Status.ACTIVE


def test_a_version_its_own_faults_took_off_stays_off(settings):
    settings.ARENA_FAULT_STREAK_LIMIT = 2
    settings.ARENA_WORKER_MIN_MATCHES = 2
    victim = ActiveBotVersionFactory(source=CRASHER)
    steady = ActiveBotVersionFactory()
    settings.ARENA_WORKER_NAME = "good"
    for _ in range(2):  # off the ladder on a good host: its own doing
        match_run(match_id=match_with_seats([victim, steady], games_planned=1).pk)
    settings.ARENA_WORKER_NAME = "bad"
    match_run(match_id=match_with_seats([victim, steady], games_planned=1).pk)
    _host("good-2", matches=60, faulted=0)
    _played_more_bad_matches("bad")
    assert [host.name for host in worker_hosts_review()] == ["bad"]
    victim.refresh_from_db()
    assert victim.status == BotVersion.Status.FAILED
    assert victim.consecutive_faulted_matches == 2  # the bad host's match left out
