"""Fixtures for the page tests: users, logged-in clients, real game logs."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

import engine
from engine.builtin import builtin_bots
from tests.arena.factories import UserFactory


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


def real_game_log(*, seed: int = 7, players: int = 2) -> dict[str, Any]:
    """A replayable log of example bots, with the sandbox's extra keys added."""
    factories = builtin_bots()
    kinds = ["greedy", "random", "heuristic"]
    bots = [factories[kinds[s % len(kinds)]](seed + s) for s in range(players)]
    log = engine.play_game(bots, seed=seed, names=[f"seat{s}" for s in range(players)])
    log["seating"] = list(range(players))
    log["stderr"] = [
        [{"event": 1, "turn": 0, "lines": [f"secret thoughts of seat {s} <b>"]}]
        for s in range(players)
    ]
    log["debug"] = [{"seat": s, "event": 2, "text": f"debug of seat {s}"} for s in range(players)]
    return log
