"""REST API of the replays app: a game as a replay."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.matches.selectors import game_get

from ..selectors import game_replay_for_user


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
