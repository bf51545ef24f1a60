"""Competitions (ladders), matches, the seats of a match and the games played.

The database is the source of truth for jobs: a queued Celery message carries only
a match id, and a worker claims the row (state + lease) before playing it.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

import engine


class Competition(models.Model):
    """A ladder for one ruleset and one table size, with its own ratings."""

    slug = models.SlugField(max_length=50, unique=True)
    name = models.CharField(max_length=100)
    ruleset = models.JSONField(help_text="The engine ruleset, every option spelled out.")
    seats = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(engine.MIN_PLAYERS), MaxValueValidator(engine.MAX_PLAYERS)]
    )
    games_per_match = models.PositiveSmallIntegerField(default=4)

    class RatingSystem(models.TextChoices):
        # The same names as arena.ratings.ledger.SYSTEMS (a test keeps them equal).
        ELO = "elo", "Elo (pairwise)"
        PLACKETT_LUCE = "plackett_luce", "Plackett-Luce (mu, sigma)"

    rating_system = models.CharField(
        max_length=16,
        choices=RatingSystem.choices,
        default=RatingSystem.PLACKETT_LUCE,
        help_text="How the ladder rates its games (docs/ratings-and-tournaments.md).",
    )
    # A new version's promotion test (arena.matches.sprt): H0 "better by at most
    # promotion_elo0", H1 "better by promotion_elo1", at these error rates.
    promotion_elo0 = models.FloatField(default=0.0)
    promotion_elo1 = models.FloatField(default=30.0)
    promotion_alpha = models.FloatField(default=0.05)
    promotion_beta = models.FloatField(default=0.05)
    promotion_max_pairs = models.PositiveIntegerField(default=1000)
    is_default = models.BooleanField(default=False)
    ladder_enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-is_default", "name"]

    def __str__(self) -> str:
        return self.name


class Match(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        LADDER = "ladder", "Ladder"
        CHALLENGE = "challenge", "Challenge"
        TOURNAMENT = "tournament", "Tournament"
        PROMOTION = "promotion", "Promotion test"
        TABLE = "table", "Table with a person"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    competition = models.ForeignKey(
        Competition, on_delete=models.PROTECT, related_name="matches", null=True, blank=True
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="matches",
        null=True,
        blank=True,
    )
    rated = models.BooleanField(default=True)
    ruleset = models.JSONField()
    games_planned = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    state = models.CharField(
        max_length=8, choices=State.choices, default=State.QUEUED
    )  # indexed as the first column of (state, lease_expires_at)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)
    backend = models.CharField(max_length=16, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["state", "lease_expires_at"])]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.kind}, {self.state})"


class MatchSeat(models.Model):
    """One player of a match: a bot at one version, or a person (`person`, at a
    table: arena.matches.tables). `index` is its place in the match's player list,
    which the game seating rotates."""

    # No single-column indexes where a composite one starts with the column (below):
    # every created match inserts into each index of its seats.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    index = models.PositiveSmallIntegerField()
    bot = models.ForeignKey(
        "bots.Bot",
        on_delete=models.CASCADE,
        related_name="match_seats",
        db_index=False,
        null=True,
        blank=True,
    )
    bot_version = models.ForeignKey(
        "bots.BotVersion",
        on_delete=models.CASCADE,
        related_name="match_seats",
        null=True,
        blank=True,
    )
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="table_seats",
        null=True,
        blank=True,
    )
    wins = models.PositiveSmallIntegerField(default=0)
    games = models.PositiveSmallIntegerField(default=0)
    faults = models.PositiveSmallIntegerField(default=0)
    rank_sum = models.PositiveIntegerField(default=0)
    fault_reasons = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="match_seat_index_unique"),
            # A bot at a version, or a person's seat (whose person may have deleted
            # their account since: the seat, and the game's replay, stay).
            models.CheckConstraint(
                condition=(
                    models.Q(bot__isnull=False, bot_version__isnull=False, person__isnull=True)
                    | models.Q(bot__isnull=True, bot_version__isnull=True)
                ),
                name="match_seat_bot_or_person",
            ),
        ]
        indexes = [models.Index(fields=["bot", "-match"])]

    def __str__(self) -> str:
        return f"{self.match_id}#{self.index} {self.player_name}"

    @property
    def owner_id(self) -> int | None:
        """Whose seat it is: the bot's owner, or the person."""
        return self.bot.owner_id if self.bot_id is not None else self.person_id

    @property
    def is_person(self) -> bool:
        return self.bot_id is None

    @property
    def player_name(self) -> str:
        """The name the tables and replays show: the bot's, or the person's."""
        if self.bot_id is not None:
            return self.bot.name
        return person_seat_name(self.person.username if self.person_id else None)


def person_seat_name(username: str | None) -> str:
    """How a person's seat is named at the table (never a bot's name: bot names
    cannot contain "@")."""
    return f"@{username}" if username else "@someone"


class Game(models.Model):
    # Indexed as the first column of (match, number); every game inserts into each index.
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games", db_index=False)
    number = models.PositiveSmallIntegerField()
    # seating[s] = MatchSeat.index sitting at table seat s in this game.
    seating = models.JSONField()
    # ranks[i] = place of MatchSeat.index i (1 = winner, shared places allowed).
    ranks = models.JSONField()
    winner_index = models.PositiveSmallIntegerField(null=True)
    turns = models.PositiveIntegerField()
    adjudicated = models.BooleanField(default=False)
    faults = models.JSONField(default=list, blank=True)
    # The REPLAY.md log (with timing and stderr), zlib-compressed JSON.
    log_compressed = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} game {self.number}"


class Promotion(models.Model):
    """A new version's test against the bot's active version: pairs of games over
    duplicate deals, decided by a sequential probability ratio test (sprt.py)."""

    class State(models.TextChoices):
        RUNNING = "running", "Running"
        PROMOTED = "promoted", "Promoted"
        KEPT = "kept", "Active version kept"
        PROMOTED_BY_OWNER = "promoted_by_owner", "Promoted by its owner"
        STOPPED = "stopped", "Stopped"

    candidate = models.OneToOneField(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="promotion"
    )
    incumbent = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="defences"
    )
    competition = models.ForeignKey(Competition, on_delete=models.PROTECT, related_name="+")
    state = models.CharField(max_length=20, choices=State.choices, default=State.RUNNING)
    elo0 = models.FloatField()
    elo1 = models.FloatField()
    alpha = models.FloatField()
    beta = models.FloatField()
    max_pairs = models.PositiveIntegerField()
    # Pairs in which the candidate scored 0, 1/2, 1, 3/2 and 2 points.
    pentanomial = models.JSONField(default=list)
    llr = models.FloatField(default=0.0)
    reason = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"promotion of {self.candidate} against {self.incumbent} ({self.state})"

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)


class QualificationGame(models.Model):
    """One game of a version's qualification (arena.play.qualification): kept so its
    owner can watch it, at the moment of a fault. Only the owner sees these."""

    version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="qualification_games"
    )
    # The game's place in the qualification report's `games`.
    number = models.PositiveSmallIntegerField()
    # The version's table seat in this game.
    seat = models.PositiveSmallIntegerField()
    # The REPLAY.md log (with timing and stderr), zlib-compressed JSON (see logs.py).
    log_compressed = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["version", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["version", "number"], name="qualification_game_number_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"qualification game {self.number} of {self.version}"
