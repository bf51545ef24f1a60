"""Standings, performance ratings and the crosstable."""

import pytest

from arena.matches.models import Match
from arena.tournaments.selectors import tournament_crosstable, tournament_standings
from arena.tournaments.services import tournament_create, tournament_start
from arena.tournaments.standings import PlayedGame, performance_ratings, tally_games
from tests.arena.ratings.factories import ActiveBotVersionFactory, BotFactory, UserFactory

from .helpers import record_match, strongest_wins


def test_pairwise_points_at_a_four_seat_table():
    tally = tally_games(
        entrants=[1, 2, 3, 4, 5],
        games=[PlayedGame(entrants=[1, 2, 3, 4], ranks=[2, 1, 2, 4])],
    )
    assert tally.totals[2].points == 3
    assert tally.totals[1].points == 1.5
    assert tally.totals[4].points == 0
    assert tally.totals[1].pairings == 3
    assert tally.totals[5].games == 0
    assert tally.cells[(1, 3)].points == 0.5
    assert tally.cells[(4, 2)].games == 1


def test_performance_ratings_order_the_field_and_stay_finite():
    games = [PlayedGame(entrants=[1, 2], ranks=[1, 2])] * 6 + [
        PlayedGame(entrants=[2, 3], ranks=[1, 2]),
        PlayedGame(entrants=[2, 3], ranks=[2, 1]),
    ]
    ratings = performance_ratings(tally_games(entrants=[1, 2, 3], games=games))
    assert ratings[1] > ratings[2]
    assert ratings[1] < 3000
    # 2 and 3 split their games, but 2 also lost six to 1; the virtual draw keeps
    # 3, of whom less is known, nearer the centre.
    assert ratings[1] > ratings[3] > ratings[2]
    assert sum(ratings.values()) / 3 == pytest.approx(1500)


def test_an_even_result_gives_equal_performance():
    games = [PlayedGame(entrants=[1, 2], ranks=[1, 2]), PlayedGame(entrants=[1, 2], ranks=[2, 1])]
    ratings = performance_ratings(tally_games(entrants=[1, 2], games=games))
    assert ratings == pytest.approx({1: 1500.0, 2: 1500.0})


@pytest.mark.django_db
def test_standings_and_crosstable_of_a_finished_balanced_tournament(
    django_assert_max_num_queries,
):
    user = UserFactory()
    bots = [ActiveBotVersionFactory(bot=BotFactory(owner=user)).bot for _ in range(4)]
    tournament = tournament_create(
        user=user,
        name="Four at three",
        format="balanced",
        ruleset=None,
        seats=3,
        games_per_match=3,
        bots=bots,
    )
    tournament_start(tournament_id=tournament.pk)
    strength = {bots[0].pk: 1, bots[1].pk: 4, bots[2].pk: 3, bots[3].pk: 2}
    for match in Match.objects.filter(tournament=tournament):
        record_match(match, strongest_wins(strength))
    with django_assert_max_num_queries(4):
        standings = tournament_standings(tournament=tournament)
    assert [row.bot_id for row in standings] == [bots[1].pk, bots[2].pk, bots[3].pk, bots[0].pk]
    assert [row.position for row in standings] == [1, 2, 3, 4]
    top = standings[0]
    # Four tables of three, each bot at three of them, three games a match.
    assert top.games == 9
    assert top.wins == 9
    assert top.score == 1.0
    assert top.points == 18
    assert top.average_rank == 1.0
    assert top.performance > standings[1].performance > standings[3].performance
    crosstable = tournament_crosstable(tournament=tournament)
    assert [bot_id for bot_id, _ in crosstable.bots] == [row.bot_id for row in standings]
    assert crosstable.cells[0][0] is None
    assert crosstable.cells[0][3].points == crosstable.cells[0][3].games
    assert crosstable.cells[3][0].points == 0
    for i in range(4):
        for j in range(4):
            if i != j:
                assert crosstable.cells[i][j].games == crosstable.cells[j][i].games


@pytest.mark.django_db
def test_level_entrants_share_a_position_and_unplayed_ones_are_listed():
    user = UserFactory()
    bots = [ActiveBotVersionFactory(bot=BotFactory(owner=user)).bot for _ in range(3)]
    tournament = tournament_create(
        user=user,
        name="Even",
        format="round_robin",
        ruleset="korean",
        seats=2,
        games_per_match=2,
        bots=bots,
    )
    standings = tournament_standings(tournament=tournament)
    assert [row.position for row in standings] == [1, 1, 1]
    assert {row.games for row in standings} == {0}
    assert {row.performance for row in standings} == {1500.0}
    tournament_start(tournament_id=tournament.pk)
    # Each match split: first game to seat index 0, second to seat index 1.
    flip = iter(range(100))
    for match in Match.objects.filter(tournament=tournament):
        record_match(match, lambda ids: [1, 2] if next(flip) % 2 == 0 else [2, 1])
    standings = tournament_standings(tournament=tournament)
    assert [row.position for row in standings] == [1, 1, 1]
    assert {row.score for row in standings} == {0.5}
