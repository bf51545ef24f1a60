"""The leaderboard page searches as the API does, and times read "just now"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from arena.ratings.models import Rating
from arena.web.templatetags.arena_time import ago
from tests.arena.factories import ActiveBotVersionFactory, BotFactory
from tests.arena.web.games import played_match


@pytest.fixture
def rated(default_ladder):
    for elo, name in enumerate(["ant", "antelope", "bee"]):
        Rating.objects.create(
            bot=BotFactory(name=name), competition=default_ladder, elo=1500 + elo, games=1
        )
    return default_ladder


def test_the_leaderboard_takes_search_like_the_api(client, rated):
    page = client.get(reverse("web:leaderboard"), {"search": "ant"})
    shown = [row.bot_name for row in page.context["rows"]]
    api = APIClient().get(f"/api/v1/competitions/{rated.slug}/leaderboard/", {"search": "ant"})
    assert (
        sorted(shown)
        == sorted(row["bot"] for row in api.json()["results"])
        == [
            "ant",
            "antelope",
        ]
    )
    html = page.content.decode()
    assert 'name="search" value="ant"' in html
    assert 'href="?search=ant&amp;sort=name"' in html  # sorting keeps the search
    # The old parameter still works for links made before.
    old = client.get(reverse("web:leaderboard"), {"q": "bee"})
    assert [row.bot_name for row in old.context["rows"]] == ["bee"]


def test_moments_within_the_last_minute_are_just_now():
    now = timezone.now()
    assert ago(now) == "just now"
    assert ago(now - timedelta(seconds=59)) == "just now"
    assert ago(now + timedelta(seconds=5)) == "just now"  # another server's clock
    assert (
        ago(now - timedelta(minutes=5, seconds=3)) == "5\xa0minutes ago"
    )  # as timesince spaces it
    assert ago(None) == ""


def test_a_match_that_just_finished_says_so(client, db):
    played_match([ActiveBotVersionFactory(), ActiveBotVersionFactory()], games=1)
    html = client.get(reverse("web:home")).content.decode()
    assert "just now" in html
    assert "0\xa0minutes" not in html
