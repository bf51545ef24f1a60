"""REST API routes of the matches app: competitions, matches, games, challenges."""

from django.urls import path

from . import tables, views

urlpatterns = [
    path("competitions/", views.CompetitionListApi.as_view(), name="api-competitions"),
    path(
        "competitions/create/",
        views.CompetitionCreateApi.as_view(),
        name="api-competition-create",
    ),
    path(
        "competitions/<slug:slug>/",
        views.CompetitionDetailApi.as_view(),
        name="api-competition",
    ),
    path("matches/", views.MatchListApi.as_view(), name="api-matches"),
    path("matches/live/", views.MatchLiveListApi.as_view(), name="api-matches-live"),
    path("matches/<int:pk>/", views.MatchDetailApi.as_view(), name="api-match"),
    path("matches/<int:pk>/logs.zip", views.MatchLogsArchiveApi.as_view(), name="api-match-logs"),
    path("challenges/create/", views.ChallengeCreateApi.as_view(), name="api-challenge-create"),
    path("games/<int:pk>/", views.GameDetailApi.as_view(), name="api-game"),
    path("tables/", tables.TableCreateApi.as_view(), name="api-tables"),
    path("tables/<int:pk>/move/", tables.TableMoveApi.as_view(), name="api-table-move"),
    path("tables/<int:pk>/leave/", tables.TableLeaveApi.as_view(), name="api-table-leave"),
]
