"""REST API of the replays app: a game as a replay, and a game's log."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.matches.models import Game
from arena.matches.selectors import game_get

from ..selectors import (
    game_replay_for_user,
    qualification_game_get_for_owner,
    qualification_game_replay,
)


class GameReplayApi(APIView):
    """The game log (REPLAY.md) and the viewer's frames. Each seat's stderr and debug
    output is included only for the owner of that seat's bot (and staff)."""

    @extend_schema(
        responses=inline_serializer(
            "GameReplay",
            fields={
                "log": serializers.JSONField(),
                "frames": serializers.ListField(child=serializers.JSONField()),
                "error": serializers.CharField(allow_null=True),
            },
        ),
        operation_id="games_replay",
    )
    def get(self, request, pk: int):
        game = game_get(pk=pk)
        return Response(game_replay_for_user(user=request.user, game=game))


class GameLogApi(APIView):
    """The game's log (REPLAY.md, `docs/replay.md`) as this user may see it: what
    `onecard rerun` reads. Other owners' stderr, debug and private fault detail are
    left out."""

    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="games_log")
    def get(self, request, pk: int):
        return Response(game_replay_for_user(user=request.user, game=game_get(pk=pk))["log"])


class MatchGameLogApi(APIView):
    """The log of a match's game by its number on the match page (1 for the first)."""

    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="matches_game_log")
    def get(self, request, pk: int, number: int):
        found = get_object_or_404(Game.objects.only("pk"), match_id=pk, number=number - 1)
        game = game_get(pk=found.pk)
        return Response(game_replay_for_user(user=request.user, game=game)["log"])


class QualificationGameLogApi(APIView):
    """The log of a game of a version's qualification (0 for the first): its
    owner's alone, so it needs the owner's token."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=OpenApiTypes.OBJECT, operation_id="versions_qualification_log")
    def get(self, request, pk: int, number: int):
        game = qualification_game_get_for_owner(user=request.user, version_pk=pk, number=number)
        return Response(qualification_game_replay(game=game)["log"])
