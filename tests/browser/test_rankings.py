"""Rank bands on the leaderboard and a promotion test followed live on a version
page, in Chromium against the live server."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.matches.models import Match
from arena.matches.promotions import promotion_start
from arena.play import leases
from arena.play.results import match_record_result
from tests.arena.factories import (
    ActiveBotVersionFactory,
    UserFactory,
    default_competition,
    game_log_for,
    rate_game,
)
from tests.arena.ratings.factories import finished_match

from .screens import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "correct-horse-battery"


def _ladder_with_two_groups(competition) -> dict[str, BotVersion]:
    """Two strong bots that beat two weak ones, and play each other evenly: the
    strong pair shares band 1-2, the weak pair 3-4."""
    bots = {
        name: ActiveBotVersionFactory(bot__name=name) for name in ("ace", "deuce", "trey", "four")
    }
    tables = [
        (("ace", "deuce"), [[1, 2], [2, 1]] * 6),
        (("trey", "four"), [[1, 2], [2, 1]] * 6),
        (("ace", "trey"), [[1, 2]] * 20),
        (("ace", "four"), [[1, 2]] * 20),
        (("deuce", "trey"), [[1, 2]] * 20),
        (("deuce", "four"), [[1, 2]] * 20),
    ]
    for (first, second), ranks in tables:
        match = finished_match(
            versions=[bots[first], bots[second]], game_ranks=ranks, competition=competition
        )
        for game in match.games.order_by("number"):
            rate_game(game)
    return bots


def _record_promotion_match(candidate_wins: bool) -> None:
    match = Match.objects.filter(kind=Match.Kind.PROMOTION, state=Match.State.QUEUED).get()
    claim = leases.match_claim(match_id=match.pk, token=leases.worker_token())
    ranks = [1, 2] if candidate_wins else [2, 1]
    logs = [game_log_for(ranks_by_index=ranks) for _ in range(match.games_planned)]
    assert match_record_result(claim=claim, games=logs, backend="test") is not None


def test_bands_and_a_promotion_test_in_the_browser(site_url, page):
    competition = default_competition()
    assert competition.rating_system == "plackett_luce"
    _ladder_with_two_groups(competition)

    page.goto(site_url + reverse("web:leaderboard"))
    rows = page.locator("#leaderboard tbody tr")
    ranks = dict(
        zip(
            rows.locator("td:nth-child(2) a").all_inner_texts(),
            rows.locator("td.rank").all_inner_texts(),
            strict=True,
        )
    )
    assert {ranks["ace"].split()[-1], ranks["deuce"].split()[-1]} == {"1\u20132"}
    assert {ranks["trey"].split()[-1], ranks["four"].split()[-1]} == {"3\u20134"}
    screenshot(page, "leaderboard-bands", full_page=False)

    page.goto(site_url + reverse("web:bot-detail", args=["trey"]))
    separation = page.locator("section[aria-labelledby=separation-heading]")
    assert separation.get_by_role("link", name="four").count() == 1
    assert separation.get_by_role("link", name="ace").count() == 0

    # A new version of a bot tests against its active one; its owner watches.
    owner = UserFactory(username="tester")
    incumbent = ActiveBotVersionFactory(bot__owner=owner, bot__name="climber")
    candidate = ActiveBotVersionFactory(bot=incumbent.bot, status=BotVersion.Status.TESTING)
    promotion_start(candidate=candidate, competition=competition)
    _record_promotion_match(candidate_wins=True)

    page.goto(site_url + reverse("web:login"))
    page.get_by_label("Username").fill("tester")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/(my/)?"))
    page.goto(site_url + reverse("web:version-detail", args=[candidate.pk]))
    assert page.locator("#promotion-state").inner_text() == "Running"
    assert page.locator("#promotion-games").inner_text() == "16 games"
    meter = page.get_by_role("meter", name="Log-likelihood ratio")
    assert float(meter.get_attribute("aria-valuenow")) > 0
    assert "Estimated lead over v" in page.locator("#promotion-estimate").inner_text()
    screenshot(page, "version-promotion")

    # The next pairs arrive while the page is open: it follows them by itself.
    _record_promotion_match(candidate_wins=True)
    page.wait_for_function(
        "document.querySelector('#promotion-games').innerText === '32 games'", timeout=30_000
    )
    assert page.locator("#promotion-state").inner_text() in {"Running", "Promoted"}
