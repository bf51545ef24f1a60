"""Competitions, matches, games and replays over the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from arena.matches.models import Competition, Match
from arena.play.runner import match_run
from tests.arena.factories import (
    ActiveBotVersionFactory,
    GameFactory,
    StaffFactory,
    UserFactory,
    default_competition,
    match_with_seats,
    played_log,
)

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_competitions_list_has_the_default_and_only_staff_create():
    response = client_for().get("/api/v1/competitions/")
    default = response.json()["results"][0]
    assert (default["slug"], default["seats"], default["is_default"]) == ("korean-2", 2, True)
    assert default["ruleset"]["attack_values"] == {"2": 2, "A": 3, "AS": 5, "BJ": 7, "CJ": 10}
    body = {"slug": "four", "name": "Four", "ruleset": {"turn_limit": 500}, "seats": 4}
    refused = client_for(UserFactory()).post("/api/v1/competitions/create/", body, format="json")
    assert refused.status_code == 403
    created = client_for(StaffFactory()).post("/api/v1/competitions/create/", body, format="json")
    assert created.status_code == 201
    assert Competition.objects.get(slug="four").ruleset["turn_limit"] == 500
    assert client_for().get("/api/v1/competitions/four/").json()["seats"] == 4


def test_bad_ruleset_is_a_400():
    body = {"slug": "bad", "name": "Bad", "ruleset": {"turn_limit": 0}, "seats": 2}
    response = client_for(StaffFactory()).post("/api/v1/competitions/create/", body, format="json")
    assert response.status_code == 400
    assert "ruleset" in response.json()


def test_match_list_filters_and_cursor_pages_in_constant_queries(django_assert_max_num_queries):
    mine = ActiveBotVersionFactory(bot__name="alpha")
    for _ in range(4):
        match_with_seats([mine, ActiveBotVersionFactory()])
    for _ in range(3):
        match_with_seats()
    client = client_for()
    with django_assert_max_num_queries(4):
        everything = client.get("/api/v1/matches/?page_size=5").json()
    assert len(everything["results"]) == 5
    assert everything["next"]
    rest = client.get(everything["next"]).json()
    assert len(rest["results"]) == 2
    ids = [m["id"] for m in everything["results"] + rest["results"]]
    assert ids == sorted(ids, reverse=True)

    with django_assert_max_num_queries(5):
        alpha = client.get("/api/v1/matches/?bot=alpha").json()["results"]
    assert len(alpha) == 4
    assert all("alpha" in [s["bot"]["name"] for s in m["seats"]] for m in alpha)
    assert client.get("/api/v1/matches/?state=done").json()["results"] == []
    assert len(client.get("/api/v1/matches/?competition=korean-2").json()["results"]) == 7
    assert client.get("/api/v1/matches/?bot=nobody").status_code == 404
    assert client.get("/api/v1/matches/?state=bogus").status_code == 400
    assert len(client.get("/api/v1/matches/live/").json()) == 7


def test_match_detail_and_game_result():
    match = match_with_seats(games_planned=2, rated=False)
    match_run(match_id=match.pk)
    detail = client_for().get(f"/api/v1/matches/{match.pk}/").json()
    assert detail["state"] == "done"
    assert [g["number"] for g in detail["games"]] == [0, 1]
    game = client_for().get(f"/api/v1/games/{detail['games'][0]['id']}/").json()
    assert sorted(game["ranks"]) == [1, 2]
    assert "log_compressed" not in game


def test_replay_shows_stderr_and_debug_only_to_the_seat_owner():
    match = match_with_seats()
    seats = list(match.seats.order_by("index"))
    log = played_log(seating=[1, 0])  # index 1 sits at seat 0
    log["stderr"] = [
        [{"event": 0, "turn": 0, "lines": ["secret of index 1"]}],
        [{"event": 0, "turn": 0, "lines": ["secret of index 0"]}],
    ]
    log["debug"] = [{"seat": 0, "event": 0, "text": "plan of index 1"}]
    game = GameFactory(match=match, log=log)
    assert game.seating == [1, 0]
    url = f"/api/v1/games/{game.pk}/replay/"

    def secrets_seen(user) -> str:
        response = client_for(user).get(url)
        assert response.status_code == 200
        return str(response.json()["log"])

    owner_of_index_0 = seats[0].bot.owner
    seen = secrets_seen(owner_of_index_0)
    assert "secret of index 0" in seen
    assert "secret of index 1" not in seen
    assert "plan of index 1" not in seen
    seen = secrets_seen(seats[1].bot.owner)
    assert "secret of index 1" in seen
    assert "plan of index 1" in seen
    assert "secret of index 0" not in seen
    assert client_for(None).get(url).json()["error"] is None
    anonymous = secrets_seen(None)
    assert "secret" not in anonymous
    assert "plan" not in anonymous
    staff = secrets_seen(StaffFactory())
    assert "secret of index 0" in staff
    assert "secret of index 1" in staff


def test_replay_of_a_real_game_has_frames():
    match = match_with_seats(games_planned=1, rated=False)
    match_run(match_id=match.pk)
    game = match.games.get()
    body = client_for().get(f"/api/v1/games/{game.pk}/replay/").json()
    assert body["log"]["format"] == "onecard-replay/1"
    assert len(body["frames"]) == len(body["log"]["events"]) + 1


def test_challenge_api(settings):
    settings.ARENA_CHALLENGES_PER_DAY = 1
    mine = ActiveBotVersionFactory(bot__name="mine")
    ActiveBotVersionFactory(bot__name="theirs")
    client = client_for(mine.bot.owner)
    response = client.post("/api/v1/challenges/create/", {"bot": "mine", "opponent": "theirs"})
    assert response.status_code == 201
    assert (response.json()["kind"], response.json()["rated"]) == ("challenge", False)
    again = client.post("/api/v1/challenges/create/", {"bot": "mine", "opponent": "theirs"})
    assert again.status_code == 400
    assert "Daily limit" in again.json()["opponent"][0]
    stranger = client_for(UserFactory())
    refused = stranger.post("/api/v1/challenges/create/", {"bot": "mine", "opponent": "theirs"})
    assert refused.status_code == 403
    assert Match.objects.filter(kind="challenge").count() == 1


def test_default_competition_comes_from_the_migration():
    competition = default_competition()
    assert competition.ruleset["name"] == "korean"
    assert competition.seats == 2


def test_live_and_competition_lists_use_constant_queries(django_assert_max_num_queries):
    for _ in range(6):
        match_with_seats()
    client = client_for()
    with django_assert_max_num_queries(2):
        assert client.get("/api/v1/competitions/").status_code == 200
    with django_assert_max_num_queries(3):
        assert len(client.get("/api/v1/matches/live/").json()) == 6
