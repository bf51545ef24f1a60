"""The replay viewer in the browser tells a pesten game's cards by their roles."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.arena.web.test_replay_roles import stored_game

pytestmark = pytest.mark.browser


def test_the_event_list_says_what_each_play_did_under_pesten(site_url, page):
    game = stored_game(ruleset="pesten", seed=2)
    page.goto(site_url + reverse("web:game-replay", args=[game.pk]))
    page.wait_for_function("document.getElementById('table').dataset.frame === '0'")
    eights = page.locator("#events li", has=page.locator('.card-inline[data-code^="8"]'))
    assert eights.count()
    for text in eights.all_inner_texts():
        if " plays " in text:
            assert "(skips the next player)" in text
    jacks = page.locator("#events li", has=page.locator('.card-inline[data-code^="J"]'))
    assert any("(wild) and names" in text for text in jacks.all_inner_texts())
    legend = page.locator("#ruleset-legend").inner_text()
    assert "What the cards do (pesten)" in legend
    assert "skip (the next player loses a turn): 8" in legend
