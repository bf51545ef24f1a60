"""The replay viewer against a crafted game: three seats, one that faults. Every
frame the browser shows is compared with `engine.replay_frames` of the log."""

from __future__ import annotations

import pytest
from django.urls import reverse

import engine
from arena.matches.logs import game_summary, log_compress
from arena.matches.models import Game, Match
from arena.matches.selectors import game_log
from bots_examples import builtin_bots
from tests.arena.factories import ActiveBotVersionFactory, BotFactory, match_with_seats
from tests.browser.replay_state import SHOWN_STATE, expected_state

pytestmark = pytest.mark.browser

FAULT_AT_TURN = 12


def faulting_bot(*, after_turn: int):
    """Plays like the random example, then answers nonsense: an `illegal` fault."""
    inner = builtin_bots()["random"](5)

    def bot(message):
        if message["type"] == "turn" and message["turn"] >= after_turn:
            return {"action": "nonsense"}
        return inner(message)

    return bot


@pytest.fixture
def faulted_game(transactional_db) -> Game:
    factories = builtin_bots()
    bots = [
        factories["greedy"](1),
        faulting_bot(after_turn=FAULT_AT_TURN),
        factories["heuristic"](3),
    ]
    names = ["steady", "faulty", "clever"]
    log = engine.play_game(bots, seed=11, names=names)
    log["seating"] = [0, 1, 2]
    log["stderr"] = [[], [], []]
    versions = [ActiveBotVersionFactory(bot=BotFactory(name=name)) for name in names]
    match = match_with_seats(
        versions, kind=Match.Kind.CHALLENGE, competition=None, rated=False, state="done"
    )
    summary = game_summary(log)
    return Game.objects.create(
        match=match,
        number=0,
        seating=log["seating"],
        ranks=summary.ranks,
        winner_index=summary.winner_index,
        turns=summary.turns,
        adjudicated=summary.adjudicated,
        faults=summary.faults,
        log_compressed=log_compress(log),
    )


def test_every_frame_shown_is_the_logs(site_url, faulted_game, page):
    frames = engine.replay_frames(game_log(game=faulted_game))
    assert any(frame["hands"][1] is None for frame in frames), "the seat should fault"
    page.goto(site_url + reverse("web:game-replay", args=[faulted_game.pk]))
    page.wait_for_function("document.getElementById('table').dataset.frame === '0'")
    for index, frame in enumerate(frames):
        if index:
            page.keyboard.press("ArrowRight")
        assert page.evaluate(SHOWN_STATE) == expected_state(frame), f"frame {index}"
    faulted = page.locator('.seat[data-seat="1"]')
    assert "seat--faulted" in faulted.get_attribute("class")
    assert page.locator("#events .ev-fault").inner_text().startswith("faulty faults: illegal")
    assert not page.locator("#replay-status .ev-fault").count()  # the last frame is no fault
    # The match page names the fault beside the bot.
    page.goto(site_url + reverse("web:match-detail", args=[faulted_game.match_id]))
    assert "faulty: illegal" in page.locator("#games").inner_text()
