"""The home page and the leaderboard: content, search, sorting, paging, query counts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from arena.ratings.models import Rating
from arena.web.examples import example_bots
from tests.arena.factories import ActiveBotVersionFactory, BotFactory, match_with_seats
from tests.arena.web.games import played_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def ladder(alice, bob):
    versions = [
        ActiveBotVersionFactory(bot=BotFactory(owner=owner, name=name))
        for owner, name in [(alice, "ant"), (bob, "bee"), (alice, "cat"), (bob, "dog")]
    ]
    for i in range(4):
        played_match([versions[i], versions[(i + 1) % 4]], seed=10 + i)
    return versions


def test_home_shows_leaders_live_and_recent_matches(client, ladder, django_assert_max_num_queries):
    live = match_with_seats([ladder[0], ladder[2]], state="running")
    with django_assert_max_num_queries(12):
        response = client.get(reverse("web:home"))
    html = response.content.decode()
    assert response.status_code == 200
    for name in ("ant", "bee", "cat", "dog"):
        assert reverse("web:bot-detail", args=[name]) in html
    assert reverse("web:match-detail", args=[live.pk]) in html
    assert "Running" in html
    assert reverse("web:example-bot", args=["random_bot"]) in html


def test_home_query_count_does_not_grow_with_matches(client, ladder, django_assert_max_num_queries):
    for i in range(6):
        played_match([ladder[i % 4], ladder[(i + 2) % 4]], seed=40 + i, games=1)
        match_with_seats([ladder[0], ladder[1]], state="queued")
    with django_assert_max_num_queries(12):
        client.get(reverse("web:home"))


def test_example_bot_download(client, db):
    response = client.get(reverse("web:example-bot", args=["random_bot"]))
    assert response.status_code == 200
    assert b"sys.stdin" in b"".join(response.streaming_content)
    assert "attachment" in response["Content-Disposition"]
    assert client.get("/examples/settings.py").status_code == 404
    assert client.get("/examples/__init__.py").status_code == 404


def test_the_search_bot_is_offered_in_the_starter_kit_only(client, db):
    # It imports the engine, so as a lone file it would not run on a bare Python.
    assert "search_bot" not in [e.name for e in example_bots()]
    assert client.get(reverse("web:example-bot", args=["search_bot"])).status_code == 404
    html = client.get(reverse("web:home")).content.decode()
    assert "<code>bots_examples/search_bot.py</code>, in the starter kit" in html


def test_leaderboard_ranks_by_elo(client, ladder, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        response = client.get(reverse("web:leaderboard"))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [row.elo for row in rows] == sorted((row.elo for row in rows), reverse=True)
    assert next(row.rank for row in rows) == 1
    html = response.content.decode()
    assert '<svg class="sparkline' in html


def test_leaderboard_search_keeps_the_real_rank(client, ladder):
    best = Rating.objects.order_by("-elo").first()
    worst = Rating.objects.order_by("elo").first()
    response = client.get(reverse("web:leaderboard"), {"q": worst.bot.name})
    rows = response.context["rows"]
    assert [row.bot_name for row in rows] == [worst.bot.name]
    assert rows[0].rank == Rating.objects.filter(elo__gt=worst.elo).count() + 1
    assert best.bot.name not in [row.bot_name for row in rows]
    empty = client.get(reverse("web:leaderboard"), {"q": "<zzz>"}).content.decode()
    assert "No bot matches “&lt;zzz&gt;”" in empty


def test_leaderboard_sorts_and_ignores_unknown_orderings(client, ladder):
    by_name = client.get(reverse("web:leaderboard"), {"sort": "-name"}).context["rows"]
    assert [row.bot_name for row in by_name] == ["dog", "cat", "bee", "ant"]
    response = client.get(reverse("web:leaderboard"), {"sort": "elo; drop table"})
    assert response.status_code == 200
    assert response.context["ordering"] == "rank"
    html = client.get(reverse("web:leaderboard"), {"sort": "name"}).content.decode()
    assert 'aria-sort="ascending"' in html


def test_leaderboard_pages(client, db, django_assert_max_num_queries):
    from arena.web.views import leaderboard as view

    competition = match_with_seats().competition
    for i in range(view.PAGE_SIZE + 5):
        Rating.objects.create(
            bot=BotFactory(name=f"b{i:03d}"), competition=competition, elo=1000 + i, games=1
        )
    with django_assert_max_num_queries(8):
        first = client.get(reverse("web:leaderboard"))
    assert len(first.context["rows"]) == view.PAGE_SIZE
    assert "Page 1 of 2" in first.content.decode()
    second = client.get(reverse("web:leaderboard"), {"page": 2})
    assert [row.rank for row in second.context["rows"]] == list(
        range(view.PAGE_SIZE + 1, view.PAGE_SIZE + 6)
    )
    # The next-page link keeps the search and the sort.
    searched = client.get(reverse("web:leaderboard"), {"q": "b", "sort": "name"})
    assert 'href="?q=b&amp;sort=name&amp;page=2"' in searched.content.decode()


def test_unknown_competition_is_404(client, db):
    assert client.get(reverse("web:competition-leaderboard", args=["nope"])).status_code == 404


def test_bot_page_query_count_does_not_grow_with_history(
    client, ladder, django_assert_max_num_queries
):
    for i in range(6):
        played_match([ladder[0], ladder[1 + i % 3]], seed=60 + i)
    with django_assert_max_num_queries(15):
        response = client.get(reverse("web:bot-detail", args=["ant"]))
    html = response.content.decode()
    assert 'id="rating-chart"' in html
    assert len(response.context["opponents"]) == 3
    assert len(response.context["recent"]) == 8


def test_examples_are_described_by_their_docstrings(db):
    examples = example_bots()
    assert [e.name for e in examples][:3] == ["random_bot", "greedy_bot", "heuristic_bot"]
    assert all(e.blurb for e in examples)
    assert "\n" not in examples[0].blurb
