"""Ratings API: one class per operation, reads only (ratings change through games)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.bots.models import Bot
from arena.core.api import PagePagination
from arena.matches.models import Competition
from arena.ratings.selectors import (
    LEADERBOARD_ORDERINGS,
    head_to_head,
    leaderboard_queryset,
    leaderboard_rows,
    rating_history,
)

from .serializers import HeadToHeadSerializer, HistoryPointSerializer, LeaderboardRowSerializer


class LeaderboardApi(APIView):
    """A competition's leaderboard, best first; each rank is in the whole competition
    even when searching."""

    permission_classes = [AllowAny]
    pagination_class = PagePagination

    class FilterSerializer(serializers.Serializer):
        search = serializers.CharField(required=False, default="", allow_blank=True, max_length=40)
        ordering = serializers.ChoiceField(
            choices=list(LEADERBOARD_ORDERINGS), required=False, default="rank"
        )

    @extend_schema(
        parameters=[FilterSerializer],
        responses=LeaderboardRowSerializer(many=True),
    )
    def get(self, request: Request, slug: str) -> Response:
        competition = get_object_or_404(Competition, slug=slug)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        ratings = leaderboard_queryset(competition=competition, **filters.validated_data)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(ratings, request, view=self)
        rows = leaderboard_rows(competition=competition, ratings=list(page or []))
        return paginator.get_paginated_response(LeaderboardRowSerializer(rows, many=True).data)


class RatingHistoryApi(APIView):
    """A bot's rating after each rated game of a competition, oldest first; the first
    game of each new version is marked."""

    permission_classes = [AllowAny]

    class FilterSerializer(serializers.Serializer):
        # A bot can have played tens of thousands of games: the latest points only.
        limit = serializers.IntegerField(
            required=False,
            default=1000,
            min_value=1,
            max_value=10_000,
            help_text="The latest N points (default 1000).",
        )

    @extend_schema(parameters=[FilterSerializer], responses=HistoryPointSerializer(many=True))
    def get(self, request: Request, slug: str, name: str) -> Response:
        competition = get_object_or_404(Competition, slug=slug)
        bot = get_object_or_404(Bot, name=name)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        points = rating_history(bot=bot, competition=competition, **filters.validated_data)
        return Response(HistoryPointSerializer(points, many=True).data)


class HeadToHeadApi(APIView):
    """A bot's pairwise record against each opponent in a competition's rated games."""

    permission_classes = [AllowAny]

    @extend_schema(responses=HeadToHeadSerializer(many=True))
    def get(self, request: Request, slug: str, name: str) -> Response:
        competition = get_object_or_404(Competition, slug=slug)
        bot = get_object_or_404(Bot, name=name)
        rows = head_to_head(bot=bot, competition=competition)
        return Response(HeadToHeadSerializer(rows, many=True).data)
