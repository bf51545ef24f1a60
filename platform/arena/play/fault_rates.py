"""Is one worker host's rate of bad matches far above the rest of the pool's?

A bad match is a recorded match in which some bot faulted, or an attempt lost to
the infrastructure (a sandbox that could not run, a lease that ran out). Bots
fault everywhere at some rate; a host that breaks (a corrupt disk, a sandbox that
kills every bot, a clock that times every reply out) makes nearly all of its
matches bad. The test compares the host's count of bad matches with what the
pool's rate predicts: a one-sided binomial test, with a minimum sample on both
sides and an effect size, so that a busy host that is merely a little worse is
never taken out. Pure functions; the database stays out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# A p-value this small, for a host whose rate is at least RATE_RATIO times the
# pool's: a review runs twice a minute over every host, so the threshold is far
# below the usual 0.05 to keep false alarms out over months of reviews.
P_VALUE_THRESHOLD = 1e-6
RATE_RATIO = 2.0
# A pool with no bad match at all would make a single fault significant.
POOL_RATE_FLOOR = 0.01


@dataclass(frozen=True, slots=True)
class Counts:
    """Matches (recorded or lost) and, of them, the bad ones.

    >>> Counts(matches=10, bad=3) + Counts(matches=5, bad=1)
    Counts(matches=15, bad=4)
    """

    matches: int
    bad: int

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.matches + other.matches, self.bad + other.bad)

    @property
    def rate(self) -> float:
        return self.bad / self.matches if self.matches else 0.0


def binomial_tail(*, successes: int, trials: int, rate: float) -> float:
    """P(X >= successes) for X ~ Binomial(trials, rate), summed in log space so
    that hundreds of trials neither overflow nor underflow to nonsense.

    >>> round(binomial_tail(successes=2, trials=2, rate=0.5), 6)
    0.25
    >>> binomial_tail(successes=0, trials=5, rate=0.1)
    1.0
    >>> binomial_tail(successes=20, trials=20, rate=0.01) < 1e-39
    True
    """
    if successes <= 0:
        return 1.0
    if rate <= 0.0:
        return 0.0
    if rate >= 1.0:
        return 1.0
    log_rate, log_miss = math.log(rate), math.log1p(-rate)
    log_terms = [
        math.lgamma(trials + 1)
        - math.lgamma(k + 1)
        - math.lgamma(trials - k + 1)
        + k * log_rate
        + (trials - k) * log_miss
        for k in range(successes, trials + 1)
    ]
    top = max(log_terms)
    return min(1.0, math.exp(top) * sum(math.exp(term - top) for term in log_terms))


def quarantine_reason(*, host: Counts, pool: Counts, min_matches: int) -> str | None:
    """Why the host should be taken out of rotation, or None.

    The host needs `min_matches` of its own, and the pool (every other host in
    rotation) as many: a lone worker cannot tell a broken machine from broken bots.

    >>> print(quarantine_reason(host=Counts(20, 20), pool=Counts(200, 10), min_matches=20))
    20 of its last 20 matches were bad against 5.0 % on the other hosts (p = 9.5e-27)
    >>> quarantine_reason(host=Counts(19, 19), pool=Counts(200, 10), min_matches=20) is None
    True
    >>> quarantine_reason(host=Counts(400, 60), pool=Counts(4000, 400), min_matches=20) is None
    True
    """
    if host.matches < min_matches or pool.matches < min_matches:
        return None
    expected = max(pool.rate, POOL_RATE_FLOOR)
    if host.rate < RATE_RATIO * expected:
        return None
    p_value = binomial_tail(successes=host.bad, trials=host.matches, rate=expected)
    if p_value >= P_VALUE_THRESHOLD:
        return None
    return (
        f"{host.bad} of its last {host.matches} matches were bad against "
        f"{100 * pool.rate:.1f} % on the other hosts (p = {p_value:.1e})"
    )
