"""Several real workers finishing matches of the same bots at the same moment.

Every match shares its bots with every other one, so the workers keep racing for
the same Rating rows (in both seat orders). The lock order in
`match_record_result` must keep that from losing an update or deadlocking, and the
ratings the workers stored must be exactly what `recompute_ratings` rebuilds.
"""

from __future__ import annotations

import itertools

import pytest
from django.core.management import call_command

from arena.matches.models import Game, Match
from arena.matches.services import match_create
from arena.ratings.models import Rating, RatingChange
from tests.arena.factories import ActiveBotVersionFactory, CompetitionFactory
from tests.reliability.bots import paced_bot_source
from tests.reliability.infra import require_ci_services
from tests.support.worker import wait_for

BOTS = 4
GAMES_PER_MATCH = 1


def queue_matches(count: int) -> tuple[list[Match], object]:
    """`count` rated matches over every ordered pair of four bots, queued in one go
    while the workers wait for them."""
    competition = CompetitionFactory(seats=2, games_per_match=GAMES_PER_MATCH)
    versions = [ActiveBotVersionFactory(source=paced_bot_source(0)) for _ in range(BOTS)]
    tables = itertools.cycle(itertools.permutations(versions, 2))
    matches = [
        match_create(
            kind=Match.Kind.LADDER,
            versions=list(next(tables)),
            ruleset=competition.ruleset,
            games=GAMES_PER_MATCH,
            competition=competition,
            rated=True,
        )
        for _ in range(count)
    ]
    return matches, competition


@pytest.mark.slow
@pytest.mark.parametrize(("worker_count", "match_count"), [(2, 150), (4, 150)])
def test_racing_workers_lose_no_rating_update(workers, worker_count, match_count):
    require_ci_services()
    started = [workers(name="racer") for _ in range(worker_count)]
    for worker in started:
        worker.wait_ready()  # all of them racing from the first match on
    matches, competition = queue_matches(match_count)
    ids = [m.pk for m in matches]

    def settled() -> bool:
        return not Match.objects.filter(
            pk__in=ids, state__in=[Match.State.QUEUED, Match.State.RUNNING]
        ).exists()

    wait_for(settled, timeout=60 + 3 * match_count, interval=1, what="every match to finish")

    states = Match.objects.filter(pk__in=ids)
    assert sorted({m.state for m in states}) == [Match.State.DONE], [
        (m.pk, m.state, m.error) for m in states if m.state != Match.State.DONE
    ]
    # One attempt each: no deadlock victim, no crash, no retry.
    assert {m.attempts for m in states} == {1}
    assert all(m.error == "" for m in states)
    # Every worker took part: the race was real.
    players = {m.worker.split(":")[1] for m in states}
    assert len(players) >= worker_count
    assert not any("deadlock" in w.log().lower() for w in started)

    games = match_count * GAMES_PER_MATCH
    assert Game.objects.filter(match_id__in=ids).count() == games
    assert RatingChange.objects.filter(game__match_id__in=ids).count() == 2 * games
    ratings = list(Rating.objects.filter(competition=competition))
    assert sum(r.games for r in ratings) == 2 * games
    for rating in ratings:
        chain = list(RatingChange.objects.filter(rating=rating).order_by("id"))
        assert len(chain) == rating.games
        # Each update started from the one before it: none read a stale rating.
        assert [c.before for c in chain[1:]] == [c.after for c in chain[:-1]]
        assert chain[-1].after == rating.elo
    call_command("recompute_ratings", "--check", "--competition", competition.slug)
