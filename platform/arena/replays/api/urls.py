"""REST API routes of the replays app."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:pk>/replay/", views.GameReplayApi.as_view(), name="api-game-replay"),
    path("games/<int:pk>/log/", views.GameLogApi.as_view(), name="api-game-log"),
    path(
        "matches/<int:pk>/games/<int:number>/log/",
        views.MatchGameLogApi.as_view(),
        name="api-match-game-log",
    ),
    path(
        "versions/<int:pk>/qualification/<int:number>/log/",
        views.QualificationGameLogApi.as_view(),
        name="api-qualification-game-log",
    ),
    path("matches/<int:pk>/events/", views.MatchEventsApi.as_view(), name="api-match-events"),
]
