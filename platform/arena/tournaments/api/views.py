"""Tournaments API: one class per operation."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from arena.bots.models import Bot
from arena.core.api import NewestFirstCursorPagination, paginated
from arena.matches.archives import archive_response
from arena.matches.models import Match
from arena.tournaments.models import Tournament
from arena.tournaments.selectors import (
    tournament_crosstable,
    tournament_entries,
    tournament_list,
    tournament_progress,
    tournament_standings,
)
from arena.tournaments.services import tournament_create

from .serializers import (
    CrosstableSerializer,
    ProgressSerializer,
    StandingSerializer,
    TournamentCreateInputSerializer,
    TournamentDetailSerializer,
    TournamentSerializer,
)


class TournamentCreateThrottle(UserRateThrottle):
    """Each tournament queues a whole schedule of matches: creation is rationed.
    The rate is REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["tournaments"] if set."""

    scope = "tournaments"
    rate = settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}).get("tournaments", "20/hour")


def progress_of(tournament: Tournament) -> dict[str, Any]:
    done, total = tournament_progress(tournament=tournament)
    return {
        "done": done,
        "total": total,
        "state": tournament.state,
        "finished": tournament.state in (Tournament.State.DONE, Tournament.State.FAILED),
    }


def tournament_or_404(pk: int) -> Tournament:
    return get_object_or_404(tournament_list(), pk=pk)


class TournamentListCreateApi(APIView):
    """Tournaments, newest first (anyone); create one (logged-in users, with bots
    they may enter). The schedule is created right after, by a worker."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    pagination_class = NewestFirstCursorPagination

    def get_throttles(self) -> list[Any]:
        return [TournamentCreateThrottle()] if self.request.method == "POST" else []

    class FilterSerializer(serializers.Serializer):
        state = serializers.ChoiceField(choices=Tournament.State.choices, required=False)

    @extend_schema(parameters=[FilterSerializer], responses=TournamentSerializer(many=True))
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        return paginated(self, tournament_list(**filters.validated_data), TournamentSerializer)

    @extend_schema(
        request=TournamentCreateInputSerializer, responses={201: TournamentDetailSerializer}
    )
    def post(self, request: Request) -> Response:
        payload = TournamentCreateInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        names = data.pop("bots")
        bots = list(Bot.objects.filter(name__in=names))
        unknown = sorted(set(names) - {bot.name for bot in bots})
        if unknown:
            raise serializers.ValidationError({"bots": [f"No bot named {', '.join(unknown)}."]})
        # Keep the caller's order (and duplicates, which the service refuses).
        by_name = {bot.name: bot for bot in bots}
        tournament = tournament_create(user=request.user, bots=[by_name[n] for n in names], **data)
        return Response(
            TournamentDetailSerializer(detail_of(tournament_or_404(tournament.pk))).data,
            status=status.HTTP_201_CREATED,
        )


def detail_of(tournament: Tournament) -> Tournament:
    tournament.entry_list = tournament_entries(tournament=tournament)  # type: ignore[attr-defined]
    tournament.progress = progress_of(tournament)  # type: ignore[attr-defined]
    return tournament


class TournamentDetailApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=TournamentDetailSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(TournamentDetailSerializer(detail_of(tournament_or_404(pk))).data)


class TournamentStandingsApi(APIView):
    """Standings from the finished matches so far: by score (points per pairwise
    game), then wins, then average rank."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=StandingSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        rows = tournament_standings(tournament=tournament)
        return Response(StandingSerializer(rows, many=True).data)


class TournamentCrosstableApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=CrosstableSerializer)
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        table = tournament_crosstable(tournament=tournament)
        data = {"bots": [name for _, name in table.bots], "cells": table.cells}
        return Response(CrosstableSerializer(data).data)


class TournamentProgressApi(APIView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=ProgressSerializer)
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        return Response(ProgressSerializer(progress_of(tournament)).data)


class TournamentLogsArchiveApi(APIView):
    """Every game log of the tournament's matches as one zip, each as this user may
    see it (arena.matches.archives: bounded in size)."""

    @extend_schema(
        responses={(200, "application/zip"): OpenApiTypes.BINARY}, operation_id="tournaments_logs"
    )
    def get(self, request: Request, pk: int) -> Any:
        tournament = get_object_or_404(Tournament, pk=pk)
        return archive_response(
            user=request.user,
            matches=Match.objects.filter(tournament=tournament),
            title=f"Tournament {tournament.name}",
            filename=f"tournament-{tournament.pk}-logs.zip",
        )
