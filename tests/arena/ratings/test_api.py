"""Ratings API: leaderboard pages, rating history, head to head."""

import pytest
from rest_framework.test import APIClient

from tests.arena.factories import rate_game

from .factories import ActiveBotVersionFactory, BotFactory, CompetitionFactory, finished_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder():
    competition = CompetitionFactory(slug="duel")
    versions = [ActiveBotVersionFactory(bot=BotFactory(name=f"b{i}")) for i in range(5)]
    for winner in range(4):
        match = finished_match(
            versions=[versions[winner], versions[winner + 1]],
            game_ranks=[[1, 2], [1, 2]],
            competition=competition,
        )
        for game in match.games.order_by("number"):
            rate_game(game)
    return competition, versions


def test_leaderboard_pages_keep_the_competition_rank(ladder, django_assert_max_num_queries):
    client = APIClient()
    with django_assert_max_num_queries(7):
        body = client.get("/api/v1/competitions/duel/leaderboard/?page_size=2").json()
    assert body["count"] == 5
    assert [row["rank"] for row in body["results"]] == [1, 2]
    first = body["results"][0]
    assert set(first) >= {"bot", "owner", "elo", "interval_low", "interval_high", "trend"}
    assert first["interval_low"] < first["elo"] < first["interval_high"]
    second_page = client.get("/api/v1/competitions/duel/leaderboard/?page_size=2&page=2").json()
    assert [row["rank"] for row in second_page["results"]] == [3, 4]
    searched = client.get("/api/v1/competitions/duel/leaderboard/?search=b4").json()
    assert [(r["bot"], r["rank"]) for r in searched["results"]] == [("b4", 5)]


def test_leaderboard_refuses_unknown_orderings_and_competitions(ladder):
    client = APIClient()
    assert client.get("/api/v1/competitions/duel/leaderboard/?ordering=elo").status_code == 400
    assert client.get("/api/v1/competitions/duel/leaderboard/?ordering=-games").status_code == 200
    assert client.get("/api/v1/competitions/nope/leaderboard/").status_code == 404


def test_history_and_head_to_head(ladder):
    client = APIClient()
    history = client.get("/api/v1/competitions/duel/bots/b1/history/").json()
    assert len(history) == 4
    assert history[0]["version_changed"] is True
    assert [p["before"] for p in history[1:]] == [p["after"] for p in history[:-1]]
    assert len(client.get("/api/v1/competitions/duel/bots/b1/history/?limit=1").json()) == 1
    assert client.get("/api/v1/competitions/duel/bots/b1/history/?limit=0").status_code == 400
    rows = client.get("/api/v1/competitions/duel/bots/b1/head-to-head/").json()
    assert {(r["opponent"], r["wins"], r["losses"]) for r in rows} == {("b0", 0, 2), ("b2", 2, 0)}
    assert client.get("/api/v1/competitions/duel/bots/ghost/history/").status_code == 404
