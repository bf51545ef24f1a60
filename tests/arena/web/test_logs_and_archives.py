"""A game's log for `onecard rerun` (by any of the site's addresses of the game), a
private one with the owner's token, and a match's or tournament's logs as one zip."""

from __future__ import annotations

import io
import json
import zipfile
from functools import partial

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

import sandbox
from arena.matches.logs import log_compress, log_decompress
from arena.matches.models import Match
from arena.play.leases import match_claim, worker_token
from arena.play.results import match_record_result
from sandbox.backends.local import launch_subprocess
from sandbox.rerun import LogUnavailable, log_load, rerun_game
from tests.arena.factories import ActiveBotVersionFactory, BotFactory, match_with_seats
from tests.arena.play.test_qualification_faults import failed
from tests.arena.web.games import played_match
from tests.sandbox.harness import BOTS
from tests.sandbox.test_rerun import LIMITS, lines_of_game, recorder

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob):
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="bobs"))
    return played_match([mine, theirs], seed=3, games=3)


def test_a_games_log_is_served_by_its_match_number_and_by_its_id(client, match):
    game = match.games.get(number=1)
    # A log from before the engine logged the game number gets the stored one.
    stored = log_decompress(game.log_compressed)
    del stored["game"]
    game.log_compressed = log_compress(stored)
    game.save(update_fields=["log_compressed"])
    by_number = client.get(f"/api/v1/matches/{match.pk}/games/2/log/")
    by_id = client.get(f"/api/v1/games/{game.pk}/log/")
    assert by_number.status_code == by_id.status_code == 200
    assert by_number.json() == by_id.json()
    log = by_id.json()
    assert log["format"] == "onecard-replay/1"
    assert log["game"] == 1
    assert all(entries == [] for entries in log["stderr"])  # nobody's own output
    assert client.get(f"/api/v1/matches/{match.pk}/games/9/log/").status_code == 404
    page = client.get(reverse("web:match-game", args=[match.pk, 2]))
    assert page.status_code == 302
    assert page["Location"] == reverse("web:game-replay", args=[game.pk])


def test_a_qualification_log_needs_its_owners_token(client):
    version = failed("raises.py")
    url = f"/api/v1/versions/{version.pk}/qualification/0/log/"
    assert client.get(url).status_code == 401
    stranger = Token.objects.create(user=ActiveBotVersionFactory().bot.owner)
    assert client.get(url, HTTP_AUTHORIZATION=f"Token {stranger.key}").status_code == 404
    token, _ = Token.objects.get_or_create(user=version.bot.owner)
    log = client.get(url, HTTP_AUTHORIZATION=f"Token {token.key}").json()
    assert log["format"] == "onecard-replay/1"


def test_a_matchs_logs_come_as_one_zip_of_what_the_user_may_see(client, alice_client, match):
    for who, expected_own in ((client, 0), (alice_client, 1)):
        for url in (
            reverse("web:match-logs", args=[match.pk]),
            f"/api/v1/matches/{match.pk}/logs.zip",
        ):
            response = who.get(url)
            assert response.status_code == 200
            assert response["Content-Type"] == "application/zip"
            archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
            names = sorted(archive.namelist())
            assert names == [
                "README.txt",
                *(f"match-{match.pk}-game-{n}.json" for n in (1, 2, 3)),
            ]
            log = json.loads(archive.read(f"match-{match.pk}-game-1.json"))
            own = [entries for entries in log["stderr"] if entries]
            assert len(own) == expected_own  # alice sees her own bot's stderr only
    html = client.get(reverse("web:match-detail", args=[match.pk])).content.decode()
    assert reverse("web:match-logs", args=[match.pk]) in html


def test_an_archive_is_bounded_and_says_what_it_left_out(client, match, settings):
    settings.ARENA_LOG_ARCHIVE_MAX_GAMES = 2
    response = client.get(reverse("web:match-logs", args=[match.pk]))
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert len([n for n in archive.namelist() if n.endswith(".json")]) == 2
    readme = archive.read("README.txt").decode()
    last = match.games.get(number=2)
    assert "1 games are left out" in readme
    assert f"/games/{last.pk}/log.json" in readme


def test_a_tournaments_logs_come_as_one_zip(client, alice, bob):
    from arena.tournaments.models import Tournament

    mine = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="bobs"))
    first = played_match([mine, theirs], seed=5, games=1)
    second = played_match([theirs, mine], seed=6, games=2)
    tournament = Tournament.objects.create(
        name="Cup", created_by=alice, format="round_robin", ruleset=first.ruleset, seats=2, seed=1
    )
    Match.objects.filter(pk__in=[first.pk, second.pk]).update(tournament=tournament)
    for url in (
        reverse("web:tournament-logs", args=[tournament.pk]),
        f"/api/v1/tournaments/{tournament.pk}/logs.zip",
    ):
        response = client.get(url)
        archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
        assert len([n for n in archive.namelist() if n.endswith(".json")]) == 3
    assert client.get("/api/v1/tournaments/999999/logs.zip").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_onecard_fetches_a_log_by_the_sites_address(live_server):
    version = failed("raises.py")
    url = f"{live_server.url}/my/versions/{version.pk}/qualification/0/"
    with pytest.raises(LogUnavailable, match="give your API token with --token"):
        log_load(url)
    token, _ = Token.objects.get_or_create(user=version.bot.owner)
    log = log_load(url, token=token.key)
    assert log["format"] == "onecard-replay/1"
    with pytest.raises(LogUnavailable, match="refused the token"):
        log_load(url, token="not-a-token")


def test_a_game_served_by_the_site_reruns_byte_for_byte(client, alice, bob, tmp_path):
    """Played and recorded as a worker does, downloaded from the API as its owner
    would, rerun with the same bot: the same lines, byte for byte."""
    bot, record = recorder(tmp_path, "mine")
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="mine"))
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="sound"))
    result = sandbox.run_match(
        [sandbox.BotProgram("mine", bot), sandbox.BotProgram("sound", BOTS / "first_legal.py")],
        games=2,
        seed=4,
        backend="subprocess",
        limits=LIMITS,
        allow_unsandboxed=True,
    )
    match = match_with_seats([mine, theirs], games_planned=2)
    claim = match_claim(match_id=match.pk, token=worker_token())
    assert match_record_result(claim=claim, games=result.games, backend="subprocess")
    on_server = lines_of_game(record, 1)

    client.force_login(alice)
    log = client.get(f"/api/v1/matches/{match.pk}/games/2/log/").json()
    again, rerun_record = recorder(tmp_path, "again")
    program = sandbox.BotProgram("again", again)
    report = rerun_game(
        log, seat=log["seating"].index(0), launch=partial(launch_subprocess, program)
    )
    assert report.deviation is None
    assert rerun_record.read_bytes().splitlines(keepends=True) == on_server
