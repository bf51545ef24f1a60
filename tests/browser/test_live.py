"""Watching a ladder match live in the browser: moves arrive while it is played,
the owner's view shows their bot's hand and hides the other, and the page turns
into the full replay when the match is over."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from django.urls import reverse

from arena.matches.models import Match
from arena.play.runner import Outcome, match_run
from tests.arena.factories import (
    ActiveBotVersionFactory,
    UserFactory,
    default_competition,
    match_with_seats,
)
from tests.arena.replays.test_live_stream import SLOW_BOT
from tests.support.live import live_store_clear

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"  # UserFactory's


def test_a_ladder_match_watched_live_then_replayed_whole(site_url, page):
    live_store_clear()
    owner = UserFactory(username="watcher")
    slower = SLOW_BOT.replace(b"time.sleep(0.01)", b"time.sleep(0.03)")
    mine = ActiveBotVersionFactory(bot__owner=owner, bot__name="mine", source=slower)
    theirs = ActiveBotVersionFactory(bot__name="theirs", source=slower)
    match = match_with_seats(
        [mine, theirs], rated=True, competition=default_competition(), games_planned=2
    )
    assert match.kind == Match.Kind.LADDER

    page.goto(site_url + reverse("web:login"))
    page.get_by_label("Username").fill("watcher")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/my/bots/"))
    page.goto(site_url + reverse("web:match-live", args=[match.pk]))
    assert "Waiting for a worker" in page.locator("#live-status").inner_text()

    outcome: list[Outcome] = []
    ended = threading.Event()

    def play() -> None:
        try:
            outcome.append(match_run(match_id=match.pk))
        finally:
            ended.set()
            connection.close()

    worker = threading.Thread(target=play)
    worker.start()
    try:
        page.wait_for_selector("#seats [data-hand]")
        first = int(page.locator("#table").get_attribute("data-frame"))
        # One look at the table while a game is on (a finished game is shown whole).
        table = page.wait_for_function(
            """first => {
              const table = document.getElementById("table");
              const toAct = document.getElementById("state-to-act").dataset.seat;
              if (Number(table.dataset.frame) <= first + 5 || toAct === "") return null;
              const seats = [...document.querySelectorAll("#seats .seat")];
              return seats.map(seat => ({
                name: seat.querySelector(".seat__name").textContent,
                codes: seat.querySelector("[data-hand]").dataset.codes,
                count: Number(seat.querySelector("[data-hand]").dataset.count),
              }));
            }""",
            arg=first,
        ).json_value()
        assert not ended.is_set(), "the moves came only after the match"
        # The viewer follows the play; the owner sees their bot's hand, not the other.
        by_name = {seat["name"]: seat for seat in table}
        assert by_name["mine"]["codes"]
        assert by_name["theirs"]["codes"] == ""
        assert by_name["theirs"]["count"] > 0
        assert page.locator("#jump-live").get_attribute("aria-pressed") == "true"
        # Stepping back leaves the live edge; "Live" goes back to it.
        page.locator("#back").click()
        assert page.locator("#jump-live").get_attribute("aria-pressed") == "false"
        page.locator("#jump-live").click()
        assert page.locator("#jump-live").get_attribute("aria-pressed") == "true"

        page.wait_for_url(re.compile(r"/games/\d+/replay/"), timeout=60_000)
    finally:
        worker.join(60)
    assert outcome == [Outcome.DONE]
    match.refresh_from_db()
    last = match.games.order_by("number").last()
    assert page.url.endswith(reverse("web:game-replay", args=[last.pk]))
    # The full replay: every hand face up.
    page.locator("#last").click()
    page.locator("#first").click()
    codes = page.locator("#seats [data-hand]").evaluate_all(
        "nodes => nodes.map(n => n.dataset.codes)"
    )
    assert all(codes)
