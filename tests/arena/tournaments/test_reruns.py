"""A tournament match lost to the infrastructure after its last attempt is played
again later, so the tournament still finishes, with every table played."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.matches.models import Match
from arena.play import leases
from arena.tournaments.models import Tournament
from arena.tournaments.selectors import tournament_progress, tournament_standings
from arena.tournaments.services import tournament_start
from tests.arena.ratings.factories import UserFactory

from .helpers import fail_match, lose_match, record_match, strongest_wins
from .test_services import bots_of, create

pytestmark = pytest.mark.django_db


def _started(bots_count: int = 3) -> tuple[Tournament, list, list[Match]]:
    user = UserFactory()
    bots = bots_of(user, bots_count)
    tournament = create(user, bots)
    tournament_start(tournament_id=tournament.pk)
    return tournament, bots, list(Match.objects.filter(tournament=tournament).order_by("pk"))


def test_a_lost_match_is_played_again_later_and_the_tournament_finishes_whole(
    django_capture_on_commit_callbacks,
):
    tournament, bots, matches = _started()
    lost = matches[0]
    before = timezone.now()
    with django_capture_on_commit_callbacks() as callbacks:
        lose_match(lost)
    assert callbacks == []  # nothing sent now: the rerun waits
    rerun = (
        Match.objects.filter(tournament=tournament).exclude(pk__in=[m.pk for m in matches]).get()
    )
    assert rerun.state == Match.State.QUEUED
    assert (rerun.seed, rerun.games_planned, rerun.ruleset) == (
        lost.seed,
        lost.games_planned,
        lost.ruleset,
    )
    assert list(rerun.seats.order_by("index").values_list("bot_version_id", flat=True)) == list(
        lost.seats.order_by("index").values_list("bot_version_id", flat=True)
    )
    wait = rerun.lease_expires_at - before
    assert timedelta(minutes=4, seconds=59) < wait < timedelta(minutes=5, seconds=5)
    lost.refresh_from_db()
    assert f"Played again as match {rerun.pk}." in lost.error

    # The other tables are played; the tournament waits for the lost one.
    for match in matches[1:]:
        record_match(match, strongest_wins({b.pk: b.pk for b in bots}))
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING
    assert tournament_progress(tournament=tournament) == (2, 3)

    # The sweeper sends it once its time has come, not before.
    assert leases.matches_resend_queued() == []
    assert leases.matches_resend_queued(now=rerun.lease_expires_at + timedelta(seconds=1)) == [
        rerun.pk
    ]
    record_match(rerun, strongest_wins({b.pk: b.pk for b in bots}))
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.DONE
    assert tournament.error == ""
    assert tournament_progress(tournament=tournament) == (3, 3)
    standings = tournament_standings(tournament=tournament)
    assert [row.bot_id for row in standings] == [b.pk for b in reversed(bots)]
    assert {row.games for row in standings} == {4}  # two tables of two games each


def test_each_loss_of_a_table_doubles_the_wait_up_to_an_hour():
    tournament, _bots, matches = _started()
    table = matches[0]
    waits = []
    for _ in range(6):
        started = timezone.now()
        lose_match(table)
        table = Match.objects.filter(tournament=tournament, seed=table.seed).latest("pk")
        assert table.state == Match.State.QUEUED
        waits.append(round((table.lease_expires_at - started).total_seconds() / 60))
    assert waits == [5, 10, 20, 40, 60, 60]
    tournament.refresh_from_db()
    assert tournament.state == Tournament.State.RUNNING


def test_a_match_that_cannot_be_played_is_not_played_again_and_is_named():
    tournament, bots, matches = _started()
    fail_match(matches[1])
    for match in [matches[0], matches[2]]:
        record_match(match, strongest_wins({b.pk: b.pk for b in bots}))
    tournament.refresh_from_db()
    assert Match.objects.filter(tournament=tournament).count() == 3
    assert tournament.state == Tournament.State.DONE
    assert f"1 of 3 matches failed ({matches[1].pk})" in tournament.error


def test_a_finished_tournament_plays_nothing_again():
    tournament, _bots, matches = _started()
    Tournament.objects.filter(pk=tournament.pk).update(state=Tournament.State.FAILED)
    lose_match(matches[0])
    assert Match.objects.filter(tournament=tournament).count() == 3
