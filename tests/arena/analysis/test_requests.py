"""Who may ask for an analysis, the daily quota, and one analysis per game and
settings (on the real database)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from arena.analysis.models import Analysis
from arena.analysis.selectors import analysis_request_refusal
from arena.analysis.services import analysis_request
from arena.matches.models import Match
from tests.arena.factories import StaffFactory, UserFactory

from .games import example_log, seat_owner, stored_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def challenge_game():
    return stored_game(example_log(players=2, seed=3))


def test_the_owner_of_any_seat_may_ask_and_the_task_is_queued_on_commit(
    challenge_game, django_capture_on_commit_callbacks
):
    owner = seat_owner(challenge_game, 1)
    with django_capture_on_commit_callbacks() as sent:
        analysis = analysis_request(user=owner, game=challenge_game)
    assert len(sent) == 1
    assert analysis.state == Analysis.State.QUEUED
    assert analysis.requested_by == owner
    assert analysis.settings["iterations"] == 24
    assert analysis.settings_key == (f"search-{analysis.settings['version']}:iterations-24:seed-0")


def test_a_stranger_may_not_ask_for_a_challenge_but_anyone_may_for_a_ladder_game(
    challenge_game, django_capture_on_commit_callbacks
):
    stranger = UserFactory()
    with pytest.raises(PermissionDenied, match="Only the owners of this game's bots"):
        analysis_request(user=stranger, game=challenge_game)
    assert not Analysis.objects.exists()
    ladder_game = stored_game(example_log(players=2, seed=3), kind=Match.Kind.LADDER)
    assert analysis_request_refusal(user=stranger, game=ladder_game) is None
    with django_capture_on_commit_callbacks():
        analysis_request(user=stranger, game=ladder_game)
    assert Analysis.objects.filter(game=ladder_game).count() == 1


def test_anonymous_visitors_are_asked_to_log_in():
    ladder_game = stored_game(example_log(players=2, seed=3), kind=Match.Kind.LADDER)
    refusal = analysis_request_refusal(user=AnonymousUser(), game=ladder_game)
    assert refusal == "Log in to ask for an analysis."
    with pytest.raises(PermissionDenied, match="Log in"):
        analysis_request(user=AnonymousUser(), game=ladder_game)


def test_staff_may_ask_for_any_game(challenge_game, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks():
        analysis_request(user=StaffFactory(), game=challenge_game)
    assert Analysis.objects.count() == 1


def test_one_analysis_per_game_and_settings(
    challenge_game, settings, django_capture_on_commit_callbacks
):
    first_owner, second_owner = seat_owner(challenge_game, 0), seat_owner(challenge_game, 1)
    with django_capture_on_commit_callbacks() as sent:
        first = analysis_request(user=first_owner, game=challenge_game)
        again = analysis_request(user=second_owner, game=challenge_game)
    assert again.pk == first.pk
    assert len(sent) == 1, "asking again for a queued analysis sends nothing"
    # The other owner's quota is untouched: nothing was created for them.
    assert not Analysis.objects.filter(requested_by=second_owner).exists()
    settings.ARENA_ANALYSIS_ITERATIONS = 48
    with django_capture_on_commit_callbacks() as sent:
        other = analysis_request(user=second_owner, game=challenge_game)
    assert other.pk != first.pk
    assert len(sent) == 1
    assert sorted(Analysis.objects.values_list("settings__iterations", flat=True)) == [24, 48]


def test_the_daily_quota(settings, django_capture_on_commit_callbacks):
    settings.ARENA_ANALYSES_PER_DAY = 2
    user = UserFactory()
    games = [stored_game(example_log(players=2, seed=3), kind=Match.Kind.LADDER) for _ in range(4)]
    with django_capture_on_commit_callbacks():
        analysis_request(user=user, game=games[0])
        analysis_request(user=user, game=games[1])
        # Asking again for one already asked for is no new analysis.
        analysis_request(user=user, game=games[1])
    with pytest.raises(ValidationError, match="Daily limit of 2 analyses reached"):
        analysis_request(user=user, game=games[2])
    # Yesterday's requests do not count today.
    Analysis.objects.filter(requested_by=user).update(created_at=timezone.now() - timedelta(days=1))
    with django_capture_on_commit_callbacks():
        analysis_request(user=user, game=games[2])
    # Staff have no limit.
    staff = StaffFactory()
    with django_capture_on_commit_callbacks():
        for game in games:
            Analysis.objects.filter(game=game).delete()
            analysis_request(user=staff, game=game)
    assert Analysis.objects.filter(requested_by=staff).count() == 4


def test_an_analysis_whose_worker_is_gone_is_sent_again(
    challenge_game, django_capture_on_commit_callbacks
):
    owner = seat_owner(challenge_game, 0)
    with django_capture_on_commit_callbacks():
        analysis = analysis_request(user=owner, game=challenge_game)
    Analysis.objects.filter(pk=analysis.pk).update(
        state=Analysis.State.RUNNING, lease_expires_at=timezone.now() - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks() as sent:
        assert analysis_request(user=owner, game=challenge_game).pk == analysis.pk
    assert len(sent) == 1
    Analysis.objects.filter(pk=analysis.pk).update(
        lease_expires_at=timezone.now() + timedelta(minutes=5)
    )
    with django_capture_on_commit_callbacks() as sent:
        analysis_request(user=owner, game=challenge_game)
    assert not sent, "a running analysis with a live worker is left alone"
