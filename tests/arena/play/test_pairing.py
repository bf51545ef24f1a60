"""The ladder's pairing policies (arena.play.pairing), without the database."""

from __future__ import annotations

import doctest
import random
from collections import Counter

import pytest

from arena.play import pairing
from arena.play.pairing import Candidate, pick_table


def test_module_docstring_examples_hold():
    failures, tried = doctest.testmod(pairing)
    assert tried > 0
    assert failures == 0


def test_an_unknown_policy_is_refused():
    candidates = [Candidate(version=i, elo=1500.0, games=0) for i in range(2)]
    with pytest.raises(pairing.UnknownPolicy):
        pick_table(candidates, 2, random.Random(1), policy="fastest")


def test_the_anchor_is_the_longest_waiting_with_uncertain_bots_waiting_faster():
    settled = Candidate(version="settled", elo=1500.0, games=500, skill=1500.0,
                        uncertainty=60.0, waited=20.0)  # fmt: skip
    new = Candidate(version="new", elo=1500.0, games=5, skill=1500.0,
                    uncertainty=300.0, waited=8.0)  # fmt: skip
    assert pairing.anchor_priority(new) > pairing.anchor_priority(settled)
    never = Candidate(version="never", elo=1500.0, games=0)
    assert pairing.anchor_priority(never) == float("inf")


def test_opponents_are_those_the_table_is_likeliest_to_reorder():
    def bot(name: str, skill: float) -> Candidate:
        return Candidate(version=name, elo=skill, games=200, skill=skill,
                         uncertainty=80.0, waited=1.0)  # fmt: skip

    anchor = Candidate(version="anchor", elo=1500.0, games=200, skill=1500.0,
                       uncertainty=80.0, waited=100.0)  # fmt: skip
    near, far = bot("near", 1520.0), bot("far", 1900.0)
    rng = random.Random(5)
    opponents = Counter(
        next(c.version for c in pick_table([anchor, near, far], 2, rng) if c is not anchor)
        for _ in range(2000)
    )
    assert opponents["near"] > 10 * opponents["far"]
    assert opponents["far"] > 0  # the floor: anyone can still meet anyone


def _simulate(population: dict[str, tuple[float, float, int]], tables: int, seats: int):
    """Schedule `tables` tables through the information policy, as the ladder would:
    each bot's wait counts tables since it last played, and its uncertainty shrinks
    with its games as a rating's interval does. `population` maps a bot to its
    skill, its first uncertainty and the table at which it joins. Returns each
    bot's tables in order."""
    rng = random.Random(17)
    games: Counter[str] = Counter()
    last: dict[str, int] = {}
    played: dict[str, list[int]] = {name: [] for name in population}
    for number in range(tables):
        candidates = [
            Candidate(
                version=name,
                elo=skill,
                games=games[name],
                skill=skill if games[name] else None,
                uncertainty=(start / (1 + games[name]) ** 0.5 + 40.0) if games[name] else None,
                waited=float(number - last[name]) if name in last else None,
            )
            for name, (skill, start, joins) in population.items()
            if number >= joins
        ]
        for chosen in pick_table(candidates, seats, rng):
            games[chosen.version] += 1
            last[chosen.version] = number
            played[chosen.version].append(number)
    return played


@pytest.mark.parametrize("seats", [2, 4])
def test_no_active_bot_starves_across_ten_thousand_tables(seats):
    # A skewed ladder: one bot far ahead, one far behind, twelve alike, and a new
    # version that joins when the ladder has settled.
    population = {f"mid{i}": (1500.0 + 5 * i, 400.0, 0) for i in range(12)}
    population |= {"ahead": (2600.0, 400.0, 0), "behind": (500.0, 400.0, 0)}
    population["new"] = (1500.0, 400.0, 5_000)
    tables = 10_000
    played = _simulate(population, tables=tables, seats=seats)
    bots = len(population)
    # Every bot anchors a table at least once every BURST x (bots) tables, so in
    # any window that long it plays at least once.
    window = int(pairing.BURST * bots)
    for name, numbers in played.items():
        joined = population[name][2]
        gaps = [b - a for a, b in zip([joined - 1, *numbers], [*numbers, tables], strict=True)]
        assert max(gaps) <= window, (name, max(gaps), window)
    # The extremes keep getting opponents: at least a fair share of the anchoring.
    assert len(played["ahead"]) >= tables / bots
    assert len(played["behind"]) >= tables / bots
    # The new version gets a burst: more tables than a settled bot just after it joins.
    burst = [n for n in played["new"] if n < 5_050]
    settled = [n for n in played["mid0"] if 5_000 <= n < 5_050]
    assert len(burst) > 1.5 * len(settled)
