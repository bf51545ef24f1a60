"""REST API routes of the replays app."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:pk>/replay/", views.GameReplayApi.as_view(), name="api-game-replay"),
    path("matches/<int:pk>/events/", views.MatchEventsApi.as_view(), name="api-match-events"),
]
