"""The `onecard` command, run as a person would run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bots_examples import builtin_bots
from sandbox.cli import main, terminal_seat, wilson_interval
from tests.sandbox.harness import FIRST_LEGAL

REPO_ROOT = Path(__file__).resolve().parents[2]


def onecard(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sandbox.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
        check=False,
    )


def test_match_of_built_ins_prints_the_table() -> None:
    done = onecard("match", "random", "greedy", "--games", "6", "--seed", "1")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split()[:4] == ["bot", "games", "wins", "win"]
    assert [line.split()[:2] for line in lines[1:3]] == [["random", "6"], ["greedy", "6"]]
    wins = sum(int(line.split()[2]) for line in lines[1:3])
    assert wins == 6
    assert lines[3].startswith("mean game length:")
    assert "6/6 games" in done.stderr  # the progress bar


def test_match_with_a_bot_file_saves_replays_that_replay(tmp_path: Path) -> None:
    done = onecard(
        "match", str(FIRST_LEGAL), "heuristic", "--games", "2", "--replays", str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert "NOT isolated" in done.stderr
    assert "first_legal" in done.stdout
    logs = sorted(tmp_path.glob("game-*.json"))
    assert [log.name for log in logs] == ["game-0001.json", "game-0002.json"]
    assert json.loads(logs[1].read_text())["seating"] == [1, 0]
    shown = onecard("replay", str(logs[0]))
    assert shown.returncode == 0, shown.stderr
    assert "wins" in shown.stdout
    assert "first_legal" in shown.stdout.splitlines()[0]


def test_replay_of_a_corrupt_file_fails_cleanly(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "onecard-replay/1"}')
    done = onecard("replay", str(broken))
    assert done.returncode == 2
    assert "cannot replay" in done.stderr


def test_a_person_can_play_a_game_to_the_end() -> None:
    # Always draw, never catch: every prompt takes the first answer that fits it.
    done = onecard("play", "--against", "random", "--seed", "5", stdin="0\nn\n" * 3000)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "your hand:" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("2. ")


def test_a_person_plays_by_the_roles_of_the_game_s_ruleset(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Under pesten the J is wild (it needs a suit) and the 8 skips.
    answers = iter(["1", "1 h"])
    person = terminal_seat(["you", "bot"], read=lambda prompt: next(answers))
    pesten = engine.PRESETS["pesten"].to_dict()
    person({"type": "start", "seat": 0, "top": "5S", "ruleset": pesten})
    turn = {
        "type": "turn",
        "seat": 0,
        "turn": 2,
        "hand": ["JS", "8S", "4H"],
        "top": "8D",
        "suit": None,
        "attack": None,
        "direction": 1,
        "hands": [3, 6],
        "draw_pile": 37,
        "discard_pile": 8,
        "legal": ["JS", "8S"],
        "events": [{"seat": 1, "kind": "play", "card": "8D"}],
    }
    assert person(turn) == {"action": "play", "card": "JS", "call": True, "suit": "H"}
    shown = capsys.readouterr().out
    assert "bot plays 8D (skips the next player)" in shown
    assert "[1] JS (wild)  [2] 8S (skips the next player)" in shown
    assert "not a move here" in shown  # the J without a suit was asked again


def test_bad_arguments_are_refused() -> None:
    assert onecard("match", "random").returncode == 2
    assert onecard("match", "random", "no-such-bot.py").returncode == 2
    assert onecard("play", "--against", "nobody").returncode == 2
    for games in ("0", "-3", "many"):
        refused = onecard("match", "random", "greedy", "--games", games)
        assert refused.returncode == 2
        assert "argument --games" in refused.stderr, refused.stderr


def test_the_table_size_is_the_engines(capsys: pytest.CaptureFixture[str]) -> None:
    for count in (engine.MIN_PLAYERS - 1, engine.MAX_PLAYERS + 1):
        assert main(["match", *["random"] * count, "--games", "1"]) == 2
        refused = capsys.readouterr().err
        assert f"{engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} bots" in refused
    assert main(["match", *["random"] * engine.MAX_PLAYERS, "--games", "1"]) == 0
    assert "random#8" in capsys.readouterr().out


def test_wilson_interval_is_sane() -> None:
    low, high = wilson_interval(0, 10)
    assert low == 0.0
    assert 0.2 < high < 0.35
    assert wilson_interval(0, 0) == (0.0, 1.0)


def bare_onecard(*args: str) -> subprocess.CompletedProcess[str]:
    """`python3 -m onecard` on the interpreter behind the venv with no site-packages
    (no docker, no Django, no install of ours), the repository on the path alone,
    printing the modules it imported from outside the standard library."""
    code = (
        "import sys, runpy; sys.path.insert(0, '.'); sys.argv = ['onecard', *sys.argv[1:]]\n"
        "try:\n"
        "    runpy.run_module('onecard', run_name='__main__')\n"
        "finally:\n"
        "    print(sorted({m.split('.')[0] for m in sys.modules}"
        " - set(sys.stdlib_module_names) - {'__main__'}), file=sys.stderr)\n"
    )
    python = getattr(sys, "_base_executable", sys.executable)
    return subprocess.run(
        [python, "-I", "-S", "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO_ROOT,
        env={},
        check=False,
    )


def test_python_m_onecard_plays_a_bot_file_on_the_standard_library_alone() -> None:
    done = bare_onecard("match", str(FIRST_LEGAL), "greedy", "--games", "2")
    assert done.returncode == 0, done.stderr
    assert [line.split()[:2] for line in done.stdout.splitlines()[1:3]] == [
        ["first_legal", "2"],
        ["greedy", "2"],
    ]
    imported = done.stderr.strip().splitlines()[-1]
    assert imported == "['bots_examples', 'engine', 'onecard', 'sandbox']"


def test_without_the_docker_package_docker_is_refused_and_auto_falls_back() -> None:
    refused = bare_onecard(
        "match", str(FIRST_LEGAL), "greedy", "--games", "1", "--backend", "docker"
    )
    assert refused.returncode == 2
    assert "the docker backend needs the Python package docker" in refused.stderr
    fallback = bare_onecard(
        "match", str(FIRST_LEGAL), "greedy", "--games", "1", "--backend", "auto"
    )
    assert fallback.returncode == 0, fallback.stderr


def test_the_commands_backends_are_the_sandboxes() -> None:
    from sandbox.backends.select import BACKENDS as SELECTABLE
    from sandbox.cli import BACKENDS

    assert BACKENDS == SELECTABLE


def test_analyse_keeps_to_one_seat_when_asked(tmp_path: Path) -> None:
    log = engine.play_game(
        [builtin_bots()["heuristic"](1), builtin_bots()["random"](2)], seed=4, names=["h", "r"]
    )
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    every = onecard("analyse", str(path), "--iterations", "30")
    one = onecard("analyse", str(path), "--seat", "1", "--iterations", "30")
    assert every.returncode == one.returncode == 0, every.stderr + one.stderr
    header, *rows = every.stdout.splitlines()
    seat_column = header.split().index("seat")
    mine = [row for row in rows if row.split()[seat_column] == "r"]
    assert 0 < len(mine) < len(rows)
    assert [row.split()[1:] for row in one.stdout.splitlines()[1:]] == [
        row.split()[1:] for row in mine
    ]


def test_analyse_refuses_a_log_that_does_not_replay(tmp_path: Path) -> None:
    log = engine.play_game([builtin_bots()["random"](1), builtin_bots()["random"](2)], seed=4)
    first_play = next(e for e in log["events"] if e["kind"] == "play")
    first_play["card"] = "XX"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    done = onecard("analyse", str(path), "--seat", "0")
    assert done.returncode == 2
    assert done.stderr.startswith(f"onecard: cannot analyse {path}: ")
    assert done.stdout == ""
