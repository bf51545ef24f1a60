"""A game's analysis over HTTP: read it (progress included) and ask for it."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.matches.selectors import game_get

from .. import selectors, services
from .serializers import AnalysisSerializer


class GameAnalysisApi(APIView):
    """The search bot's verdict on every decision of a game, each seat's from that
    seat's own view; filled in while the analysis runs."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    class FilterSerializer(serializers.Serializer):
        since = serializers.IntegerField(
            required=False,
            default=0,
            min_value=0,
            help_text="Only the decisions numbered from this one on (a poll's next).",
        )

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: AnalysisSerializer, 404: None},
        operation_id="games_analysis_retrieve",
    )
    def get(self, request, pk: int):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        game = game_get(pk=pk)
        view = selectors.analysis_view_for_user(
            user=request.user, game=game, since=filters.validated_data["since"]
        )
        if view is None:
            raise Http404("Nobody has asked for an analysis of this game yet.")
        return Response(AnalysisSerializer(view).data)

    @extend_schema(
        request=None,
        responses={201: AnalysisSerializer, 200: AnalysisSerializer},
        operation_id="games_analysis_request",
    )
    def post(self, request, pk: int):
        """Ask for the analysis: the owner of a seat's bot, or anyone for a ladder
        game, within the daily quota. An analysis already asked for is returned."""
        game = game_get(pk=pk)
        existed = selectors.analysis_current(game=game) is not None
        services.analysis_request(user=request.user, game=game)
        view = selectors.analysis_view_for_user(user=request.user, game=game)
        code = status.HTTP_200_OK if existed else status.HTTP_201_CREATED
        return Response(AnalysisSerializer(view).data, status=code)
