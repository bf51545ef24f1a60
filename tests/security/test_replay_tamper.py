"""A game log edited to cheat is rejected by `engine.replay`, and the site serves a
stored log that fails the check with the reason instead of breaking.

The engine's own tests (tests/engine/test_replay.py) tamper with every event
kind; these make the edits a cheater would make to a log the platform stored:
claim the win, deal oneself a better hand, erase one's own fault, give oneself a
better card on a draw.
"""

from __future__ import annotations

import copy

import pytest
from rest_framework.test import APIClient

import engine
from arena.matches.logs import log_compress
from arena.matches.models import Game
from arena.matches.selectors import game_log
from tests.arena.factories import ActiveBotVersionFactory
from tests.arena.web.games import played_match

pytestmark = pytest.mark.django_db


def stored_log() -> tuple[Game, dict]:
    match = played_match([ActiveBotVersionFactory(), ActiveBotVersionFactory()], games=1, seed=11)
    game = match.games.get()
    return game, game_log(game=game)


def claim_the_win(log: dict) -> dict:
    loser = log["result"]["ranks"].index(2)
    log["result"]["winner"] = loser
    log["result"]["ranks"] = [1 if seat == loser else 2 for seat in range(log["players"])]
    return log


def deal_oneself_the_jokers(log: dict) -> dict:
    deck = log["deck"]
    for joker in ("BJ", "CJ"):
        deck.remove(joker)
        deck.insert(0, joker)  # dealt first: seat 0's hand
    return log


def erase_a_fault_or_a_move(log: dict) -> dict:
    # Informational events (skip, reverse) are derived and may be dropped; a fault
    # or a play may not.
    core = [i for i, e in enumerate(log["events"]) if e["kind"] in ("fault", "play")]
    faults = [i for i in core if log["events"][i]["kind"] == "fault"]
    del log["events"][faults[0] if faults else core[len(core) // 2]]
    return log


def draw_a_better_card(log: dict) -> dict:
    draw = next(e for e in log["events"] if e["kind"] == "draw" and e.get("cards"))
    draw["cards"] = ["CJ"] if draw["cards"] != ["CJ"] else ["BJ"]
    return log


CHEATS = [claim_the_win, deal_oneself_the_jokers, erase_a_fault_or_a_move, draw_a_better_card]


@pytest.mark.parametrize("cheat", CHEATS, ids=[c.__name__ for c in CHEATS])
def test_a_cheating_edit_is_rejected_by_the_replay(cheat):
    _, log = stored_log()
    list(engine.replay(log))  # the stored log itself is sound
    with pytest.raises(engine.ReplayError):
        list(engine.replay(cheat(copy.deepcopy(log))))


@pytest.mark.parametrize("cheat", CHEATS, ids=[c.__name__ for c in CHEATS])
def test_a_tampered_stored_log_is_served_with_the_reason_not_a_crash(cheat):
    game, log = stored_log()
    Game.objects.filter(pk=game.pk).update(log_compressed=log_compress(cheat(log)))
    api = APIClient().get(f"/api/v1/games/{game.pk}/replay/")
    assert api.status_code == 200
    assert api.json()["frames"] == []
    assert api.json()["error"]
    page = APIClient().get(f"/games/{game.pk}/replay/")
    assert page.status_code == 200
