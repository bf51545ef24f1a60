"""Input and output shapes of the tournaments API."""

from __future__ import annotations

from rest_framework import serializers

import engine
from arena.tournaments.models import Tournament, TournamentEntry
from arena.tournaments.services import MAX_ENTRANTS


class TournamentCreateInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    format = serializers.ChoiceField(choices=Tournament.Format.choices)
    ruleset = serializers.JSONField(
        required=False,
        default="korean",
        help_text="A preset name (e.g. 'korean') or an object of rule options.",
    )
    seats = serializers.IntegerField(min_value=engine.MIN_PLAYERS, max_value=engine.MAX_PLAYERS)
    games_per_match = serializers.IntegerField(
        min_value=1, help_text="A multiple of seats, so that seats rotate fully."
    )
    rounds = serializers.IntegerField(min_value=1, required=False, default=1)
    bots = serializers.ListField(
        child=serializers.CharField(max_length=40),
        min_length=2,
        max_length=MAX_ENTRANTS,
        help_text="Names of the bots to enter (your own, or any for staff).",
    )


class TournamentEntrySerializer(serializers.ModelSerializer):
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    version = serializers.IntegerField(source="bot_version.number")

    class Meta:
        model = TournamentEntry
        fields = ["bot", "owner", "version"]


class TournamentSerializer(serializers.ModelSerializer):
    created_by = serializers.CharField(source="created_by.username")
    entrants = serializers.IntegerField(source="entrant_count", read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "format",
            "seats",
            "games_per_match",
            "rounds",
            "state",
            "error",
            "created_by",
            "entrants",
            "created_at",
            "started_at",
            "finished_at",
        ]


class ProgressSerializer(serializers.Serializer):
    done = serializers.IntegerField(help_text="Matches finished (done or failed).")
    total = serializers.IntegerField()
    state = serializers.CharField()
    finished = serializers.BooleanField(help_text="True once the tournament is done or failed.")


class TournamentDetailSerializer(TournamentSerializer):
    ruleset = serializers.JSONField()
    entries = TournamentEntrySerializer(many=True, source="entry_list")
    progress = ProgressSerializer()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "ruleset", "entries", "progress"]


class StandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    bot = serializers.CharField(source="bot_name")
    owner = serializers.CharField(source="owner_name")
    version = serializers.IntegerField(source="version_number")
    games = serializers.IntegerField()
    points = serializers.FloatField(help_text="Pairwise: a better place than one opponent is 1.")
    score = serializers.FloatField(help_text="Points per pairwise game (0..1).")
    wins = serializers.IntegerField()
    average_rank = serializers.FloatField(allow_null=True)
    performance = serializers.FloatField(help_text="Performance rating (Elo scale).")


class CrosstableCellSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    points = serializers.FloatField()


class CrosstableSerializer(serializers.Serializer):
    bots = serializers.ListField(child=serializers.CharField())
    cells = serializers.ListField(
        child=serializers.ListField(child=CrosstableCellSerializer(allow_null=True)),
        help_text="cells[i][j]: bots[i]'s record against bots[j]; null if they never met.",
    )
