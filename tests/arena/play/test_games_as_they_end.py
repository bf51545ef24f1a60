"""A match's games are written as each one ends, and its result still counts once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.matches.models import Game, Match, MatchSeat
from arena.matches.selectors import game_log
from arena.play import leases
from arena.play.games import GameRecording
from arena.play.results import match_record_result
from arena.play.runner import Outcome, match_run
from arena.ratings.models import RatingChange
from arena.settings.env import REPO_ROOT
from tests.arena.factories import (
    ActiveBotVersionFactory,
    default_competition,
    match_with_seats,
    played_log,
)

pytestmark = pytest.mark.django_db


def example_version(name: str) -> BotVersion:
    source = (REPO_ROOT / "bots_examples" / f"{name}_bot.py").read_bytes()
    return ActiveBotVersionFactory(bot__name=name, source=source)


def rated_match(games: int = 4) -> Match:
    return match_with_seats(
        [example_version("greedy"), example_version("random")],
        rated=True,
        competition=default_competition(),
        games_planned=games,
    )


def test_each_game_is_on_the_match_page_as_soon_as_it_ends(monkeypatch):
    from arena.play import runner

    real = runner.run_sandboxed_match
    seen: list[tuple[int, str]] = []

    def watched(**kwargs):
        progress = kwargs["progress"]

        def spy(game, log):
            progress(game, log)
            match = Match.objects.get(pk=kwargs_match_id)
            seen.append((Game.objects.filter(match=match).count(), match.state))

        return real(**{**kwargs, "progress": spy})

    monkeypatch.setattr(runner, "run_sandboxed_match", watched)
    match = rated_match()
    kwargs_match_id = match.pk
    assert match_run(match_id=match.pk) is Outcome.DONE
    assert seen == [(1, "running"), (2, "running"), (3, "running"), (4, "running")]
    match.refresh_from_db()
    assert match.state == Match.State.DONE
    assert [game.number for game in match.games.order_by("number")] == [0, 1, 2, 3]
    # Ratings once per match: one change per bot and game, no more.
    assert RatingChange.objects.filter(game__match=match).count() == 2 * 4
    seats = MatchSeat.objects.filter(match=match)
    assert sum(seat.games for seat in seats) == 2 * 4
    call_command("recompute_ratings", "--check")  # raises on any difference


def claim_of(match: Match, token: str) -> leases.Claim:
    claim = leases.match_claim(match_id=match.pk, token=token)
    assert claim is not None
    return claim


def test_a_worker_that_lost_the_match_writes_no_game():
    match = rated_match(games=2)
    old = claim_of(match, "old")
    recording = GameRecording(claim=old)
    recording.add(0, played_log(seed=0))
    recording.flush()
    assert Game.objects.filter(match=match).count() == 1
    # The lease runs out: the match goes back to the queue, and the preview with it.
    assert leases.matches_requeue_expired(now=timezone.now() + timedelta(hours=1)) == [match.pk]
    assert not Game.objects.filter(match=match).exists()
    recording.add(1, played_log(seed=1))
    recording.flush()
    assert not Game.objects.filter(match=match).exists()
    assert recording.written == {0}


def test_a_match_played_again_keeps_only_the_last_attempts_games():
    """Attempt 1 wrote three games and died; its lease ran out and attempt 2 claims
    the match straight away (no sweep between), plays two games that end
    differently, and records: exactly its games count."""
    match = rated_match(games=4)
    first = claim_of(match, "first")
    recording = GameRecording(claim=first)
    for number in range(3):
        recording.add(number, played_log(seed=100 + number))
    recording.flush()
    assert Game.objects.filter(match=match).count() == 3
    Match.objects.filter(pk=match.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))

    second = claim_of(match, "second")
    assert second.match.attempts == 2
    logs = [played_log(seed=number) for number in range(2)]
    again = GameRecording(claim=second)
    again.add(0, logs[0])
    again.flush()  # game 1 is left to the result's transaction
    assert match_record_result(claim=second, games=logs, backend="test", recording=again)
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert [game.number for game in games] == [0, 1]
    assert [game_log(game=game)["seed"] for game in games] == [0, 1]
    assert RatingChange.objects.filter(game__match=match).count() == 2 * 2
    assert sum(seat.games for seat in MatchSeat.objects.filter(match=match)) == 2 * 2
    call_command("recompute_ratings", "--check")


def test_the_first_worker_cannot_record_after_the_second_claimed():
    match = rated_match(games=2)
    first = claim_of(match, "first")
    Match.objects.filter(pk=match.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    second = claim_of(match, "second")
    logs = [played_log(seed=number) for number in range(2)]
    late = GameRecording(claim=first)
    late.add(0, logs[0])
    late.flush()
    assert late.written == set()
    assert match_record_result(claim=first, games=logs, backend="test", recording=late) is None
    assert match_record_result(claim=second, games=logs, backend="test") is not None
    assert Game.objects.filter(match=match).count() == 2
    assert RatingChange.objects.filter(game__match=match).count() == 2 * 2
