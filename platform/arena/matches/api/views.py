"""Competitions, matches, games and challenges over HTTP: one class per operation."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.bots.api.serializers import BotSummarySerializer
from arena.bots.selectors import bot_get
from arena.core.api import NewestFirstCursorPagination, PagePagination, paginated
from arena.matches import selectors, services
from arena.matches.archives import match_archive_response
from arena.matches.models import Competition, Game, Match, MatchSeat

# -- output shapes -----------------------------------------------------------------------


class CompetitionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Competition
        fields = [
            "slug",
            "name",
            "ruleset",
            "seats",
            "games_per_match",
            "rating_system",
            "is_default",
            "ladder_enabled",
            "created_at",
        ]


class SeatSerializer(serializers.ModelSerializer):
    bot = BotSummarySerializer(allow_null=True, help_text="None for a person's seat.")
    version = serializers.IntegerField(source="bot_version.number", allow_null=True, default=None)
    person = serializers.CharField(
        source="person.username",
        allow_null=True,
        default=None,
        help_text="The user at a table's person seat; None for a bot.",
    )

    class Meta:
        model = MatchSeat
        fields = ["index", "bot", "version", "person", "games", "wins", "faults", "rank_sum"]


class MatchSerializer(serializers.ModelSerializer):
    competition = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    seats = SeatSerializer(many=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "kind",
            "state",
            "rated",
            "competition",
            "tournament",
            "games_planned",
            "seats",
            "attempts",
            "created_at",
            "started_at",
            "finished_at",
        ]


class FaultSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The faulted bot's index in the match.")
    seat = serializers.IntegerField(help_text="Its table seat in this game.")
    reason = serializers.CharField()
    turn = serializers.IntegerField(allow_null=True, help_text="The turn, 0 for the first.")
    sentence = serializers.CharField(
        help_text="What went wrong; the bot's own output (its reply, stderr) only for its owner."
    )
    replay_url = serializers.CharField(help_text="The replay, opened at the fault.")


class GameSerializer(serializers.ModelSerializer):
    faults = serializers.SerializerMethodField()

    @extend_schema_field(FaultSerializer(many=True))
    def get_faults(self, game: Game) -> list[dict]:
        # The sentence that tells a bot's own output is for that bot's owner only.
        return selectors.game_faults_for_user(game=game, owned=self.context.get("owned", set()))

    class Meta:
        model = Game
        fields = [
            "id",
            "match",
            "number",
            "seating",
            "ranks",
            "winner_index",
            "turns",
            "adjudicated",
            "faults",
            "created_at",
        ]


class MatchDetailSerializer(MatchSerializer):
    games = GameSerializer(many=True)

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "seed", "ruleset", "backend", "error", "games"]


# -- competitions ------------------------------------------------------------------------


class CompetitionListApi(APIView):
    pagination_class = PagePagination

    @extend_schema(responses=CompetitionSerializer(many=True), operation_id="competitions_list")
    def get(self, request):
        return paginated(self, selectors.competition_list(), CompetitionSerializer)


class CompetitionCreateApi(APIView):
    """Staff only: a new ladder (a ruleset and a table size)."""

    permission_classes = [IsAdminUser]

    class CompetitionInputSerializer(serializers.ModelSerializer):
        class Meta:
            model = Competition
            fields = [
                "slug",
                "name",
                "ruleset",
                "seats",
                "games_per_match",
                "rating_system",
                "ladder_enabled",
            ]

    @extend_schema(
        request=CompetitionInputSerializer,
        responses={201: CompetitionSerializer},
        operation_id="competitions_create",
    )
    def post(self, request):
        data = self.CompetitionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        competition = services.competition_create(**data.validated_data)
        return Response(CompetitionSerializer(competition).data, status=status.HTTP_201_CREATED)


class CompetitionDetailApi(APIView):
    @extend_schema(responses=CompetitionSerializer, operation_id="competitions_retrieve")
    def get(self, request, slug: str):
        return Response(CompetitionSerializer(selectors.competition_get(slug=slug)).data)


# -- matches -----------------------------------------------------------------------------


class MatchListApi(APIView):
    pagination_class = NewestFirstCursorPagination

    class FilterSerializer(serializers.Serializer):
        bot = serializers.CharField(required=False, help_text="A bot's name.")
        competition = serializers.SlugField(required=False)
        tournament = serializers.IntegerField(required=False)
        state = serializers.ChoiceField(choices=Match.State.choices, required=False)

    @extend_schema(
        parameters=[FilterSerializer],
        responses=MatchSerializer(many=True),
        operation_id="matches_list",
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        values = filters.validated_data
        matches = selectors.match_list(
            bot=bot_get(name=values["bot"]) if "bot" in values else None,
            competition=(
                selectors.competition_get(slug=values["competition"])
                if "competition" in values
                else None
            ),
            tournament=values.get("tournament"),
            state=values.get("state"),
        )
        return paginated(self, matches, MatchSerializer)


class MatchLiveListApi(APIView):
    @extend_schema(responses=MatchSerializer(many=True), operation_id="matches_live")
    def get(self, request):
        return Response(MatchSerializer(selectors.matches_live()[:100], many=True).data)


class MatchDetailApi(APIView):
    @extend_schema(responses=MatchDetailSerializer, operation_id="matches_retrieve")
    def get(self, request, pk: int):
        match = selectors.match_get(pk=pk)
        owned = selectors.match_indexes_owned(user=request.user, seats=list(match.seats.all()))
        return Response(MatchDetailSerializer(match, context={"owned": owned}).data)


class MatchLogsArchiveApi(APIView):
    """Every game log of the match as one zip, each as this user may see it
    (arena.matches.archives: bounded in size)."""

    @extend_schema(
        responses={(200, "application/zip"): OpenApiTypes.BINARY}, operation_id="matches_logs"
    )
    def get(self, request, pk: int):
        match = get_object_or_404(Match, pk=pk)
        return match_archive_response(user=request.user, match=match)


class ChallengeCreateApi(APIView):
    """An unrated match between your bot and any active bot, within a daily quota."""

    permission_classes = [IsAuthenticated]

    class ChallengeInputSerializer(serializers.Serializer):
        bot = serializers.CharField(help_text="Your bot's name.")
        opponent = serializers.CharField(help_text="The opponent bot's name.")

    @extend_schema(
        request=ChallengeInputSerializer,
        responses={201: MatchSerializer},
        operation_id="challenges_create",
    )
    def post(self, request):
        data = self.ChallengeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        match = services.challenge_create(
            user=request.user,
            bot=bot_get(name=data.validated_data["bot"]),
            opponent=bot_get(name=data.validated_data["opponent"]),
        )
        match = selectors.match_get(pk=match.pk)
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)


# -- games -------------------------------------------------------------------------------


class GameDetailApi(APIView):
    @extend_schema(responses=GameSerializer, operation_id="games_retrieve")
    def get(self, request, pk: int):
        game = get_object_or_404(Game.objects.defer("log_compressed"), pk=pk)
        seats = list(MatchSeat.objects.filter(match_id=game.match_id).select_related("bot"))
        owned = selectors.match_indexes_owned(user=request.user, seats=seats)
        return Response(GameSerializer(game, context={"owned": owned}).data)
