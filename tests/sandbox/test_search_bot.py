"""The search bot inside the real sandboxes: legal and in time on every preset, at
every table size from 2 to 8, within one CPU and 256 MiB."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
import sandbox
from tests.sandbox.harness import FIRST_LEGAL, host_leftovers, require_backend

SEARCH_BOT = Path(__file__).resolve().parents[2] / "bots_examples" / "search_bot.py"
# A tight reply limit keeps the games short and shows the bot keeps to its clock:
# it thinks for a third of `time_ms`, so a reply comes well inside it.
LIMITS = sandbox.Limits(message_ms=150, bank_ms=1000)
# Long enough for every card's effect to come up, short enough for a quick suite.
TURN_LIMIT = 80
# Each preset at another table size, so that together they cover 2 to 8 seats.
TABLES = [
    (preset, engine.MIN_PLAYERS + i % (engine.MAX_PLAYERS - engine.MIN_PLAYERS + 1))
    for i, preset in enumerate(engine.PRESET_NAMES)
]


def test_the_tables_cover_every_preset_and_size():
    assert {preset for preset, _ in TABLES} == set(engine.PRESET_NAMES)
    assert {players for _, players in TABLES} == set(
        range(engine.MIN_PLAYERS, engine.MAX_PLAYERS + 1)
    )


@pytest.mark.parametrize(
    "backend",
    [
        pytest.param("bwrap", marks=pytest.mark.bwrap),
        pytest.param("docker", marks=pytest.mark.docker),
    ],
)
@pytest.mark.parametrize(("preset", "players"), TABLES)
def test_the_search_bot_plays_legally_and_in_time_in_the_sandbox(backend, preset, players):
    require_backend(backend)
    bots = [sandbox.BotProgram("search", SEARCH_BOT)]
    bots += [sandbox.BotProgram(f"first{seat}", FIRST_LEGAL) for seat in range(1, players)]
    result = sandbox.run_match(
        bots,
        games=1,
        seed=players,
        ruleset={"name": preset, "turn_limit": TURN_LIMIT},
        backend=backend,
        limits=LIMITS,
    )
    (log,) = result.games
    assert log["result"]["faults"] == [], log["result"]["faults"]
    seat = log["seating"].index(0)
    played = [e for e in log["events"] if e.get("seat") == seat and e["kind"] in ("play", "shield")]
    assert played, "the search bot never played a card"
    assert host_leftovers() == {}
