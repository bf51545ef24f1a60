"""REST API routes of the ratings app."""

from django.urls import path

from .views import HeadToHeadApi, LeaderboardApi, RatingHistoryApi

urlpatterns = [
    path("competitions/<slug:slug>/leaderboard/", LeaderboardApi.as_view(), name="api-leaderboard"),
    path(
        "competitions/<slug:slug>/bots/<str:name>/history/",
        RatingHistoryApi.as_view(),
        name="api-rating-history",
    ),
    path(
        "competitions/<slug:slug>/bots/<str:name>/head-to-head/",
        HeadToHeadApi.as_view(),
        name="api-head-to-head",
    ),
]
