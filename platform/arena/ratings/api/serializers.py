"""Output shapes of the ratings API."""

from __future__ import annotations

from rest_framework import serializers


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    bot = serializers.CharField(source="bot_name")
    owner = serializers.CharField(source="owner_name")
    active = serializers.BooleanField()
    elo = serializers.FloatField()
    interval_low = serializers.FloatField(
        allow_null=True, help_text="Lower end of the rating's 95% interval."
    )
    interval_high = serializers.FloatField(allow_null=True)
    provisional = serializers.BooleanField(help_text="Fewer than 20 rated games.")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    average_rank = serializers.FloatField(allow_null=True)
    score = serializers.FloatField(help_text="Mean pairwise score per game (0..1).")
    last_played_at = serializers.DateTimeField(allow_null=True)
    trend = serializers.ListField(child=serializers.FloatField(), help_text="Latest ratings.")


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
