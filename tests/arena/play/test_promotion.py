"""Version promotion by SPRT: a qualified version plays the active one until the
test decides, through the real claim and result write."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_activate, bot_version_upload
from arena.matches.models import Match, Promotion
from arena.matches.promotions import PAIRS_PER_MATCH, promotion_start
from arena.matches.selectors import promotion_progress
from arena.play import leases
from arena.play.qualification import bot_version_qualify
from arena.play.results import match_record_result
from arena.settings.env import REPO_ROOT
from tests.arena.factories import (
    ActiveBotVersionFactory,
    UserFactory,
    default_competition,
    game_log_for,
)
from tests.support.worker import wait_for

pytestmark = pytest.mark.django_db


def _testing_pair(**competition_fields):
    """A bot whose v1 is active and whose v2 has just qualified: v2 is testing."""
    competition = default_competition()
    for name, value in competition_fields.items():
        setattr(competition, name, value)
    competition.save()
    incumbent = ActiveBotVersionFactory()
    candidate = ActiveBotVersionFactory(bot=incumbent.bot, status=BotVersion.Status.TESTING)
    promotion = promotion_start(candidate=candidate, competition=competition)
    return incumbent, candidate, promotion


def _play_next(candidate_wins: bool) -> Match:
    """Claim and record the queued promotion match: the candidate (seat index 0)
    wins (or loses) every game."""
    match = Match.objects.filter(kind=Match.Kind.PROMOTION, state=Match.State.QUEUED).get()
    claim = leases.match_claim(match_id=match.pk, token=leases.worker_token())
    ranks = [1, 2] if candidate_wins else [2, 1]
    logs = [game_log_for(ranks_by_index=ranks) for _ in range(match.games_planned)]
    assert match_record_result(claim=claim, games=logs, backend="test") is not None
    return match


def test_a_qualified_version_tests_against_the_active_one_before_it_plays():
    incumbent, candidate, promotion = _testing_pair()
    assert promotion.state == Promotion.State.RUNNING
    match = Match.objects.get(kind=Match.Kind.PROMOTION)
    assert not match.rated
    assert match.games_planned == 2 * PAIRS_PER_MATCH  # pairs: a deal, seats swapped
    assert [s.bot_version_id for s in match.seats.order_by("index")] == [
        candidate.pk,
        incumbent.pk,
    ]


def _play_until_decided(candidate: BotVersion, *, candidate_wins: bool) -> Promotion:
    """Play the test's matches until it decides (at most ten)."""
    for _ in range(10):
        _play_next(candidate_wins=candidate_wins)
        promotion = Promotion.objects.get(candidate=candidate)
        if promotion.state != Promotion.State.RUNNING:
            break
    return promotion


def test_a_clearly_better_version_is_promoted():
    incumbent, candidate, _ = _testing_pair()
    promotion = _play_until_decided(candidate, candidate_wins=True)
    assert promotion.state == Promotion.State.PROMOTED
    candidate.refresh_from_db()
    incumbent.refresh_from_db()
    assert candidate.status == BotVersion.Status.ACTIVE
    assert incumbent.status == BotVersion.Status.RETIRED
    assert incumbent.status_reason == f"Replaced by v{candidate.number}"
    assert "Promoted over" in promotion.reason
    assert not Match.objects.filter(kind=Match.Kind.PROMOTION, state=Match.State.QUEUED).exists()
    progress = promotion_progress(version=candidate)
    assert progress.llr >= progress.upper
    assert progress.estimate.elo > 100


def test_a_worse_version_leaves_the_active_one_in_place():
    incumbent, candidate, _ = _testing_pair()
    promotion = _play_until_decided(candidate, candidate_wins=False)
    assert promotion.state == Promotion.State.KEPT
    candidate.refresh_from_db()
    incumbent.refresh_from_db()
    assert incumbent.status == BotVersion.Status.ACTIVE
    assert candidate.status == BotVersion.Status.RETIRED
    assert f"v{incumbent.number} stays active" in candidate.status_reason


def test_the_owner_may_promote_by_hand_and_the_figures_are_kept():
    _incumbent, candidate, _ = _testing_pair()
    _play_next(candidate_wins=True)
    bot_version_activate(user=candidate.bot.owner, version=candidate)
    _play_next(candidate_wins=True)  # the match queued before the owner acted
    promotion = Promotion.objects.get(candidate=candidate)
    assert promotion.state == Promotion.State.PROMOTED_BY_OWNER
    assert promotion.pairs == 2 * PAIRS_PER_MATCH
    assert not Match.objects.filter(kind=Match.Kind.PROMOTION, state=Match.State.QUEUED).exists()


def test_a_bots_first_version_is_active_without_a_test():
    assert (
        promotion_start(candidate=ActiveBotVersionFactory(), competition=default_competition())
        is None
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_stronger_upload_is_promoted_on_a_real_worker(celery_worker_process):
    default_competition()
    user = UserFactory()

    def upload(name: str) -> BotVersion:
        source = (REPO_ROOT / "bots_examples" / f"{name}_bot.py").read_bytes()
        return bot_version_upload(
            user=user, name="climber", upload=SimpleUploadedFile("b.py", source)
        )

    first = upload("random")
    wait_for(
        lambda: BotVersion.objects.get(pk=first.pk).status == "active",
        timeout=120,
        what="the first version to qualify",
    )
    second = upload("heuristic")
    wait_for(
        lambda: (
            Promotion.objects.filter(candidate_id=second.pk)
            .exclude(state=Promotion.State.RUNNING)
            .exists()
        ),
        timeout=300,
        what="the promotion test to decide",
    )
    promotion = Promotion.objects.get(candidate_id=second.pk)
    assert promotion.state == Promotion.State.PROMOTED, promotion.reason
    assert BotVersion.objects.get(pk=second.pk).status == BotVersion.Status.ACTIVE
    assert BotVersion.objects.get(pk=first.pk).status == BotVersion.Status.RETIRED
    assert promotion.pairs >= 10
    assert Match.objects.filter(kind=Match.Kind.PROMOTION, state=Match.State.DONE).exists()


def test_qualification_starts_the_test(monkeypatch):
    incumbent = ActiveBotVersionFactory()
    source = (REPO_ROOT / "bots_examples" / "greedy_bot.py").read_bytes()
    candidate = bot_version_upload(
        user=incumbent.bot.owner,
        name=incumbent.bot.name,
        upload=SimpleUploadedFile("b.py", source),
        queue_qualification=False,
    )
    version = bot_version_qualify(version_id=candidate.pk)
    assert version.status == BotVersion.Status.TESTING
    assert Promotion.objects.get(candidate=candidate).incumbent == incumbent
    incumbent.refresh_from_db()
    assert incumbent.status == BotVersion.Status.ACTIVE  # still on the ladder


def test_a_promotion_match_that_cannot_be_played_stops_the_test(settings):
    settings.ARENA_MATCH_MAX_ATTEMPTS = 1
    _incumbent, candidate, _ = _testing_pair()
    match = Match.objects.get(kind=Match.Kind.PROMOTION)
    claim = leases.match_claim(match_id=match.pk, token="w1")
    assert leases.match_release(claim=claim, error="docker is down") == "failed"
    promotion = Promotion.objects.get(candidate=candidate)
    assert promotion.state == Promotion.State.STOPPED
    assert f"Match {match.pk} could not be played" in promotion.reason
    candidate.refresh_from_db()
    assert candidate.status == BotVersion.Status.TESTING  # the owner decides now
