"""engine.text: a log told turn by turn, and a seat's view for a person."""

from __future__ import annotations

import engine
from bots_examples import builtin_bots
from engine.text import describe_event, parse_choice, render_game, render_view


def test_render_game_tells_every_event_and_the_result():
    bots = builtin_bots()
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


def test_parse_choice_reads_a_person_s_answer():
    turn = {"type": "turn", "hand": ["7H", "4S", "9S"], "legal": ["7H", "4S"]}
    assert parse_choice(turn, "2") == {"action": "play", "card": "4S", "call": True}
    assert parse_choice(turn, " 4s ") == {"action": "play", "card": "4S", "call": True}
    assert parse_choice(turn, "7H c") == {
        "action": "play",
        "card": "7H",
        "call": True,
        "suit": "C",
    }
    assert parse_choice(turn, "d") == {"action": "draw"}
    for nonsense in ("", "3", "9S", "7H", "7H X", "-1", "banana"):
        assert parse_choice(turn, nonsense) is None
    last_seven = {"type": "turn", "hand": ["7H"], "legal": ["7H"]}
    assert parse_choice(last_seven, "1") == {"action": "play", "card": "7H", "call": True}
    catch = {"type": "catch"}
    assert parse_choice(catch, "y") == {"action": "catch"}
    assert parse_choice(catch, "") == {"action": "pass"}
    assert parse_choice(catch, "maybe") is None


def test_a_person_typing_answers_plays_a_whole_game():
    def person(message):
        if message["type"] == "turn":
            reply = parse_choice(message, "1 s" if message["legal"] else "d")
            assert reply is not None
            return reply
        if message["type"] == "catch":
            return parse_choice(message, "y")
        return {}

    log = engine.play_game([person, builtin_bots()["greedy"](0)], seed=12)
    assert log["result"]["faults"] == []
