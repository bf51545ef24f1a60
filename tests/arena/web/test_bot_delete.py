"""Deleting a bot from the site: a confirmation page, a POST, and what stays."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from arena.bots.models import Bot
from arena.bots.services import DELETED_BOTS_OWNER
from tests.arena.factories import ActiveBotVersionFactory, BotFactory, StaffFactory
from tests.arena.web.games import played_match


@pytest.fixture
def alices(alice):
    version = ActiveBotVersionFactory(bot=BotFactory(owner=alice, name="alices"))
    bobs = ActiveBotVersionFactory(bot=BotFactory(name="bobs"))
    played_match([version, bobs], games=1)
    return version.bot


def test_the_owner_sees_the_way_to_delete(alices, alice_client):
    url = reverse("web:bot-delete", args=["alices"])
    assert f'href="{url}"' in alice_client.get(reverse("web:my-bots")).content.decode()
    assert (
        f'href="{url}"'
        in alice_client.get(reverse("web:bot-detail", args=["alices"])).content.decode()
    )
    page = alice_client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Delete alices?" in html
    assert "csrfmiddlewaretoken" in html
    assert f"deleted-bot-{alices.pk}" in html
    assert not Bot.objects.get(pk=alices.pk).is_deleted  # a GET changes nothing


def test_strangers_get_a_404_and_visitors_the_login(alices, bob_client, client):
    url = reverse("web:bot-delete", args=["alices"])
    assert bob_client.get(url).status_code == 404
    assert bob_client.post(url).status_code == 404
    assert client.get(url).status_code == 302
    page = bob_client.get(reverse("web:bot-detail", args=["alices"])).content.decode()
    assert url not in page
    assert not Bot.objects.get(pk=alices.pk).is_deleted


def test_posting_deletes_and_the_bot_page_stays_neutral(
    alices, alice_client, client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(reverse("web:bot-delete", args=["alices"]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("web:my-bots")
    html = response.content.decode()
    assert "alices is deleted" in html
    assert reverse("web:bot-detail", args=["alices"]) not in html  # off my bots
    tombstone = f"deleted-bot-{alices.pk}"
    # The match it played still links to it; the page names neither it nor alice.
    bobs_page = client.get(reverse("web:bot-detail", args=["bobs"])).content.decode()
    assert f'href="{reverse("web:bot-detail", args=[tombstone])}"' in bobs_page
    page = client.get(reverse("web:bot-detail", args=[tombstone]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Deleted by its owner" in text
    assert "alice" not in text.replace(tombstone, "")
    assert client.get(reverse("web:bot-detail", args=["alices"])).status_code == 404


def test_staff_may_delete_and_a_deleted_version_has_no_code_to_download(
    alices, django_capture_on_commit_callbacks
):
    staff = Client()
    staff.force_login(StaffFactory())
    with django_capture_on_commit_callbacks(execute=True):
        staff.post(reverse("web:bot-delete", args=["alices"]))
    version = Bot.objects.get(pk=alices.pk).versions.get()
    assert staff.get(reverse("web:version-download", args=[version.pk])).status_code == 404
    # Deleted, it is no longer anyone's to delete again.
    tombstone = f"deleted-bot-{alices.pk}"
    assert staff.get(reverse("web:bot-delete", args=[tombstone])).status_code == 404


def test_nobody_can_sign_up_as_the_account_of_deleted_bots(client):
    response = client.post(
        reverse("web:signup"),
        {
            "username": DELETED_BOTS_OWNER,
            "password1": "a-long-pass-42",
            "password2": "a-long-pass-42",
        },
    )
    assert response.status_code == 200
    assert "username" in response.context["form"].errors
