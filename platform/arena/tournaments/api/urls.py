"""REST API routes of the tournaments app."""

from django.urls import path

from .views import (
    TournamentCrosstableApi,
    TournamentDetailApi,
    TournamentListCreateApi,
    TournamentLogsArchiveApi,
    TournamentProgressApi,
    TournamentStandingsApi,
)

urlpatterns = [
    path("tournaments/", TournamentListCreateApi.as_view(), name="api-tournament-list"),
    path("tournaments/<int:pk>/", TournamentDetailApi.as_view(), name="api-tournament-detail"),
    path(
        "tournaments/<int:pk>/standings/",
        TournamentStandingsApi.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<int:pk>/crosstable/",
        TournamentCrosstableApi.as_view(),
        name="api-tournament-crosstable",
    ),
    path(
        "tournaments/<int:pk>/logs.zip",
        TournamentLogsArchiveApi.as_view(),
        name="api-tournament-logs",
    ),
    path(
        "tournaments/<int:pk>/progress/",
        TournamentProgressApi.as_view(),
        name="api-tournament-progress",
    ),
]
