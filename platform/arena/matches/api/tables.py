"""Tables over HTTP: sit down against bots, answer what you are asked, leave."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError as DrfValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from arena.matches import selectors
from arena.matches.models import Match
from arena.matches.tables import (
    MAX_TABLE_GAMES,
    TableRequest,
    table_answer,
    table_bots,
    table_create,
    table_leave_by,
)

from .views import MatchSerializer


class TableCreateApi(APIView):
    """Sit down at a table against bots (any active bot); unrated, one open at a time.
    Follow it with the match's event stream (`matches_events`), which brings your
    `question` events."""

    permission_classes = [IsAuthenticated]

    class TableInputSerializer(serializers.Serializer):
        bots = serializers.ListField(
            child=serializers.CharField(max_length=40),
            min_length=engine.MIN_PLAYERS - 1,
            max_length=engine.MAX_PLAYERS - 1,
            help_text="The bots' names, in seat order (1 to 7).",
        )
        preset = serializers.ChoiceField(choices=list(engine.PRESET_NAMES), default="korean")
        games = serializers.IntegerField(min_value=1, max_value=MAX_TABLE_GAMES, default=1)

    @extend_schema(
        request=TableInputSerializer, responses={201: MatchSerializer}, operation_id="tables_create"
    )
    def post(self, request):
        data = self.TableInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        names = data.validated_data["bots"]
        found = {bot.name: bot for bot in table_bots().filter(name__in=names)}
        unknown = [name for name in names if name not in found]
        if unknown:
            raise DrfValidationError({"bots": [f"No active bot named {', '.join(unknown)}."]})
        match = table_create(
            user=request.user,
            request=TableRequest(
                bots=[found[name] for name in names],
                preset=data.validated_data["preset"],
                games=data.validated_data["games"],
            ),
        )
        match = selectors.match_get(pk=match.pk)
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)


class TableMoveApi(APIView):
    """Answer the question your table asks you now (its number from the `question`
    event): a turn's play or draw, a catch window's catch or pass."""

    permission_classes = [IsAuthenticated]

    class MoveInputSerializer(serializers.Serializer):
        number = serializers.IntegerField(min_value=1)
        action = serializers.ChoiceField(choices=["play", "draw", "catch", "pass"])
        card = serializers.CharField(max_length=2, required=False)
        suit = serializers.ChoiceField(choices=["S", "H", "D", "C"], required=False)
        call = serializers.BooleanField(required=False, help_text='Call "One Card!".')

    @extend_schema(request=MoveInputSerializer, responses={202: None}, operation_id="tables_move")
    def post(self, request, pk: int):
        match = get_object_or_404(Match, pk=pk, kind=Match.Kind.TABLE)
        data = self.MoveInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        reply = dict(data.validated_data)
        number = reply.pop("number")
        table_answer(user=request.user, match=match, number=number, reply=reply)
        return Response(status=status.HTTP_202_ACCEPTED)


class TableLeaveApi(APIView):
    """Leave your table: your seat's game ends for you, the bots play it out."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={202: None}, operation_id="tables_leave")
    def post(self, request, pk: int):
        match = get_object_or_404(Match, pk=pk, kind=Match.Kind.TABLE)
        table_leave_by(user=request.user, match=match)
        return Response(status=status.HTTP_202_ACCEPTED)


__all__ = ["TableCreateApi", "TableLeaveApi", "TableMoveApi"]
