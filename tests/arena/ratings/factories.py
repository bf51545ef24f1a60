"""Helpers for the ratings and tournaments tests, on top of the shared factories."""

from __future__ import annotations

import zlib

from arena.bots.models import BotVersion
from arena.matches.models import Competition, Game, Match, MatchSeat
from tests.arena.factories import (
    ActiveBotVersionFactory,
    BotFactory,
    CompetitionFactory,
    StaffFactory,
    UserFactory,
)

__all__ = [
    "ActiveBotVersionFactory",
    "BotFactory",
    "CompetitionFactory",
    "StaffFactory",
    "UserFactory",
    "finished_match",
]


def finished_match(
    *,
    versions: list[BotVersion],
    game_ranks: list[list[int]],
    competition: Competition | None = None,
    tournament=None,
    rated: bool = True,
    state: str = Match.State.DONE,
) -> Match:
    """A match already played: its seats and one Game per entry of `game_ranks`
    (ranks by seat index), with the per-seat totals filled in."""
    kind = Match.Kind.TOURNAMENT if tournament is not None else Match.Kind.LADDER
    match = Match.objects.create(
        kind=kind,
        competition=competition,
        tournament=tournament,
        rated=rated,
        ruleset={"name": "korean"},
        games_planned=len(game_ranks),
        seed=7,
        state=state,
    )
    seats = [
        MatchSeat.objects.create(match=match, index=i, bot=v.bot, bot_version=v)
        for i, v in enumerate(versions)
    ]
    for number, ranks in enumerate(game_ranks):
        winner = ranks.index(1) if ranks.count(1) == 1 else None
        Game.objects.create(
            match=match,
            number=number,
            seating=list(range(len(versions))),
            ranks=ranks,
            winner_index=winner,
            turns=10,
            log_compressed=zlib.compress(b"{}"),
        )
        for seat in seats:
            seat.games += 1
            seat.rank_sum += ranks[seat.index]
            seat.wins += 1 if ranks[seat.index] == 1 else 0
    for seat in seats:
        seat.save()
    return match
