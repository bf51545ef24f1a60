"""engine.bot (the bot's side of the protocol) and the example bots."""

from __future__ import annotations

import doctest
import io
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bots_examples
import engine
from bots_examples import (
    builtin_bots,
    greedy_bot,
    heuristic_bot,
    random_bot,
    search_bot,
    search_ismcts,
)
from engine.bot import attack_value, legal_plays, longest_suit, rank, run, suit
from engine.cards import CODES
from tests.support.benchmark_scripts import benchmark_script

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "bots_examples"
BOT_FILES = ["random_bot.py", "greedy_bot.py", "heuristic_bot.py"]


def test_run_answers_each_line_and_stops_at_eof():
    stdin = io.StringIO('{"type": "start"}\n\n{"type": "turn", "n": 2}\n')
    stdout = io.StringIO()
    seen = []

    def decide(message):
        seen.append(message)
        return None if message["type"] == "start" else {"action": "draw"}

    run(decide, stdin=stdin, stdout=stdout)
    assert [m["type"] for m in seen] == ["start", "turn"]
    assert stdout.getvalue().splitlines() == ["{}", '{"action": "draw"}']


def test_card_helpers():
    assert [attack_value(c) for c in ("2C", "AH", "AS", "BJ", "CJ", "3S", "7H")] == [
        2,
        3,
        5,
        7,
        10,
        0,
        0,
    ]
    classic = engine.PRESETS["classic"].to_dict()
    assert attack_value("CJ", classic) == 13
    assert rank("TD") == "T"
    assert rank("BJ") == "BJ"
    assert suit("TD") == "D"
    assert suit("CJ") is None
    assert longest_suit(["7H", "4S", "5S", "9H"], besides="7H") == "S"


def test_legal_plays_agrees_with_the_turn_message():
    checked = 0

    def bot(message):
        nonlocal checked
        if message["type"] == "turn":
            computed = legal_plays(
                message["hand"],
                top=message["top"],
                suit=message["suit"],
                attack=message["attack"],
            )
            assert computed == message["legal"]
            checked += 1
        return player(message)

    player = builtin_bots()["random"](5)
    for seed in range(5):
        engine.play_game([bot, bot, bot], seed=seed, ruleset=engine.PRESETS["mirror"])
    assert checked > 50


def test_the_examples_docstrings_run():
    result = doctest.testmod(bots_examples)
    assert result.failed == 0
    assert result.attempted >= 3
    for module in (greedy_bot, heuristic_bot, random_bot, search_bot, search_ismcts):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("module", [greedy_bot, heuristic_bot], ids=lambda m: m.__name__)
def test_the_examples_card_helpers_agree_with_the_engine(module):
    # Each example carries its own few card helpers so that it runs alone; these
    # are the engine's answers for every card under every preset.
    rulesets = [None, *(preset.to_dict() for preset in engine.PRESETS.values())]
    for code in CODES:
        for ruleset in rulesets:
            assert module.attack_value(code, ruleset) == attack_value(code, ruleset), code
        assert module.suit(code) == suit(code)
        if hasattr(module, "rank"):
            assert module.rank(code) == rank(code)
    deal = random.Random(7)
    for _ in range(500):
        hand = deal.sample(CODES, deal.randint(1, 8))
        besides = deal.choice([None, *hand])
        assert module.longest_suit(hand, besides=besides) == longest_suit(hand, besides=besides)


def test_builtin_bots_are_named_factories():
    bots = builtin_bots()
    assert sorted(bots) == ["greedy", "heuristic", "random", "search"]
    log = engine.play_game([bots["heuristic"](1), bots["greedy"](2), bots["random"](3)], seed=4)
    assert log["result"]["faults"] == []


class ProcessBot:
    """A bot file run as a process, answering one JSON line per message."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __call__(self, message: dict[str, Any]) -> Any:
        assert self.process.stdin
        assert self.process.stdout
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> int:
        assert self.process.stdin
        self.process.stdin.close()
        return self.process.wait(timeout=10)


@pytest.mark.parametrize("name", BOT_FILES)
def test_example_bots_play_whole_games_as_processes(name):
    bot = ProcessBot([sys.executable, "-I", "-S", str(EXAMPLES / name)], cwd=REPO)
    try:
        for game in range(2):
            log = engine.play_game([bot, builtin_bots()["random"](game)], seed=game, game=game)
            assert log["result"]["faults"] == []
    finally:
        assert bot.close() == 0


@pytest.mark.parametrize("name", BOT_FILES)
def test_example_bots_run_alone_as_main_with_engine_on_the_path(name, tmp_path):
    shutil.copy(EXAMPLES / name, tmp_path / "main.py")
    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}
    bot = ProcessBot([sys.executable, "main.py"], cwd=tmp_path, env=env)
    try:
        log = engine.play_game([builtin_bots()["greedy"](0), bot], seed=3)
        assert log["result"]["faults"] == []
    finally:
        assert bot.close() == 0


@pytest.mark.parametrize("name", BOT_FILES)
def test_example_bots_run_alone_on_the_standard_library(name, tmp_path):
    # The interpreter behind the venv, without site-packages: nothing of ours
    # (the editable install included) can be imported.
    shutil.copy(EXAMPLES / name, tmp_path / name)
    python = getattr(sys, "_base_executable", sys.executable)
    bot = ProcessBot([python, "-I", "-S", name], cwd=tmp_path, env={})
    try:
        log = engine.play_game([bot, builtin_bots()["greedy"](0)], seed=5)
        assert log["result"]["faults"] == []
    finally:
        assert bot.close() == 0


def test_the_random_bot_plays_a_deal_the_same_way_every_time():
    # So a match against it replays from its seed alone (and benchmarks/arena_platform.py
    # plays the very same games on both of its paths).
    def play(seed: int) -> list:
        bot = ProcessBot([sys.executable, "-I", "-S", str(EXAMPLES / "random_bot.py")], cwd=REPO)
        try:
            return [
                engine.play_game([bot, builtin_bots()["greedy"](0)], seed=seed, game=game)["events"]
                for game in range(2)
            ]
        finally:
            bot.close()

    first = play(11)
    assert play(11) == first
    assert play(12) != first


def win_rate(hero: str, rival: str, games: int) -> float:
    # The function `benchmarks/engine_speed.py --bots 1000` reports the win rates with, so
    # the test and the benchmark measure the same thing.
    with benchmark_script("engine_speed") as engine_speed:
        return engine_speed.win_rate(hero, rival, games)[0]


# The strength the example bots must show, over 1000 two-player games (about a
# second each).
def test_heuristic_beats_random_in_three_games_of_four():
    assert win_rate("heuristic", "random", 1000) >= 0.75


def test_heuristic_beats_greedy_more_often_than_not():
    assert win_rate("heuristic", "greedy", 1000) >= 0.55
