"""The Weng-Lin Plackett-Luce rating of the ladders (the `openskill` package).

Each bot has a skill estimate `mu` and its uncertainty `sigma`. A game's finishing
order updates every seat at once (ties share a place, competition ranking): the
model is made for N-seat tables, unlike pairwise Elo. `sigma` shrinks as games
accumulate, so a bot that has played enough stops moving; the drift term TAU
widens it a little before every game, so that a bot whose strength changes can
still move (and the displayed interval keeps room for it).

Figures are shown on the Elo scale (`elo_per_mu(seats)` points per unit of mu: a
lead of `d` mu between two settled bots at a table of that size gives the odds of
finishing ahead that a lead of `d * elo_per_mu(seats)` Elo would), so that both
rating systems read alike at every table size. The leaderboard orders bots by a
conservative value, mu - 3 sigma: a bot ranks high once the games show it is
strong, not while it is merely unknown.

>>> after = game_update(ratings=[initial(), initial()], ranks=[1, 2])
>>> [round(mu, 2) for mu, _ in after]
[26.84, 23.16]
>>> round(display_rating(MU, SIGMA, seats=2)), round(display_rating(MU, SIGMA, seats=4))
(947, 1109)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from openskill.models import PlackettLuce

MU = 25.0
# The prior's width: a quarter of MU, not openskill's third. The update's logistic
# scale c = sqrt(sum of sigma^2 + BETA^2) over the table includes the seats'
# sigmas, so while they are wide a game's result looks noisier than it is and the
# first games spread the mus too far; at two seats, where a game orders only one
# pair, the ladder needed thousands of games to pull them back (docs/ranking.md:
# the spread of the estimates reached 1.3 times the true spread).
SIGMA = MU / 4.0
BETA = MU / 6.0
# The drift added to sigma before each game, so that a bot whose strength changes
# without a new version can still move. `benchmarks/ranking.py` measures the
# trade (docs/ranking.md): more drift follows a changed bot in fewer of its games
# (a settled two-seat bot that jumps by 288 Elo: 1,138 of them at MU / 1000, 306 at
# openskill's default MU / 300) and keeps every settled rating wobbling (at MU / 300
# the best of eight bots 60 Elo clear of the next is shown first in 18 of 20
# two-seat ladders at 3,000 games, in 20 of 20 at MU / 1000).
TAU = MU / 1000.0
# Elo points per unit of logit (a 400-point lead is 10:1 odds).
ELO_PER_LOGIT = 400.0 / math.log(10.0)
ELO_ORIGIN = 1500.0
# The conservative value is mu - CONSERVATIVE_SIGMAS * sigma.
CONSERVATIVE_SIGMAS = 3.0
Z_95 = 1.959963984540054
# A rating is provisional (still moves fast) while sigma is above this.
PROVISIONAL_SIGMA = SIGMA / 3.0
# A bot's sigma when it first plays a new version, if it was narrower: the new
# code's strength is known less well than the bot's history says.
NEW_VERSION_SIGMA = SIGMA / 2.0


def full_information(*_: object) -> float:
    """openskill's `gamma`, the share of a game's information its variance update
    takes: all of it. sigma^2 then falls by the game's Fisher information, as a
    Laplace approximation of the posterior would, where openskill's default
    (sigma / c) takes a share that shrinks with sigma, so that a settled rating
    keeps moving as if it had played far fewer games: at two seats its point
    estimates' error is 26 Elo after 6,000 games against 15 with the whole
    information (docs/ranking.md)."""
    return 1.0


def model(*, tau: float = TAU) -> PlackettLuce:
    """The openskill model the ladders are rated with (another drift `tau` only for
    the benchmark's what-ifs)."""
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=tau, gamma=full_information)


_MODEL = model()

Skill = tuple[float, float]  # (mu, sigma)


class PlackettLuceInputError(ValueError):
    """The inputs of an update do not describe one game."""


def initial() -> Skill:
    return (MU, SIGMA)


def game_update(*, ratings: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """The new (mu, sigma) of the N players of one game, in the same order;
    `ranks[i]` is player i's place (1 = winner, shared places allowed)."""
    if len(ratings) < 2 or len(ranks) != len(ratings):
        raise PlackettLuceInputError(
            f"one game needs 2+ players with a rank each, got {len(ratings)} ratings "
            f"and {len(ranks)} ranks"
        )
    teams = [[_MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    rated = _MODEL.rate(teams, ranks=list(ranks))
    return [(team[0].mu, team[0].sigma) for team in rated]


def elo_per_mu(seats: int) -> float:
    """Elo points per unit of mu at a table of `seats`.

    openskill picks each place's bot from those left with odds exp(mu / c), where
    c = sqrt(sum of sigma^2 + BETA^2) over the table: sqrt(seats) * BETA once the
    sigmas are small. Any two bots of the table then finish in their order with
    odds exp(difference of mu / c), Bradley-Terry's pairwise odds, so a unit of
    mu is 1 / c logits: the wider the table, the fewer Elo points per mu.

    >>> round(elo_per_mu(2), 2), round(elo_per_mu(4), 2)
    (29.48, 20.85)
    """
    if seats < 2:
        raise PlackettLuceInputError(f"a table has 2+ seats, got {seats}")
    return ELO_PER_LOGIT / (math.sqrt(seats) * BETA)


def to_elo_scale(mu: float, *, seats: int) -> float:
    """A mu on the Elo scale of a `seats` table (the initial mu is ELO_ORIGIN)."""
    return ELO_ORIGIN + elo_per_mu(seats) * (mu - MU)


def display_rating(mu: float, sigma: float, *, seats: int) -> float:
    """The conservative value the leaderboard orders by, on the Elo scale."""
    return to_elo_scale(mu - CONSERVATIVE_SIGMAS * sigma, seats=seats)


def skill_interval(mu: float, sigma: float, *, seats: int) -> tuple[float, float]:
    """The 95% interval of the skill, on the Elo scale.

    >>> low, high = skill_interval(MU, 1.0, seats=2)
    >>> round(high - low)
    116
    """
    return (
        to_elo_scale(mu - Z_95 * sigma, seats=seats),
        to_elo_scale(mu + Z_95 * sigma, seats=seats),
    )
