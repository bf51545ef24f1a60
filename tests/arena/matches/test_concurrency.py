"""Overlapping matchmaking runs and simultaneous challenges on PostgreSQL."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from arena.matches.models import Match, MatchSeat
from arena.matches.services import challenge_create
from arena.play.matchmaking import ladders_matchmake
from tests.arena.bots.test_concurrency import race
from tests.arena.factories import ActiveBotVersionFactory


@pytest.fixture
def postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks under real concurrency need PostgreSQL (CI runs it)")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_overlapping_matchmaking_never_seats_a_bot_twice(postgres_only, settings, monkeypatch):
    monkeypatch.setattr("arena.matches.services.task_queue_on_commit", lambda *_a, **_k: None)
    settings.ARENA_LADDER_BACKLOG_PER_WORKER = 50
    for _ in range(12):
        ActiveBotVersionFactory()
    results = race(
        [lambda seed=seed: ladders_matchmake(rng=random.Random(seed)) for seed in range(4)]
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    seated = list(MatchSeat.objects.values_list("bot_id", flat=True))
    assert len(seated) == len(set(seated)) == 12
    assert Match.objects.count() == 6


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_simultaneous_challenges_cannot_overrun_the_quota(postgres_only, settings, monkeypatch):
    monkeypatch.setattr("arena.matches.services.task_queue_on_commit", lambda *_a, **_k: None)
    settings.ARENA_CHALLENGES_PER_DAY = 2
    mine = ActiveBotVersionFactory()
    theirs = ActiveBotVersionFactory()
    user = mine.bot.owner
    results = race(
        [lambda: challenge_create(user=user, bot=mine.bot, opponent=theirs.bot) for _ in range(5)]
    )
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == 3, results
    assert Match.objects.filter(kind=Match.Kind.CHALLENGE).count() == 2
