"""Tournaments API: who may create what, and the read endpoints."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from arena.matches.models import Match
from arena.tournaments.models import Tournament
from arena.tournaments.services import tournament_start
from tests.arena.ratings.factories import (
    ActiveBotVersionFactory,
    BotFactory,
    StaffFactory,
    UserFactory,
)

from .helpers import record_match, strongest_wins

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()
    yield
    cache.clear()


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def own_bots(user, count):
    return [ActiveBotVersionFactory(bot=BotFactory(owner=user)).bot for _ in range(count)]


def payload(entrants, **overrides):
    data = {
        "name": "Friday cup",
        "format": "round_robin",
        "seats": 2,
        "games_per_match": 2,
        "bots": [bot.name for bot in entrants],
    }
    data.update(overrides)
    return data


def test_anonymous_users_cannot_create(django_capture_on_commit_callbacks):
    owner = UserFactory()
    response = client_for().post("/api/v1/tournaments/", payload(own_bots(owner, 2)), format="json")
    assert response.status_code in (401, 403)
    assert not Tournament.objects.exists()


def test_a_user_creates_a_tournament_of_their_bots(django_capture_on_commit_callbacks):
    user = UserFactory()
    bots = own_bots(user, 3)
    with django_capture_on_commit_callbacks() as callbacks:
        response = client_for(user).post("/api/v1/tournaments/", payload(bots), format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["state"] == "pending"
    assert body["created_by"] == user.username
    assert body["ruleset"]["name"] == "korean"
    assert [e["bot"] for e in body["entries"]] == [b.name for b in bots]
    assert body["progress"] == {"done": 0, "total": 3, "state": "pending", "finished": False}
    assert len(callbacks) == 1  # the start task


def test_someone_elses_bot_is_refused_but_staff_may_enter_any():
    owner, stranger = UserFactory(), UserFactory()
    bots = own_bots(owner, 2)
    response = client_for(stranger).post("/api/v1/tournaments/", payload(bots), format="json")
    assert response.status_code == 400
    assert "own bots" in response.json()["bots"][0]
    response = client_for(StaffFactory()).post("/api/v1/tournaments/", payload(bots), format="json")
    assert response.status_code == 201


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"bots": ["nobody-has-this-bot", "nor-this"]}, "bots"),
        ({"format": "swiss"}, "format"),
        ({"seats": 3}, "format"),
        ({"games_per_match": 3}, "games_per_match"),
        ({"ruleset": {"name": "korean", "turn_limit": -5}}, "ruleset"),
        ({"name": ""}, "name"),
    ],
)
def test_bad_requests_name_the_field(overrides, field):
    user = UserFactory()
    response = client_for(user).post(
        "/api/v1/tournaments/", payload(own_bots(user, 2), **overrides), format="json"
    )
    assert response.status_code == 400
    assert field in response.json()
    assert not Tournament.objects.exists()


def test_creation_is_throttled(settings):
    user = UserFactory()
    bots = own_bots(user, 2)
    client = client_for(user)
    statuses = [
        client.post("/api/v1/tournaments/", payload(bots), format="json").status_code
        for _ in range(21)
    ]
    assert statuses[:20] == [201] * 20
    assert statuses[20] == 429


def test_list_detail_standings_crosstable_and_progress_are_public():
    user = UserFactory()
    bots = own_bots(user, 3)
    response = client_for(user).post("/api/v1/tournaments/", payload(bots), format="json")
    pk = response.json()["id"]
    tournament_start(tournament_id=pk)
    strength = {bots[0].pk: 1, bots[1].pk: 3, bots[2].pk: 2}
    for match in Match.objects.filter(tournament_id=pk):
        record_match(match, strongest_wins(strength))
    anonymous = client_for()
    listing = anonymous.get("/api/v1/tournaments/").json()
    assert [t["id"] for t in listing["results"]] == [pk]
    assert listing["results"][0]["entrants"] == 3
    assert anonymous.get("/api/v1/tournaments/?state=done").json()["results"][0]["id"] == pk
    assert anonymous.get("/api/v1/tournaments/?state=running").json()["results"] == []
    detail = anonymous.get(f"/api/v1/tournaments/{pk}/").json()
    assert detail["state"] == "done"
    assert detail["progress"] == {"done": 3, "total": 3, "state": "done", "finished": True}
    standings = anonymous.get(f"/api/v1/tournaments/{pk}/standings/").json()
    assert [row["bot"] for row in standings] == [bots[1].name, bots[2].name, bots[0].name]
    assert standings[0]["points"] == 4
    assert standings[0]["position"] == 1
    crosstable = anonymous.get(f"/api/v1/tournaments/{pk}/crosstable/").json()
    assert crosstable["bots"] == [row["bot"] for row in standings]
    assert crosstable["cells"][0][0] is None
    assert crosstable["cells"][0][2] == {"games": 2, "points": 2.0}
    progress = anonymous.get(f"/api/v1/tournaments/{pk}/progress/").json()
    assert progress["finished"] is True
    assert anonymous.get("/api/v1/tournaments/999999/").status_code == 404
    assert anonymous.get("/api/v1/tournaments/999999/standings/").status_code == 404
