"""Tournaments: a fixed field of bots playing a schedule of unrated matches."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

import engine


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin (2 seats)"
        BALANCED = "balanced", "Balanced multi-seat rounds (3+ seats)"

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    name = models.CharField(max_length=100)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments"
    )
    format = models.CharField(max_length=12, choices=Format.choices)
    ruleset = models.JSONField()
    seats = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(engine.MIN_PLAYERS), MaxValueValidator(engine.MAX_PLAYERS)]
    )
    games_per_match = models.PositiveSmallIntegerField(default=2)
    rounds = models.PositiveSmallIntegerField(
        default=1, help_text="Balanced format: how many times each bot sits down per round."
    )
    seed = models.BigIntegerField()
    state = models.CharField(
        max_length=8, choices=State.choices, default=State.PENDING, db_index=True
    )
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class TournamentEntry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="tournament_entries")
    # The version frozen when the entry was made, so a new upload cannot change a
    # tournament in progress.
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="tournament_entries"
    )

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot"], name="tournament_entry_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.bot_version} in {self.tournament}"
