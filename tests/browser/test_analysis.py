"""An analysis asked for in Chromium: the button, its progress while a real worker
computes it on the analysis queue, then at a chosen moment what the search
prefers, each seat's biggest mistakes beside the events and the win-chance chart,
on a laptop and on a phone; and a stalled analysis the sweep brings back while the
page watches."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from arena.analysis.models import Analysis
from arena.analysis.selectors import analysis_settings
from arena.analysis.tasks import sweep_stalled_analyses
from tests.arena.analysis.games import example_log, seat_owner, stored_game
from tests.browser.screens import screenshot
from tests.browser.test_phone import OVERFLOW, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "correct-horse-battery"
# Enough playouts that the run lasts several polls of the page.
ITERATIONS = 3000

# Every state the status line shows from now on, to tell afterwards that the page
# showed the analysis running part way.
RECORD_STATUS = """() => {
  const node = document.getElementById('analysis-status');
  window.analysisStates = [];
  const note = () => window.analysisStates.push(node.dataset.state + ' ' + node.textContent.trim());
  note();
  const all = {childList: true, characterData: true, subtree: true, attributes: true};
  new MutationObserver(note).observe(node, all);
}"""
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def chip(code: str) -> str:
    """A card as the page writes it inside a sentence (cards.js)."""
    if code in ("BJ", "CJ"):
        return "\u2605 " + ("colour" if code == "CJ" else "black") + " joker"
    return code[0].replace("T", "10") + SUIT_SYMBOLS[code[1]]


def phrase(reply: dict, under_attack: bool) -> str:
    if reply["action"] == "play":
        text = "".join(chip(c) for c in reply.get("cards") or [reply["card"]])
        return text + (f" naming {SUIT_SYMBOLS[reply['suit']]}" if reply.get("suit") else "")
    if reply["action"] == "draw":
        return "taking the attack" if under_attack else "drawing"
    return {"catch": "catching", "pass": "not catching"}[reply["action"]]


def log_in(page, site_url: str, user) -> None:
    page.goto(site_url + reverse("web:login"))
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/my/bots/"))


def test_an_analysis_asked_for_in_the_browser_arrives_with_progress(
    site_url, page, chromium, celery_worker_process, settings
):
    settings.ARENA_ANALYSIS_ITERATIONS = ITERATIONS
    game = stored_game(example_log(players=3, seed=1))
    owner = seat_owner(game, 0)
    names = [seat.bot.name for seat in game.match.seats.order_by("index")]

    log_in(page, site_url, owner)
    page.goto(site_url + reverse("web:game-replay", args=[game.pk]))
    page.get_by_role("button", name="Analyse this game").click()
    page.wait_for_url(re.compile(r"#analysis$"))
    page.evaluate(RECORD_STATUS)
    page.wait_for_function(
        "document.getElementById('analysis-status').dataset.state === 'done'", timeout=180_000
    )

    analysis = Analysis.objects.get(game=game)
    total = analysis.decisions_total
    assert page.locator("#analysis-status").inner_text() == f"Done: {total} decisions analysed."
    progress = [
        (int(m[1]), int(m[2]))
        for state in page.evaluate("window.analysisStates")
        if (m := re.match(r"running Running: (\d+) of (\d+) decisions", state))
    ]
    assert any(0 < done < total for done, _ in progress), page.evaluate("window.analysisStates")
    assert not page.locator(".progress[aria-label='Analysis progress']").is_visible()

    decisions = list(analysis.decisions.order_by("number"))
    # The page holds every decision, gathered over the polls (each asks `since`).
    description = page.locator("#analysis-chart-desc").text_content()
    assert f"{total} decisions analysed" in description
    # The chart: one line per seat, a circle per marked mistake.
    assert page.locator("#win-chart polyline.analysis-line").count() == 3
    api = page.request.get(site_url + reverse("api-game-analysis", args=[game.pk])).json()
    mistakes = [d for d in api["decisions"] if d["mistake"]]
    assert page.locator("#win-chart circle.analysis-mistake").count() == len(mistakes)
    assert page.locator("#events .badge--mistake").count() == len(mistakes)

    # At a decision the search would have played otherwise, the moment says so.
    differing = next(d for d in decisions if not d.agrees and d.taken_win is not None)
    moment = differing.event + 1
    page.goto(site_url + reverse("web:game-replay", args=[game.pk]) + f"#frame={moment}")
    page.wait_for_function(f"document.getElementById('table').dataset.frame === '{moment}'")
    expected = (
        f"{names[differing.seat]}: search prefers "
        f"{phrase(differing.preferred, differing.under_attack)} "
        f"(win {round(100 * differing.taken_win)}% \u2192 {round(100 * differing.preferred_win)}%)"
    )
    assert page.locator("#analysis-verdict").inner_text().startswith(expected)
    agreeing = next(d for d in decisions if d.agrees and d.preferred_win is not None)
    page.keyboard.press("Home")
    for _ in range(agreeing.event + 1):
        page.keyboard.press("ArrowRight")
    assert (
        page.locator("#analysis-verdict")
        .inner_text()
        .startswith(f"{names[agreeing.seat]}: the search agrees with ")
    )
    # A mistake in the list leads to its moment.
    if mistakes:
        page.locator("#analysis-mistakes a").first.click()
        worst = page.locator("#analysis-mistakes a").first.get_attribute("data-frame")
        page.wait_for_function(f"document.getElementById('table').dataset.frame === '{worst}'")
        assert "mistake" in page.locator("#analysis-verdict").inner_text()
    page.locator("#analysis").scroll_into_view_if_needed()
    screenshot(page, "analysis")

    phone = chromium.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True)
    try:
        small = phone.new_page()
        small.goto(site_url + reverse("web:game-replay", args=[game.pk]) + "#analysis")
        small.wait_for_selector("#win-chart polyline")
        assert small.evaluate(OVERFLOW) == []
        screenshot(small, "analysis-phone")
    finally:
        phone.close()


def test_a_stalled_analysis_comes_back_with_the_sweep_while_the_page_watches(
    site_url, page, celery_worker_process, settings
):
    settings.ARENA_ANALYSIS_ITERATIONS = 24
    game = stored_game(example_log(players=2, seed=3))
    owner = seat_owner(game, 0)
    search = analysis_settings()
    # As a worker that died in the run left it.
    analysis = Analysis.objects.create(
        game=game,
        settings_key=search.key,
        settings=search.to_dict(),
        requested_by=owner,
        state=Analysis.State.RUNNING,
        attempts=1,
        lease_expires_at=timezone.now() - timedelta(seconds=1),
    )
    log_in(page, site_url, owner)
    page.goto(site_url + reverse("web:game-replay", args=[game.pk]) + "#analysis")
    assert page.locator("#analysis-retry-form").is_visible()
    # The page keeps polling; beat's sweep, on the analysis queue, sends it again.
    sweep_stalled_analyses.delay()
    page.wait_for_function(
        "document.getElementById('analysis-status').dataset.state === 'done'", timeout=120_000
    )
    assert not page.locator("#analysis-retry-form").is_visible()
    analysis.refresh_from_db()
    assert analysis.attempts == 2
    total = analysis.decisions_total
    assert page.locator("#analysis-status").inner_text() == f"Done: {total} decisions analysed."
