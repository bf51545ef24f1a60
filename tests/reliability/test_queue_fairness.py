"""A tournament's backlog does not hold up the ladder: a real worker consuming both
queues takes from them in turn."""

from __future__ import annotations

import pytest

from arena.matches.models import Match
from arena.matches.services import match_create
from arena.tournaments.models import Tournament
from tests.arena.factories import ActiveBotVersionFactory, UserFactory
from tests.reliability.infra import require_ci_services
from tests.support.worker import wait_for

BACKLOG = 6


@pytest.mark.slow
def test_a_ladder_match_queued_behind_a_tournaments_schedule_is_played_among_the_first(workers):
    require_ci_services()
    versions = [ActiveBotVersionFactory(), ActiveBotVersionFactory()]
    tournament = Tournament.objects.create(
        name="Backlog", created_by=UserFactory(), format="round_robin", ruleset={}, seats=2, seed=1
    )
    backlog = [
        match_create(
            kind=Match.Kind.TOURNAMENT,
            versions=versions,
            ruleset=None,
            games=2,
            tournament=tournament,
            rated=False,
        )
        for _ in range(BACKLOG)
    ]
    ladder = match_create(
        kind=Match.Kind.LADDER, versions=versions, ruleset=None, games=2, rated=False
    )
    # One process: it plays one match at a time, in the order it takes them.
    workers(name="fair", concurrency=1).wait_ready()
    ids = [match.pk for match in [*backlog, ladder]]
    wait_for(
        lambda: not Match.objects.filter(pk__in=ids).exclude(state=Match.State.DONE).exists(),
        timeout=120,
        interval=0.5,
        what="every match to be played",
    )
    order = list(
        Match.objects.filter(pk__in=ids).order_by("started_at").values_list("pk", flat=True)
    )
    # On one queue it would be last (FIFO); on its own it is the first or second taken.
    assert order.index(ladder.pk) <= 1, order
