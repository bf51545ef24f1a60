"""The current user, and API tokens (for scripts: `Authorization: Token <key>`)."""

from __future__ import annotations

from django.contrib.auth import authenticate
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from arena.bots.selectors import bot_list_for_owner
from arena.matches.services import challenges_left_today


class MeApi(APIView):
    permission_classes = [IsAuthenticated]

    class OutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        username = serializers.CharField()
        email = serializers.EmailField()
        is_staff = serializers.BooleanField()
        date_joined = serializers.DateTimeField()
        bots = serializers.ListField(child=serializers.CharField())
        challenges_left_today = serializers.IntegerField()

    @extend_schema(responses=OutputSerializer, operation_id="me_retrieve")
    def get(self, request):
        user = request.user
        data = {
            "id": user.pk,
            "username": user.get_username(),
            "email": user.email,
            "is_staff": user.is_staff,
            "date_joined": user.date_joined,
            "bots": [bot.name for bot in bot_list_for_owner(user=user)],
            "challenges_left_today": challenges_left_today(user=user),
        }
        return Response(self.OutputSerializer(data).data)


TOKEN_RESPONSE = inline_serializer("Token", fields={"token": serializers.CharField()})


class TokenObtainApi(APIView):
    """Trade a username and password for the user's API token (created once)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "login"

    class TokenObtainInputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, style={"input_type": "password"})

    @extend_schema(
        request=TokenObtainInputSerializer, responses=TOKEN_RESPONSE, operation_id="token_obtain"
    )
    def post(self, request):
        data = self.TokenObtainInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = authenticate(request=request, **data.validated_data)
        if user is None:
            raise exceptions.AuthenticationFailed("Wrong username or password.")
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


class TokenRevokeApi(APIView):
    """Delete the current user's token; the next obtain makes a new one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None}, operation_id="token_revoke")
    def post(self, request):
        Token.objects.filter(user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
