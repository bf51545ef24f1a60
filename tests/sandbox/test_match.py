"""run_match on the subprocess backend (fast; the test bots are ours): time, seating, logs."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import engine
import sandbox
from sandbox.inprocess import InProcessBot
from sandbox.match import block_seed, play_match, seating_for
from tests.sandbox.harness import BOTS, FIRST_LEGAL, fault_of, render


def local_match(bots: list[Path], **options: Any) -> sandbox.MatchResult:
    options.setdefault("games", 1)
    options.setdefault("seed", 7)
    return sandbox.run_match(
        [sandbox.BotProgram(path.stem, path) for path in bots],
        backend="subprocess",
        allow_unsandboxed=True,
        **options,
    )


def clocks(log: dict[str, Any], seat: int) -> list[dict[str, int]]:
    return [json.loads(d["text"]) for d in log["debug"] if d["seat"] == seat]


def test_time_bank_pays_for_slow_replies_until_it_runs_out(tmp_path: Path) -> None:
    slow = render("clock_reporter.py", tmp_path, source=BOTS, sleep_s="0.25")
    limits = sandbox.Limits(message_ms=100, bank_ms=600, first_start_ms=3000)
    log = local_match([slow, FIRST_LEGAL], limits=limits).games[0]
    given = clocks(log, 0)
    assert given[0] == {"time_ms": 3000, "bank_ms": 600}  # the first start: imports
    banks = [clock["bank_ms"] for clock in given[1:]]
    assert banks == sorted(banks, reverse=True)
    assert banks[0] == 600
    assert all(clock["time_ms"] == 100 for clock in given[1:])
    # Each reply overspends about 150 ms: four are paid for, the fifth is not.
    assert fault_of(log) == "timeout"
    assert 2 <= len(banks) <= 5
    assert log["timing"][0]["bank_left_ms"] < 150


def test_first_start_of_a_later_game_gets_the_ordinary_time(tmp_path: Path) -> None:
    quick = render("clock_reporter.py", tmp_path, source=BOTS, sleep_s="0")
    limits = sandbox.Limits(message_ms=200, first_start_ms=3000)
    result = local_match([quick, FIRST_LEGAL], games=2, limits=limits)
    first, second = (clocks(log, log["seating"].index(0))[0] for log in result.games)
    assert first["time_ms"] == 3000
    assert second["time_ms"] == 200  # same process: nothing left to import
    assert result.seats[0].faults == {}  # never answering `end` is no fault


def test_seats_rotate_over_duplicate_deals() -> None:
    result = local_match([FIRST_LEGAL, FIRST_LEGAL, FIRST_LEGAL], games=6, seed=3)
    seatings = [log["seating"] for log in result.games]
    assert seatings == [seating_for(game, 3) for game in range(6)]
    decks = [tuple(log["deck"]) for log in result.games]
    assert decks[0] == decks[1] == decks[2] != decks[3] == decks[4] == decks[5]
    assert [log["seed"] for log in result.games[:4:3]] == [block_seed(3, 0), block_seed(3, 1)]
    assert sum(report.games for report in result.seats) == 18
    assert sum(report.wins for report in result.seats) == 6


def test_stderr_lines_sit_at_the_event_of_their_decision(tmp_path: Path) -> None:
    quick = render("clock_reporter.py", tmp_path, source=BOTS, sleep_s="0")
    log = local_match([quick, FIRST_LEGAL]).games[0]
    seat = log["seating"].index(0)
    stderr = log["stderr"][seat]
    debug_events = [d["event"] for d in log["debug"] if d["seat"] == seat]
    assert [entry["event"] for entry in stderr][: len(debug_events)] == debug_events
    for entry in stderr:
        if entry["turn"] is not None:
            assert entry["lines"] == [f"decision at turn {entry['turn']}"]
    assert log["timing"][seat]["latency"]["decisions"] == len(debug_events)


def test_progress_is_called_after_each_game() -> None:
    seen: list[int] = []
    local_match([FIRST_LEGAL, FIRST_LEGAL], games=3, progress=lambda i, log: seen.append(i))
    assert seen == [0, 1, 2]


def test_match_cap_stops_the_match(tmp_path: Path) -> None:
    slow = render("clock_reporter.py", tmp_path, source=BOTS, sleep_s="0.2")
    limits = sandbox.Limits(match_s=1.0, message_ms=500)
    started = time.monotonic()
    result = local_match([slow, FIRST_LEGAL], games=50, limits=limits)
    assert time.monotonic() - started < 10
    assert result.stopped == "match time cap reached"
    assert len(result.games) < 50


def test_no_host_variable_reaches_even_an_unsandboxed_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ONECARD_CANARY", "secret")
    log = local_match([BOTS / "environment_reporter.py", FIRST_LEGAL]).games[0]
    seen = json.loads(next(d["text"] for d in log["debug"] if d["seat"] == 0))
    assert "ONECARD_CANARY" not in seen
    assert set(seen) <= {"LC_CTYPE"}  # set by the interpreter itself under -X utf8


def test_the_subprocess_backend_needs_explicit_permission() -> None:
    with pytest.raises(sandbox.InfrastructureError):
        sandbox.run_match(
            [sandbox.BotProgram("a", FIRST_LEGAL)] * 2, games=1, seed=1, backend="subprocess"
        )


def test_unknown_backend_and_missing_bot_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="backend"):
        sandbox.resolve_backend("chroot", allow_unsandboxed=True)
    with pytest.raises(ValueError, match="no Python file"):
        local_match([tmp_path / "missing.py", FIRST_LEGAL])


def test_a_table_has_the_engines_sizes() -> None:
    bounds = f"{engine.MIN_PLAYERS} to {engine.MAX_PLAYERS} bots"
    for count in (engine.MIN_PLAYERS - 1, engine.MAX_PLAYERS + 1):
        with pytest.raises(ValueError, match=bounds):
            local_match([FIRST_LEGAL] * count)
        players = [InProcessBot(lambda message: {"action": "draw"}) for _ in range(count)]
        with pytest.raises(ValueError, match=bounds):
            play_match(players, [f"bot{i}" for i in range(count)], games=1, seed=1)
