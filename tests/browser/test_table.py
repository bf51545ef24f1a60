"""A person plays a whole game against the heuristic bot in the browser: they sit
down through the form, play from their hand (the legal cards highlighted), name a
7's suit, catch a bot that did not call One Card, watch the clock, and land on the
game's replay, where their seat carries their name."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.db import connection
from django.urls import reverse
from playwright.sync_api import Error as PlaywrightError

from arena.matches.live import table_leave
from arena.matches.logs import log_decompress
from arena.matches.models import Match
from arena.play.runner import Outcome, match_run
from arena.settings.env import REPO_ROOT
from tests.arena.factories import ActiveBotVersionFactory, UserFactory
from tests.browser.screens import screenshot
from tests.support.live import live_store_clear
from tests.support.table_person import SUIT, seed_where_person_meets_both

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"  # UserFactory's
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


def example(name: str) -> None:
    source = (REPO_ROOT / "bots_examples" / f"{name}_bot.py").read_bytes()
    ActiveBotVersionFactory(bot__name=name, bot__is_example=True, source=source)


def test_a_person_plays_a_whole_game_against_the_bots_in_the_browser(site_url, page):
    live_store_clear()
    UserFactory(username="ada")
    example("heuristic")
    example("random")

    page.goto(site_url + reverse("web:login"))
    page.get_by_label("Username").fill("ada")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/my/bots/"))

    page.get_by_role("link", name="Play").click()
    page.get_by_label("Opponent 1").select_option("heuristic")
    page.get_by_label("Opponent 2").select_option("random")
    page.get_by_label("Rules").select_option("korean")
    page.get_by_role("button", name="Sit down").click()
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    assert "Waiting for a worker" in page.locator("#live-status").inner_text()

    match = Match.objects.get(kind=Match.Kind.TABLE)
    seats = list(match.seats.order_by("index"))
    person_index = next(seat.index for seat in seats if seat.is_person)
    bots = [seat.bot.name for seat in seats if not seat.is_person]
    # A deal on which this person names a 7's suit and catches a lapse (the bots
    # replay a deal exactly; tests/support/table_person.py plays it first).
    Match.objects.filter(pk=match.pk).update(
        seed=seed_where_person_meets_both(bots=bots, person_index=person_index)
    )

    outcome: list[Outcome] = []
    worker = threading.Thread(target=lambda: _play(match.pk, outcome))
    worker.start()
    named, caught, calls_offered, turns = [], 0, 0, 0
    try:
        deadline = time.monotonic() + 120
        while not re.search(r"/games/\d+/replay/", page.url):
            assert time.monotonic() < deadline, "the game did not end"
            state = _seat_state(page)
            if state == "catch":
                assert page.locator("#seat-catch").is_visible()
                page.locator("#seat-catch").click()
                caught += 1
            elif state == "turn":
                turns += 1
                assert page.locator("#seat-clock").is_visible()
                codes = page.locator("#seat-hand .card-button").evaluate_all(
                    "nodes => nodes.map(n => [n.dataset.code, !n.disabled,"
                    " n.classList.contains('card-button--legal')])"
                )
                # Legal cards are the highlighted ones, and only they can be clicked.
                assert all(enabled == lit for _, enabled, lit in codes)
                playable = [code for code, enabled, _ in codes if enabled]
                sevens = [code for code in playable if code.startswith("7")]
                if len(codes) == 2 and playable:
                    assert page.locator("#seat-call-box").is_visible()
                    calls_offered += 1  # and not called: a bot may catch the person
                if turns == 3:
                    screenshot(page, "table", full_page=False)
                    page.set_viewport_size({"width": 390, "height": 844})
                    screenshot(page, "table-phone", full_page=False)
                    page.set_viewport_size({"width": 1280, "height": 800})
                if not playable:
                    page.locator("#seat-draw").click()
                else:
                    card = (sevens or playable)[0]
                    page.locator(f"#seat-hand button[data-code='{card}']").click()
                    if card.startswith("7") and len(codes) > 1:
                        page.locator("#seat-suits").get_by_role(
                            "button", name=SUIT_NAMES[SUIT], exact=True
                        ).click()
                        named.append(card)
                page.wait_for_function(
                    "() => document.getElementById('my-seat')?.dataset.state !== 'turn'"
                    " || location.pathname.includes('/replay/')"
                )
            else:
                page.wait_for_timeout(50)
    finally:
        table_leave(match_id=match.pk)  # a failed test frees its worker at once
        worker.join(60)
    assert outcome == [Outcome.DONE]
    assert turns > 0
    assert named, "no 7's suit was named"
    assert caught, "no catch was made"

    match.refresh_from_db()
    game = match.games.get()
    assert not game.faults
    assert page.url.endswith(reverse("web:game-replay", args=[game.pk]))
    # The replay: the person's seat under their name, their 7 with its suit, the catch.
    events = page.locator("#events").inner_text()
    assert "@ada" in page.locator("#seats").inner_text()
    assert "catch" in events.lower()

    log = log_decompress(game.log_compressed)
    person_seat = game.seating.index(person_index)
    plays = [e for e in log["events"] if e.get("seat") == person_seat and e["kind"] == "play"]
    assert any(e["card"] in named and e.get("suit") == SUIT for e in plays)
    assert any(e["kind"] == "catch" and e.get("seat") == person_seat for e in log["events"])


def _seat_state(page) -> str | None:
    """The seat panel's state now, without waiting: None once the page has moved on
    to the replay (or is moving there)."""
    try:
        return page.evaluate("() => document.getElementById('my-seat')?.dataset.state || null")
    except PlaywrightError:  # the page navigated during the call
        return None


def _play(match_id: int, outcome: list[Outcome]) -> None:
    try:
        outcome.append(match_run(match_id=match_id))
    finally:
        connection.close()
