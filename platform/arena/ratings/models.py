"""Ratings per bot per competition, and every change for history charts."""

from __future__ import annotations

from django.db import models


class Rating(models.Model):
    # No single-column indexes where a composite one starts with the column (Meta):
    # every rated game changes `elo`, so it updates every index of the row.
    bot = models.ForeignKey(
        "bots.Bot", on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    competition = models.ForeignKey(
        "matches.Competition", on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    elo = models.FloatField(default=1500.0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    rank_sum = models.PositiveIntegerField(default=0)
    # Sum of the bot's mean pairwise score per game (a win at a 2-seat table is 1,
    # second of four is 2/3): the score fraction behind the rating's interval.
    score_sum = models.FloatField(default=0.0)
    last_played_at = models.DateTimeField(null=True, blank=True)
    # The latest ratings after each game (oldest first), kept on the row so that a
    # leaderboard page shows trend lines without reading the change history.
    trend = models.JSONField(default=list, blank=True)
    # The Plackett-Luce skill and its uncertainty, in competitions that use it;
    # `elo` is then the conservative value shown (arena.ratings.plackett_luce).
    mu = models.FloatField(null=True, blank=True)
    sigma = models.FloatField(null=True, blank=True)
    # The version of the bot's latest rated game: a new one widens sigma.
    last_version_id = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot", "competition"], name="rating_bot_competition"),
        ]
        indexes = [
            # The leaderboard's rank order with its tie-break: pages come straight
            # off this index, in either direction, and ranks are counts over it.
            models.Index(fields=["competition", "-elo", "bot"], name="rating_leaderboard_order"),
        ]

    def __str__(self) -> str:
        return f"{self.bot} in {self.competition}: {self.elo:.0f}"

    @property
    def score_fraction(self) -> float:
        return self.score_sum / self.games if self.games else 0.5


class RatingChange(models.Model):
    # Indexed as the first column of (rating, id); every rated game inserts changes.
    rating = models.ForeignKey(
        Rating, on_delete=models.CASCADE, related_name="changes", db_index=False
    )
    game = models.ForeignKey(
        "matches.Game", on_delete=models.CASCADE, related_name="rating_changes"
    )
    bot_version = models.ForeignKey(
        "bots.BotVersion", on_delete=models.CASCADE, related_name="rating_changes"
    )
    before = models.FloatField()
    after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["rating", "id"])]

    def __str__(self) -> str:
        return f"{self.rating}: {self.before:.0f} -> {self.after:.0f}"
