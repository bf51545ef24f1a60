"""Queued matches whose broker message was lost are sent again, once per period."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from arena.matches.models import Match
from arena.play import leases
from tests.arena.factories import CompetitionFactory, match_with_seats

pytestmark = pytest.mark.django_db


def test_a_match_queued_too_long_is_sent_again_once_per_period(
    settings, django_capture_on_commit_callbacks
):
    settings.ARENA_MATCH_RESEND_SECONDS = 600
    fresh = match_with_seats(competition=CompetitionFactory())
    stale = match_with_seats(competition=CompetitionFactory())
    Match.objects.filter(pk=stale.pk).update(created_at=timezone.now() - timedelta(minutes=11))
    running = match_with_seats(competition=CompetitionFactory())
    Match.objects.filter(pk=running.pk).update(created_at=timezone.now() - timedelta(hours=1))
    leases.match_claim(match_id=running.pk, token="alive")

    with django_capture_on_commit_callbacks() as sent:
        assert leases.matches_resend_queued() == [stale.pk]
    assert len(sent) == 1
    # Within the period, no second message for the same match.
    assert leases.matches_resend_queued() == []
    later = timezone.now() + timedelta(minutes=11)
    assert leases.matches_resend_queued(now=later) == sorted([stale.pk, fresh.pk])
    assert Match.objects.get(pk=fresh.pk).state == Match.State.QUEUED


def test_a_requeued_match_waits_a_full_period_before_a_resend(settings):
    settings.ARENA_MATCH_RESEND_SECONDS = 600
    match = match_with_seats(competition=CompetitionFactory())
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(hours=1))
    claim = leases.match_claim(match_id=match.pk, token="w1")
    assert leases.match_release(claim=claim, error="no docker") == "retry"
    # The release queued a retry of its own: no duplicate right away.
    assert leases.matches_resend_queued() == []
    later = timezone.now() + timedelta(minutes=11)
    assert leases.matches_resend_queued(now=later) == [match.pk]
