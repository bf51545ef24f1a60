"""Real games for the page tests: example bots play them, recorded as a worker would."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

import engine
from arena.matches.lifecycle import game_from_log
from arena.matches.logs import game_summary
from arena.ratings.services import ratings_apply_game
from engine.builtin import builtin_bots
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
    with seats, games and ratings recorded as a worker would."""
    match = match_with_seats(versions, state="done", games_planned=games, rated=rated, **fields)
    seats = list(match.seats.all())
    players = len(versions)
    for number in range(games):
        seating = [(s + number) % players for s in range(players)]
        log = real_game_log(seed=seed + number, players=players)
        log["seating"] = seating
        log["names"] = [versions[index].bot.name for index in seating]
        summary = game_summary(log)
        game = game_from_log(match=match, number=number, log=log, summary=summary)
        game.save()
        if rated and match.competition_id:
            ratings_apply_game(game=game)
        for seat in seats:
            seat.games += 1
            seat.wins += summary.ranks[seat.index] == 1
            seat.rank_sum += summary.ranks[seat.index]
    for seat in seats:
        seat.save()
    match.finished_at = timezone.now()
    match.save(update_fields=["finished_at"])
    return match
