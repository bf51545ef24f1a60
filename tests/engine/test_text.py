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


# ----------------------------------------------------------------------- roles


def test_a_play_is_told_by_the_role_of_its_card_not_its_rank():
    names = ["ann", "bob"]

    def said(event, ruleset=None):
        return describe_event({"seat": 0, "kind": "play", **event}, names, ruleset=ruleset)

    assert said({"card": "JS"}) == "ann plays JS (skips the next player)"
    assert said({"card": "8S"}, "pesten") == "ann plays 8S (skips the next player)"
    assert said({"card": "8S"}) == "ann plays 8S"
    assert said({"card": "JS", "suit": "H"}, "pesten") == "ann plays JS (wild) and names H"
    assert said({"card": "AS"}) == "ann plays AS (an attack of 5)"
    assert said({"card": "AS"}, "pesten") == "ann plays AS (reverses the direction)"
    assert said({"card": "7S"}, "pesten") == "ann plays 7S (another turn)"
    assert said({"card": "KS"}, "pesten") == "ann plays KS"
    assert said({"card": "3S"}) == "ann plays 3S"  # a shield needs an attack to stop
    assert said({"cards": ["JS", "JH"]}, "finnish") == "ann plays JS JH (skips the next 2 players)"
    assert said({"cards": ["QS", "QH"]}, "finnish") == "ann plays QS QH (the reverses cancel out)"
    assert said({"cards": ["2S", "2H"]}, "finnish") == "ann plays 2S 2H (an attack of 4)"


def test_a_game_log_opens_with_what_each_card_does():
    bots = builtin_bots()
    log = engine.play_game([bots["greedy"](0), bots["random"](1)], seed=4, ruleset="pesten")
    lines = list(render_game(log))
    assert lines[1] == (
        "  wild (always playable, names a suit): J; skip (the next player loses a turn): 8;"
        " reverse (the direction; a skip with two players): A; another turn: 7;"
        " shield (cancels an attack): none; attack: 2 = 2, BJ = 5, CJ = 5"
    )
    assert lines[4].endswith("play goes clockwise")
    plays_of_eights = [line for line in lines if "plays 8" in line]
    assert plays_of_eights
    assert all("(skips the next player)" in line for line in plays_of_eights)
    finnish = engine.play_game([bots["greedy"](0), bots["random"](1)], seed=4, ruleset="finnish")
    assert list(render_game(finnish))[4].endswith("play goes anticlockwise")


def test_a_seat_s_view_says_what_its_cards_do_under_the_ruleset():
    message = {
        "type": "turn",
        "seat": 0,
        "hands": [3, 4],
        "hand": ["JS", "8S", "4H"],
        "legal": ["JS", "8S"],
        "top": "5S",
        "suit": None,
        "attack": None,
        "direction": 1,
        "draw_pile": 30,
        "discard_pile": 17,
    }
    pesten = render_view(message, ["me", "you"], ruleset="pesten")
    assert "[1] JS (wild)  [2] 8S (skips the next player)" in pesten
    korean = render_view(message, ["me", "you"])
    assert "[1] JS (skips the next player)  [2] 8S   [0] draw" in korean
    attacked = {**message, "attack": {"total": 2, "last": 2}, "legal": []}
    assert render_view(attacked, ["me", "you"]).endswith(
        "or counter with a value >= 2, or shield with a 3\nyour hand: JS 8S 4H"
    )
    assert "shield" not in render_view(attacked, ["me", "you"], ruleset="pesten")
    shield = {**attacked, "hand": ["3S", "4H"], "legal": ["3S"]}
    assert "[1] 3S (shield)" in render_view(shield, ["me", "you"])


def test_a_person_names_a_suit_for_the_ruleset_s_wild_card():
    turn = {"type": "turn", "hand": ["JH", "7H", "9S"], "legal": ["JH", "7H"]}
    assert parse_choice(turn, "1", ruleset="pesten") is None
    assert parse_choice(turn, "1 c", ruleset="pesten")["suit"] == "C"
    assert parse_choice(turn, "2", ruleset="pesten") == {
        "action": "play",
        "card": "7H",
        "call": True,
    }
    assert parse_choice(turn, "2") is None  # the 7 is korean's wild card
    assert parse_choice(turn, "1") == {"action": "play", "card": "JH", "call": True}
