"""A match's life: create, claim, lease, play, record once, sweep, fail without blame."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery.exceptions import Retry
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

import engine
from arena.bots.models import BotVersion
from arena.matches.models import Game, Match
from arena.matches.selectors import game_log
from arena.matches.services import match_create
from arena.play import leases
from arena.play.results import match_record_result
from arena.play.runner import Outcome, match_run
from arena.play.tasks import run_match
from arena.ratings.models import Rating, RatingChange
from arena.settings.env import REPO_ROOT
from sandbox.errors import InfrastructureError
from tests.arena.factories import (
    ActiveBotVersionFactory,
    default_competition,
    game_log_for,
    match_with_seats,
    played_log,
)

pytestmark = pytest.mark.django_db

CRASHER = b"raise SystemExit(1)\n"


def example_version(name: str) -> BotVersion:
    source = (REPO_ROOT / "bots_examples" / f"{name}_bot.py").read_bytes()
    return ActiveBotVersionFactory(bot__name=name, source=source)


def test_match_create_queues_on_commit_with_seats_in_order(django_capture_on_commit_callbacks):
    a, b = ActiveBotVersionFactory(), ActiveBotVersionFactory()
    competition = default_competition()
    with django_capture_on_commit_callbacks() as callbacks:
        match = match_create(
            kind=Match.Kind.LADDER,
            versions=[b, a],
            ruleset=competition.ruleset,
            games=4,
            competition=competition,
            rated=True,
        )
    assert len(callbacks) == 1
    assert [seat.bot_version_id for seat in match.seats.order_by("index")] == [b.pk, a.pk]
    assert match.state == Match.State.QUEUED
    assert match.ruleset == engine.Ruleset.from_value(None).to_dict()


def test_matches_created_in_one_transaction_each_get_their_own_seats():
    """As the matchmaker creates a tick's matches."""
    versions = [ActiveBotVersionFactory() for _ in range(5)]
    tables = [versions[:2], versions[2:5], versions[3:5]]
    with transaction.atomic():
        matches = [
            match_create(kind=Match.Kind.LADDER, versions=table, ruleset=None, games=2, rated=False)
            for table in tables
        ]
    assert len({match.pk for match in matches}) == 3
    for match, table in zip(matches, tables, strict=True):
        seated = match.seats.order_by("index").values_list("index", "bot_version_id")
        assert list(seated) == [(index, version.pk) for index, version in enumerate(table)]


@pytest.mark.parametrize(
    ("versions", "games", "field"),
    [(1, 2, "versions"), (2, 0, "games"), (9, 2, "versions")],
)
def test_match_create_refuses_bad_shapes(versions, games, field):
    chosen = [ActiveBotVersionFactory() for _ in range(versions)]
    with pytest.raises(ValidationError) as caught:
        match_create(kind="ladder", versions=chosen, ruleset=None, games=games, rated=False)
    assert field in caught.value.message_dict


def test_match_create_refuses_a_bot_twice_and_bad_rulesets():
    version = ActiveBotVersionFactory()
    with pytest.raises(ValidationError):
        match_create(kind="ladder", versions=[version, version], ruleset=None, games=1, rated=False)
    with pytest.raises(ValidationError) as caught:
        match_create(
            kind="ladder",
            versions=[version, ActiveBotVersionFactory()],
            ruleset={"turn_limit": -1},
            games=1,
            rated=False,
        )
    assert "ruleset" in caught.value.message_dict


def test_a_played_match_is_recorded_once_with_replayable_logs_and_ratings():
    match = match_with_seats([example_version("greedy"), example_version("random")])
    match.games_planned = 4
    match.save()

    assert match_run(match_id=match.pk) is Outcome.DONE
    assert match_run(match_id=match.pk) is Outcome.NOTHING_TO_DO  # idempotent

    match.refresh_from_db()
    assert match.state == Match.State.DONE
    assert match.attempts == 1
    assert match.backend == "subprocess"
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [g.number for g in games] == [0, 1, 2, 3]
    for game in games:
        log = game_log(game=game)
        list(engine.replay(log))  # raises ReplayError if the stored log is corrupt
        assert game.seating == log["seating"]
        assert sorted(game.ranks) == [1, 2]
    seats = list(match.seats.order_by("index"))
    assert all(seat.games == 4 for seat in seats)
    assert sum(seat.wins for seat in seats) == 4
    assert RatingChange.objects.filter(game__match=match).count() == 8
    assert Rating.objects.filter(competition=match.competition).count() == 2


def _statements_of_a_played_match() -> list[str]:
    match = match_with_seats([example_version("greedy"), example_version("random")])
    sql: list[str] = []

    def record(execute, text, params, many, context):
        sql.append(text)
        return execute(text, params, many, context)

    with connection.execute_wrapper(record):
        assert match_run(match_id=match.pk) is Outcome.DONE
    return sql


def _relaxed_commits(sql: list[str]) -> list[int]:
    """The transactions that commit without waiting for the disk, but the worker
    host's counts (statistics, arena.play.workers), which always do."""
    return [
        i
        for i, text in enumerate(sql)
        if "set_config('synchronous_commit'" in text
        and not sql[i + 1].startswith('INSERT INTO "play_workerhost"')
    ]


_CLAIM = 'UPDATE "matches_match" SET state = %s, attempts = attempts + 1'
_RESULT = 'UPDATE "matches_match" SET state = %s, lease_expires_at'


def _statement_after(sql: list[str], index: int) -> str:
    # Django's atomic() may send its own SAVEPOINT/BEGIN between the two.
    return next(text for text in sql[index + 1 :] if not text.startswith(("SAVEPOINT", "BEGIN")))


def test_results_are_committed_durably_by_default():
    sql = _statements_of_a_played_match()
    relaxed = _relaxed_commits(sql)
    if connection.vendor != "postgresql":
        assert relaxed == []
        return
    # Only the claim's transaction may return before the disk has its WAL.
    assert len(relaxed) == 1
    assert _statement_after(sql, relaxed[0]).startswith(_CLAIM)
    result = next(i for i, text in enumerate(sql) if text.startswith(_RESULT))
    assert relaxed[0] < result


def test_an_operator_may_let_results_commit_without_waiting_for_the_disk(settings):
    # A crash of the database can then lose a result: the match is left running
    # under a lease that nobody renews, and the sweeper queues it again.
    settings.ARENA_RESULTS_COMMIT_ASYNCHRONOUSLY = True
    sql = _statements_of_a_played_match()
    relaxed = _relaxed_commits(sql)
    if connection.vendor != "postgresql":
        assert relaxed == []
        return
    after = [_statement_after(sql, i) for i in relaxed]
    assert len(after) == 2
    assert after[0].startswith(_CLAIM)
    assert after[1].startswith(_RESULT)


def test_unrated_match_leaves_ratings_alone():
    match = match_with_seats(rated=False)
    assert match_run(match_id=match.pk) is Outcome.DONE
    assert not RatingChange.objects.exists()


def test_claim_is_exclusive_until_the_lease_expires():
    match = match_with_seats()
    first = leases.match_claim(match_id=match.pk, token="w1")
    assert first is not None
    assert first.match.state == Match.State.RUNNING
    assert leases.match_claim(match_id=match.pk, token="w2") is None
    Match.objects.filter(pk=match.pk).update(lease_expires_at=timezone.now() - timedelta(1))
    second = leases.match_claim(match_id=match.pk, token="w2")
    assert second is not None
    assert (second.match.attempts, second.match.worker) == (2, "w2")
    # The first worker lost the lease: its result is not written.
    result = match_record_result(
        claim=first,
        games=[game_log_for(ranks_by_index=[1, 2])],
        backend="subprocess",
    )
    assert result is None
    assert not Game.objects.filter(match=match).exists()


def test_a_late_result_from_a_worker_that_lost_the_match_changes_nothing():
    match = match_with_seats(games_planned=1)
    first = leases.match_claim(match_id=match.pk, token="w1")
    Match.objects.filter(pk=match.pk).update(lease_expires_at=timezone.now() - timedelta(1))
    second = leases.match_claim(match_id=match.pk, token="w2")

    def record(claim: leases.Claim, ranks: list[int]) -> Match | None:
        return match_record_result(
            claim=claim, games=[game_log_for(ranks_by_index=ranks)], backend="subprocess"
        )

    assert record(second, [1, 2]) is not None

    def state() -> tuple[list, list, int]:
        return (
            list(match.seats.order_by("index").values_list("games", "wins")),
            list(Rating.objects.order_by("bot_id").values_list("elo", "games")),
            RatingChange.objects.count(),
        )

    before = state()
    # The first worker's result comes late: its lease check finds the match no
    # longer its own, and nothing is written.
    assert record(first, [2, 1]) is None
    assert list(Game.objects.filter(match=match).values_list("ranks", flat=True)) == [[1, 2]]
    assert state() == before
    assert before[0] == [(1, 1), (1, 0)]


def test_lease_renewal_only_by_the_holder():
    match = match_with_seats()
    leases.match_claim(match_id=match.pk, token="w1")
    before = Match.objects.get(pk=match.pk).lease_expires_at
    assert leases.match_lease_renew(match_id=match.pk, token="w1")
    assert Match.objects.get(pk=match.pk).lease_expires_at >= before
    assert not leases.match_lease_renew(match_id=match.pk, token="w2")


def test_sweeper_requeues_expired_leases_and_gives_up_after_max_attempts(
    settings, django_capture_on_commit_callbacks
):
    settings.ARENA_MATCH_MAX_ATTEMPTS = 2
    match = match_with_seats()
    live = match_with_seats()
    leases.match_claim(match_id=match.pk, token="dead")
    leases.match_claim(match_id=live.pk, token="alive")
    later = timezone.now() + timedelta(seconds=settings.ARENA_MATCH_LEASE_SECONDS + 1)
    Match.objects.filter(pk=live.pk).update(lease_expires_at=later + timedelta(hours=1))

    with django_capture_on_commit_callbacks() as callbacks:
        assert leases.matches_requeue_expired(now=later) == [match.pk]
    assert len(callbacks) == 1
    match.refresh_from_db()
    assert match.state == Match.State.QUEUED
    assert "expired" in match.error

    leases.match_claim(match_id=match.pk, token="dead-again")
    assert leases.matches_requeue_expired(now=later + timedelta(hours=1)) == []
    match.refresh_from_db()
    assert match.state == Match.State.FAILED
    assert "Gave up" in match.error
    assert all(seat.faults == 0 for seat in match.seats.all())


def test_infrastructure_error_requeues_then_fails_without_blaming_bots(settings, monkeypatch):
    settings.ARENA_MATCH_MAX_ATTEMPTS = 2

    def broken(**kwargs):
        raise InfrastructureError("Docker engine unreachable")

    monkeypatch.setattr("arena.play.runner.run_sandboxed_match", broken)
    match = match_with_seats()
    assert match_run(match_id=match.pk) is Outcome.RETRY
    match.refresh_from_db()
    assert match.state == Match.State.QUEUED
    assert "Docker engine unreachable" in match.error
    assert match_run(match_id=match.pk) is Outcome.FAILED
    match.refresh_from_db()
    assert match.state == Match.State.FAILED
    versions = BotVersion.objects.filter(match_seats__match=match)
    assert all(v.consecutive_faulted_matches == 0 for v in versions)
    assert all(v.status == BotVersion.Status.ACTIVE for v in versions)


def test_five_faulted_matches_in_a_row_take_a_version_off_the_ladder():
    crasher = ActiveBotVersionFactory(source=CRASHER)
    steady = ActiveBotVersionFactory()
    for played in range(1, 6):
        assert crasher.status == BotVersion.Status.ACTIVE  # not before the fifth
        match = match_with_seats([crasher, steady], rated=False, games_planned=1)
        assert match_run(match_id=match.pk) is Outcome.DONE
        crasher.refresh_from_db()
        assert crasher.consecutive_faulted_matches == played
    assert crasher.status == BotVersion.Status.FAILED
    assert "its last 5 matches all had faults" in crasher.status_reason
    assert "Taken off the ladder" in crasher.status_reason
    assert "crash" in crasher.status_reason
    steady.refresh_from_db()
    assert steady.status == BotVersion.Status.ACTIVE
    assert steady.consecutive_faulted_matches == 0


def test_a_clean_match_resets_the_fault_streak():
    version = ActiveBotVersionFactory(consecutive_faulted_matches=3)
    match = match_with_seats([version, ActiveBotVersionFactory()], rated=False, games_planned=1)
    match_run(match_id=match.pk)
    version.refresh_from_db()
    assert version.consecutive_faulted_matches == 0


@pytest.mark.django_db(transaction=True)
def test_heartbeat_keeps_the_lease_of_a_long_game(settings):
    match = match_with_seats()
    claim = leases.match_claim(match_id=match.pk, token="w1")
    Match.objects.filter(pk=match.pk).update(lease_expires_at=timezone.now())
    with leases.lease_heartbeat(claim=claim, every_seconds=0.05):
        deadline = timezone.now() + timedelta(seconds=5)
        while timezone.now() < deadline:
            lease = Match.objects.get(pk=match.pk).lease_expires_at
            if lease > timezone.now() + timedelta(seconds=60):
                break
    assert lease > timezone.now() + timedelta(seconds=60)


def test_queued_matches_whose_message_was_lost_are_sent_again(
    settings, django_capture_on_commit_callbacks
):
    settings.ARENA_MATCH_RESEND_SECONDS = 600
    old = match_with_seats()
    fresh = match_with_seats()
    Match.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(hours=1))
    with django_capture_on_commit_callbacks() as callbacks:
        assert leases.matches_resend_queued() == [old.pk]
    assert len(callbacks) == 1
    # Once per period, not on every sweep.
    assert leases.matches_resend_queued() == []
    # A period later: the old one is due again, and the fresh one has waited too long.
    later = timezone.now() + timedelta(seconds=601)
    assert leases.matches_resend_queued(now=later) == sorted([old.pk, fresh.pk])


def test_run_match_task_retries_after_an_infrastructure_error(monkeypatch):
    monkeypatch.setattr("arena.play.tasks.match_run", lambda **_: Outcome.RETRY)
    with pytest.raises(Retry):
        run_match.apply(args=[1], throw=True)
    monkeypatch.setattr("arena.play.tasks.match_run", lambda **_: Outcome.DONE)
    assert run_match.apply(args=[1], throw=True).successful()


def test_a_match_cut_short_by_the_sandbox_says_why():
    match = match_with_seats(rated=False, games_planned=4)
    claim = leases.match_claim(match_id=match.pk, token="w1")
    recorded = match_record_result(
        claim=claim,
        games=[played_log()],
        backend="subprocess",
        stopped="match time cap reached",
    )
    assert recorded.state == Match.State.DONE
    assert recorded.games.count() == 1
    assert "Stopped after 1 games: match time cap reached" in recorded.error


def test_a_result_that_cannot_be_recorded_rolls_back_and_says_why(monkeypatch):
    def broken(**kwargs):
        raise ValueError("ratings exploded")

    monkeypatch.setattr("arena.play.results.ratings_apply_match_games", broken)
    match = match_with_seats(games_planned=1)
    assert match_run(match_id=match.pk) is Outcome.RETRY
    match.refresh_from_db()
    assert match.state == Match.State.QUEUED
    assert "recording failed: ValueError: ratings exploded" in match.error
    assert not Game.objects.filter(match=match).exists()  # nothing half-written
    assert all(seat.games == 0 for seat in match.seats.all())
