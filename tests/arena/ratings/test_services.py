"""ratings_apply_match_games: rated games move the ratings of their competition, once."""

import pytest

from arena.matches.selectors import match_seats_of
from arena.ratings import elo
from arena.ratings.models import Rating, RatingChange
from arena.ratings.services import RatingError, ratings_apply_match_games
from tests.arena.factories import rate_game

from .factories import ActiveBotVersionFactory, CompetitionFactory, finished_match

pytestmark = pytest.mark.django_db


def apply_all(match):
    for game in match.games.order_by("number"):
        rate_game(game)


def test_a_rated_game_creates_ratings_and_records_every_change():
    competition = CompetitionFactory()
    a, b = ActiveBotVersionFactory(), ActiveBotVersionFactory()
    match = finished_match(
        versions=[a, b], game_ranks=[[1, 2], [2, 1], [1, 2]], competition=competition
    )
    apply_all(match)
    ra = Rating.objects.get(bot=a.bot, competition=competition)
    rb = Rating.objects.get(bot=b.bot, competition=competition)
    assert (ra.games, ra.wins, ra.rank_sum) == (3, 2, 4)
    assert (rb.games, rb.wins, rb.rank_sum) == (3, 1, 5)
    assert ra.elo > 1500 > rb.elo
    assert ra.elo + rb.elo == pytest.approx(3000)  # both provisional: equal K
    assert ra.score_sum == 2.0
    assert ra.trend[-1] == ra.elo
    assert len(ra.trend) == 3
    changes = list(RatingChange.objects.filter(rating=ra).order_by("id"))
    assert [c.before for c in changes[1:]] == [c.after for c in changes[:-1]]
    assert changes[0].before == elo.INITIAL_RATING
    assert changes[-1].after == ra.elo
    assert {c.bot_version_id for c in changes} == {a.pk}
    assert ra.last_played_at == match.games.order_by("number").last().created_at


def test_applying_a_game_twice_rates_it_once():
    competition = CompetitionFactory()
    match = finished_match(
        versions=[ActiveBotVersionFactory(), ActiveBotVersionFactory()],
        game_ranks=[[1, 2]],
        competition=competition,
    )
    game = match.games.get()
    rate_game(game)
    rate_game(game)
    assert RatingChange.objects.count() == 2
    assert set(Rating.objects.values_list("games", flat=True)) == {1}


def test_a_match_whose_first_games_are_rated_rates_only_the_rest():
    competition = CompetitionFactory()
    match = finished_match(
        versions=[ActiveBotVersionFactory(), ActiveBotVersionFactory()],
        game_ranks=[[1, 2], [2, 1], [1, 2]],
        competition=competition,
    )
    games = list(match.games.order_by("number"))
    for game in games[:2]:
        rate_game(game)
    ratings_apply_match_games(games=games, seats=match_seats_of(match_id=match.pk))
    rated = RatingChange.objects.values_list("game_id", flat=True)
    assert sorted(rated) == sorted(game.pk for game in games for _ in range(2))
    assert set(Rating.objects.values_list("games", flat=True)) == {3}


@pytest.mark.parametrize("kwargs", [{"rated": False}, {"competition": None}])
def test_unrated_matches_leave_ratings_alone(kwargs):
    competition = kwargs.pop("competition", CompetitionFactory())
    match = finished_match(
        versions=[ActiveBotVersionFactory(), ActiveBotVersionFactory()],
        game_ranks=[[1, 2]],
        competition=competition,
        **kwargs,
    )
    rate_game(match.games.get())
    assert not Rating.objects.exists()


def test_ratings_are_per_competition():
    first, second = CompetitionFactory(), CompetitionFactory(seats=3)
    a, b, c = ActiveBotVersionFactory(), ActiveBotVersionFactory(), ActiveBotVersionFactory()
    apply_all(finished_match(versions=[a, b], game_ranks=[[1, 2]], competition=first))
    apply_all(finished_match(versions=[a, b, c], game_ranks=[[3, 1, 2]], competition=second))
    assert Rating.objects.get(bot=a.bot, competition=first).elo > 1500
    assert Rating.objects.get(bot=a.bot, competition=second).elo < 1500
    assert Rating.objects.filter(competition=second).count() == 3


def test_a_new_version_continues_the_bots_rating_and_is_marked():
    competition = CompetitionFactory()
    old, opponent = ActiveBotVersionFactory(), ActiveBotVersionFactory()
    apply_all(
        finished_match(versions=[old, opponent], game_ranks=[[1, 2]], competition=competition)
    )
    old.status = old.Status.RETIRED
    old.save()
    new = ActiveBotVersionFactory(bot=old.bot)
    apply_all(
        finished_match(versions=[new, opponent], game_ranks=[[1, 2]], competition=competition)
    )
    rating = Rating.objects.get(bot=old.bot, competition=competition)
    changes = list(rating.changes.order_by("id"))
    assert [c.bot_version_id for c in changes] == [old.pk, new.pk]
    assert changes[1].before == changes[0].after
    assert rating.games == 2


def test_a_game_with_ranks_that_do_not_fit_the_seats_is_refused():
    competition = CompetitionFactory()
    match = finished_match(
        versions=[ActiveBotVersionFactory(), ActiveBotVersionFactory()],
        game_ranks=[[1, 2]],
        competition=competition,
    )
    game = match.games.get()
    game.ranks = [1, 2, 3]
    with pytest.raises(RatingError):
        rate_game(game)
    game.ranks = [1, 9]
    with pytest.raises(RatingError):
        rate_game(game)
    assert not RatingChange.objects.exists()


def test_a_whole_match_at_once_equals_game_by_game():
    def play(apply_per_game):
        competition = CompetitionFactory(seats=3)
        versions = [ActiveBotVersionFactory() for _ in range(3)]
        ranks = [[1, 2, 3], [3, 1, 2], [2, 2, 1], [1, 3, 2]]
        match = finished_match(versions=versions, game_ranks=ranks, competition=competition)
        games = list(match.games.order_by("number"))
        if apply_per_game:
            for game in games:
                rate_game(game)
        else:
            ratings_apply_match_games(games=games, seats=match_seats_of(match_id=match.pk))
        by_seat = [Rating.objects.get(bot=v.bot, competition=competition) for v in versions]
        history = [list(r.changes.order_by("id").values_list("before", "after")) for r in by_seat]
        return [
            (r.elo, r.games, r.wins, r.rank_sum, r.score_sum, r.trend) for r in by_seat
        ], history

    assert play(apply_per_game=True) == play(apply_per_game=False)


def test_a_batch_skips_games_already_rated_and_refuses_mixed_matches():
    competition = CompetitionFactory()
    versions = [ActiveBotVersionFactory(), ActiveBotVersionFactory()]
    match = finished_match(versions=versions, game_ranks=[[1, 2], [2, 1]], competition=competition)
    first, second = match.games.order_by("number")
    rate_game(first)
    ratings_apply_match_games(games=[first, second], seats=match_seats_of(match_id=match.pk))
    assert RatingChange.objects.count() == 4
    assert set(Rating.objects.values_list("games", flat=True)) == {2}
    other = finished_match(versions=versions, game_ranks=[[1, 2]], competition=competition)
    with pytest.raises(RatingError, match="one match"):
        ratings_apply_match_games(
            games=[first, other.games.get()], seats=match_seats_of(match_id=match.pk)
        )
