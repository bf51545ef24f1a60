"""Leaderboard, rating history and head-to-head reads."""

import pytest

from arena.ratings.models import Rating
from arena.ratings.selectors import (
    LeaderboardOrderingError,
    head_to_head,
    leaderboard_list,
    leaderboard_queryset,
    rating_history,
)
from tests.arena.factories import rate_game

from .factories import ActiveBotVersionFactory, BotFactory, CompetitionFactory, finished_match

pytestmark = pytest.mark.django_db


def play(competition, versions, game_ranks):
    match = finished_match(versions=versions, game_ranks=game_ranks, competition=competition)
    for game in match.games.order_by("number"):
        rate_game(game)
    return match


@pytest.fixture
def board():
    competition = CompetitionFactory()
    alpha = ActiveBotVersionFactory(bot=BotFactory(name="alpha"))
    beta = ActiveBotVersionFactory(bot=BotFactory(name="beta"))
    gamma = ActiveBotVersionFactory(bot=BotFactory(name="gamma"))
    play(competition, [alpha, beta], [[1, 2], [1, 2], [1, 2]])
    play(competition, [beta, gamma], [[1, 2], [1, 2]])
    play(competition, [gamma, alpha], [[1, 2], [2, 1]])
    return competition, alpha, beta, gamma


def test_leaderboard_ranks_by_elo_with_intervals_and_totals(board, django_assert_max_num_queries):
    competition, alpha, *_ = board
    with django_assert_max_num_queries(5):
        rows = leaderboard_list(competition=competition)
    assert [r.bot_name for r in rows] == ["alpha", "beta", "gamma"]
    assert [r.rank for r in rows] == [1, 2, 3]
    first = rows[0]
    assert (first.games, first.wins) == (5, 4)
    assert first.win_rate == pytest.approx(0.8)
    assert first.average_rank == pytest.approx(6 / 5)
    assert first.provisional
    assert first.active
    assert first.owner_name == alpha.bot.owner.username
    assert first.interval_low < first.elo < first.interval_high
    assert first.trend[-1] == first.elo
    assert len(first.trend) == 5


def test_search_keeps_the_rank_in_the_whole_competition(board):
    competition, *_ = board
    rows = leaderboard_list(competition=competition, search="GAM")
    assert [(r.bot_name, r.rank) for r in rows] == [("gamma", 3)]


def test_equal_ratings_share_a_rank_and_pages_do_not_overlap(board):
    competition, *_ = board
    Rating.objects.filter(competition=competition).update(elo=1500.0)
    first = leaderboard_list(competition=competition, limit=2)
    second = leaderboard_list(competition=competition, offset=2, limit=2)
    assert [r.rank for r in first + second] == [1, 1, 1]
    assert len({r.bot_id for r in first + second}) == 3


def test_orderings(board):
    competition, *_ = board
    by_name = leaderboard_list(competition=competition, ordering="-name")
    assert [r.bot_name for r in by_name] == ["gamma", "beta", "alpha"]
    by_rank = leaderboard_list(competition=competition, ordering="-rank")
    assert [r.rank for r in by_rank] == [3, 2, 1]
    by_games = leaderboard_list(competition=competition, ordering="-games")
    assert by_games[0].games == 5
    with pytest.raises(LeaderboardOrderingError):
        leaderboard_queryset(competition=competition, ordering="elo; drop table")


def test_a_retired_bot_is_listed_as_inactive(board):
    competition, alpha, *_ = board
    alpha.status = alpha.Status.RETIRED
    alpha.save()
    rows = leaderboard_list(competition=competition, search="alpha")
    assert not rows[0].active


def test_rating_history_marks_version_changes(board):
    competition, alpha, beta, _ = board
    alpha.status = alpha.Status.RETIRED
    alpha.save()
    newer = ActiveBotVersionFactory(bot=alpha.bot)
    play(competition, [newer, beta], [[2, 1]])
    history = rating_history(bot=alpha.bot, competition=competition)
    assert len(history) == 6
    assert [p.version_changed for p in history] == [True, False, False, False, False, True]
    assert history[-1].version_number == newer.number
    assert [p.before for p in history[1:]] == [p.after for p in history[:-1]]
    latest = rating_history(bot=alpha.bot, competition=competition, limit=2)
    assert [p.version_changed for p in latest] == [False, True]
    assert latest == history[-2:]


def test_head_to_head_counts_pairwise_results(board):
    competition, alpha, *_ = board
    rows = head_to_head(bot=alpha.bot, competition=competition)
    assert [(r.opponent_name, r.games, r.wins, r.draws, r.losses) for r in rows] == [
        ("beta", 3, 3, 0, 0),
        ("gamma", 2, 1, 0, 1),
    ]
    assert rows[1].score == 0.5
    assert head_to_head(bot=BotFactory(), competition=competition) == []


def test_head_to_head_at_a_four_seat_table():
    competition = CompetitionFactory(seats=4)
    versions = [ActiveBotVersionFactory() for _ in range(4)]
    play(competition, versions, [[1, 2, 2, 4]])
    rows = {r.opponent_id: r for r in head_to_head(bot=versions[1].bot, competition=competition)}
    assert (rows[versions[0].bot_id].losses, rows[versions[2].bot_id].draws) == (1, 1)
    assert rows[versions[3].bot_id].wins == 1
