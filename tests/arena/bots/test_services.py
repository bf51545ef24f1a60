"""The bot services' writes, as their owner reads them on the version's status."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.bots.services import (
    bot_version_activate,
    bot_version_promotion_settle,
    bot_version_qualification_finish,
    bot_version_retire,
)
from tests.arena.factories import ActiveBotVersionFactory, BotFactory, BotVersionFactory

pytestmark = pytest.mark.django_db


def refreshed(version: BotVersion) -> BotVersion:
    version.refresh_from_db()
    return version


def test_a_newer_version_that_is_promoted_says_it_replaced_the_active_one():
    first = ActiveBotVersionFactory()
    second = BotVersionFactory(bot=first.bot, status=BotVersion.Status.QUALIFYING)
    bot_version_qualification_finish(version_id=second.pk, passed=True, reason="", report={})
    assert refreshed(second).status == BotVersion.Status.TESTING  # against the active one
    bot_version_promotion_settle(candidate_id=second.pk, promoted=True, reason="")
    assert refreshed(second).status == BotVersion.Status.ACTIVE
    assert refreshed(first).status == BotVersion.Status.RETIRED
    assert first.status_reason == "Replaced by v2"


def test_a_first_version_that_qualifies_replaces_nothing():
    first = BotVersionFactory(status=BotVersion.Status.QUALIFYING)
    bot_version_qualification_finish(version_id=first.pk, passed=True, reason="", report={})
    assert refreshed(first).status == BotVersion.Status.ACTIVE
    assert first.status_reason == ""


def test_activating_an_older_version_says_it_was_rolled_back(client):
    bot = BotFactory()
    first = BotVersionFactory(
        bot=bot, status=BotVersion.Status.RETIRED, qualified_at=timezone.now()
    )
    second = ActiveBotVersionFactory(bot=bot)
    bot_version_activate(user=bot.owner, version=first)
    assert refreshed(second).status_reason == "Replaced by v1 (rolled back)"
    assert refreshed(first).status == BotVersion.Status.ACTIVE
    client.force_login(bot.owner)
    page = client.get(reverse("web:version-detail", args=[second.pk])).content.decode()
    assert "Replaced by v1 (rolled back)" in page
    assert "Replaced by v1 (rolled back)" in client.get(reverse("web:my-bots")).content.decode()


def test_retiring_a_failed_version_keeps_why_it_failed():
    failed = BotVersionFactory(
        status=BotVersion.Status.FAILED,
        status_reason="Qualification failed: crash in game 1.",
    )
    bot_version_retire(user=failed.bot.owner, version=failed)
    assert refreshed(failed).status == BotVersion.Status.RETIRED
    assert failed.status_reason == "Retired by its owner. Qualification failed: crash in game 1."


def test_retiring_the_active_version_says_who_retired_it():
    active = ActiveBotVersionFactory()
    bot_version_retire(user=active.bot.owner, version=active)
    assert refreshed(active).status_reason == "Retired by its owner."
