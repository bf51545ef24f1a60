"""Submit a bot, my bots, the version page (live status), code download, the bot page."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from arena.bots.models import Bot, BotVersion
from arena.matches.models import Match
from tests.arena.factories import (
    DRAW_BOT_SOURCE,
    ActiveBotVersionFactory,
    BotFactory,
    BotVersionFactory,
)

pytestmark = pytest.mark.django_db


def upload(name="bot.py", data=DRAW_BOT_SOURCE):
    return SimpleUploadedFile(name, data, content_type="text/x-python")


def test_submit_stores_a_version_and_opens_its_page(alice_client, alice):
    response = alice_client.post(
        reverse("web:bot-submit"), {"name": "drawer", "upload": upload(), "description": ""}
    )
    version = BotVersion.objects.get(bot__name="drawer")
    assert version.bot.owner == alice
    assert response.status_code == 302
    assert response["Location"] == reverse("web:version-detail", args=[version.pk])
    page = alice_client.get(response["Location"])
    html = page.content.decode()
    assert "Queued" in html
    assert f'data-poll="{reverse("web:version-status", args=[version.pk])}"' in html


def test_submit_shows_the_services_errors_next_to_the_field(alice_client, bob):
    BotFactory(owner=bob, name="taken")
    response = alice_client.post(reverse("web:bot-submit"), {"name": "taken", "upload": upload()})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_name_errors"' in html
    assert "taken" in html
    response = alice_client.post(
        reverse("web:bot-submit"),
        {"name": "fresh", "upload": upload("bot.py", b"def broken(:\n")},
    )
    assert 'id="id_upload_errors"' in response.content.decode()
    assert not Bot.objects.filter(name="fresh").exists()


def test_submit_without_a_file_is_refused_by_the_form(alice_client):
    response = alice_client.post(reverse("web:bot-submit"), {"name": "nofile"})
    assert 'id="id_upload_errors"' in response.content.decode()


def test_version_status_json_follows_qualification(alice_client, alice):
    version = BotVersionFactory(bot=BotFactory(owner=alice))
    url = reverse("web:version-status", args=[version.pk])
    assert alice_client.get(url).json()["live"] is True
    version.status = BotVersion.Status.FAILED
    version.status_reason = "Qualification failed: timeout."
    version.qualification = {
        "backend": "subprocess",
        "faults": ["timeout"],
        "games": [
            {
                "game": 0,
                "seat": 0,
                "rank": 2,
                "faults": ["timeout"],
                "turns": 3,
                "stderr": ["Traceback <oops>", "KeyError: 'x'"],
            }
        ],
    }
    version.save()
    data = alice_client.get(url).json()
    assert data == {
        "fingerprint": "failed:",  # status, then the promotion test's pairs (none)
        "status": "failed",
        "label": "Failed",
        "reason": "Qualification failed: timeout.",
        "live": False,
    }
    html = alice_client.get(reverse("web:version-detail", args=[version.pk])).content.decode()
    assert "Qualification failed: timeout." in html
    assert "Traceback &lt;oops&gt;" in html  # the bot's stderr, escaped
    assert "data-poll" not in html


def test_other_peoples_versions_and_code_answer_404(bob_client, alice):
    version = ActiveBotVersionFactory(bot=BotFactory(owner=alice))
    for name in ("web:version-detail", "web:version-status", "web:version-download"):
        assert bob_client.get(reverse(name, args=[version.pk])).status_code == 404, name
    for name in ("web:version-activate", "web:version-retire"):
        assert bob_client.post(reverse(name, args=[version.pk])).status_code == 404, name
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE


def test_owner_downloads_the_code(alice_client, alice):
    version = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="mine"))
    response = alice_client.get(reverse("web:version-download", args=[version.pk]))
    assert response.status_code == 200
    assert response.content == DRAW_BOT_SOURCE
    assert response["Content-Disposition"] == 'attachment; filename="mine-v1.py"'


def test_retire_and_activate(alice_client, alice):
    bot = BotFactory(owner=alice)
    version = ActiveBotVersionFactory(bot=bot)
    assert alice_client.get(reverse("web:version-retire", args=[version.pk])).status_code == 405
    response = alice_client.post(reverse("web:version-retire", args=[version.pk]))
    assert response["Location"] == reverse("web:my-bots")
    version.refresh_from_db()
    assert version.status == BotVersion.Status.RETIRED
    response = alice_client.post(
        reverse("web:version-activate", args=[version.pk]), {"back": "version"}
    )
    assert response["Location"] == reverse("web:version-detail", args=[version.pk])
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE


def test_activating_a_version_that_never_qualified_shows_the_reason(alice_client, alice):
    version = BotVersionFactory(bot=BotFactory(owner=alice), status=BotVersion.Status.FAILED)
    response = alice_client.post(reverse("web:version-activate", args=[version.pk]), follow=True)
    assert "passed qualification" in response.content.decode()
    version.refresh_from_db()
    assert version.status == BotVersion.Status.FAILED


def test_my_bots_lists_versions_in_a_fixed_number_of_queries(
    alice_client, alice, django_assert_max_num_queries
):
    for _ in range(6):
        bot = BotFactory(owner=alice)
        BotVersionFactory(bot=bot, status=BotVersion.Status.RETIRED)
        ActiveBotVersionFactory(bot=bot)
    BotFactory(name="not-mine")
    with django_assert_max_num_queries(6):
        response = alice_client.get(reverse("web:my-bots"))
    html = response.content.decode()
    assert html.count(">Download<span") == 12
    assert "not-mine" not in html


def test_bot_page_escapes_user_text(client, alice):
    bot = BotFactory(owner=alice, name="xss", description="<script>alert(1)</script>")
    ActiveBotVersionFactory(bot=bot)
    response = client.get(reverse("web:bot-detail", args=["xss"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # A stranger sees the versions but no link to their private pages.
    assert reverse("web:version-detail", args=[bot.versions.get().pk]) not in html


def test_unknown_bot_is_404(client, db):
    assert client.get(reverse("web:bot-detail", args=["nobody"])).status_code == 404


def test_challenge_from_the_bot_page(alice_client, alice, bob):
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="mine"))
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="theirs"))
    url = reverse("web:bot-challenge", args=["theirs"])
    page = alice_client.get(reverse("web:bot-detail", args=["theirs"])).content.decode()
    assert f'action="{url}"' in page
    assert alice_client.get(url).status_code == 405
    response = alice_client.post(url, {"bot": mine.bot.pk})
    match = Match.objects.get(kind=Match.Kind.CHALLENGE)
    assert response["Location"] == reverse("web:match-detail", args=[match.pk])
    assert [seat.bot_version for seat in match.seats.order_by("index")] == [mine, theirs]
    assert not match.rated


def test_challenge_only_with_ones_own_active_bot(alice_client, bob_client, alice, bob):
    theirs = ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="theirs"))
    BotVersionFactory(bot=BotFactory(owner=alice, name="unready"))
    url = reverse("web:bot-challenge", args=["theirs"])
    page = alice_client.get(reverse("web:bot-detail", args=["theirs"])).content.decode()
    assert f'action="{url}"' not in page  # alice has no bot that could play
    response = alice_client.post(url, {"bot": theirs.bot.pk}, follow=True)
    assert "Choose one of your bots" in response.content.decode()
    assert not Match.objects.exists()
    assert Client().post(url, {"bot": theirs.bot.pk}).status_code == 302  # to the login


def test_challenge_limit_is_shown(alice_client, alice, bob, settings):
    settings.ARENA_CHALLENGES_PER_DAY = 0
    mine = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="mine"))
    ActiveBotVersionFactory(bot=BotFactory(owner=bob, name="theirs"))
    response = alice_client.post(
        reverse("web:bot-challenge", args=["theirs"]), {"bot": mine.bot.pk}, follow=True
    )
    assert "Daily limit" in response.content.decode()
    assert not Match.objects.exists()
