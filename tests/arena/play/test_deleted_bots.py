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


def test_a_queued_match_of_a_deleted_bot_fails_at_once_without_blaming_anyone(
    django_capture_on_commit_callbacks,
):
    match = match_with_seats()
    gone, stays = (seat.bot for seat in match.seats.order_by("index"))
    with django_capture_on_commit_callbacks(execute=True):
        bot_delete(user=gone.owner, bot=gone)
    assert match_run(match_id=match.pk) is Outcome.FAILED
    match.refresh_from_db()
    assert match.state == Match.State.FAILED
    assert match.attempts == 1
    gone.refresh_from_db()  # its tombstone's neutral name
    assert f"Not played: {gone.name} was deleted by its owner." in match.error
    assert not match.games.exists()
    assert not Rating.objects.exists()
    survivor = BotVersion.objects.get(bot=stays)
    assert survivor.status == BotVersion.Status.ACTIVE
    assert survivor.consecutive_faulted_matches == 0
