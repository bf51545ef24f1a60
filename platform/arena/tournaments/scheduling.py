"""Which entrants sit at which table: pure functions of the field and a seed.

Entrants are numbered 0..n-1; a schedule is a list of tables, each a tuple of
entrant numbers. Seat rotation within a table (each bot at each seat, each deal once
per rotation) is the match runner's job, so the order inside a table does not
matter for fairness.

Round robin (2 seats): every pair meets once per round.

Balanced rounds (3+ seats): a round has enough tables for every pair to be able to
meet (at least n(n-1) / (k(k-1)) tables) and a multiple of n seats in total, so
that every entrant sits down equally often. Tables are filled greedily with the
entrants that have sat least, preferring those that have met least; then random
swaps of two entrants between two tables (which keep everyone's number of tables)
are kept when they lower the sum of squared pair meetings, which, for a fixed number
of meetings, is lowest when they are spread evenly. The best of several seeded
attempts is kept.

>>> round_robin_schedule(entrants=3, rounds=1)
[(0, 1), (0, 2), (1, 2)]
>>> sorted(map(len, balanced_schedule(entrants=6, seats=3, rounds=1, seed=1)))
[3, 3, 3, 3, 3, 3]
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

Table = tuple[int, ...]
ATTEMPTS = 8
SWAP_TRIES = 3000


class ScheduleError(ValueError):
    """A field that the format cannot schedule (too few entrants for a table)."""


def round_robin_schedule(*, entrants: int, rounds: int) -> list[Table]:
    """Every pair once per round; later rounds swap the listed order of each pair."""
    if entrants < 2:
        raise ScheduleError("a round robin needs at least two entrants")
    pairs = list(itertools.combinations(range(entrants), 2))
    schedule: list[Table] = []
    for round_number in range(rounds):
        schedule.extend(pairs if round_number % 2 == 0 else [(b, a) for a, b in pairs])
    return schedule


def balanced_tables_per_round(*, entrants: int, seats: int) -> int:
    """The fewest tables that let every pair meet and seat everyone equally often."""
    if entrants < seats:
        raise ScheduleError(f"a {seats}-seat table needs at least {seats} entrants")
    needed = math.ceil(entrants * (entrants - 1) / (seats * (seats - 1)))
    tables = max(needed, 1)
    while (tables * seats) % entrants:
        tables += 1
    return tables


def schedule_size(*, format: str, entrants: int, seats: int, rounds: int) -> int:
    """How many matches a schedule has, without building it."""
    if format == "round_robin":
        return rounds * entrants * (entrants - 1) // 2
    return rounds * balanced_tables_per_round(entrants=entrants, seats=seats)


def balanced_schedule(*, entrants: int, seats: int, rounds: int, seed: int) -> list[Table]:
    """Tables of `seats` entrants; each entrant sits equally often and each pair
    meets about equally often (the spread of meeting counts is minimised)."""
    tables = rounds * balanced_tables_per_round(entrants=entrants, seats=seats)
    rng = random.Random(seed)
    best: list[Table] | None = None
    best_cost: tuple[int, int] | None = None
    for _ in range(ATTEMPTS):
        candidate = _greedy_tables(entrants=entrants, seats=seats, tables=tables, rng=rng)
        candidate = _improve_by_swaps(candidate, rng=rng)
        cost = meeting_spread(candidate, entrants=entrants)
        if best_cost is None or cost < best_cost:
            best, best_cost = candidate, cost
    assert best is not None
    return best


def meeting_spread(schedule: list[Table], *, entrants: int) -> tuple[int, int]:
    """(max - min meetings over all pairs, sum of squared meetings): lower is fairer."""
    meetings = pair_meetings(schedule)
    counts = [meetings[pair] for pair in itertools.combinations(range(entrants), 2)]
    if not counts:
        return (0, 0)
    return (max(counts) - min(counts), sum(c * c for c in counts))


def pair_meetings(schedule: list[Table]) -> Counter[tuple[int, int]]:
    meetings: Counter[tuple[int, int]] = Counter()
    for table in schedule:
        for a, b in itertools.combinations(sorted(table), 2):
            meetings[(a, b)] += 1
    return meetings


def _greedy_tables(*, entrants: int, seats: int, tables: int, rng: random.Random) -> list[Table]:
    sat: Counter[int] = Counter()
    meetings: Counter[tuple[int, int]] = Counter()
    schedule: list[Table] = []
    for _ in range(tables):
        table: list[int] = []
        while len(table) < seats:
            free = [e for e in range(entrants) if e not in table]
            fewest = min(sat[e] for e in free)
            # Only those who have sat least may sit, so sitting stays balanced.
            pool = [e for e in free if sat[e] == fewest]
            rng.shuffle(pool)
            chosen = min(pool, key=lambda e: sum(meetings[(min(e, o), max(e, o))] for o in table))
            table.append(chosen)
        for a, b in itertools.combinations(sorted(table), 2):
            meetings[(a, b)] += 1
        for e in table:
            sat[e] += 1
        schedule.append(tuple(table))
    return schedule


def _improve_by_swaps(schedule: list[Table], *, rng: random.Random) -> list[Table]:
    tables = [list(table) for table in schedule]
    if len(tables) < 2:
        return schedule
    meetings = pair_meetings(schedule)

    def key(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    def moved_pairs(member: int, newcomer: int, table: list[int]) -> list[tuple[int, int]]:
        # The pairs `member` leaves behind and those `newcomer` forms, at `table`.
        others = [o for o in table if o != member]
        return [key(member, o) for o in others] + [key(newcomer, o) for o in others]

    for _ in range(SWAP_TRIES):
        first, second = rng.sample(range(len(tables)), 2)
        a = rng.choice(tables[first])
        b = rng.choice(tables[second])
        if a == b or b in tables[first] or a in tables[second]:
            continue
        seats = len(tables[first]) - 1
        changes: Counter[tuple[int, int]] = Counter()
        for table, leaving, arriving in ((tables[first], a, b), (tables[second], b, a)):
            pairs = moved_pairs(leaving, arriving, table)
            for pair in pairs[:seats]:
                changes[pair] -= 1
            for pair in pairs[seats:]:
                changes[pair] += 1
        delta = sum((meetings[p] + d) ** 2 - meetings[p] ** 2 for p, d in changes.items())
        if delta <= 0:  # sideways moves too, to walk off plateaus
            meetings.update(changes)
            tables[first][tables[first].index(a)] = b
            tables[second][tables[second].index(b)] = a
    return [tuple(table) for table in tables]
