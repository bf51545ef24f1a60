"""The Elo module: the standard logistic expectation and the N-seat pairwise update."""

import doctest
import math
import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.ratings import elo


@pytest.mark.parametrize(
    ("difference", "expected"), [(0, 0.500), (100, 0.640), (200, 0.760), (400, 0.909)]
)
def test_expected_score_is_the_standard_logistic_curve(difference, expected):
    assert round(elo.expected_score(1500 + difference, 1500), 3) == expected
    assert round(elo.expected_score(1500, 1500 + difference), 3) == round(1 - expected, 3)


def test_two_seat_game_moves_both_ratings_by_k_times_surprise():
    after = elo.game_update(ratings=[1600.0, 1500.0], ranks=[2, 1], games_played=[50, 50])
    surprise = 1 - elo.expected_score(1500, 1600)
    assert after[1] == pytest.approx(1500 + elo.K_FACTOR * surprise)
    assert after[0] == pytest.approx(1600 - elo.K_FACTOR * surprise)


def test_provisional_bots_move_with_the_larger_k():
    before = elo.PROVISIONAL_GAMES - 1
    new, settled = elo.game_update(
        ratings=[1500.0, 1500.0], ranks=[1, 2], games_played=[before, elo.PROVISIONAL_GAMES]
    )
    assert new - 1500 == elo.K_PROVISIONAL / 2
    assert 1500 - settled == elo.K_FACTOR / 2


def test_equal_ranks_draw():
    assert elo.game_update(ratings=[1500.0, 1500.0], ranks=[1, 1], games_played=[30, 30]) == [
        1500.0,
        1500.0,
    ]
    higher, lower = elo.game_update(ratings=[1700.0, 1500.0], ranks=[1, 1], games_played=[30, 30])
    assert higher < 1700
    assert lower > 1500


def test_each_pair_of_a_four_seat_game_is_weighted_k_over_three():
    after = elo.game_update(ratings=[1500.0] * 4, ranks=[1, 2, 3, 4], games_played=[100] * 4)
    step = elo.K_FACTOR / 3 * 0.5
    assert after == pytest.approx([1500 + 3 * step, 1500 + step, 1500 - step, 1500 - 3 * step])


@given(
    ratings=st.lists(st.floats(min_value=0, max_value=3000), min_size=2, max_size=8),
    data=st.data(),
)
def test_with_equal_k_an_update_is_zero_sum_and_order_free(ratings, data):
    n = len(ratings)
    ranks = data.draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    after = elo.game_update(ratings=ratings, ranks=ranks, games_played=[100] * n)
    assert sum(after) == pytest.approx(sum(ratings), abs=1e-6)
    reversed_after = elo.game_update(
        ratings=ratings[::-1], ranks=ranks[::-1], games_played=[100] * n
    )
    assert reversed_after[::-1] == pytest.approx(after)
    for i in range(n):
        assert abs(after[i] - ratings[i]) <= elo.K_FACTOR + 1e-9


def test_mismatched_inputs_are_refused():
    with pytest.raises(elo.EloInputError):
        elo.game_update(ratings=[1500.0], ranks=[1], games_played=[0])
    with pytest.raises(elo.EloInputError):
        elo.game_update(ratings=[1500.0, 1500.0], ranks=[1], games_played=[0, 0])


def test_interval_narrows_with_games_and_tells_when_bots_are_separable():
    assert elo.confidence_interval(elo=1500.0, games=0) is None
    few = elo.confidence_interval(elo=1500.0, games=10)
    many = elo.confidence_interval(elo=1500.0, games=1000)
    assert few.half_width > many.half_width * 2
    assert few.low < 1500 < few.high
    # 100 games at an even score: the performance error, 400 / (ln 10 * sqrt(25)),
    # and Elo's own wobble at K = 32, sqrt(32 * 400 / (2 ln 10)), both at 1.96.
    assert elo.confidence_interval(elo=1500.0, games=100).half_width == pytest.approx(
        1.96 * math.sqrt((400 / (math.log(10) * 5)) ** 2 + 32 * 400 / (2 * math.log(10))),
        abs=0.05,
    )
    assert few.overlaps(elo.confidence_interval(elo=1600.0, games=10))
    assert not many.overlaps(elo.confidence_interval(elo=1800.0, games=1000))


def test_the_interval_never_narrows_below_elos_own_wobble():
    # A fixed K keeps a rating moving around the bot's strength with a standard
    # deviation of about sqrt(K * 400 / (2 ln 10)) (53 points at K = 32), whatever
    # the number of games: an interval narrower than that would claim too much.
    floor = 1.96 * math.sqrt(32 * 400 / (2 * math.log(10)))
    assert elo.confidence_interval(elo=1500.0, games=10**6).half_width >= floor
    # At 4 seats each pair counts K/3: the wobble is smaller.
    assert elo.confidence_interval(elo=1500.0, games=10**6, seats=4).half_width < floor


@pytest.mark.parametrize("seats", [2, 4])
def test_the_wobble_term_is_the_variance_a_settled_rating_shows(seats):
    # Eight like bots at random tables, every place equally likely: their ratings
    # keep moving around 1500, and the term must predict how far (counting a game's
    # pairwise results as independent predicts 3/5 of it at four seats). Measured
    # around the pool's mean, which the opponents' own errors pull each rating
    # towards: (n - 1) / n of the variance against fixed opponents.
    bots = 8
    rng = random.Random(5)
    ratings = [1500.0] * bots
    seen = []
    for game in range(30_000):
        table = rng.sample(range(bots), seats)
        after = elo.game_update(
            ratings=[ratings[b] for b in table],
            ranks=rng.sample(range(1, seats + 1), seats),
            games_played=[100] * seats,
        )
        for bot, rating in zip(table, after, strict=True):
            ratings[bot] = rating
        if game >= 1000 and game % 10 == 0:
            seen.extend(ratings)
    measured = statistics.pvariance(seen, mu=1500.0) * bots / (bots - 1)
    assert measured == pytest.approx(elo.wobble_variance(k=elo.K_FACTOR, seats=seats), rel=0.12)


def test_a_perfect_score_does_not_collapse_the_interval():
    perfect = elo.confidence_interval(elo=1500.0, games=100, score=1.0)
    assert (
        perfect.half_width == elo.confidence_interval(elo=1500.0, games=100, score=0.9).half_width
    )


def test_module_docstring_examples_hold():
    failures, tried = doctest.testmod(elo)
    assert tried > 0
    assert failures == 0
