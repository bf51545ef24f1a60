"""Notifications over HTTP: one class per operation, the caller's own rows only."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.notifications import selectors, services
from arena.notifications.models import Kind


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Kind.choices)
    title = serializers.CharField()
    body = serializers.CharField()
    url = serializers.CharField()
    payload = serializers.JSONField()
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class NotificationListApi(APIView):
    """Your latest notifications, newest first, and how many are unread."""

    permission_classes = [IsAuthenticated]

    class NotificationListOutputSerializer(serializers.Serializer):
        unread = serializers.IntegerField()
        results = NotificationSerializer(many=True)

    @extend_schema(responses=NotificationListOutputSerializer, operation_id="notifications_list")
    def get(self, request):
        data = {
            "unread": selectors.notification_unread_count(user=request.user),
            "results": selectors.notification_list(user=request.user),
        }
        return Response(self.NotificationListOutputSerializer(data).data)


class NotificationDetailApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=NotificationSerializer, operation_id="notifications_retrieve")
    def get(self, request, pk: int):
        notification = selectors.notification_get(user=request.user, pk=pk)
        return Response(NotificationSerializer(notification).data)


class NotificationReadAllApi(APIView):
    permission_classes = [IsAuthenticated]

    class NotificationReadAllOutputSerializer(serializers.Serializer):
        marked = serializers.IntegerField()

    @extend_schema(
        request=None,
        responses=NotificationReadAllOutputSerializer,
        operation_id="notifications_read_all",
    )
    def post(self, request):
        marked = services.notifications_mark_read(user=request.user)
        return Response(self.NotificationReadAllOutputSerializer({"marked": marked}).data)


class NotificationChoiceSerializer(serializers.Serializer):
    email = serializers.BooleanField(required=False)
    webhook = serializers.BooleanField(required=False)


class NotificationPreferencesApi(APIView):
    """Your choices per kind. One resource read (GET) and replaced (PUT): the one
    class serves both methods because they share a URL, each with its own
    serializer and one selector or service."""

    permission_classes = [IsAuthenticated]

    class NotificationPreferencesOutputSerializer(serializers.Serializer):
        preferences = serializers.DictField(child=NotificationChoiceSerializer())

    class NotificationPreferencesInputSerializer(serializers.Serializer):
        preferences = serializers.DictField(
            child=NotificationChoiceSerializer(),
            help_text="Kind → {email, webhook}; kinds left out keep their choice.",
        )

        def validate_preferences(self, value):
            unknown = sorted(set(value) - set(Kind.values))
            if unknown:
                raise serializers.ValidationError(f"Unknown kinds: {', '.join(unknown)}.")
            return value

    @extend_schema(
        responses=NotificationPreferencesOutputSerializer,
        operation_id="notifications_preferences_retrieve",
    )
    def get(self, request):
        preferences = selectors.notification_preferences(user=request.user)
        return Response(
            self.NotificationPreferencesOutputSerializer({"preferences": preferences}).data
        )

    @extend_schema(
        request=NotificationPreferencesInputSerializer,
        responses=NotificationPreferencesOutputSerializer,
        operation_id="notifications_preferences_update",
    )
    def put(self, request):
        data = self.NotificationPreferencesInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.notification_preferences_update(
            user=request.user, preferences=data.validated_data["preferences"]
        )
        preferences = selectors.notification_preferences(user=request.user)
        return Response(
            self.NotificationPreferencesOutputSerializer({"preferences": preferences}).data
        )


class NotificationDeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    notification = serializers.IntegerField(source="notification_id")
    channel = serializers.CharField()
    state = serializers.CharField()
    attempts = serializers.IntegerField()
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class WebhookDetailApi(APIView):
    """Your webhook's URL (never its secret) and your latest deliveries."""

    permission_classes = [IsAuthenticated]

    class WebhookDetailOutputSerializer(serializers.Serializer):
        url = serializers.CharField(allow_null=True)
        created_at = serializers.DateTimeField(allow_null=True)
        deliveries = NotificationDeliverySerializer(many=True)

    @extend_schema(
        responses=WebhookDetailOutputSerializer, operation_id="notifications_webhook_retrieve"
    )
    def get(self, request):
        webhook = selectors.webhook_get(user=request.user)
        data = {
            "url": webhook.url if webhook else None,
            "created_at": webhook.created_at if webhook else None,
            "deliveries": selectors.delivery_list(user=request.user),
        }
        return Response(self.WebhookDetailOutputSerializer(data).data)


class WebhookSetApi(APIView):
    """Point your webhook at a URL. The answer holds a new signing secret: it is
    shown this once and never again."""

    permission_classes = [IsAuthenticated]

    class WebhookSetInputSerializer(serializers.Serializer):
        # Length and content are the service's to judge, with its own sentences.
        url = serializers.CharField(max_length=2000, trim_whitespace=True)

    @extend_schema(
        request=WebhookSetInputSerializer,
        responses={
            201: inline_serializer(
                "WebhookSecret", {"url": serializers.CharField(), "secret": serializers.CharField()}
            )
        },
        operation_id="notifications_webhook_set",
    )
    def post(self, request):
        data = self.WebhookSetInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        webhook, secret = services.webhook_set(user=request.user, url=data.validated_data["url"])
        response = Response({"url": webhook.url, "secret": secret}, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response


class WebhookRemoveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, operation_id="notifications_webhook_remove")
    def post(self, request):
        services.webhook_remove(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
