"""The promotion test's statistics (arena.matches.sprt), and its error rates."""

from __future__ import annotations

import doctest
import random

import pytest

from arena.matches import sprt


def test_module_docstring_examples_hold():
    failures, tried = doctest.testmod(sprt)
    assert tried > 0
    assert failures == 0


def test_bad_inputs_are_refused():
    with pytest.raises(sprt.SprtInputError):
        sprt.llr([1, 2, 3], elo0=0, elo1=30)
    with pytest.raises(sprt.SprtInputError):
        sprt.llr([1, 2, 3, 4, 5], elo0=30, elo1=0)
    with pytest.raises(sprt.SprtInputError):
        sprt.bounds(0.6, 0.05)


def test_a_handful_of_lucky_pairs_decides_nothing():
    assert sprt.decide([0, 0, 0, 0, 5], elo0=0, elo1=30, alpha=0.05, beta=0.05,
                       max_pairs=1000) == "continue"  # fmt: skip


def _run(elo: float, rng: random.Random, *, draw: float = 0.1) -> tuple[str, int]:
    """One test on simulated pairs between versions `elo` apart: each game a win,
    a draw (an adjudicated shared place) or a loss."""
    win = sprt.score_of_elo(elo) - draw / 2
    counts = [0, 0, 0, 0, 0]
    while True:
        half_points = 0
        for _ in range(2):
            roll = rng.random()
            half_points += 2 if roll < win else 1 if roll < win + draw else 0
        counts[half_points] += 1
        verdict = sprt.decide(counts, elo0=0, elo1=30, alpha=0.05, beta=0.05, max_pairs=2000)
        if verdict != "continue":
            return verdict, sum(counts)


@pytest.mark.parametrize(("true_elo", "promotes_at_most", "promotes_at_least"),
                         [(0.0, 0.08, 0.0), (30.0, 1.0, 0.90), (-20.0, 0.01, 0.0)])  # fmt: skip
def test_error_rates_hold_over_repeated_tests(true_elo, promotes_at_most, promotes_at_least):
    # alpha = beta = 0.05: a version no better (H0) is promoted at most 5% of the
    # time, one better by the margin (H1) at least 95%; over 400 runs the binomial
    # spread is about 1.1 points, and the normal approximation costs a little.
    rng = random.Random(2024)
    runs = [_run(true_elo, rng) for _ in range(400)]
    promoted = sum(verdict == "promote" for verdict, _ in runs) / len(runs)
    assert promotes_at_least <= promoted <= promotes_at_most, promoted


def test_the_estimate_brackets_the_true_lead():
    rng = random.Random(5)
    counts = [0, 0, 0, 0, 0]
    p = sprt.score_of_elo(100.0)
    for _ in range(3000):
        counts[2 * ((rng.random() < p) + (rng.random() < p))] += 1
    estimate = sprt.estimate(counts)
    assert estimate.low < 100.0 < estimate.high
    assert estimate.high - estimate.low < 40
