"""One rated game applied to the running totals of its bots, without the database.

The incremental update (services.ratings_apply_match_games) and the rebuild
(recompute.ratings_recompute) both go through `game_outcome`, so that they perform
the very same floating-point operations in the very same order and agree exactly.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from . import elo, plackett_luce

# How many of the latest ratings a leaderboard row shows as its trend line.
TREND_LENGTH = 10


# The rating systems a competition may choose (Competition.rating_system).
ELO = "elo"
PLACKETT_LUCE = "plackett_luce"
SYSTEMS = (ELO, PLACKETT_LUCE)


class UnknownRatingSystem(ValueError):
    """A competition names a rating system the ladder does not have."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A bot's rating and totals in one competition. `elo` is the rating shown and
    ordered by, on the Elo scale whatever the system; `mu` and `sigma` are the
    Plackett-Luce skill and its uncertainty (None under Elo)."""

    elo: float = elo.INITIAL_RATING
    games: int = 0
    wins: int = 0
    rank_sum: int = 0
    score_sum: float = 0.0
    last_played_at: dt.datetime | None = None
    trend: tuple[float, ...] = field(default_factory=tuple)
    mu: float | None = None
    sigma: float | None = None
    version_id: int | None = None  # the bot's version in its latest rated game


def initial_standing(system: str, *, seats: int) -> Standing:
    """A bot's standing before its first game in a competition of `system` played at
    tables of `seats`."""
    if system == PLACKETT_LUCE:
        mu, sigma = plackett_luce.initial()
        return Standing(
            elo=plackett_luce.display_rating(mu, sigma, seats=seats), mu=mu, sigma=sigma
        )
    if system == ELO:
        return Standing()
    raise UnknownRatingSystem(f"no rating system {system!r}; one of {', '.join(SYSTEMS)}")


def game_outcome(
    *,
    before: Sequence[Standing],
    ranks: Sequence[int],
    played_at: dt.datetime,
    system: str,
    seats: int,
    versions: Sequence[int],
) -> list[Standing]:
    """The standings of a game's bots after it; `ranks[i]` is bot i's place and
    `versions[i]` the version it played with. `seats` is the competition's table
    size, whose Elo scale Plackett-Luce's values are shown on.

    Under Plackett-Luce a bot that plays with a new version is less known than its
    history says: its sigma is widened to at least plackett_luce.NEW_VERSION_SIGMA
    first, so that the rating can move to the new version's strength (and the
    matchmaker gives it a burst of games)."""
    skills: list[tuple[float | None, float | None]]
    if system == PLACKETT_LUCE:
        updated = plackett_luce.game_update(
            ratings=[
                _skill_before(standing, version_id)
                for standing, version_id in zip(before, versions, strict=True)
            ],
            ranks=ranks,
        )
        new_elos = [plackett_luce.display_rating(mu, sigma, seats=seats) for mu, sigma in updated]
        skills = list(updated)
    elif system == ELO:
        new_elos = elo.game_update(
            ratings=[s.elo for s in before],
            ranks=ranks,
            games_played=[s.games for s in before],
        )
        skills = [(None, None)] * len(before)
    else:
        raise UnknownRatingSystem(f"no rating system {system!r}; one of {', '.join(SYSTEMS)}")
    after = []
    for index, (standing, new_elo, (mu, sigma)) in enumerate(
        zip(before, new_elos, skills, strict=True)
    ):
        after.append(
            replace(
                standing,
                mu=mu,
                sigma=sigma,
                version_id=versions[index],
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


def _skill_before(standing: Standing, version_id: int) -> plackett_luce.Skill:
    if standing.mu is None or standing.sigma is None:
        return plackett_luce.initial()
    if standing.version_id is not None and standing.version_id != version_id:
        return (standing.mu, max(standing.sigma, plackett_luce.NEW_VERSION_SIGMA))
    return (standing.mu, standing.sigma)


def rating_interval(
    *,
    system: str,
    elo_value: float,
    games: int,
    score: float,
    mu: float | None,
    sigma: float | None,
    seats: int,
) -> elo.Interval | None:
    """The 95% interval of a bot's strength on the Elo scale (None before its first
    game): under Plackett-Luce the skill's, mu +/- 1.96 sigma; under Elo the rating's
    error, performance and wobble together (elo.confidence_interval)."""
    if games <= 0:
        return None
    if system == PLACKETT_LUCE and mu is not None and sigma is not None:
        low, high = plackett_luce.skill_interval(mu, sigma, seats=seats)
        return elo.Interval(low=low, high=high)
    return elo.confidence_interval(elo=elo_value, games=games, score=score, seats=seats)


def is_provisional(*, system: str, games: int, sigma: float | None) -> bool:
    """Whether a rating still moves fast: few games (Elo), a wide sigma (Plackett-Luce)."""
    if system == PLACKETT_LUCE:
        return sigma is None or sigma > plackett_luce.PROVISIONAL_SIGMA
    return elo.is_provisional(games)


def rank_bands(intervals: Sequence[elo.Interval]) -> list[tuple[int, int]]:
    """For each interval, the ranks its bot could hold at 95%: from 1 + the number of
    bots surely above it (their interval lies wholly above) to the number of bots
    not surely below it (itself included). Bots that share a band are not yet
    separable.

    >>> I = elo.Interval
    >>> rank_bands([I(1600, 1700), I(1550, 1650), I(1300, 1400)])
    [(1, 2), (1, 2), (3, 3)]
    """
    lows = sorted(interval.low for interval in intervals)
    highs = sorted(interval.high for interval in intervals)
    return [rank_band(interval, lows, highs) for interval in intervals]


def rank_band(
    interval: elo.Interval, lows: Sequence[float], highs: Sequence[float]
) -> tuple[int, int]:
    """One interval's band against the sorted low and high ends of the ladder's
    intervals (its own among them)."""
    surely_above = len(lows) - bisect.bisect_right(lows, interval.high)
    not_surely_below = len(highs) - bisect.bisect_left(highs, interval.low)
    return (1 + surely_above, not_surely_below)
