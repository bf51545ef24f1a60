"""The sequential probability ratio test that decides a version's promotion.

A new version plays the active one over duplicate deals: each deal twice, with
the versions in swapped seats, so that the luck of the deal cancels out. A pair
of games scores 0, 1/2, 1, 3/2 or 2 points for the new version; the counts of the
five outcomes (the pentanomial) are the test's data, not the games one by one,
whose results within a pair are correlated.

The test weighs H1, "the new version is better by elo1", against H0, "it is
better by elo0 at most" (logistic Elo), with the generalized SPRT's normal
approximation (as Fishtest uses for chess engines): with N pairs of mean score
m (per game, 0..1) and variance v of a pair's per-game score, the log-likelihood
ratio is N (s1 - s0) (2m - s0 - s1) / (2v), where s0 and s1 are the per-game
scores of elo0 and elo1. It stops at ln((1 - beta) / alpha) (promote) or at
ln(beta / (1 - alpha)) (keep the active version), or after MAX_PAIRS (keep).

>>> [round(bound, 3) for bound in bounds(alpha=0.05, beta=0.05)]
[-2.944, 2.944]
>>> round(llr([0, 0, 0, 0, 40], elo0=0, elo1=30), 1) > bounds(0.05, 0.05)[1]
True
>>> decide([1, 3, 6, 3, 1], elo0=0, elo1=30, alpha=0.05, beta=0.05, max_pairs=1000)
'continue'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# A decision needs at least this many pairs: the normal approximation is poor on
# a handful, and a few lucky deals must not promote a version.
MIN_PAIRS = 10
# The variance of a pair's per-game score is floored: identical pairs (all wins)
# would otherwise make the ratio infinite on little evidence.
MIN_VARIANCE = 0.01
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # per game, for 0 .. 2 points in a pair
_Z_95 = 1.959963984540054


class SprtInputError(ValueError):
    """Counts that are not a pentanomial, or bounds that make no test."""


def score_of_elo(elo: float) -> float:
    """The expected per-game score of a lead of `elo` (logistic)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of_score(score: float) -> float:
    """The lead that a per-game score means; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) bounds of the log-likelihood ratio."""
    if not (0.0 < alpha < 0.5 and 0.0 < beta < 0.5):
        raise SprtInputError("alpha and beta are error rates between 0 and 0.5")
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def _moments(pentanomial: Sequence[int]) -> tuple[int, float, float]:
    if len(pentanomial) != 5 or any(count < 0 for count in pentanomial):
        raise SprtInputError(f"a pentanomial is five counts, got {list(pentanomial)!r}")
    pairs = sum(pentanomial)
    if pairs == 0:
        return 0, 0.5, MIN_VARIANCE
    mean = sum(n * x for n, x in zip(pentanomial, PAIR_SCORES, strict=True)) / pairs
    variance = sum(n * (x - mean) ** 2 for n, x in zip(pentanomial, PAIR_SCORES, strict=True))
    return pairs, mean, max(variance / pairs, MIN_VARIANCE)


def llr(pentanomial: Sequence[int], *, elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of H1 (elo1) against H0 (elo0) after these pairs."""
    if elo1 <= elo0:
        raise SprtInputError("elo1 must be above elo0")
    pairs, mean, variance = _moments(pentanomial)
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    return pairs * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


def decide(
    pentanomial: Sequence[int],
    *,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    max_pairs: int,
) -> str:
    """ "promote", "keep" or "continue"."""
    pairs = sum(pentanomial)
    lower, upper = bounds(alpha, beta)
    ratio = llr(pentanomial, elo0=elo0, elo1=elo1)
    if pairs >= MIN_PAIRS and ratio >= upper:
        return "promote"
    if pairs >= MIN_PAIRS and ratio <= lower:
        return "keep"
    if pairs >= max_pairs:
        return "keep"  # not shown to be better by the margin: the active version stays
    return "continue"


@dataclass(frozen=True, slots=True)
class Estimate:
    """The new version's estimated lead in Elo, with its 95% interval (pairs-based)."""

    elo: float
    low: float
    high: float


def estimate(pentanomial: Sequence[int]) -> Estimate | None:
    """The lead the pairs so far point to; None before the first pair.

    >>> e = estimate([0, 2, 6, 2, 0])
    >>> round(e.elo), e.low < 0 < e.high
    (0, True)
    """
    pairs, mean, variance = _moments(pentanomial)
    if pairs == 0:
        return None
    half = _Z_95 * math.sqrt(variance / pairs)
    # Half a game from either end: a perfect score says "at least this much", not
    # an infinite lead.
    edge = 1.0 / (4.0 * pairs)

    def lead(score: float) -> float:
        return elo_of_score(min(max(score, edge), 1.0 - edge))

    return Estimate(elo=lead(mean), low=lead(mean - half), high=lead(mean + half))
