"""Stored games for the analysis tests: example bots play them, one bot per seat,
each owned by its own user."""

from __future__ import annotations

from typing import Any

import engine
from arena.matches.logs import game_summary, log_compress
from arena.matches.models import Game, Match
from bots_examples import builtin_bots
from tests.arena.factories import ActiveBotVersionFactory, match_with_seats

KINDS = ("heuristic", "greedy", "random")


def example_log(*, players: int = 3, seed: int = 1) -> dict[str, Any]:
    """A real game of the example bots (heuristic, greedy, random, ...), with the
    sandbox's extra keys and a debug entry a seat's owner alone may see."""
    factories = builtin_bots()
    bots = [factories[KINDS[s % len(KINDS)]](seed + s) for s in range(players)]
    log = engine.play_game(bots, seed=seed)
    log["seating"] = list(range(players))
    log["stderr"] = [[] for _ in range(players)]
    log["debug"] = [{"seat": 0, "event": 0, "text": "secret plan of seat 0"}]
    return log


def stored_game(
    log: dict[str, Any], *, kind: str = Match.Kind.CHALLENGE, match: Match | None = None
) -> Game:
    """The log stored as game 0 of a finished match (a new one unless given)."""
    if match is None:
        versions = [ActiveBotVersionFactory() for _ in range(int(log["players"]))]
        fields: dict[str, Any] = {"kind": kind, "state": "done"}
        if kind != Match.Kind.LADDER:
            fields.update(competition=None, rated=False)
        match = match_with_seats(versions, **fields)
    summary = game_summary(log)
    return Game.objects.create(
        match=match,
        number=match.games.count(),
        seating=log["seating"],
        ranks=summary.ranks,
        winner_index=summary.winner_index,
        turns=summary.turns,
        adjudicated=summary.adjudicated,
        faults=summary.faults,
        log_compressed=log_compress(log),
    )


def seat_owner(game: Game, seat: int) -> Any:
    return game.match.seats.get(index=game.seating[seat]).bot.owner
