"""A queued match whose bot is deleted before a worker plays it: the worker does
not crash, nobody is blamed, and the match ends failed."""

from __future__ import annotations

import pytest

from arena.bots.models import BotVersion
from arena.bots.services import bot_delete
from arena.matches.models import Match
from arena.play.runner import Outcome, match_run
from arena.ratings.models import Rating
from tests.arena.factories import match_with_seats

pytestmark = pytest.mark.django_db


def test_a_queued_match_of_a_deleted_bot_fails_without_blaming_anyone(
    settings, django_capture_on_commit_callbacks
):
    settings.ARENA_MATCH_MAX_ATTEMPTS = 2
    match = match_with_seats()
    gone, stays = (seat.bot for seat in match.seats.order_by("index"))
    with django_capture_on_commit_callbacks(execute=True):
        bot_delete(user=gone.owner, bot=gone)
    outcomes = [match_run(match_id=match.pk) for _ in range(settings.ARENA_MATCH_MAX_ATTEMPTS)]
    assert outcomes == [Outcome.RETRY, Outcome.FAILED]
    match.refresh_from_db()
    assert match.state == Match.State.FAILED
    assert "no file associated" in match.error  # the stored code is gone
    assert not match.games.exists()
    assert not Rating.objects.exists()
    survivor = BotVersion.objects.get(bot=stays)
    assert survivor.status == BotVersion.Status.ACTIVE
    assert survivor.consecutive_faulted_matches == 0
