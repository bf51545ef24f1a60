"""The start task is a thin, idempotent interface over tournament_start."""

import pytest

from arena.matches.models import Match
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_create
from arena.tournaments.tasks import start_tournament
from tests.arena.ratings.factories import ActiveBotVersionFactory, BotFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_start_task_schedules_once_and_ignores_missing_tournaments():
    user = UserFactory()
    bots = [ActiveBotVersionFactory(bot=BotFactory(owner=user)).bot for _ in range(3)]
    tournament = tournament_create(
        user=user,
        name="Task cup",
        format="round_robin",
        ruleset="korean",
        seats=2,
        games_per_match=2,
        bots=bots,
    )
    assert start_tournament.name == "arena.tournaments.start_tournament"
    start_tournament.run(tournament.pk)
    start_tournament.run(tournament.pk)  # a redelivered message
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    assert Match.objects.filter(tournament=tournament).count() == 3
    start_tournament.run(10**9)  # gone: nothing to do, no error
