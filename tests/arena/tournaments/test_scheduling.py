"""Tournament schedules: every pair in a round robin, balanced multi-seat tables."""

import doctest
import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.tournaments import scheduling


@pytest.mark.parametrize("entrants", [2, 3, 4, 7, 12])
@pytest.mark.parametrize("rounds", [1, 2])
def test_round_robin_meets_every_pair_once_per_round(entrants, rounds):
    schedule = scheduling.round_robin_schedule(entrants=entrants, rounds=rounds)
    meetings = scheduling.pair_meetings(schedule)
    assert set(meetings) == set(itertools.combinations(range(entrants), 2))
    assert set(meetings.values()) == {rounds}
    assert all(len(table) == 2 and table[0] != table[1] for table in schedule)
    assert len(schedule) == scheduling.schedule_size(
        format="round_robin", entrants=entrants, seats=2, rounds=rounds
    )


def test_a_second_round_lists_each_pair_the_other_way_round():
    first, second = (
        scheduling.round_robin_schedule(entrants=3, rounds=2)[:3],
        scheduling.round_robin_schedule(entrants=3, rounds=2)[3:],
    )
    assert second == [(b, a) for a, b in first]


FIELDS = [(3, 3), (4, 3), (5, 3), (6, 3), (7, 3), (8, 4), (9, 4), (10, 4), (6, 6), (12, 5)]


@pytest.mark.parametrize(("entrants", "seats"), FIELDS)
def test_balanced_rounds_seat_everyone_equally_and_spread_meetings(entrants, seats):
    schedule = scheduling.balanced_schedule(entrants=entrants, seats=seats, rounds=1, seed=11)
    assert len(schedule) == scheduling.schedule_size(
        format="balanced", entrants=entrants, seats=seats, rounds=1
    )
    assert all(len(table) == seats == len(set(table)) for table in schedule)
    sat = Counter(e for table in schedule for e in table)
    assert set(sat) == set(range(entrants))
    assert len(set(sat.values())) == 1, sat
    meetings = scheduling.pair_meetings(schedule)
    counts = [meetings[p] for p in itertools.combinations(range(entrants), 2)]
    assert max(counts) - min(counts) <= 2, counts


@pytest.mark.parametrize(("entrants", "seats"), [(7, 3), (9, 3), (4, 3)])
def test_where_a_perfect_design_is_small_it_is_found(entrants, seats):
    # 7 at 3 seats: the Fano plane, every pair exactly once; 9 at 3: an affine plane
    # (12 tables) within the 12 the round size allows; 4 at 3: every pair twice.
    schedule = scheduling.balanced_schedule(entrants=entrants, seats=seats, rounds=1, seed=2)
    assert scheduling.meeting_spread(schedule, entrants=entrants)[0] == 0


def test_more_rounds_mean_more_meetings_and_the_seed_fixes_the_schedule():
    one = scheduling.balanced_schedule(entrants=6, seats=3, rounds=1, seed=5)
    three = scheduling.balanced_schedule(entrants=6, seats=3, rounds=3, seed=5)
    assert len(three) == 3 * len(one)
    counts = scheduling.pair_meetings(three)
    assert min(counts[p] for p in itertools.combinations(range(6), 2)) >= 2
    assert scheduling.balanced_schedule(entrants=6, seats=3, rounds=3, seed=5) == three


def test_too_few_entrants_are_refused():
    with pytest.raises(scheduling.ScheduleError):
        scheduling.balanced_schedule(entrants=3, seats=4, rounds=1, seed=0)
    with pytest.raises(scheduling.ScheduleError):
        scheduling.round_robin_schedule(entrants=1, rounds=1)


def test_module_docstring_examples_hold():
    failures, tried = doctest.testmod(scheduling)
    assert tried > 0
    assert failures == 0


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_any_balanced_field_seats_everyone_equally_at_full_distinct_tables(data):
    seats = data.draw(st.integers(3, 8), label="seats")
    entrants = data.draw(st.integers(seats, 16), label="entrants")
    rounds = data.draw(st.integers(1, 2), label="rounds")
    schedule = scheduling.balanced_schedule(
        entrants=entrants, seats=seats, rounds=rounds, seed=data.draw(st.integers(0, 2**62))
    )
    assert len(schedule) == scheduling.schedule_size(
        format="balanced", entrants=entrants, seats=seats, rounds=rounds
    )
    assert all(len(set(table)) == seats for table in schedule)
    sat = Counter(e for table in schedule for e in table)
    assert sorted(sat) == list(range(entrants))
    assert len(set(sat.values())) == 1
    meetings = scheduling.pair_meetings(schedule)
    # Enough tables for every pair to meet once per round, on average.
    assert sum(meetings.values()) >= rounds * entrants * (entrants - 1) // 2
