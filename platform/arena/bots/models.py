"""Bots and their immutable versions.

A bot belongs to one user and has a globally unique name. Every upload is a new
`BotVersion`; its code never changes after upload (`sha256` proves it). At most one
version per bot is `active`: the one that plays on the ladders.

A deleted bot keeps its row, as a tombstone: other bots' matches, ratings and
tournaments refer to it. Its code is gone, its name is neutral (`deleted-bot-<id>`)
and its owner is the placeholder account of deleted bots (`bot_delete`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from .codestore import StoredCode
from .storage import bot_code_storage

__all__ = ["Bot", "BotVersion", "StoredCode"]


def bot_code_path(version: BotVersion, filename: str) -> str:
    # Never trust the uploaded file name for the storage path.
    suffix = "zip" if version.kind == BotVersion.Kind.ZIP else "py"
    return f"bots/{version.bot_id}/{version.number}-{version.sha256[:16]}.{suffix}"


class Bot(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=40, unique=True)
    description = models.CharField(max_length=500, blank=True)
    is_example = models.BooleanField(
        default=False, help_text="One of the platform's example bots (bots_examples/)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(
        null=True, blank=True, help_text="Set when its owner deleted it: a tombstone since."
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None


class BotVersion(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        QUALIFYING = "qualifying", "Qualifying"
        ACTIVE = "active", "Active"
        # Qualified while the bot has an active version: it plays that version
        # until a promotion test decides (arena.matches.promotions).
        TESTING = "testing", "Testing against the active version"
        FAILED = "failed", "Failed"
        RETIRED = "retired", "Retired"

    class Kind(models.TextChoices):
        PY = "py", "Single .py file"
        ZIP = "zip", "Zip archive with main.py"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=3, choices=Kind.choices)
    code = models.FileField(upload_to=bot_code_path, storage=bot_code_storage, max_length=200)
    original_filename = models.CharField(max_length=255, blank=True)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    status = models.CharField(
        max_length=12, choices=Status.choices, default=Status.PENDING, db_index=True
    )
    # Why the version is not (or no longer) playing: a failed qualification's fault,
    # or the reason it was taken off the ladder. Shown to the owner.
    status_reason = models.TextField(blank=True)
    # The qualification match's outcome: faults, the bot's stderr tail, timings.
    qualification = models.JSONField(default=dict, blank=True)
    consecutive_faulted_matches = models.PositiveIntegerField(default=0)
    # Each start of a qualification run counts; a run that never finishes (a worker
    # killed again and again) fails the version after a few attempts.
    qualification_attempts = models.PositiveSmallIntegerField(default=0)
    qualification_started_at = models.DateTimeField(null=True, blank=True)
    # When a pending version's qualification was last sent to the queue again, so
    # that the stale sweep re-sends it once per period, not on every run.
    qualification_requeued_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    qualified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="bot_version_number_unique"),
            models.UniqueConstraint(
                fields=["bot"], condition=Q(status="active"), name="one_active_version_per_bot"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"
