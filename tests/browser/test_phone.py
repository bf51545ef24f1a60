"""On a phone (390 px wide) the match page and the leaderboard fit the screen: the
page does not scroll sideways, and neither do their tables."""

from __future__ import annotations

import pytest
from django.urls import reverse

from arena.matches.models import Competition, Match
from tests.arena.factories import KOREAN, ActiveBotVersionFactory, BotFactory, UserFactory
from tests.arena.web.games import played_match
from tests.browser.screens import screenshot

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
# The page wider than the screen, and every box in it that scrolls sideways.
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const found = [];
  if (document.documentElement.scrollWidth > width) {
    found.push(`page ${document.documentElement.scrollWidth} > ${width}`);
  }
  for (const element of document.querySelectorAll('main *')) {
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
    if (scrolls && element.scrollWidth > element.clientWidth + 1) {
      const name = `${element.tagName}.${element.className}`;
      found.push(`${name} ${element.scrollWidth} > ${element.clientWidth}`);
    }
  }
  return found;
}"""


@pytest.fixture
def played(site_url):
    """Two long-named bots of two owners with a played, rated 3-game match."""
    competition, _ = Competition.objects.get_or_create(
        slug="korean-2",
        defaults={"name": "Korean, 2 seats", "ruleset": KOREAN, "seats": 2, "is_default": True},
    )
    versions = [
        ActiveBotVersionFactory(
            bot=BotFactory(owner=UserFactory(username=owner), name=name, description="")
        )
        for owner, name in (
            ("a-rather-long-username", "heuristic-with-a-long-name"),
            ("another-player", "greedy-bot-v2"),
        )
    ]
    match = played_match(versions, games=3, competition=competition)
    return site_url, match


def test_the_match_page_and_the_leaderboard_fit_a_phone(chromium, played):
    base, match = played
    assert match.state == Match.State.DONE
    context = chromium.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(base + reverse("web:match-detail", args=[match.pk]))
        assert page.locator("#games tbody tr").count() == 3
        screenshot(page, "match-phone")
        assert page.evaluate(OVERFLOW) == []
        page.goto(base + reverse("web:leaderboard"))
        assert page.locator("#leaderboard tbody tr").count() == 2
        screenshot(page, "leaderboard-phone")
        assert page.evaluate(OVERFLOW) == []
    finally:
        context.close()
