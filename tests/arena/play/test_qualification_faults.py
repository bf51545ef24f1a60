"""A version that fails qualification is told why in a sentence, on its page, with a
link to the replay of that qualification game at the fault; only its owner sees it."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_upload
from arena.matches.models import QualificationGame
from arena.play.qualification import bot_version_qualify
from tests.arena.factories import UserFactory
from tests.sandbox.harness import HOSTILE

pytestmark = pytest.mark.django_db


def failed(bot: str) -> BotVersion:
    version = bot_version_upload(
        user=UserFactory(),
        name="hostile",
        upload=SimpleUploadedFile("bot.py", (HOSTILE / bot).read_bytes()),
    )
    bot_version_qualify(version_id=version.pk, seed=5)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.FAILED
    return version


@pytest.mark.parametrize(
    ("bot", "words"),
    [("illegal_card.py", "but the legal cards were"), ("raises.py", "exited with code 1")],
)
def test_the_version_page_says_what_went_wrong_and_links_to_the_moment(client, bot, words):
    version = failed(bot)
    games = version.qualification["games"]
    faulted = next(game for game in games if game["fault_notes"])
    note = faulted["fault_notes"][0]
    assert words in note["sentence"]
    assert note["sentence"] in version.status_reason
    assert QualificationGame.objects.filter(version=version).count() == len(games)

    client.force_login(version.bot.owner)
    html = client.get(reverse("web:version-detail", args=[version.pk])).content.decode()
    replay = reverse("web:qualification-game-replay", args=[version.pk, faulted["game"]])
    assert note["sentence"] in html
    assert f'href="{replay}#frame={note["event"] + 1}"' in html
    api = client.get(f"/api/v1/versions/{version.pk}/").json()
    (shown,) = [n for g in api["qualification"]["games"] for n in g["fault_notes"]][:1]
    assert shown["replay_url"] == f"{replay}#frame={note['event'] + 1}"
    assert shown["sentence"] == note["sentence"]

    page = client.get(replay)
    assert page.status_code == 200
    data = page.context["replay_data"]
    assert data["frames"][note["event"] + 1]["event"]["kind"] == "fault"
    assert data["fault_sentences"][str(note["event"])] == note["sentence"]
    assert data["seats"][faulted["seat"]]["name"] == "hostile"
    log = client.get(
        reverse("web:qualification-game-log", args=[version.pk, faulted["game"]])
    ).json()
    assert log["players"] == faulted["players"]
    assert log["events"][note["event"]]["kind"] == "fault"


def test_a_qualification_replay_is_its_owners_alone(client):
    version = failed("raises.py")
    replay = reverse("web:qualification-game-replay", args=[version.pk, 0])
    client.force_login(UserFactory())
    assert client.get(replay).status_code == 404
    log = reverse("web:qualification-game-log", args=[version.pk, 0])
    assert client.get(log).status_code == 404
    client.logout()
    assert client.get(replay).status_code == 302  # to the login page


def test_long_stderr_is_collapsed(client):
    version = failed("raises.py")
    report = version.qualification
    report["games"][0]["stderr"] = [f"line {n}" for n in range(50)]
    version.qualification = report
    version.save(update_fields=["qualification"])
    client.force_login(version.bot.owner)
    html = client.get(reverse("web:version-detail", args=[version.pk])).content.decode()
    assert '<details class="stderr-box">' in html
    assert "(50 lines)" in html
