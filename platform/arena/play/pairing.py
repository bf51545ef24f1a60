"""Who sits at the next ladder table: the two policies, as pure functions.

`similar` (the ladder's first policy): an anchor drawn favouring bots with few
games, then opponents of similar rating.

`information` (the default): the anchor is the bot that has waited longest, a
bot whose rating is still uncertain waiting BURST times faster, so that a new
version gets a burst of games until its interval narrows and no active bot
starves; its opponents are drawn by how likely the table is to correct the
ladder, the chance that the anchor and the opponent stand in the wrong order
(their ratings' difference against their combined uncertainty), plus a floor so
that anyone can still meet anyone.

A candidate's `skill` and `uncertainty` are on the Elo scale (the rating system's
estimate of its strength and the half-width of its 95% interval; None before its
first game), `waited` how long since it last played (None: never), in any unit
the caller keeps constant (seconds on the platform, tables in a simulation).

>>> c = [Candidate(version=i, elo=1500.0, games=10, skill=1500.0 + 50 * i,
...                uncertainty=100.0, waited=float(i)) for i in range(4)]
>>> 3 in [x.version for x in pick_table(c, 2, random.Random(1), policy="information")]
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

POLICIES = ("similar", "information")
# Opponent weight halves every SIMILARITY_SCALE * ln 2 Elo points of difference.
SIMILARITY_SCALE = 200.0
# An uncertain bot's wait counts this many times over: its burst of games.
BURST = 4.0
# A rating is uncertain while its 95% half-width is above this (Elo points).
UNCERTAIN_HALF_WIDTH = 150.0
# The least weight an opponent gets, against the wrong-order chance (at most 0.5).
OPPONENT_FLOOR = 0.02
_UNKNOWN_SD = 350.0  # the spread assumed of a bot that has not played yet
_Z_95 = 1.959963984540054


class UnknownPolicy(ValueError):
    """A matchmaking policy the ladder does not have."""


@dataclass(frozen=True)
class Candidate:
    version: Any  # what the caller seats (a BotVersion on the platform)
    elo: float
    games: int
    skill: float | None = None
    uncertainty: float | None = None
    waited: float | None = None

    @property
    def uncertain(self) -> bool:
        return self.uncertainty is None or self.uncertainty > UNCERTAIN_HALF_WIDTH

    def _skill(self) -> float:
        return self.elo if self.skill is None else self.skill

    def _sd(self) -> float:
        return _UNKNOWN_SD if self.uncertainty is None else self.uncertainty / _Z_95


def pick_table(
    candidates: list[Candidate], seats: int, rng: random.Random, *, policy: str = "information"
) -> list[Candidate]:
    """One table of `seats` candidates, in seat order.

    >>> v = [Candidate(version=None, elo=1500 + 10 * i, games=i) for i in range(4)]
    >>> len(pick_table(v, 2, random.Random(1), policy="similar"))
    2
    """
    if policy == "similar":
        table = _similar(candidates, seats, rng)
    elif policy == "information":
        table = _informative(candidates, seats, rng)
    else:
        raise UnknownPolicy(f"no matchmaking policy {policy!r}; one of {', '.join(POLICIES)}")
    rng.shuffle(table)  # seat order does not favour the anchor
    return table


def _similar(candidates: list[Candidate], seats: int, rng: random.Random) -> list[Candidate]:
    pool = list(candidates)
    anchor = rng.choices(pool, weights=[1.0 / (1 + c.games) for c in pool])[0]
    pool.remove(anchor)
    table = [anchor]
    while len(table) < seats:
        weights = [math.exp(-abs(c.elo - anchor.elo) / SIMILARITY_SCALE) + 1e-6 for c in pool]
        chosen = rng.choices(pool, weights=weights)[0]
        pool.remove(chosen)
        table.append(chosen)
    return table


def anchor_priority(candidate: Candidate) -> float:
    """How overdue a candidate is: its wait, BURST times over while uncertain."""
    if candidate.waited is None:
        return math.inf
    return candidate.waited * (BURST if candidate.uncertain else 1.0)


def wrong_order_chance(a: Candidate, b: Candidate) -> float:
    """The chance, as the ratings stand, that a and b are ranked the wrong way round.

    >>> near = Candidate(version=1, elo=0, games=1, skill=1500.0, uncertainty=100.0)
    >>> far = Candidate(version=2, elo=0, games=1, skill=1900.0, uncertainty=100.0)
    >>> round(wrong_order_chance(near, near), 2), wrong_order_chance(near, far) < 0.01
    (0.5, True)
    """
    spread = math.hypot(a._sd(), b._sd())
    gap = abs(a._skill() - b._skill())
    return 0.5 * math.erfc(gap / (spread * math.sqrt(2.0)))


def _informative(candidates: list[Candidate], seats: int, rng: random.Random) -> list[Candidate]:
    pool = list(candidates)
    top = max(anchor_priority(c) for c in pool)
    anchor = rng.choice([c for c in pool if anchor_priority(c) == top])
    pool.remove(anchor)
    table = [anchor]
    while len(table) < seats:
        weights = [
            sum(wrong_order_chance(c, seated) for seated in table) / len(table) + OPPONENT_FLOOR
            for c in pool
        ]
        chosen = rng.choices(pool, weights=weights)[0]
        pool.remove(chosen)
        table.append(chosen)
    return table
