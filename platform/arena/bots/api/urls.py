"""REST API routes of the bots app."""

from django.urls import path

from . import views

urlpatterns = [
    path("bots/", views.BotListApi.as_view(), name="api-bots"),
    path("bots/upload/", views.BotUploadApi.as_view(), name="api-bot-upload"),
    path("bots/<str:name>/", views.BotDetailApi.as_view(), name="api-bot"),
    path("bots/<str:name>/delete/", views.BotDeleteApi.as_view(), name="api-bot-delete"),
    path("bots/<str:name>/versions/", views.BotVersionListApi.as_view(), name="api-bot-versions"),
    path("versions/<int:pk>/", views.VersionDetailApi.as_view(), name="api-version"),
    path(
        "versions/<int:pk>/activate/",
        views.VersionActivateApi.as_view(),
        name="api-version-activate",
    ),
    path("versions/<int:pk>/retire/", views.VersionRetireApi.as_view(), name="api-version-retire"),
    path("versions/<int:pk>/code/", views.VersionCodeApi.as_view(), name="api-version-code"),
]
