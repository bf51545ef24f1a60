"""`onecard analyse game.json`: the search bot's verdict on every decision, as a
table, from a log on disk (the same code the platform runs)."""

from __future__ import annotations

import json

import engine
from bots_examples import builtin_bots
from sandbox.analysis import SearchSettings, biggest_mistakes, decisions_count, game_decisions
from tests.sandbox.test_cli import onecard


def test_analyse_prints_one_row_per_decision(tmp_path) -> None:
    factories = builtin_bots()
    log = engine.play_game(
        [factories["heuristic"](1), factories["random"](2)], seed=4, names=["ann", "bob"]
    )
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    done = onecard("analyse", str(path), "--iterations", "24", "--seed", "3")
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.split() == [
        "#",
        "turn",
        "seat",
        "played",
        "win",
        "search",
        "prefers",
        "win",
        "loss",
    ]
    assert len(rows) == decisions_count(log)
    decisions = list(game_decisions(log, settings=SearchSettings(iterations=24, seed=3)))
    assert {row.split()[2] for row in rows} == {"ann", "bob"}
    assert sum(row.endswith("!") for row in rows) == len(biggest_mistakes(decisions))
    agreeing = [d for d in decisions if d.agrees]
    assert sum(" = " in row for row in rows) == len(agreeing)
