"""Standings and crosstable of a tournament from its games' ranks; no database.

Every game is scored pairwise, as the ladders are: against each other entrant at the
table a better place is a point, a shared place half a point. At a 2-seat table that
is one point per win.

The performance rating is the Elo-scale rating that best explains the tournament's
own pairwise results (the Bradley-Terry maximum-likelihood fit), centred on 1500. Each
entrant also gets one virtual draw against a 1500 player, so that a perfect (or
zero) score gives a large but finite rating instead of an infinite one.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from arena.ratings.elo import INITIAL_RATING, SCALE, pair_score

ITERATIONS = 200


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One game: the entrant keys at the table and their ranks, position by position."""

    entrants: Sequence[int]
    ranks: Sequence[int]


@dataclass
class EntrantTotals:
    key: int
    games: int = 0
    points: float = 0.0
    wins: int = 0
    rank_sum: int = 0
    # Pairwise games against other entrants, to normalise the points.
    pairings: int = 0

    @property
    def average_rank(self) -> float | None:
        return self.rank_sum / self.games if self.games else None


@dataclass
class Cell:
    """Entrant A's record against entrant B (pairwise, from A's side)."""

    games: int = 0
    points: float = 0.0


@dataclass
class Tally:
    totals: dict[int, EntrantTotals] = field(default_factory=dict)
    cells: dict[tuple[int, int], Cell] = field(default_factory=lambda: defaultdict(Cell))


def tally_games(*, entrants: Iterable[int], games: Iterable[PlayedGame]) -> Tally:
    tally = Tally(totals={key: EntrantTotals(key) for key in entrants})
    for game in games:
        for i, key in enumerate(game.entrants):
            totals = tally.totals.setdefault(key, EntrantTotals(key))
            totals.games += 1
            totals.rank_sum += game.ranks[i]
            totals.wins += 1 if game.ranks[i] == 1 else 0
            for j, other in enumerate(game.entrants):
                if i == j:
                    continue
                score = pair_score(game.ranks[i], game.ranks[j])
                totals.points += score
                totals.pairings += 1
                cell = tally.cells[(key, other)]
                cell.games += 1
                cell.points += score
    return tally


def performance_ratings(tally: Tally) -> dict[int, float]:
    """Bradley-Terry strengths by the minorise-maximise iteration, on the Elo scale.

    The virtual opponent (key None) is fixed at strength 1; every entrant draws
    with it once.
    """
    keys = list(tally.totals)
    if not keys:
        return {}
    strength = dict.fromkeys(keys, 1.0)
    scores = {k: tally.totals[k].points + 0.5 for k in keys}
    opponents: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for (a, b), cell in tally.cells.items():
        opponents[a].append((b, cell.games))
    for _ in range(ITERATIONS):
        updated = {}
        for k in keys:
            denominator = 1.0 / (strength[k] + 1.0)  # the virtual draw
            for other, games in opponents[k]:
                denominator += games / (strength[k] + strength[other])
            updated[k] = scores[k] / denominator
        strength = updated
    logs = {k: SCALE * math.log10(strength[k]) for k in keys}
    centre = sum(logs.values()) / len(logs)
    return {k: INITIAL_RATING + logs[k] - centre for k in keys}
