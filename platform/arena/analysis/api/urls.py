"""REST API routes of the analysis app."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:pk>/analysis/", views.GameAnalysisApi.as_view(), name="api-game-analysis"),
]
