"""The pesten ladder: the competition its data migration creates, the ladder queuing
its matches, and one match played by the example bots, recorded and replayable."""

from __future__ import annotations

import importlib
import random

import pytest
from django.apps import apps

import engine
from arena.bots.models import BotVersion
from arena.matches.models import Competition, Game, Match
from arena.matches.selectors import game_log
from arena.play.matchmaking import ladders_matchmake
from arena.play.runner import Outcome, match_run
from arena.ratings.models import Rating
from arena.settings.env import REPO_ROOT
from tests.arena.factories import ActiveBotVersionFactory, match_with_seats

pytestmark = pytest.mark.django_db

PESTEN = engine.PRESETS["pesten"]


def pesten_competition() -> Competition:
    """The migration's row; made again by the migration's own function when a
    transactional test's flush has removed it."""
    migration = importlib.import_module("arena.matches.migrations.0005_pesten_competition")
    migration.create_pesten(apps, None)
    return Competition.objects.get(slug=migration.PESTEN_SLUG)


def example_version(name: str) -> BotVersion:
    source = (REPO_ROOT / "bots_examples" / f"{name}_bot.py").read_bytes()
    return ActiveBotVersionFactory(bot__name=name, source=source)


def test_the_migration_creates_a_two_seat_pesten_ladder():
    pesten = pesten_competition()
    assert pesten.name == "Pesten, 2 seats"
    assert (pesten.seats, pesten.games_per_match) == (2, 4)
    assert pesten.ladder_enabled
    assert not pesten.is_default
    assert engine.Ruleset.from_value(pesten.ruleset) == PESTEN


def test_the_ladder_queues_pesten_matches(settings):
    settings.ARENA_LADDER_BACKLOG_PER_WORKER = 10
    pesten = pesten_competition()
    Competition.objects.exclude(pk=pesten.pk).update(ladder_enabled=False)
    for _ in range(2):
        ActiveBotVersionFactory()
    (match,) = ladders_matchmake(rng=random.Random(1))
    assert match.competition == pesten
    assert match.ruleset == PESTEN.to_dict()
    assert match.games_planned == 4


def test_a_pesten_match_is_played_recorded_and_replayable():
    pesten = pesten_competition()
    match = match_with_seats(
        [example_version("heuristic"), example_version("random")], competition=pesten
    )
    assert match.ruleset == pesten.ruleset
    match.games_planned = 4
    match.save()

    assert match_run(match_id=match.pk) is Outcome.DONE

    match.refresh_from_db()
    assert match.state == Match.State.DONE
    games = list(Game.objects.filter(match=match).order_by("number"))
    assert len(games) == 4
    played: set[str] = set()
    for game in games:
        log = game_log(game=game)
        assert engine.Ruleset.from_value(log["ruleset"]) == PESTEN
        states = list(engine.replay(log))  # raises ReplayError if the stored log is corrupt
        assert states[-1].result()["ranks"] == log["result"]["ranks"]
        assert log["result"]["faults"] == []
        assert sorted(game.ranks) == [1, 2]
        played |= {e["kind"] for e in log["events"]}
        # Only the wild card (pesten's J) names a suit.
        assert {e["card"][0] for e in log["events"] if "suit" in e} <= {"J"}
    assert "skip" in played  # pesten's 8, or an ace with two players
    assert "shield" not in played
    assert Rating.objects.filter(competition=pesten).count() == 2
