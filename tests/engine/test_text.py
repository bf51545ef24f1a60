"""engine.text: a log told turn by turn, and a seat's view for a person."""

from __future__ import annotations

import engine
from engine.text import describe_event, render_game, render_view


def test_render_game_tells_every_event_and_the_result():
    bots = engine.builtin_bots()
    log = engine.play_game([bots["heuristic"](0), bots["random"](1)], seed=8, names=["h", "r"])
    lines = list(render_game(log))
    assert lines[0].startswith("2 players (h, r)")
    assert sum(line.startswith("[turn") for line in lines) == len(log["events"])
    winner = log["names"][log["result"]["winner"]]
    assert f"{winner} wins" in lines
    assert lines[-2].startswith("  1. ")


def test_describe_event_covers_every_kind():
    names = ["ann", "bob"]
    said = {
        kind: describe_event({"seat": 0, "kind": kind, "target": 1, "count": 2}, names)
        for kind in ("draw", "take", "call", "catch", "pass", "skip", "reverse", "fault")
    }
    assert said["catch"] == "ann catches bob, who draws 2"
    assert said["call"] == "ann calls One Card!"
    assert describe_event({"kind": "reshuffle", "count": 30}, names).endswith("30")
    assert describe_event({"seat": 1, "kind": "shield", "card": "3S"}, names) == (
        "bob shields with 3S"
    )


def test_render_view_numbers_the_legal_cards_and_shows_an_attack():
    state = engine.GameState.new(2, seed=1)
    message = state.observation(0)
    assert message["legal"]
    view = render_view(message, ["me", "you"])
    assert "me (you)" in view
    assert "[0] draw" in view
    for number, code in enumerate(message["legal"], 1):
        assert f"[{number}] {code}" in view
    message["attack"] = {"total": 5, "last": 5}
    assert "ATTACK on you: draw 5" in render_view(message, ["me", "you"])
