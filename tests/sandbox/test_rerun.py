"""`onecard rerun`: a logged game played again with one's own bot sends it the
logged messages byte for byte, and finds the first reply that differs."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest

import sandbox
from sandbox import cli
from sandbox.backends.local import launch_subprocess
from sandbox.rerun import log_address, rerun_game
from tests.sandbox.harness import BOTS, render

# Replies may take 300 ms: the recorder's slow turn spends from its bank, which the
# time fields then show.
LIMITS = sandbox.Limits(message_ms=300, bank_ms=5000, first_start_ms=8000)


def recorder(directory: Path, name: str, *, draw_at: int = -1) -> tuple[Path, Path]:
    """The recording bot, slow at its second turn, in a folder of its own."""
    folder = directory / name
    folder.mkdir()
    record = folder / "record.jsonl"
    bot = render(
        "stdin_recorder.py",
        folder,
        source=BOTS,
        record=str(record),
        draw_at=str(draw_at),
        slow_at="2",
    )
    return bot, record


def lines_of_game(record: Path, game: int) -> list[bytes]:
    """The lines a bot read during game `game` of its process's match."""
    lines = record.read_bytes().splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "start"]
    numbers = [json.loads(lines[i])["game"] for i in starts]
    begin = starts[numbers.index(game)]
    later = [i for i in starts if i > begin]
    return lines[begin : later[0] if later else len(lines)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A 'server' match of 3 games: the recorder against two sound bots."""
    directory = tmp_path_factory.mktemp("server")
    bot, record = recorder(directory, "mine")
    result = sandbox.run_match(
        [
            sandbox.BotProgram("mine", bot),
            sandbox.BotProgram("sound", BOTS / "first_legal.py"),
            sandbox.BotProgram("other", BOTS / "first_legal.py"),
        ],
        games=3,
        seed=9,
        backend="subprocess",
        limits=LIMITS,
        allow_unsandboxed=True,
    )
    logs = [json.loads(json.dumps(log)) for log in result.games]
    return {"logs": logs, "record": record}


def seat_of_mine(log: dict[str, Any]) -> int:
    return int(log["seating"].index(0))


def rerun(log: dict[str, Any], bot: Path, **kwargs: Any):
    program = sandbox.BotProgram(bot.parent.name, bot)
    return rerun_game(
        log, seat=seat_of_mine(log), launch=partial(launch_subprocess, program), **kwargs
    )


@pytest.mark.parametrize("game", [0, 2])
def test_a_rerun_sends_the_logged_messages_byte_for_byte(server, game, tmp_path):
    log = server["logs"][game]
    on_server = lines_of_game(server["record"], game)
    bot, record = recorder(tmp_path, "again")
    report = rerun(log, bot)
    assert report.deviation is None
    assert report.clock_logged
    assert record.read_bytes().splitlines(keepends=True) == on_server
    assert report.same == report.messages == report.logged_messages == len(on_server)
    assert report.result == log["result"]
    banks = {json.loads(line).get("bank_ms") for line in on_server}
    assert len(banks - {0}) > 1  # the bank was spent: the logged values, not defaults


def test_a_changed_bot_is_told_the_first_turn_it_answers_otherwise(server, tmp_path):
    log = server["logs"][1]
    on_server = lines_of_game(server["record"], 1)
    bot, record = recorder(tmp_path, "changed", draw_at=2)
    report = rerun(log, bot)
    deviation = report.deviation
    assert deviation is not None
    second_turn = [json.loads(line) for line in on_server if b'"type":"turn"' in line][1]
    assert deviation.turn == second_turn["turn"]
    assert deviation.logged.startswith("played ")
    assert deviation.local == "drew"
    assert f"turn {second_turn['turn'] + 1}" in deviation.sentence()
    # Up to the deviation the bot read exactly what it read on the server.
    here = record.read_bytes().splitlines(keepends=True)
    assert here[: deviation.message + 1] == on_server[: deviation.message + 1]
    assert report.same == deviation.message + 1
    assert report.result["ranks"]  # the game was played out with the built-in bots


def test_a_log_without_time_fields_still_reruns(server, tmp_path):
    log = json.loads(json.dumps(server["logs"][0]))
    for timing in log["timing"]:
        del timing["clock"]
    bot, _ = recorder(tmp_path, "old")
    report = rerun(log, bot)
    assert not report.clock_logged
    assert report.deviation is None


def test_the_command_reports_same_and_changed(server, tmp_path, capsys):
    path = tmp_path / "game.json"
    log = server["logs"][0]
    path.write_text(json.dumps(log))
    seat = str(seat_of_mine(log))
    bot, _ = recorder(tmp_path, "same")
    assert cli.main(["rerun", str(path), "--bot", str(bot), "--seat", seat]) == 0
    assert "same game: your bot received the" in capsys.readouterr().out
    changed, _ = recorder(tmp_path, "changed", draw_at=1)
    assert cli.main(["rerun", str(path), "--bot", str(changed), "--seat", seat]) == 1
    out = capsys.readouterr().out
    assert "At turn" in out
    assert "the opponents are the built-in heuristic bot" in out


def test_the_command_says_what_is_wrong(tmp_path, capsys):
    bot, _ = recorder(tmp_path, "x")
    assert cli.main(["rerun", str(tmp_path / "missing.json"), "--bot", str(bot)]) == 2
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "log.json").write_text(
        '{"format": "onecard-replay/1", "players": 2, "names": ["a", "b"]}'
    )
    assert cli.main(["rerun", str(tmp_path / "log.json"), "--bot", str(bot)]) == 2
    assert "--seat N (seats: 0 a, 1 b)" in capsys.readouterr().err


def test_site_addresses_map_to_the_log_api():
    assert log_address("https://h/matches/3/games/1/") == "https://h/api/v1/matches/3/games/1/log/"
    assert log_address("https://h/games/5/log.json") == "https://h/api/v1/games/5/log/"
    assert (
        log_address("https://h/my/versions/4/qualification/0/#frame=3")
        == "https://h/api/v1/versions/4/qualification/0/log/"
    )
    with pytest.raises(Exception, match="not the address of a game"):
        log_address("https://h/leaderboard/")
