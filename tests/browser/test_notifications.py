"""The bell in Chromium: a qualified version shows up as an unread notification,
its link leads to the version, and "mark all read" empties the badge."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.bots.services import bot_version_qualification_finish
from tests.arena.factories import BotVersionFactory, UserFactory

pytestmark = [pytest.mark.browser]

PASSWORD = "correct-horse-battery"


def test_the_bell_counts_unread_notifications_and_leads_to_them(site_url, page):
    owner = UserFactory(username="belle")
    version = BotVersionFactory(
        bot__owner=owner, bot__name="ringer", status=BotVersion.Status.QUALIFYING
    )
    bot_version_qualification_finish(
        version_id=version.pk, passed=False, reason="Game 1: illegal move.", report={}
    )

    page.goto(site_url + reverse("web:login"))
    page.get_by_label("Username").fill("belle")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/my/bots/"))

    bell = page.locator("#notification-bell")
    assert bell.is_visible()
    assert page.locator("#notification-count").inner_text().split()[0] == "1"

    bell.click()
    page.wait_for_url(re.compile(r"/notifications/$"))
    item = page.locator("#notifications li").first
    assert "Game 1: illegal move." in item.inner_text()
    item.get_by_role("link", name="ringer v1 failed qualification").click()
    page.wait_for_url(re.compile(rf"/my/versions/{version.pk}/$"))

    page.goto(site_url + reverse("web:notifications"))
    page.get_by_role("button", name="Mark all read").click()
    page.wait_for_url(re.compile(r"/notifications/$"))
    assert page.locator("#notification-count").count() == 0
    assert page.locator("#notification-bell").is_visible()
