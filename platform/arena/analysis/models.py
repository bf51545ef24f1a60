"""Analyses of played games: the search bot's verdict on every decision of a game,
stored beside its log (which never changes), one analysis per game and settings."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models


class Analysis(models.Model):
    """One game analysed under one set of search settings (`settings_key`)."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    game = models.ForeignKey(
        "matches.Game", on_delete=models.CASCADE, related_name="analyses", db_index=False
    )
    # The search's version and settings, spelled out ("search-1:iterations-300"): a
    # new version or new settings make a new analysis, the old one stays.
    settings_key = models.CharField(max_length=100)
    settings = models.JSONField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    requested_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    decisions_total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # A worker holds a running analysis until then; once it runs out the sweeper (or
    # a request) sends the task again (the worker died). On a queued analysis sent
    # again, when to send it once more (its message was lost); None before that.
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "settings_key"], name="analysis_game_settings_unique"
            ),
        ]
        # The daily quota counts a user's requests of the day.
        indexes = [models.Index(fields=["requested_by", "created_at"])]

    def __str__(self) -> str:
        return f"analysis {self.pk} of game {self.game_id} ({self.settings_key}, {self.state})"


class AnalysisDecision(models.Model):
    """One decision of one seat: what its bot answered and what the search, from that
    seat's information alone, prefers. Chances are of finishing first, 0 to 1."""

    analysis = models.ForeignKey(
        Analysis, on_delete=models.CASCADE, related_name="decisions", db_index=False
    )
    number = models.PositiveIntegerField()  # the decision's place in the game
    seat = models.PositiveSmallIntegerField()  # table seat
    # Index in the log's events of the event the reply produced (None: it produced none).
    event = models.PositiveIntegerField(null=True)
    turn = models.PositiveIntegerField()
    kind = models.CharField(max_length=8)  # the message: "turn" or "catch"
    under_attack = models.BooleanField(default=False)
    taken = models.JSONField(null=True)  # the bot's reply (None: it gave none)
    # None: the reply was no legal move, or the only one (nothing was played out).
    taken_win = models.FloatField(null=True)
    preferred = models.JSONField()
    preferred_win = models.FloatField(null=True)
    loss = models.FloatField(null=True)  # preferred_win - taken_win
    agrees = models.BooleanField(default=False)  # the bot's reply is the preferred move
    candidates = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["analysis", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["analysis", "number"], name="analysis_decision_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"analysis {self.analysis_id} decision {self.number} (seat {self.seat})"
