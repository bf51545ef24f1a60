"""The platform end to end, through a real Celery worker and the configured broker.

Three example bots are uploaded by a user, qualify in the sandbox, play ladder
matches (queued by the matchmaker that beat runs), their ratings move, a tournament
between them completes with standings, every stored game log replays, and
`recompute_ratings` rebuilds exactly the ratings the worker stored.
"""

from __future__ import annotations

import shutil
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

import engine
from arena.bots.models import BotVersion
from arena.bots.services import bot_version_upload
from arena.matches.models import Competition, Game, Match
from arena.matches.selectors import game_log
from arena.play.matchmaking import ladders_matchmake
from arena.play.sandboxing import EXAMPLES_DIR
from arena.ratings.models import Rating, RatingChange
from arena.tournaments.models import Tournament
from arena.tournaments.selectors import tournament_progress, tournament_standings
from arena.tournaments.services import tournament_create
from tests.arena.factories import KOREAN, UserFactory
from tests.support.worker import start_worker, stop_worker, wait_for

EXAMPLES = ("random", "greedy", "heuristic")
LADDER_MATCHES = 6


@pytest.fixture
def worker(transactional_db):
    # bubblewrap starts a bot in milliseconds where a container takes a second; the
    # configured default ("auto") is used where bwrap is missing.
    extra = {"ARENA_SANDBOX_BACKEND": "bwrap"} if shutil.which("bwrap") else {}
    process = start_worker(concurrency=2, hostname="e2e-worker", extra_env=extra)
    try:
        yield process
    finally:
        stop_worker(process)


def ladder_competition() -> Competition:
    """The default ladder. A flush by an earlier transactional test removes what
    the data migration created, so it is made again here if need be."""
    competition, _ = Competition.objects.get_or_create(
        slug="korean-2",
        defaults={
            "name": "Korean, 2 seats",
            "ruleset": KOREAN,
            "seats": 2,
            "games_per_match": 2,
            "is_default": True,
        },
    )
    Competition.objects.filter(pk=competition.pk).update(games_per_match=2, ladder_enabled=True)
    Competition.objects.exclude(pk=competition.pk).update(ladder_enabled=False)
    return competition


def ratings_snapshot():
    ratings = sorted(
        Rating.objects.values_list(
            "competition_id", "bot_id", "elo", "games", "wins", "rank_sum", "score_sum"
        )
    )
    history = list(
        RatingChange.objects.order_by("id").values_list(
            "game_id", "rating__bot_id", "bot_version_id", "before", "after"
        )
    )
    return ratings, history


@pytest.mark.slow
def test_upload_qualify_ladder_tournament_replay_recompute(worker):
    competition = ladder_competition()
    user = UserFactory(username="e2e-player")
    versions = [
        bot_version_upload(
            user=user,
            name=f"e2e-{name}",
            upload=SimpleUploadedFile(
                f"{name}_bot.py", (EXAMPLES_DIR / f"{name}_bot.py").read_bytes()
            ),
        )
        for name in EXAMPLES
    ]

    def all_qualified():
        statuses = dict(
            BotVersion.objects.filter(pk__in=[v.pk for v in versions]).values_list("pk", "status")
        )
        failed = {pk: s for pk, s in statuses.items() if s == BotVersion.Status.FAILED}
        assert not failed, BotVersion.objects.filter(pk__in=failed).values("status_reason")
        return set(statuses.values()) == {BotVersion.Status.ACTIVE}

    wait_for(all_qualified, timeout=120, interval=0.5, what="three qualified versions")

    # What beat does every few seconds, done here until enough ladder matches ran.
    def ladder_played_enough():
        ladders_matchmake()
        finished = Match.objects.filter(kind=Match.Kind.LADDER, competition=competition)
        assert not finished.filter(state=Match.State.FAILED).exists(), list(
            finished.values_list("error", flat=True)
        )
        return finished.filter(state=Match.State.DONE).count() >= LADDER_MATCHES

    wait_for(ladder_played_enough, timeout=180, interval=0.5, what="ladder matches")
    ratings = list(Rating.objects.filter(competition=competition))
    assert {r.bot.name for r in ratings} == {f"e2e-{name}" for name in EXAMPLES}
    assert all(r.elo != 1500.0 for r in ratings)
    assert sum(r.games for r in ratings) >= 2 * 2 * LADDER_MATCHES

    tournament = tournament_create(
        user=user,
        name="End-to-end cup",
        format=Tournament.Format.ROUND_ROBIN,
        ruleset="korean",
        seats=2,
        games_per_match=2,
        bots=[v.bot for v in versions],
    )

    def tournament_over():
        tournament.refresh_from_db()
        return tournament.state in (Tournament.State.DONE, Tournament.State.FAILED)

    wait_for(tournament_over, timeout=120, interval=0.5, what="the tournament to finish")
    assert tournament.state == Tournament.State.DONE, tournament.error
    assert tournament_progress(tournament=tournament) == (3, 3)
    standings = tournament_standings(tournament=tournament)
    assert len(standings) == 3
    assert all(row.games == 4 for row in standings)
    assert sum(row.points for row in standings) == 6  # 6 games, one point each
    assert standings[0].position == 1
    # Tournament games are unrated.
    assert not RatingChange.objects.filter(game__match__tournament=tournament).exists()

    # Let in-flight ladder matches finish so the stored ratings are final.
    wait_for(
        lambda: not Match.objects.filter(state__in=["queued", "running"]).exists(),
        timeout=120,
        what="the queue to drain",
    )
    games = Game.objects.all()
    assert games.count() >= 2 * LADDER_MATCHES + 6
    for game in games.iterator():
        log = game_log(game=game)
        engine.replay(log)  # raises ReplayError if the log does not reproduce its result

    before = ratings_snapshot()
    started = time.monotonic()
    call_command("recompute_ratings", "--check")
    call_command("recompute_ratings")
    assert ratings_snapshot() == before
    assert time.monotonic() - started < 30
