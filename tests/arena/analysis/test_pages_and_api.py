"""The replay page's analysis section, its button, and the analysis in the API."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from arena.analysis import selectors
from arena.analysis.models import Analysis
from arena.analysis.services import analysis_request, analysis_run
from arena.matches.models import Match
from tests.arena.factories import UserFactory

from .games import example_log, seat_owner, stored_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return stored_game(example_log(players=2, seed=3))


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def replay_html(client: Client, game) -> str:
    response = client.get(reverse("web:game-replay", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_button_is_offered_to_who_may_ask_and_the_reason_to_others(game):
    owner = seat_owner(game, 0)
    html = replay_html(logged_in(owner), game)
    assert 'id="analysis-request"' in html
    assert "3 analyses left today." in html
    stranger_html = replay_html(logged_in(UserFactory()), game)
    assert 'id="analysis-request"' not in stranger_html
    assert "Only the owners of this game&#x27;s bots can ask for its analysis" in stranger_html
    assert "Log in to ask for an analysis." in replay_html(Client(), game)


def test_the_button_queues_the_analysis_and_returns_to_the_replay(
    game, django_capture_on_commit_callbacks
):
    client = logged_in(seat_owner(game, 1))
    url = reverse("web:game-analysis", args=[game.pk])
    assert client.get(url).status_code == 405
    with django_capture_on_commit_callbacks() as sent:
        response = client.post(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("web:game-replay", args=[game.pk]) + "#analysis"
    assert len(sent) == 1
    html = replay_html(client, game)
    assert "Queued: it starts when an analysis worker is free." in html
    assert 'id="analysis-data"' in html


def test_the_button_needs_csrf_and_says_why_it_was_refused(game):
    owner = seat_owner(game, 0)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(owner)
    assert strict.post(reverse("web:game-analysis", args=[game.pk])).status_code == 403
    stranger = logged_in(UserFactory())
    response = stranger.post(reverse("web:game-analysis", args=[game.pk]), follow=True)
    assert "Only the owners of this game&#x27;s bots" in response.content.decode()
    assert not Analysis.objects.exists()


def test_a_finished_analysis_is_embedded_in_the_replay(game, django_capture_on_commit_callbacks):
    owner = seat_owner(game, 0)
    with django_capture_on_commit_callbacks():
        analysis = analysis_request(user=owner, game=game)
    analysis_run(analysis_id=analysis.pk)
    html = replay_html(Client(), game)
    start = html.index('<script id="analysis-data" type="application/json">')
    embedded = json.loads(html[start:].split(">", 1)[1].split("</script>", 1)[0])
    assert embedded["state"] == "done"
    assert len(embedded["decisions"]) == embedded["decisions_total"] > 0
    assert "Done: " in html


def test_the_api_reads_and_requests_an_analysis(game, django_capture_on_commit_callbacks):
    url = reverse("api-game-analysis", args=[game.pk])
    anonymous = Client()
    assert anonymous.get(url).status_code == 404
    assert anonymous.post(url).status_code == 401
    stranger = logged_in(UserFactory())
    refused = stranger.post(url)
    assert refused.status_code == 403
    assert "Only the owners" in refused.json()["detail"]
    owner = logged_in(seat_owner(game, 0))
    with django_capture_on_commit_callbacks():
        created = owner.post(url)
    assert created.status_code == 201
    assert created.json()["state"] == "queued"
    with django_capture_on_commit_callbacks():
        again = owner.post(url)
    assert again.status_code == 200
    assert again.json()["id"] == created.json()["id"]
    analysis_run(analysis_id=created.json()["id"])
    body = anonymous.get(url).json()
    assert body["state"] == "done"
    assert body["percent"] == 100
    decision = body["decisions"][0]
    assert set(decision) == {
        "number", "seat", "event", "turn", "kind", "under_attack", "taken", "taken_win",
        "preferred", "preferred_win", "loss", "agrees", "candidates", "mistake",
    }  # fmt: skip
    # A poll asks for what it has not seen; the mistakes are judged over everything.
    later = anonymous.get(url, {"since": 5}).json()
    assert [d["number"] for d in later["decisions"]] == list(range(5, body["decisions_total"]))
    assert later["decisions"] == body["decisions"][5:]
    assert later["mistakes"] == body["mistakes"]
    assert anonymous.get(url, {"since": -1}).status_code == 400
    mistakes = [d for d in body["decisions"] if d["mistake"]]
    assert [d["number"] for d in mistakes] == body["mistakes"]
    for seat in (0, 1):
        own = [d for d in mistakes if d["seat"] == seat]
        assert len(own) <= 3
        assert all(d["loss"] >= 0.05 for d in own)


def test_the_quota_is_a_sentence_in_the_api(settings, django_capture_on_commit_callbacks):
    settings.ARENA_ANALYSES_PER_DAY = 1
    user = UserFactory()
    client = logged_in(user)
    games = [stored_game(example_log(players=2, seed=3), kind=Match.Kind.LADDER) for _ in range(2)]
    with django_capture_on_commit_callbacks():
        assert client.post(reverse("api-game-analysis", args=[games[0].pk])).status_code == 201
    refused = client.post(reverse("api-game-analysis", args=[games[1].pk]))
    assert refused.status_code == 400
    assert refused.json() == {
        "game": ["Daily limit of 1 analyses reached: ask again tomorrow (UTC)."]
    }


def test_the_analysis_is_in_the_openapi_schema(client):
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()
    operations = schema["paths"]["/api/v1/games/{id}/analysis/"]
    assert operations["get"]["operationId"] == "games_analysis_retrieve"
    assert operations["post"]["operationId"] == "games_analysis_request"
    assert "Decision" in schema["components"]["schemas"]
    assert "Analysis" in schema["components"]["schemas"]


def test_the_replay_page_reads_the_analysis_in_few_queries(
    game, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    owner = seat_owner(game, 0)
    client = logged_in(owner)
    with django_capture_on_commit_callbacks():
        analysis = analysis_request(user=owner, game=game)
    analysis_run(analysis_id=analysis.pk)
    # The session and the user, the game and its seats, the analysis, its
    # decisions' losses and its decisions, the quota, the bell's unread count: 9,
    # whatever the number of decisions.
    with django_assert_max_num_queries(9):
        replay_html(client, game)


def test_a_failed_analysis_says_why_on_the_page(game, django_capture_on_commit_callbacks):
    owner = seat_owner(game, 0)
    with django_capture_on_commit_callbacks():
        analysis = analysis_request(user=owner, game=game)
    Analysis.objects.filter(pk=analysis.pk).update(
        state=Analysis.State.FAILED, error="Could not analyse decision 3: <b>bad</b>"
    )
    html = replay_html(Client(), game)
    assert "The analysis failed: Could not analyse decision 3: &lt;b&gt;bad&lt;/b&gt;" in html
    assert 'id="analysis-request"' not in html


def test_a_seats_decisions_are_shown_to_whoever_may_see_its_view(
    game, monkeypatch, django_capture_on_commit_callbacks
):
    owner = seat_owner(game, 0)
    with django_capture_on_commit_callbacks():
        analysis = analysis_request(user=owner, game=game)
    analysis_run(analysis_id=analysis.pk)
    url = reverse("api-game-analysis", args=[game.pk])
    # Every seat's view is public today (a replay shows every hand)...
    assert {d["seat"] for d in Client().get(url).json()["decisions"]} == {0, 1}
    # ...and the analysis follows the replays' rule wherever it changes.
    monkeypatch.setattr(selectors, "seat_views_for_user", lambda *, user, game: {1})
    body = Client().get(url).json()
    assert {d["seat"] for d in body["decisions"]} == {1}
    assert body["decisions_done"] == body["decisions_total"], "progress counts every seat"
