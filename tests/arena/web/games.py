"""Real games for the page tests: example bots play them, recorded as a worker would."""

from __future__ import annotations

from typing import Any

import engine
from arena.play.leases import match_claim, worker_token
from arena.play.results import match_record_result
from bots_examples import builtin_bots
from tests.arena.factories import match_with_seats


def real_game_log(*, seed: int = 7, players: int = 2) -> dict[str, Any]:
    """A replayable log of example bots, with the sandbox's extra keys added."""
    factories = builtin_bots()
    kinds = ["greedy", "random", "heuristic"]
    bots = [factories[kinds[s % len(kinds)]](seed + s) for s in range(players)]
    log = engine.play_game(bots, seed=seed, names=[f"seat{s}" for s in range(players)])
    log["seating"] = list(range(players))
    log["stderr"] = [
        [{"event": 1, "turn": 0, "lines": [f"secret thoughts of seat {s} <b>"]}]
        for s in range(players)
    ]
    log["debug"] = [{"seat": s, "event": 2, "text": f"debug of seat {s}"} for s in range(players)]
    return log


def played_match(versions, *, seed: int = 7, games: int = 2, rated: bool = True, **fields):
    """A finished match of real games between `versions` (example bots play them),
    claimed and recorded through the worker's own result write."""
    match = match_with_seats(versions, games_planned=games, rated=rated, **fields)
    players = len(versions)
    logs = []
    for number in range(games):
        seating = [(s + number) % players for s in range(players)]
        log = real_game_log(seed=seed + number, players=players)
        log["seating"] = seating
        log["names"] = [versions[index].bot.name for index in seating]
        logs.append(log)
    claim = match_claim(match_id=match.pk, token=worker_token())
    recorded = match_record_result(claim=claim, games=logs, backend="subprocess")
    assert recorded is not None
    return recorded
