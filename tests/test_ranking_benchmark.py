"""benchmarks/ranking.py: one tiny configuration from the committed outcome banks."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from tests.support.benchmark_scripts import benchmark_script

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "ranking.py"


@pytest.fixture(scope="module")
def ranking():
    with benchmark_script("ranking") as module:
        yield module


def test_docstring_examples_hold(ranking):
    failures, tried = doctest.testmod(ranking)
    assert tried > 0
    assert failures == 0


@pytest.mark.parametrize("population", ["spread", "close"])
@pytest.mark.parametrize("seats", [2, 4])
def test_each_bank_holds_every_table_of_its_population(ranking, population, seats):
    bank = ranking.load_bank(population, seats)
    assert bank.epsilons == ranking.POPULATIONS[population]
    assert len(bank.tables) == len(list(ranking.itertools.combinations(range(8), seats)))
    for games in bank.tables.values():
        assert len(games) == bank.deals * seats
        assert all(sorted(game)[0] == 1 and max(game) <= seats for game in games)


def test_the_spread_populations_measured_order_is_the_epsilon_order(ranking):
    bank = ranking.load_bank("spread", 2)
    for model in ("bradley_terry", "plackett_luce"):
        assert ranking.measure_truth(bank, model).order == list(range(8))


@pytest.mark.parametrize("system", ["elo", "plackett_luce"])
def test_a_short_ladder_finds_most_of_the_spread_order(ranking, system):
    bank = ranking.load_bank("spread", 2)
    truths = {m: ranking.measure_truth(bank, m) for m in ("bradley_terry", "plackett_luce")}
    results = {}
    ranking.simulate(
        bank=bank,
        truths=truths,
        system=system,
        policy="information",
        runs=2,
        budget=400,
        results=results,
    )
    for config, runs in results.items():
        assert runs.checkpoints == [50, 100, 150, 200, 300, 400]
        assert all(len(runs.by_checkpoint[c]) == 2 for c in runs.checkpoints)
        assert 0.5 < runs.mean_tau(400) <= 1.0
        assert 0.0 <= runs.top1(400) <= 1.0
        assert 0.0 <= runs.coverage(400) <= 1.0
        if config.variant != "elo-narrow":
            assert runs.coverage(400) >= 0.5  # the displayed intervals hold most bots


def test_the_epsilon_bot_plays_like_the_heuristic_at_zero(ranking):
    import engine
    from bots_examples import builtin_bots

    heuristic = builtin_bots()["heuristic"]
    alone = engine.play_game([heuristic(1), heuristic(2)], seed=3)["result"]
    mixed = engine.play_game(
        [ranking.EpsilonBot(0.0, seed=1), ranking.EpsilonBot(0.0, seed=2)], seed=3
    )["result"]
    assert alone == mixed


@pytest.mark.parametrize("system", ["elo", "plackett_luce"])
def test_a_rating_follows_a_bot_whose_strength_changes(ranking, system):
    bank = ranking.load_bank("spread", 2)
    truths = {m: ranking.measure_truth(bank, m) for m in ("bradley_terry", "plackett_luce")}
    followed = ranking.follow(bank=bank, truths=truths, system=system, policy="information", runs=1)
    assert followed.jump > 200  # epsilon 0.60 to 0.15
    # Both move it: Elo by its fixed K, Plackett-Luce by its drift (without the
    # drift its estimate does not get there in 6,000 ladder games, and it is shown
    # in its new place after 920 of its games; 1141 and 458 with it).
    assert 10 < followed.to_estimate[0] < 1600
    assert followed.to_place[0] < 700
    assert 0.1 < followed.games_per_ladder_game < 0.5


def test_the_cost_of_openskills_ids_is_counted_per_update(ranking):
    lines = ranking.openskill_id_cost()
    # Two ids per seat: the seats' ratings, and the update's copy of them.
    assert lines[0].startswith("- 2 seats: 4 uuid4 per game update")
    assert lines[1].startswith("- 4 seats: 8 uuid4 per game update")
