"""Fixtures for the page tests: users, logged-in clients, the default ladder."""

from __future__ import annotations

import pytest
from django.test import Client

from arena.matches.models import Competition
from tests.arena.factories import KOREAN, UserFactory


@pytest.fixture
def alice(db):
    return UserFactory(username="alice")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob")


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob) -> Client:
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture(autouse=True)
def default_ladder(db):
    """The default competition the data migration creates; made again if a
    transactional test earlier in the session flushed it."""
    competition, _ = Competition.objects.get_or_create(
        is_default=True,
        defaults={"slug": "korean-2", "name": "Korean, 2 seats", "ruleset": KOREAN, "seats": 2},
    )
    return competition
