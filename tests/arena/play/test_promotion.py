"""Version promotion by SPRT: a qualified version plays the active one until the
test decides, through the real claim and result write."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_activate, bot_version_upload
from arena.matches.models import Game, Match, Promotion
from arena.matches.promotions import PAIRS_PER_MATCH, promotion_start, twin_pair_points
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


# -- at N seats: twin matches with the other seats filled from the ladder ----------


def _testing_pair_at(seats: int, *, others: int):
    """The testing pair in a default competition of `seats`, with `others` other
    bots active on the ladder."""
    fillers = [ActiveBotVersionFactory() for _ in range(others)]
    return (*_testing_pair(seats=seats), fillers)


def _queued_promotion_matches() -> list[Match]:
    return list(
        Match.objects.filter(kind=Match.Kind.PROMOTION, state=Match.State.QUEUED).order_by("pk")
    )


def _seated(match: Match) -> list[int]:
    return [s.bot_version_id for s in match.seats.order_by("index")]


def _record(match: Match, *, candidate: BotVersion, candidate_ahead: bool) -> None:
    """Claim and record one match: the candidate finishes first (or last) and the
    incumbent last (or first); the fillers in between."""
    claim = leases.match_claim(match_id=match.pk, token=leases.worker_token())
    seated = _seated(match)
    places = list(range(2, len(seated)))
    ranks = []
    for version_id in seated:
        if version_id == candidate.pk:
            ranks.append(1 if candidate_ahead else len(seated))
        elif BotVersion.objects.get(pk=version_id).bot_id == candidate.bot_id:
            ranks.append(len(seated) if candidate_ahead else 1)
        else:
            ranks.append(places.pop(0))
    logs = [game_log_for(ranks_by_index=ranks) for _ in range(match.games_planned)]
    assert match_record_result(claim=claim, games=logs, backend="test") is not None


def test_at_four_seats_a_step_is_two_twin_matches_with_the_versions_swapped():
    incumbent, candidate, _, fillers = _testing_pair_at(4, others=3)
    first, twin = _queued_promotion_matches()
    assert first.seed == twin.seed  # the same deals
    assert _seated(first)[:2] == [candidate.pk, incumbent.pk]
    assert _seated(twin)[:2] == [incumbent.pk, candidate.pk]
    assert _seated(first)[2:] == _seated(twin)[2:]  # the same fillers in the same seats
    assert set(_seated(first)[2:]) < {f.pk for f in fillers}
    # Whole blocks of the four rotations, a pair per game.
    assert first.games_planned == twin.games_planned == PAIRS_PER_MATCH
    assert not first.rated
    assert not twin.rated


def test_at_four_seats_the_pairs_count_once_both_twins_are_recorded():
    _incumbent, candidate, _, _ = _testing_pair_at(4, others=2)
    first, twin = _queued_promotion_matches()
    _record(twin, candidate=candidate, candidate_ahead=True)
    assert Promotion.objects.get(candidate=candidate).pairs == 0
    _record(first, candidate=candidate, candidate_ahead=True)
    promotion = Promotion.objects.get(candidate=candidate)
    assert promotion.pentanomial == [0, 0, 0, 0, PAIRS_PER_MATCH]
    assert len(_queued_promotion_matches()) == 2  # the next step


@pytest.mark.parametrize("candidate_ahead", [True, False])
def test_at_four_seats_the_test_decides_either_way(candidate_ahead):
    incumbent, candidate, _, _ = _testing_pair_at(4, others=2)
    for _ in range(10):
        for match in _queued_promotion_matches():
            _record(match, candidate=candidate, candidate_ahead=candidate_ahead)
        promotion = Promotion.objects.get(candidate=candidate)
        if promotion.state != Promotion.State.RUNNING:
            break
    expected = Promotion.State.PROMOTED if candidate_ahead else Promotion.State.KEPT
    assert promotion.state == expected
    incumbent.refresh_from_db()
    assert incumbent.status == (
        BotVersion.Status.RETIRED if candidate_ahead else BotVersion.Status.ACTIVE
    )
    assert not _queued_promotion_matches()


def test_a_table_the_ladder_cannot_fill_is_played_head_to_head():
    incumbent, candidate, _, _ = _testing_pair_at(4, others=1)
    (match,) = _queued_promotion_matches()
    assert _seated(match) == [candidate.pk, incumbent.pk]
    assert match.games_planned == 2 * PAIRS_PER_MATCH


def test_a_twin_pair_scores_the_two_versions_places_only():
    def game(number, ranks):
        return Game(number=number, ranks=ranks)

    # Index 0 and 1 are the candidate and the incumbent in the first match, the
    # incumbent and the candidate in its twin; the fillers' places do not count.
    first = [
        game(0, [1, 4, 2, 3]),
        game(1, [3, 2, 1, 4]),
        game(2, [2, 2, 1, 3]),
        game(3, [4, 1, 2, 3]),
    ]
    twin = [game(0, [3, 1, 4, 2]), game(1, [2, 3, 1, 4]), game(2, [4, 1, 2, 3])]
    # Game 0: ahead in both (4); 1: behind, then behind (0); 2: level, then ahead (3);
    # game 3 has no twin yet.
    assert twin_pair_points(first, twin) == [4, 0, 3]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_stronger_upload_is_promoted_at_three_seats_on_a_real_worker(celery_worker_process):
    competition = default_competition()
    competition.seats = 3
    competition.save(update_fields=["seats"])

    def upload(user, name: str, bot: str) -> BotVersion:
        source = (REPO_ROOT / "bots_examples" / f"{bot}_bot.py").read_bytes()
        return bot_version_upload(user=user, name=name, upload=SimpleUploadedFile("b.py", source))

    def active(version: BotVersion) -> bool:
        return BotVersion.objects.get(pk=version.pk).status == "active"

    user = UserFactory()
    filler = upload(UserFactory(), "filler", "greedy")
    first = upload(user, "climber", "random")
    wait_for(lambda: active(filler) and active(first), timeout=180, what="two versions active")
    second = upload(user, "climber", "heuristic")
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
    played = Match.objects.filter(kind=Match.Kind.PROMOTION, state=Match.State.DONE)
    assert played.count() >= 2
    assert played.count() % 2 == 0  # twins
    for match in played:
        assert [s.bot_version_id for s in match.seats.order_by("index")][2] == filler.pk
    assert promotion.pairs >= 10
