"""`arena_bootstrap` registers the example bots once, and they qualify."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from arena.bots.models import Bot, BotVersion
from arena.play.management.commands import arena_bootstrap
from arena.play.management.commands.arena_bootstrap import EXAMPLES
from tests.arena.factories import BotFactory

pytestmark = pytest.mark.django_db


def test_bootstrap_registers_and_qualifies_the_examples_idempotently(
    django_capture_on_commit_callbacks,
):
    with django_capture_on_commit_callbacks() as callbacks:
        call_command("arena_bootstrap", "--now")
    assert callbacks == []  # qualified here, nothing queued
    bots = Bot.objects.order_by("name")
    assert [bot.name for bot in bots] == ["greedy", "heuristic", "random", "search"]
    assert all(bot.is_example and bot.owner.username == "arena" for bot in bots)
    assert not bots[0].owner.has_usable_password()
    statuses = set(BotVersion.objects.values_list("status", flat=True))
    assert statuses == {BotVersion.Status.ACTIVE}

    call_command("arena_bootstrap", "--now")
    assert BotVersion.objects.count() == 4


def test_bootstrap_queues_qualification_without_now(monkeypatch):
    sent = []
    monkeypatch.setattr("arena.play.tasks.qualify_version.delay", sent.append)
    call_command("arena_bootstrap")
    assert len(sent) == 4
    assert set(BotVersion.objects.values_list("status", flat=True)) == {BotVersion.Status.PENDING}
    call_command("arena_bootstrap")  # still pending: queued again, not stored again
    assert BotVersion.objects.count() == 4
    assert len(sent) == 8


def test_bootstrap_leaves_a_users_bot_of_the_same_name_alone(monkeypatch):
    # Without the search bot, whose qualification runs to its time budget (40 s):
    # the name clash is the point here.
    examples = {name: text for name, text in EXAMPLES.items() if name != "search"}
    monkeypatch.setattr(arena_bootstrap, "EXAMPLES", examples)
    BotFactory(name="random")
    call_command("arena_bootstrap", "--now")
    assert Bot.objects.get(name="random").versions.count() == 0
    assert Bot.objects.filter(is_example=True).count() == 2
