"""Fixtures of the security tests."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from arena.matches.models import Competition
from tests.arena.factories import KOREAN


@pytest.fixture(autouse=True)
def default_ladder(request):
    """The default competition the data migration creates, made again if a
    transactional test earlier in the session flushed it."""
    if "django_db" not in {mark.name for mark in request.node.iter_markers()}:
        return None
    request.getfixturevalue("db")
    competition, _ = Competition.objects.get_or_create(
        is_default=True,
        defaults={"slug": "korean-2", "name": "Korean, 2 seats", "ruleset": KOREAN, "seats": 2},
    )
    return competition


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Throttles count in the cache: every test starts with a clean count."""
    cache.clear()
    yield
    cache.clear()
