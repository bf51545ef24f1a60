"""The match page, the replay viewer's data and the log download."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

import engine
from arena.matches.models import Match
from arena.matches.selectors import game_log
from tests.arena.factories import ActiveBotVersionFactory, BotFactory, match_with_seats
from tests.arena.web.games import played_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob):
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="bobs"))
    return played_match([mine, theirs], seed=3)


def replay_data(response) -> dict:
    return response.context["replay_data"]


def test_match_page_lists_seats_games_and_replays(client, match, django_assert_max_num_queries):
    with django_assert_max_num_queries(8):
        response = client.get(reverse("web:match-detail", args=[match.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    for game in match.games.all():
        assert reverse("web:game-replay", args=[game.pk]) in html
    assert "alices" in html
    assert "bobs" in html
    assert "data-poll" not in html  # a finished match does not poll


def test_match_page_shows_fault_reasons(client, match):
    game = match.games.first()
    game.faults = [{"index": 1, "seat": 1, "reason": "timeout"}]
    game.save()
    seat = match.seats.get(index=1)
    seat.faults = 1
    seat.fault_reasons = ["timeout"]
    seat.save()
    html = client.get(reverse("web:match-detail", args=[match.pk])).content.decode()
    assert "bobs: timeout" in html


def test_running_match_polls_its_status(client, db):
    match = match_with_seats(state="running", games_planned=4)
    html = client.get(reverse("web:match-detail", args=[match.pk])).content.decode()
    status_url = reverse("web:match-status", args=[match.pk])
    assert f'data-poll="{status_url}"' in html
    data = client.get(status_url).json()
    assert data == {
        "state": "running",
        "games": 0,
        "games_planned": 4,
        "percent": 0,
        "label": "0 of 4 games played",
        "live": True,
        "fingerprint": "running:0",
    }
    Match.objects.filter(pk=match.pk).update(state="done")
    assert client.get(status_url).json()["live"] is False


def test_replay_frames_are_the_engines(client, match):
    game = match.games.get(number=0)
    response = client.get(reverse("web:game-replay", args=[game.pk]))
    assert response.status_code == 200
    data = replay_data(response)
    assert data["frames"] == engine.replay_frames(game_log(game=game))
    assert [seat["name"] for seat in data["seats"]] == ["alices", "bobs"]
    html = response.content.decode()
    assert '<script id="replay-data" type="application/json">' in html
    assert reverse("web:game-log", args=[game.pk]) in html


def test_replay_shows_stderr_and_debug_to_the_owner_only(client, alice_client, match):
    # Game 1 seats bob's bot first: table seat 1 is alice's (seating [1, 0]).
    game = match.games.get(number=1)
    assert game.seating == [1, 0]
    url = reverse("web:game-replay", args=[game.pk])
    anonymous = replay_data(client.get(url))
    assert anonymous["stderr"] == [[], []]
    assert anonymous["debug"] == [[], []]
    owner = replay_data(alice_client.get(url))
    assert owner["stderr"][0] == []
    assert owner["stderr"][1][0]["lines"] == ["secret thoughts of seat 1 <b>"]
    assert owner["debug"] == [[], [{"event": 2, "text": "debug of seat 1"}]]
    # json_script escapes what could close the script element.
    html = alice_client.get(url).content.decode()
    assert "secret thoughts of seat 1 \\u003Cb\\u003E" in html


def test_log_download_strips_other_owners_output(client, alice_client, match):
    game = match.games.get(number=0)
    url = reverse("web:game-log", args=[game.pk])
    response = client.get(url)
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    public = json.loads(response.content)
    assert public["stderr"] == [[], []]
    assert public["debug"] == []
    assert engine.replay(public)  # still a complete, replayable log
    mine = json.loads(alice_client.get(url).content)
    assert mine["stderr"][0]
    assert not mine["stderr"][1]


def test_unknown_match_and_game_are_404(client, db):
    assert client.get(reverse("web:match-detail", args=[999])).status_code == 404
    assert client.get(reverse("web:game-replay", args=[999])).status_code == 404
    assert client.get(reverse("web:game-log", args=[999])).status_code == 404


def test_replay_page_is_compressed_for_browsers_that_ask(client, match):
    game = match.games.get(number=0)
    url = reverse("web:game-replay", args=[game.pk])
    plain = client.get(url)
    packed = client.get(url, headers={"accept-encoding": "gzip"})
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) < len(plain.content) / 3
