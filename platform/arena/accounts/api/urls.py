"""REST API routes of the accounts app."""

from django.urls import path

from . import views

urlpatterns = [
    path("me/", views.MeApi.as_view(), name="api-me"),
    path("auth/token/", views.TokenObtainApi.as_view(), name="api-token"),
    path("auth/token/revoke/", views.TokenRevokeApi.as_view(), name="api-token-revoke"),
]
