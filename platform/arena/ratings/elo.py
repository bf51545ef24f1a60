"""The Elo arithmetic of the ladders, as plain Python so that it is easy to check.

A game at an N-seat table is scored as N-1 pairwise games per seat: a better
(smaller) rank beats a worse one, equal ranks draw. Each pair is weighted
K/(N-1), so one game moves a rating at most as far as one two-player game would,
whatever the table size. A bot is provisional for its first PROVISIONAL_GAMES games
in a competition and moves with a larger K so that it finds its level quickly.

>>> round(expected_score(1600, 1500), 3)
0.64
>>> game_update(ratings=[1500.0, 1500.0], ranks=[1, 2], games_played=[100, 100])
[1516.0, 1484.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

INITIAL_RATING = 1500.0
K_FACTOR = 32.0
K_PROVISIONAL = 64.0
PROVISIONAL_GAMES = 20
# Logistic scale: a 400-point lead means 10:1 odds.
SCALE = 400.0
# Two-sided 95% normal quantile.
Z_95 = 1.959963984540054


class EloInputError(ValueError):
    """The inputs of an update do not describe one game (lengths, table size)."""


def expected_score(ra: float, rb: float) -> float:
    """The score a player rated `ra` expects against one rated `rb` (0..1).

    >>> [round(expected_score(1500 + d, 1500), 3) for d in (0, 100, 200, 400)]
    [0.5, 0.64, 0.76, 0.909]
    """
    return 1.0 / (1.0 + 10.0 ** ((rb - ra) / SCALE))


def k_factor(games_played: int) -> float:
    """K for a bot that has already played `games_played` rated games."""
    return K_PROVISIONAL if games_played < PROVISIONAL_GAMES else K_FACTOR


def is_provisional(games_played: int) -> bool:
    return games_played < PROVISIONAL_GAMES


def pair_score(rank: int, other_rank: int) -> float:
    """1 for a better (smaller) rank, 0.5 for a shared one, 0 for a worse one."""
    if rank < other_rank:
        return 1.0
    if rank == other_rank:
        return 0.5
    return 0.0


def game_update(
    *, ratings: Sequence[float], ranks: Sequence[int], games_played: Sequence[int]
) -> list[float]:
    """The new ratings of the N players of one game, in the same order.

    `ranks[i]` is player i's place (1 = winner, shared places allowed) and
    `games_played[i]` how many rated games it had played before this one (it picks
    K). Every pair is computed from the ratings *before* the game, so the result does
    not depend on the order in which the players are listed.

    >>> game_update(ratings=[1500.0, 1500.0, 1500.0], ranks=[1, 2, 3], games_played=[0, 0, 0])
    [1532.0, 1500.0, 1468.0]
    """
    players = len(ratings)
    if players < 2 or len(ranks) != players or len(games_played) != players:
        raise EloInputError(
            f"one game needs 2+ players with a rank and a game count each, got "
            f"{len(ratings)} ratings, {len(ranks)} ranks, {len(games_played)} counts"
        )
    weight = 1.0 / (players - 1)
    updated = []
    for i in range(players):
        surprise = 0.0
        for j in range(players):
            if i != j:
                surprise += pair_score(ranks[i], ranks[j]) - expected_score(ratings[i], ratings[j])
        updated.append(ratings[i] + k_factor(games_played[i]) * weight * surprise)
    return updated


def pairwise_score(*, ranks: Sequence[int], index: int) -> float:
    """Player `index`'s share of its pairwise games in one game (0..1)."""
    others = [r for j, r in enumerate(ranks) if j != index]
    if not others:
        raise EloInputError("a game needs at least two players")
    return sum(pair_score(ranks[index], r) for r in others) / len(others)


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0

    def overlaps(self, other: Interval) -> bool:
        """Whether two ratings are not yet separable at this confidence."""
        return self.low <= other.high and other.low <= self.high


def confidence_interval(
    *, elo: float, games: int, score: float = 0.5, seats: int = 2
) -> Interval | None:
    """A 95% interval around `elo` from the games behind it. None before the first.

    Two sources of error add up. The performance error: a score fraction p
    measured over n games has variance p(1-p)/n, and the rating is the logit of p,
    whose derivative is SCALE / (ln 10 * p(1-p)); `score`, the bot's mean pairwise
    score, is clamped to [0.1, 0.9] so that a bot that has won (or lost) everything
    does not get a falsely narrow (or infinite) interval. And the wobble of Elo
    itself: with a fixed K a rating never settles, it keeps moving around the
    bot's strength with the stationary variance of the update linearised around
    that strength (`wobble_variance`), which does not shrink however many games
    are played.

    >>> round(confidence_interval(elo=1500.0, games=100).half_width, 1)
    123.8
    """
    if games <= 0:
        return None
    p = min(max(score, 0.1), 0.9)
    performance_variance = (SCALE / math.log(10.0)) ** 2 / (games * p * (1.0 - p))
    half = Z_95 * math.sqrt(performance_variance + wobble_variance(k=k_factor(games), seats=seats))
    return Interval(low=elo - half, high=elo + half)


def wobble_variance(*, k: float, seats: int) -> float:
    """The variance with which a K-factor rating keeps moving around a settled bot's
    strength, at a table of `seats`.

    A game moves the rating by K/(N-1) times the sum of its N-1 pairwise
    surprises, and pulls it back towards the strength by K * ln 10 / (4 SCALE) per
    unit of error (among bots of like strength); the stationary variance is the
    step's variance over twice that pull. The N-1 pairwise results of one game
    are not independent: they are the bot's place, uniform over 1..N among like
    bots, so their sum varies as (N^2 - 1) / 12, not as the (N - 1) / 4 of
    independent pairs. That makes the variance
    K * SCALE / (2 ln 10) * (N + 1) / (3 (N - 1)): the two-seat value at two
    seats, 5/9 of it at four.

    >>> round(wobble_variance(k=32.0, seats=4) / wobble_variance(k=32.0, seats=2), 3)
    0.556
    """
    if seats < 2:
        raise EloInputError(f"a table has 2+ seats, got {seats}")
    return k * SCALE / (2.0 * math.log(10.0)) * (seats + 1) / (3.0 * (seats - 1))
