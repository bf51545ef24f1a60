"""Deleting a bot: its code goes, its games stay under a neutral name."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from arena.bots.models import Bot, BotVersion
from arena.bots.selectors import bot_list, bot_list_for_owner
from arena.bots.services import DELETED_BOTS_OWNER, bot_delete, bot_version_upload
from arena.matches.models import Game, MatchSeat
from arena.ratings.models import Rating, RatingChange
from tests.arena.factories import (
    DRAW_BOT_SOURCE,
    ActiveBotVersionFactory,
    BotFactory,
    BotVersionFactory,
    StaffFactory,
    UserFactory,
)
from tests.arena.web.games import played_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def alices_bot():
    """alice's bot with two versions (v2 active) that has played bob's bot."""
    bot = BotFactory(owner=UserFactory(username="alice"), name="alices", description="mine")
    BotVersionFactory(bot=bot, status=BotVersion.Status.RETIRED)
    active = ActiveBotVersionFactory(bot=bot)
    bobs = ActiveBotVersionFactory(bot=BotFactory(owner=UserFactory(username="bob"), name="bobs"))
    played_match([active, bobs], games=2)
    return bot


def delete(user, bot, callbacks) -> Bot:
    with callbacks(execute=True):
        return bot_delete(user=user, bot=bot)


def test_deleting_removes_the_code_and_keeps_the_games(
    alices_bot, django_capture_on_commit_callbacks
):
    alice = alices_bot.owner
    stored = [version.code.name for version in alices_bot.versions.all()]
    storage = BotVersion._meta.get_field("code").storage
    assert all(storage.exists(name) for name in stored)
    bobs_changes = RatingChange.objects.filter(rating__bot__name="bobs").count()

    deleted = delete(alice, alices_bot, django_capture_on_commit_callbacks)

    assert not any(storage.exists(name) for name in stored)
    assert deleted.name == f"deleted-bot-{alices_bot.pk}"
    assert deleted.description == ""
    assert deleted.owner.get_username() == DELETED_BOTS_OWNER
    assert deleted.is_deleted
    versions = list(deleted.versions.all())
    assert {v.status for v in versions} == {BotVersion.Status.RETIRED}
    assert all(not v.code and not v.original_filename for v in versions)
    # Its games stay, in bob's history as in its own.
    assert MatchSeat.objects.filter(bot=deleted).count() == 1
    assert Game.objects.filter(match__seats__bot=deleted).count() == 2
    assert Rating.objects.filter(bot=deleted).exists()
    assert RatingChange.objects.filter(rating__bot__name="bobs").count() == bobs_changes
    # It is off alice's list and every bot list; its name is free again.
    assert not bot_list_for_owner(user=alice).exists()
    assert deleted not in bot_list()
    again = bot_version_upload(
        user=alice, name="alices", upload=SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE)
    )
    assert again.bot.pk != deleted.pk


def test_the_account_of_deleted_bots_cannot_log_in(alices_bot, django_capture_on_commit_callbacks):
    owner = delete(alices_bot.owner, alices_bot, django_capture_on_commit_callbacks).owner
    assert not owner.is_active
    assert not owner.has_usable_password()
    second = BotFactory(owner=UserFactory())
    assert delete(second.owner, second, django_capture_on_commit_callbacks).owner == owner
    assert get_user_model().objects.filter(username=DELETED_BOTS_OWNER).count() == 1


def test_only_the_owner_or_staff_may_delete(alices_bot, django_capture_on_commit_callbacks):
    with pytest.raises(PermissionDenied):
        bot_delete(user=UserFactory(username="bob"), bot=alices_bot)
    assert not Bot.objects.get(pk=alices_bot.pk).is_deleted
    assert delete(StaffFactory(), alices_bot, django_capture_on_commit_callbacks).is_deleted


def test_deleting_twice_changes_nothing(alices_bot, django_capture_on_commit_callbacks):
    first = delete(alices_bot.owner, alices_bot, django_capture_on_commit_callbacks)
    second = delete(StaffFactory(), first, django_capture_on_commit_callbacks)
    assert (second.name, second.deleted_at) == (first.name, first.deleted_at)


def test_example_bots_are_not_deleted():
    example = BotFactory(is_example=True, owner=StaffFactory())
    with pytest.raises(ValidationError, match="example bot"):
        bot_delete(user=example.owner, bot=example)


def test_nobody_may_take_a_deleted_bots_kind_of_name():
    with pytest.raises(ValidationError, match="reserved"):
        bot_version_upload(
            user=UserFactory(),
            name="Deleted-Bot-7",
            upload=SimpleUploadedFile("bot.py", DRAW_BOT_SOURCE),
        )


def test_replays_and_log_downloads_show_the_neutral_name(
    alices_bot, client, django_capture_on_commit_callbacks
):
    game = Game.objects.filter(match__seats__bot=alices_bot).first()
    before = client.get(f"/games/{game.pk}/log.json").json()["names"]
    assert sorted(before) == ["alices", "bobs"]
    deleted = delete(alices_bot.owner, alices_bot, django_capture_on_commit_callbacks)
    after = client.get(f"/games/{game.pk}/log.json").json()["names"]
    assert sorted(after) == sorted([deleted.name, "bobs"])
    replay = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "alices" not in replay
    assert APIClient().get(f"/api/v1/games/{game.pk}/replay/").json()["log"]["names"] == after


def test_the_api_deletes_for_the_owner_only(alices_bot, django_capture_on_commit_callbacks):
    url = "/api/v1/bots/alices/delete/"
    assert APIClient().post(url).status_code == 401
    stranger = APIClient()
    stranger.force_authenticate(UserFactory(username="bob"))
    assert stranger.post(url).status_code == 404  # as for a name nobody has
    owner = APIClient()
    owner.force_authenticate(alices_bot.owner)
    with django_capture_on_commit_callbacks(execute=True):
        assert owner.post(url).status_code == 204
    assert owner.post(url).status_code == 404
    assert "alices" not in str(owner.get("/api/v1/bots/").json())
    tombstone = APIClient().get(f"/api/v1/bots/deleted-bot-{alices_bot.pk}/").json()
    assert tombstone["deleted"] is True
    assert tombstone["owner"] == DELETED_BOTS_OWNER
    assert tombstone["active_version"] is None
