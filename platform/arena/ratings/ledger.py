"""One rated game applied to the running totals of its bots, without the database.

The incremental update (services.ratings_apply_match_games) and the rebuild
(recompute.ratings_recompute) both go through `game_outcome`, so that they perform
the very same floating-point operations in the very same order and agree exactly.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from . import elo

# How many of the latest ratings a leaderboard row shows as its trend line.
TREND_LENGTH = 10


@dataclass(frozen=True, slots=True)
class Standing:
    """A bot's rating and totals in one competition."""

    elo: float = elo.INITIAL_RATING
    games: int = 0
    wins: int = 0
    rank_sum: int = 0
    score_sum: float = 0.0
    last_played_at: dt.datetime | None = None
    trend: tuple[float, ...] = field(default_factory=tuple)


def game_outcome(
    *, before: Sequence[Standing], ranks: Sequence[int], played_at: dt.datetime
) -> list[Standing]:
    """The standings of a game's bots after it; `ranks[i]` is bot i's place."""
    new_elos = elo.game_update(
        ratings=[s.elo for s in before],
        ranks=ranks,
        games_played=[s.games for s in before],
    )
    after = []
    for index, (standing, new_elo) in enumerate(zip(before, new_elos, strict=True)):
        after.append(
            replace(
                standing,
                elo=new_elo,
                games=standing.games + 1,
                wins=standing.wins + (1 if ranks[index] == 1 else 0),
                rank_sum=standing.rank_sum + ranks[index],
                score_sum=standing.score_sum + elo.pairwise_score(ranks=ranks, index=index),
                last_played_at=played_at,
                trend=(*standing.trend, new_elo)[-TREND_LENGTH:],
            )
        )
    return after
