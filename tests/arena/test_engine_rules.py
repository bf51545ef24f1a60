"""The platform plays the engine's rules: its table sizes, its presets and its
`korean` ruleset, never copies of them that could drift."""

from __future__ import annotations

import importlib

import pytest
from django.core.exceptions import ValidationError

import engine
from arena.bots.models import Bot
from arena.matches.defaults import KOREAN_RULESET
from arena.matches.models import Match
from arena.matches.services import competition_create, match_create
from arena.tournaments.api.serializers import TournamentCreateInputSerializer
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_create
from arena.web.forms import TournamentForm, ruleset_choices
from tests.arena.factories import ActiveBotVersionFactory, UserFactory

OUTSIDE = [engine.MIN_PLAYERS - 1, engine.MAX_PLAYERS + 1]
BOUNDS = f"{engine.MIN_PLAYERS} to {engine.MAX_PLAYERS}"


def test_the_default_migration_wrote_the_engines_korean_preset():
    # The migration keeps its literal copy forever; if the engine's preset ever
    # changes, this says that the default ladder no longer plays it. The copy
    # spells out every option the engine had then, and loads as the preset.
    migration = importlib.import_module("arena.matches.migrations.0002_default_competition")
    korean = engine.Ruleset.preset("korean")
    assert engine.Ruleset.from_value(migration.KOREAN_RULESET) == korean
    assert engine.Ruleset.from_value(KOREAN_RULESET) == korean
    assert korean.to_dict() == KOREAN_RULESET


def test_the_pesten_migration_wrote_the_engines_pesten_preset():
    migration = importlib.import_module("arena.matches.migrations.0005_pesten_competition")
    assert engine.Ruleset.preset("pesten").to_dict() == migration.PESTEN_RULESET


@pytest.mark.django_db
@pytest.mark.parametrize("count", OUTSIDE)
def test_match_create_seats_the_engines_table_sizes(count):
    versions = [ActiveBotVersionFactory() for _ in range(count)]
    with pytest.raises(ValidationError) as refused:
        match_create(kind="challenge", versions=versions, ruleset=None, games=1, rated=False)
    assert refused.value.message_dict["versions"] == [f"A match seats {BOUNDS} bots."]
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_match_create_accepts_a_full_table():
    versions = [ActiveBotVersionFactory() for _ in range(engine.MAX_PLAYERS)]
    match = match_create(kind="challenge", versions=versions, ruleset=None, games=1, rated=False)
    assert match.seats.count() == engine.MAX_PLAYERS


@pytest.mark.django_db
@pytest.mark.parametrize("seats", OUTSIDE)
def test_competition_create_takes_the_engines_table_sizes(seats):
    with pytest.raises(ValidationError) as refused:
        competition_create(slug="wide", name="Wide", ruleset="korean", seats=seats)
    assert refused.value.message_dict["seats"] == [f"From {BOUNDS} seats."]


@pytest.mark.django_db
@pytest.mark.parametrize("seats", OUTSIDE)
def test_tournament_create_takes_the_engines_table_sizes(seats):
    user = UserFactory()
    with pytest.raises(ValidationError) as refused:
        tournament_create(
            user=user,
            name="Cup",
            format="balanced",
            ruleset="korean",
            seats=seats,
            games_per_match=seats,
            bots=[],
        )
    assert refused.value.message_dict["seats"] == [f"A table has {BOUNDS} seats."]


def test_forms_serializers_and_models_take_the_engines_table_sizes():
    form_field = TournamentForm(entrants=Bot.objects.none()).fields["seats"]
    assert (form_field.min_value, form_field.max_value) == (engine.MIN_PLAYERS, engine.MAX_PLAYERS)
    api_field = TournamentCreateInputSerializer().fields["seats"]
    assert (api_field.min_value, api_field.max_value) == (engine.MIN_PLAYERS, engine.MAX_PLAYERS)
    limits = {
        type(v).__name__: v.limit_value for v in Tournament._meta.get_field("seats").validators
    }
    assert limits["MinValueValidator"] == engine.MIN_PLAYERS
    assert limits["MaxValueValidator"] == engine.MAX_PLAYERS


def test_the_ruleset_choices_are_the_engines_presets():
    assert [name for name, _ in ruleset_choices()] == list(engine.PRESET_NAMES)
