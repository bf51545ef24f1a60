"""Output shapes of bots and versions that several APIs reuse (bots, matches)."""

from __future__ import annotations

from rest_framework import serializers

from arena.bots.models import Bot, BotVersion
from arena.bots.selectors import bot_active_version


class VersionPublicSerializer(serializers.ModelSerializer):
    """What anyone may know of a version: never its code nor its owner's diagnostics."""

    class Meta:
        model = BotVersion
        fields = ["id", "number", "kind", "status", "size", "created_at", "qualified_at"]


class BotSummarySerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username")

    class Meta:
        model = Bot
        fields = ["name", "owner", "is_example"]


class BotSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username")
    active_version = serializers.SerializerMethodField()
    deleted = serializers.BooleanField(
        source="is_deleted", read_only=True, help_text="Deleted by its owner: a neutral name."
    )

    class Meta:
        model = Bot
        fields = [
            "name",
            "owner",
            "description",
            "is_example",
            "created_at",
            "active_version",
            "deleted",
        ]

    def get_active_version(self, bot: Bot) -> dict | None:
        version = bot_active_version(bot=bot)
        return None if version is None else VersionPublicSerializer(version).data


class VersionOwnerSerializer(serializers.ModelSerializer):
    """The owner's (and staff's) view: diagnostics of qualification and faults."""

    bot = serializers.CharField(source="bot.name")

    class Meta:
        model = BotVersion
        fields = [
            "id",
            "bot",
            "number",
            "kind",
            "status",
            "status_reason",
            "qualification",
            "consecutive_faulted_matches",
            "original_filename",
            "sha256",
            "size",
            "created_at",
            "qualified_at",
        ]
