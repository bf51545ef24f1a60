"""Bots and versions over HTTP: one class per operation, thin over services."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from arena.bots import selectors, services
from arena.core.api import PagePagination, paginated

from .serializers import BotSerializer, VersionOwnerSerializer, VersionPublicSerializer


class BotListApi(APIView):
    pagination_class = PagePagination

    class FilterSerializer(serializers.Serializer):
        search = serializers.CharField(required=False, allow_blank=True, max_length=40)
        owner = serializers.CharField(required=False, max_length=150)
        mine = serializers.BooleanField(required=False, default=False)

    @extend_schema(
        parameters=[FilterSerializer], responses=BotSerializer(many=True), operation_id="bots_list"
    )
    def get(self, request):
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        search = filters.validated_data.get("search", "")
        if filters.validated_data["mine"]:
            bots = selectors.bot_list_for_owner(user=request.user, search=search)
        else:
            bots = selectors.bot_list(search=search)
        if owner := filters.validated_data.get("owner"):
            bots = bots.filter(owner__username=owner)
        return paginated(self, bots, BotSerializer)


class BotUploadApi(APIView):
    """Upload a bot: creates it if the name is new (and yours), else a new version."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "uploads"

    class BotUploadInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=40)
        upload = serializers.FileField(help_text="One .py file, or a .zip with main.py.")
        description = serializers.CharField(required=False, allow_blank=True, max_length=500)

    @extend_schema(
        request=BotUploadInputSerializer,
        responses={201: VersionOwnerSerializer},
        operation_id="bots_upload",
    )
    def post(self, request):
        data = self.BotUploadInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = services.bot_version_upload(user=request.user, **data.validated_data)
        return Response(VersionOwnerSerializer(version).data, status=status.HTTP_201_CREATED)


class BotDetailApi(APIView):
    @extend_schema(responses=BotSerializer, operation_id="bots_retrieve")
    def get(self, request, name: str):
        return Response(BotSerializer(selectors.bot_get(name=name)).data)


class BotDeleteApi(APIView):
    """Delete one of your bots: its code goes, its games stay under a neutral name."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, operation_id="bots_delete")
    def post(self, request, name: str):
        bot = selectors.bot_get_for_owner(user=request.user, name=name)
        services.bot_delete(user=request.user, bot=bot)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotVersionListApi(APIView):
    @extend_schema(responses=VersionPublicSerializer(many=True), operation_id="bot_versions_list")
    def get(self, request, name: str):
        bot = selectors.bot_get(name=name)
        versions = selectors.bot_version_list(bot=bot)
        return Response(VersionPublicSerializer(versions, many=True).data)


class VersionDetailApi(APIView):
    """A version's diagnostics (qualification, faults): its owner and staff only."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=VersionOwnerSerializer, operation_id="versions_retrieve")
    def get(self, request, pk: int):
        version = selectors.bot_version_get_for_owner(user=request.user, pk=pk)
        return Response(VersionOwnerSerializer(version).data)


class VersionActivateApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=VersionOwnerSerializer, operation_id="versions_activate")
    def post(self, request, pk: int):
        version = selectors.bot_version_get_for_owner(user=request.user, pk=pk)
        version = services.bot_version_activate(user=request.user, version=version)
        return Response(VersionOwnerSerializer(version).data)


class VersionRetireApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=VersionOwnerSerializer, operation_id="versions_retire")
    def post(self, request, pk: int):
        version = selectors.bot_version_get_for_owner(user=request.user, pk=pk)
        version = services.bot_version_retire(user=request.user, version=version)
        return Response(VersionOwnerSerializer(version).data)


class VersionCodeApi(APIView):
    """Download a version's stored code: its owner and staff only."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "application/octet-stream"): OpenApiTypes.BINARY},
        operation_id="versions_code",
    )
    def get(self, request, pk: int):
        version = selectors.bot_version_get_for_owner(user=request.user, pk=pk)
        data = selectors.bot_version_code_for_owner(user=request.user, version=version)
        suffix = "zip" if version.kind == version.Kind.ZIP else "py"
        response = HttpResponse(data, content_type="application/octet-stream")
        # A fixed, safe file name: the uploaded one is the user's text.
        filename = f"{version.bot.name}-v{version.number}.{suffix}"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        response["X-Content-Type-Options"] = "nosniff"
        response["Cache-Control"] = "private, no-store"
        return response
