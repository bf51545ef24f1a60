"""recompute_ratings replays the games and reproduces the incremental ratings exactly."""

import random

import pytest
from django.core.management import CommandError, call_command

from arena.ratings.models import Rating, RatingChange
from tests.arena.factories import rate_game

from .factories import ActiveBotVersionFactory, CompetitionFactory, finished_match

pytestmark = pytest.mark.django_db


def snapshot():
    ratings = {
        (r.competition_id, r.bot_id): (
            r.elo,
            r.games,
            r.wins,
            r.rank_sum,
            r.score_sum,
            r.last_played_at,
            r.trend,
        )
        for r in Rating.objects.all()
    }
    history = list(
        RatingChange.objects.order_by("id").values_list(
            "game_id", "rating__bot_id", "bot_version_id", "before", "after"
        )
    )
    return ratings, history


def random_ranks(rng, seats):
    ranks = list(range(1, seats + 1))
    rng.shuffle(ranks)
    if rng.random() < 0.1:  # an adjudicated game with a shared place
        ranks = [min(r, 2) for r in ranks]
    return ranks


def play_ladder(rng, *, competition, versions, matches, out_of_order=False):
    created = []
    for _ in range(matches):
        table = rng.sample(versions, competition.seats)
        games = [random_ranks(rng, competition.seats) for _ in range(rng.randint(1, 4))]
        created.append(finished_match(versions=table, game_ranks=games, competition=competition))
    if out_of_order:
        # Workers finishing at the same time commit in another order than their
        # games were numbered.
        rng.shuffle(created)
    for match in created:
        for game in match.games.order_by("number"):
            rate_game(game)


@pytest.fixture
def ladders():
    rng = random.Random(5)
    versions = [ActiveBotVersionFactory() for _ in range(6)]
    two, four = CompetitionFactory(seats=2), CompetitionFactory(seats=4)
    play_ladder(rng, competition=two, versions=versions, matches=30, out_of_order=True)
    play_ladder(rng, competition=four, versions=versions, matches=15)
    return two, four


def test_recompute_reproduces_the_incremental_ratings_exactly(ladders):
    before = snapshot()
    assert len(before[1]) > 100
    call_command("recompute_ratings", "--check")
    call_command("recompute_ratings")
    assert snapshot() == before


def test_recompute_repairs_a_damaged_rating_and_check_reports_it(ladders):
    two, _ = ladders
    before = snapshot()
    Rating.objects.filter(competition=two).update(elo=1000.0)
    with pytest.raises(CommandError, match=two.slug):
        call_command("recompute_ratings", "--check")
    call_command("recompute_ratings", "--competition", two.slug)
    assert snapshot()[0] == before[0]


def test_recompute_rebuilds_lost_ratings_in_game_order():
    rng = random.Random(9)
    competition = CompetitionFactory()
    versions = [ActiveBotVersionFactory() for _ in range(4)]
    play_ladder(rng, competition=competition, versions=versions, matches=10)
    before = snapshot()
    Rating.objects.all().delete()  # and, by cascade, every change
    call_command("recompute_ratings")
    assert snapshot()[0] == before[0]


def test_unknown_competition_is_an_error():
    with pytest.raises(CommandError, match="no competition"):
        call_command("recompute_ratings", "--competition", "nope")


def test_a_rating_that_no_game_supports_is_dropped():
    competition = CompetitionFactory()
    orphan = ActiveBotVersionFactory()
    Rating.objects.create(bot=orphan.bot, competition=competition, elo=1700.0, games=3)
    with pytest.raises(CommandError):
        call_command("recompute_ratings", "--check")
    call_command("recompute_ratings")
    assert not Rating.objects.exists()
