"""Tournament pages: list, create, detail with progress, standings and crosstable."""

from __future__ import annotations

import pytest
from django.urls import reverse

from arena.matches.models import Match
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_create
from tests.arena.factories import KOREAN, ActiveBotVersionFactory, BotFactory, match_with_seats
from tests.arena.web.games import played_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def entrants(alice):
    return [
        ActiveBotVersionFactory(bot=BotFactory(owner=alice, name=name))
        for name in ("one", "two", "three")
    ]


def create(alice, entrants, **overrides) -> Tournament:
    fields = {
        "user": alice,
        "name": "Spring cup",
        "format": Tournament.Format.ROUND_ROBIN,
        "ruleset": KOREAN,
        "seats": 2,
        "games_per_match": 2,
        "bots": [version.bot for version in entrants],
    }
    fields.update(overrides)
    return tournament_create(**fields)


def test_create_form_makes_a_tournament(alice_client, alice, entrants):
    page = alice_client.get(reverse("web:tournament-new"))
    html = page.content.decode()
    for version in entrants:
        assert version.bot.name in html
    response = alice_client.post(
        reverse("web:tournament-new"),
        {
            "name": "Autumn <open>",
            "format": "round_robin",
            "ruleset": "korean",
            "seats": 2,
            "games_per_match": 2,
            "rounds": 1,
            "bots": [version.bot.pk for version in entrants],
        },
    )
    tournament = Tournament.objects.get()
    assert response["Location"] == reverse("web:tournament-detail", args=[tournament.pk])
    assert tournament.entries.count() == 3
    assert tournament.ruleset["name"] == "korean"


def test_create_form_shows_the_services_errors(alice_client, entrants):
    response = alice_client.post(
        reverse("web:tournament-new"),
        {
            "name": "Too small",
            "format": "balanced",
            "ruleset": "korean",
            "seats": 2,
            "games_per_match": 2,
            "rounds": 1,
            "bots": [entrants[0].bot.pk],
        },
    )
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()
    assert not Tournament.objects.exists()


def test_create_form_offers_only_ones_own_bots(bob_client, entrants):
    html = bob_client.get(reverse("web:tournament-new")).content.decode()
    assert 'name="bots"' not in html  # bob has no bot: no entrant to tick
    response = bob_client.post(
        reverse("web:tournament-new"),
        {
            "name": "Theft",
            "format": "round_robin",
            "ruleset": "korean",
            "seats": 2,
            "games_per_match": 2,
            "rounds": 1,
            "bots": [version.bot.pk for version in entrants],
        },
    )
    assert "Select a valid choice" in response.content.decode()
    assert not Tournament.objects.exists()


def test_creating_needs_a_login(client, db):
    assert client.get(reverse("web:tournament-new")).status_code == 302


def test_detail_shows_progress_standings_and_crosstable(client, alice, entrants):
    tournament = create(alice, entrants)
    versions = entrants
    played_match(
        [versions[0], versions[1]],
        kind=Match.Kind.TOURNAMENT,
        competition=None,
        tournament=tournament,
        rated=False,
    )
    match_with_seats(
        [versions[1], versions[2]],
        kind=Match.Kind.TOURNAMENT,
        competition=None,
        tournament=tournament,
        rated=False,
        state="running",
    )
    Tournament.objects.filter(pk=tournament.pk).update(state="running")
    response = client.get(reverse("web:tournament-detail", args=[tournament.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'aria-valuenow="50"' in html
    assert "1 of 2 matches finished" in html
    progress_url = reverse("web:tournament-progress", args=[tournament.pk])
    assert f'data-poll="{progress_url}"' in html
    assert 'id="crosstable"' in html
    standings = response.context["standings"]
    assert {row.bot_name for row in standings} == {"one", "two", "three"}
    data = client.get(progress_url).json()
    assert data["percent"] == 50
    assert data["live"] is True
    assert data["label"] == "1 of 2 matches finished"


def test_balanced_tournament_has_no_crosstable(client, alice, entrants):
    tournament = create(
        alice, entrants, format=Tournament.Format.BALANCED, seats=3, games_per_match=3
    )
    html = client.get(reverse("web:tournament-detail", args=[tournament.pk])).content.decode()
    assert 'id="crosstable"' not in html


def test_list_in_a_fixed_number_of_queries(client, alice, entrants, django_assert_max_num_queries):
    for i in range(5):
        create(alice, entrants, name=f"Cup {i} <b>")
    with django_assert_max_num_queries(6):
        response = client.get(reverse("web:tournament-list"))
    html = response.content.decode()
    assert html.count("Cup ") == 5
    assert "Cup 0 &lt;b&gt;" in html


def test_unknown_tournament_is_404(client, db):
    assert client.get(reverse("web:tournament-detail", args=[999])).status_code == 404
    assert client.get(reverse("web:tournament-progress", args=[999])).status_code == 404
