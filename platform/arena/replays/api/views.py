"""REST API of the replays app: a game as a replay, and a game's log."""

from __future__ import annotations

from django.http import StreamingHttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.matches.models import Game
from arena.matches.selectors import game_get, match_get

from ..live import match_events_stream, sse, stream_start_parse
from ..selectors import (
    game_replay_for_user,
    qualification_game_get_for_owner,
    qualification_game_replay,
)


class EventStreamRenderer(BaseRenderer):
    """`text/event-stream`: what a browser's EventSource asks for. A stream is a
    StreamingHttpResponse; only an error (a 404) is rendered here, as one event."""

    media_type = "text/event-stream"
    format = "event-stream"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return sse("error", data).encode()


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


class MatchEventsApi(APIView):
    """The match as it is played, as Server-Sent Events (docs/live.md): each game's
    events (the replay log's, one `move` each, with the replay viewer's frame), a
    `game-over` per game and, last, the match's `result`. A game still being played
    is public information only (hands as counts, drawn cards hidden), some seconds
    late, except the seats of the user's own bots; a game that is over is shown
    whole. Reconnecting with `Last-Event-ID` goes on where the stream was."""

    renderer_classes = [EventStreamRenderer, JSONRenderer]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "game", OpenApiTypes.INT, description="start at this game (0 = the first)"
            ),
            OpenApiParameter(
                "Last-Event-ID",
                OpenApiTypes.STR,
                location=OpenApiParameter.HEADER,
                description="the last event id received (`game.frame`): resume after it",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                response=OpenApiTypes.STR,
                description="events `game`, `move`, `game-over`, then `result`; "
                "each `data` is JSON",
            ),
            404: OpenApiResponse(description="no such match"),
        },
        operation_id="matches_events",
    )
    def get(self, request, pk: int):
        match = match_get(pk=pk)
        start = stream_start_parse(
            last_event_id=request.headers.get("Last-Event-ID"),
            game=request.query_params.get("game"),
        )
        response = StreamingHttpResponse(
            match_events_stream(
                user=request.user, match=match, start_game=start.game, start_frame=start.frame
            ),
            content_type="text/event-stream; charset=utf-8",
        )
        response["Cache-Control"] = "no-cache, no-store"
        response["X-Accel-Buffering"] = "no"  # a proxy in front must not hold events back
        return response
