"""Reads on bots and versions. Code and qualification details are the owner's
(and staff's) only: the selectors that return them check, and raise Http404 so
that a stranger cannot even tell which versions exist."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404

from .models import Bot, BotVersion
from .services import user_may_manage


def _active_version_prefetch() -> Prefetch:
    return Prefetch(
        "versions",
        queryset=BotVersion.objects.filter(status=BotVersion.Status.ACTIVE),
        to_attr="active_versions",
    )


def bot_list(*, search: str = "") -> QuerySet[Bot]:
    """Every bot with its owner and active version (two queries per page); deleted
    bots are left out."""
    bots = (
        Bot.objects.filter(deleted_at__isnull=True)
        .select_related("owner")
        .prefetch_related(_active_version_prefetch())
    )
    if search:
        bots = bots.filter(name__icontains=search)
    return bots.order_by("name")


def bot_list_for_owner(*, user: Any, search: str = "") -> QuerySet[Bot]:
    if not user.is_authenticated:
        return Bot.objects.none()
    return bot_list(search=search).filter(owner=user)


def bot_get(*, name: str) -> Bot:
    """The bot of that name; a deleted one too, by its neutral name, since the
    matches it played still link to it."""
    bots = Bot.objects.select_related("owner").prefetch_related(_active_version_prefetch())
    try:
        return bots.get(name=name)
    except Bot.DoesNotExist:
        raise Http404(f"No bot named {name!r}.") from None


def bot_get_for_owner(*, user: Any, name: str) -> Bot:
    """The bot if the user owns it (or is staff) and it is not deleted; Http404
    otherwise, the same answer as for a name nobody has."""
    bot = Bot.objects.select_related("owner").filter(name=name, deleted_at__isnull=True).first()
    if bot is None or not user_may_manage(user=user, bot=bot):
        raise Http404("No such bot.")
    return bot


def bot_active_version(*, bot: Bot) -> BotVersion | None:
    prefetched = getattr(bot, "active_versions", None)
    if prefetched is not None:
        return prefetched[0] if prefetched else None
    return bot.versions.filter(status=BotVersion.Status.ACTIVE).first()


def bot_version_list(*, bot: Bot) -> QuerySet[BotVersion]:
    return bot.versions.select_related("bot").order_by("-number")


def bot_version_get_for_owner(*, user: Any, pk: int) -> BotVersion:
    """The version if the user owns its bot (or is staff); Http404 otherwise."""
    version = BotVersion.objects.select_related("bot", "bot__owner").filter(pk=pk).first()
    if version is None or not user_may_manage(user=user, bot=version.bot):
        raise Http404("No such version.")
    return version


def bot_version_code_for_owner(*, user: Any, version: BotVersion) -> bytes:
    """The stored upload (a .py or a .zip), for the owner or staff only. A deleted
    bot's versions have none."""
    if not user_may_manage(user=user, bot=version.bot) or not version.code:
        raise Http404("No such version.")
    with version.code.open("rb") as stored:
        return stored.read()
