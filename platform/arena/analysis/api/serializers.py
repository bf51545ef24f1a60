"""What the API tells of an analysis (`selectors.AnalysisView`)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from ..models import Analysis


class DecisionSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The decision's place in the game, from 0.")
    seat = serializers.IntegerField(help_text="The table seat that decided.")
    event = serializers.IntegerField(
        allow_null=True, help_text="Index in the log's events of the event the reply produced."
    )
    turn = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["turn", "catch"], help_text="The message answered.")
    under_attack = serializers.BooleanField()
    taken = serializers.JSONField(allow_null=True, help_text="The bot's reply (its move only).")
    taken_win = serializers.FloatField(
        allow_null=True,
        help_text="Estimated chance to finish first after the reply "
        "(null: not a legal move, or a forced one).",
    )
    preferred = serializers.JSONField(help_text="The reply the search prefers.")
    preferred_win = serializers.FloatField(
        allow_null=True, help_text="Null for a forced reply: nothing to weigh it against."
    )
    loss = serializers.FloatField(allow_null=True, help_text="preferred_win - taken_win.")
    agrees = serializers.BooleanField(help_text="The bot's reply is the move the search prefers.")
    candidates = serializers.IntegerField(help_text="Legal replies the search weighed.")
    mistake = serializers.SerializerMethodField(help_text="One of its seat's biggest mistakes.")

    def get_mistake(self, decision) -> bool:  # type: ignore[no-untyped-def]
        return decision.number in self.context.get("mistakes", ())


class AnalysisSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="analysis.pk")
    game = serializers.IntegerField(source="analysis.game_id")
    state = serializers.ChoiceField(source="analysis.state", choices=Analysis.State.choices)
    settings = serializers.JSONField(
        source="analysis.settings", help_text="The search's version and settings."
    )
    stalled = serializers.BooleanField(
        help_text="Its worker is gone; asking again (POST) sends it once more."
    )
    error = serializers.CharField(source="analysis.error", help_text="Why it failed.")
    decisions_done = serializers.IntegerField()
    decisions_total = serializers.IntegerField(source="analysis.decisions_total")
    percent = serializers.IntegerField()
    requested_at = serializers.DateTimeField(source="analysis.created_at")
    started_at = serializers.DateTimeField(source="analysis.started_at", allow_null=True)
    finished_at = serializers.DateTimeField(source="analysis.finished_at", allow_null=True)
    mistakes = serializers.ListField(
        source="mistake_numbers",
        child=serializers.IntegerField(),
        help_text="The numbers of every seat's biggest mistakes, among all its decisions.",
    )
    decisions = serializers.SerializerMethodField()

    @extend_schema_field(DecisionSerializer(many=True))
    def get_decisions(self, view):  # type: ignore[no-untyped-def]
        context = {"mistakes": view.mistakes}
        return DecisionSerializer(view.decisions, many=True, context=context).data
