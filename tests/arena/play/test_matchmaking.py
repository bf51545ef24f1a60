"""Ladder matchmaking and user challenges."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from arena.bots.models import BotVersion
from arena.matches.models import Competition, Match
from arena.matches.services import challenge_create, challenges_left_today
from arena.play.matchmaking import ladders_matchmake
from arena.play.pairing import Candidate, pick_table
from arena.ratings.models import Rating
from tests.arena.factories import (
    ActiveBotVersionFactory,
    BotVersionFactory,
    CompetitionFactory,
    UserFactory,
    default_competition,
    match_with_seats,
)

pytestmark = pytest.mark.django_db


def test_matchmaking_pairs_free_active_bots_within_the_backlog(settings):
    settings.ARENA_WORKER_COUNT = 1
    settings.ARENA_LADDER_BACKLOG_PER_WORKER = 2
    active = [ActiveBotVersionFactory() for _ in range(7)]
    BotVersionFactory()  # pending: not on the ladder
    ActiveBotVersionFactory(status=BotVersion.Status.FAILED)

    created = ladders_matchmake(rng=random.Random(3))

    assert len(created) == 2
    seated = [seat.bot_version_id for match in created for seat in match.seats.all()]
    assert len(seated) == len(set(seated)) == 4
    assert set(seated) <= {v.pk for v in active}
    assert all(m.rated and m.kind == Match.Kind.LADDER for m in created)
    # The backlog is full: nothing more until matches finish.
    assert ladders_matchmake(rng=random.Random(4)) == []


def test_busy_bots_are_not_seated_again(settings):
    settings.ARENA_LADDER_BACKLOG_PER_WORKER = 10
    a, b, c = (ActiveBotVersionFactory() for _ in range(3))
    match_with_seats([a, b])  # queued: a and b are busy
    assert ladders_matchmake(rng=random.Random(1)) == []  # c alone cannot play
    ActiveBotVersionFactory()
    created = ladders_matchmake(rng=random.Random(1))
    assert len(created) == 1
    assert c.bot_id in {seat.bot_id for seat in created[0].seats.all()}


def test_multi_seat_competitions_fill_their_tables(settings):
    settings.ARENA_LADDER_BACKLOG_PER_WORKER = 10
    default_competition()
    Competition.objects.update(ladder_enabled=False)  # the 2-seat ladders
    four = CompetitionFactory(slug="four", seats=4)
    for _ in range(9):
        ActiveBotVersionFactory()
    created = ladders_matchmake(rng=random.Random(2))
    assert len(created) == 2
    assert all(match.seats.count() == 4 and match.competition == four for match in created)


def test_the_similar_policy_anchors_few_games_and_seats_similar_ratings():
    newcomer = Candidate(version="new", elo=1500, games=0)
    veterans = [Candidate(version=f"v{i}", elo=1500, games=200) for i in range(4)]
    near = Candidate(version="near", elo=1510, games=200)
    far = Candidate(version="far", elo=2400, games=200)
    rng = random.Random(7)
    anchors = Counter()
    opponents_of_newcomer = Counter()
    for _ in range(2000):
        table = pick_table([newcomer, *veterans, near, far], 2, rng, policy="similar")
        names = {c.version for c in table}
        if "new" in names:
            anchors["new"] += 1
            opponents_of_newcomer[(names - {"new"}).pop()] += 1
    assert anchors["new"] > 2000 * 0.5  # one of seven bots, seated in most matches
    assert opponents_of_newcomer["near"] > 20 * max(1, opponents_of_newcomer["far"])


def test_ratings_steer_the_pairing(settings):
    settings.ARENA_LADDER_BACKLOG_PER_WORKER = 1
    settings.ARENA_WORKER_COUNT = 1
    competition = default_competition()
    Competition.objects.exclude(pk=competition.pk).update(ladder_enabled=False)
    versions = [ActiveBotVersionFactory() for _ in range(3)]
    for version, elo in zip(versions, [1500, 1520, 2600], strict=True):
        Rating.objects.create(bot=version.bot, competition=competition, elo=elo, games=50)
    pairs = Counter()
    for seed in range(40):
        match = ladders_matchmake(rng=random.Random(seed))[0]
        pairs[frozenset(match.seats.values_list("bot_version_id", flat=True))] += 1
        match.delete()
    # The far bot still plays when it is the anchor (a third of the time), but the
    # close pair meets about twice as often as with uniform pairing (40/3).
    assert pairs[frozenset({versions[0].pk, versions[1].pk})] > 20


# -- challenges ---------------------------------------------------------------------------


def test_challenge_is_unrated_and_counts_against_the_daily_quota(settings):
    settings.ARENA_CHALLENGES_PER_DAY = 2
    mine = ActiveBotVersionFactory()
    theirs = ActiveBotVersionFactory()
    user = mine.bot.owner
    match = challenge_create(user=user, bot=mine.bot, opponent=theirs.bot)
    assert (match.kind, match.rated, match.created_by) == (Match.Kind.CHALLENGE, False, user)
    assert match.competition == default_competition()
    challenge_create(user=user, bot=mine.bot, opponent=theirs.bot)
    assert challenges_left_today(user=user) == 0
    with pytest.raises(ValidationError, match="Daily limit"):
        challenge_create(user=user, bot=mine.bot, opponent=theirs.bot)


def test_challenge_only_with_ones_own_active_bot():
    mine = ActiveBotVersionFactory()
    theirs = ActiveBotVersionFactory()
    with pytest.raises(PermissionDenied):
        challenge_create(user=UserFactory(), bot=mine.bot, opponent=theirs.bot)
    pending = BotVersionFactory(bot__owner=mine.bot.owner)
    with pytest.raises(ValidationError) as caught:
        challenge_create(user=mine.bot.owner, bot=mine.bot, opponent=pending.bot)
    assert "opponent" in caught.value.message_dict
    with pytest.raises(ValidationError):
        challenge_create(user=mine.bot.owner, bot=mine.bot, opponent=mine.bot)


def test_the_default_competition_is_restored_if_deleted():
    from arena.matches.models import Competition
    from arena.matches.selectors import default_competition as selector

    Competition.objects.all().delete()
    restored = selector()
    assert (restored.slug, restored.seats, restored.is_default) == ("korean-2", 2, True)
    assert restored.ruleset["attack_values"]["CJ"] == 10
