"""Analyses in tests search briefly: a few playouts per decision."""

from __future__ import annotations

import pytest

TEST_ITERATIONS = 24


@pytest.fixture(autouse=True)
def brief_search(settings):
    settings.ARENA_ANALYSIS_ITERATIONS = TEST_ITERATIONS
    settings.ARENA_ANALYSES_PER_DAY = 3
