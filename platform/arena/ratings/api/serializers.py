"""Output shapes of the ratings API."""

from __future__ import annotations

from rest_framework import serializers

from ..selectors import LeaderboardRow


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.CharField(source="bot_name")
    owner = serializers.CharField(source="owner_name")
    active = serializers.BooleanField()
    elo = serializers.FloatField(
        help_text="The rating shown and ordered by, on the Elo scale (under Plackett-Luce "
        "the conservative value, mu - 3 sigma)."
    )
    interval_low = serializers.FloatField(
        allow_null=True, help_text="Lower end of the strength's 95% interval (Elo scale)."
    )
    interval_high = serializers.FloatField(allow_null=True)
    band = serializers.SerializerMethodField(
        help_text='The ranks the bot could hold at 95%, e.g. "1-3"; bots whose bands '
        "overlap are not yet separable."
    )
    band_low = serializers.IntegerField()
    band_high = serializers.IntegerField()
    mu = serializers.FloatField(allow_null=True, help_text="Plackett-Luce skill (null under Elo).")
    sigma = serializers.FloatField(allow_null=True, help_text="Its uncertainty.")
    provisional = serializers.BooleanField(
        help_text="The rating still moves fast: few games (Elo) or a wide sigma."
    )
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    average_rank = serializers.FloatField(allow_null=True)
    score = serializers.FloatField(help_text="Mean pairwise score per game (0..1).")
    last_played_at = serializers.DateTimeField(allow_null=True)
    trend = serializers.ListField(child=serializers.FloatField(), help_text="Latest ratings.")

    def get_band(self, row: LeaderboardRow) -> str:
        return band_label(row.band_low, row.band_high)


def band_label(low: int, high: int) -> str:
    """ "3" for a bot separated from every other, "1-3" for one that is not."""
    return str(low) if low == high else f"{low}\u2013{high}"


class HistoryPointSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    match = serializers.IntegerField(source="match_id")
    at = serializers.DateTimeField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    version = serializers.IntegerField(source="version_number")
    version_changed = serializers.BooleanField()


class HeadToHeadSerializer(serializers.Serializer):
    opponent = serializers.CharField(source="opponent_name")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    score = serializers.FloatField()
